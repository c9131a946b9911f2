/* diagnostics.h -- compile errors: collected from every stage, reported here.
 *
 * No stage prints. The parser, the resolver and the code generator append
 * events, each under a stamp of the parser's clock (see parser.h) that says
 * when a one-pass compiler would have met it:
 *
 *   ERROR  a message at a token;
 *   FATAL  an error after which compiling stops (nesting too deep);
 *   SYNC   the end of a declaration, where a one-pass compiler in panic mode
 *          resynchronises.
 *
 * diagnostics_settle() sorts the pending events by stamp and replays clox's
 * panic mode over them: the first error puts the compiler in panic mode,
 * errors are then dropped until the next SYNC, and of the errors "at end"
 * only the first is shown. What survives is printed, so the messages, their
 * order and which of them appear are those of clox.
 *
 * One thing a replay cannot change is the parse itself. A one-pass compiler
 * resynchronises (and skips tokens) after any error; our parser only knows
 * about its own. When the replay reaches a SYNC where clox would have skipped
 * tokens but our parser did not, because the error that put it in panic mode
 * came from a later stage, settle prints nothing and returns that SYNC's
 * token: the driver parses the declaration again with a resynchronisation
 * forced there. */
#ifndef DRIP_DIAGNOSTICS_H
#define DRIP_DIAGNOSTICS_H

#include <stdio.h>

#include "scanner.h"

typedef enum { EVENT_ERROR, EVENT_FATAL, EVENT_SYNC } EventKind;

typedef struct {
    uint32_t stamp;
    uint32_t order; /* arrival order, to keep events with equal stamps stable */
    int32_t token;  /* the error's token; for SYNC, the token after the end */
    uint8_t kind;
    bool skips;  /* SYNC: resynchronising here would skip tokens */
    bool synced; /* SYNC: the parser resynchronised here */
    bool shown;  /* set while settling: the error is printed */
    const char *message;
} Event;

/* The events not yet settled, and the replay's state after those that were. */
typedef struct {
    Event *events;
    int count;
    int capacity;
    uint32_t arrivals;
    int errors_pending; /* pending events that are not SYNC */
    /* The replayed one-pass compiler's state after the settled events. */
    bool panicking;
    bool reported_at_end;
    bool had_error;
    bool halted;
    FILE *out;
} Diagnostics;

void diagnostics_init(Diagnostics *diagnostics, FILE *out);
void diagnostics_free(Diagnostics *diagnostics);

void diag_error(Diagnostics *diagnostics, uint32_t stamp, int32_t token, const char *message);
void diag_fatal(Diagnostics *diagnostics, uint32_t stamp, int32_t token, const char *message);
void diag_sync(Diagnostics *diagnostics, uint32_t stamp, int32_t token, bool skips, bool synced);

/* Decides and prints the pending events. Returns -1 when done, or (only if
 * may_resync) the token of a SYNC the parser must be made to resynchronise
 * at; the pending events are then left as they were, for
 * diagnostics_drop_pending. */
int32_t diagnostics_settle(Diagnostics *diagnostics, const TokenList *tokens, bool may_resync);
/* Forgets the pending events (before parsing them again). */
void diagnostics_drop_pending(Diagnostics *diagnostics);

#endif
