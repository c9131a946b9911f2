/* diagnostics.c -- the event list and the replay of clox's panic mode.
 *
 * Events arrive out of stamp order (the resolver and the code generator run
 * after the parser has moved on), so settling starts with a sort; stamps are
 * unique except for the few checks a single moment of a one-pass compiler
 * makes together, which then keep their arrival order. */
#include <stdlib.h>

#include "diagnostics.h"
#include "growable.h"

void diagnostics_init(Diagnostics *diagnostics, FILE *out) {
    *diagnostics = (Diagnostics){.out = out};
}

void diagnostics_free(Diagnostics *diagnostics) {
    free(diagnostics->events);
    diagnostics->events = NULL;
    diagnostics->count = diagnostics->capacity = 0;
}

static void add_event(Diagnostics *diagnostics, Event event) {
    diagnostics->events = growable_reserve(diagnostics->events, &diagnostics->capacity,
                                           diagnostics->count + 1, sizeof(Event));
    event.order = diagnostics->arrivals++;
    diagnostics->errors_pending += event.kind != EVENT_SYNC;
    diagnostics->events[diagnostics->count++] = event;
}

void diag_error(Diagnostics *diagnostics, uint32_t stamp, int32_t token, const char *message) {
    add_event(diagnostics,
              (Event){.stamp = stamp, .token = token, .kind = EVENT_ERROR, .message = message});
}

void diag_fatal(Diagnostics *diagnostics, uint32_t stamp, int32_t token, const char *message) {
    add_event(diagnostics,
              (Event){.stamp = stamp, .token = token, .kind = EVENT_FATAL, .message = message});
}

void diag_sync(Diagnostics *diagnostics, uint32_t stamp, int32_t token, bool skips, bool synced) {
    add_event(
        diagnostics,
        (Event){
            .stamp = stamp, .token = token, .kind = EVENT_SYNC, .skips = skips, .synced = synced});
}

static int by_stamp(const void *left, const void *right) {
    const Event *a = left, *b = right;
    if (a->stamp != b->stamp) {
        return a->stamp < b->stamp ? -1 : 1;
    }
    return a->order < b->order ? -1 : a->order > b->order;
}

/* "[line 3] Error at 'x': message", " at end" on the EOF token, nothing in
 * between for a lexical error (its message says what the text was). */
static void print_error(FILE *out, const TokenList *tokens, const Event *event) {
    const Token *token = &tokens->tokens[event->token < 0 ? 0 : event->token];
    fprintf(out, "[line %d] Error", token->line);
    if (token->type == TOKEN_EOF) {
        fputs(" at end", out);
    } else if (token->type != TOKEN_ERROR) {
        fprintf(out, " at '%.*s'", (int)token->length, token_text(tokens, token));
    }
    fprintf(out, ": %s\n", event->message);
}

int32_t diagnostics_settle(Diagnostics *diagnostics, const TokenList *tokens, bool may_resync) {
    Event *pending = diagnostics->events;
    size_t count = (size_t)diagnostics->count;
    if (count == 0 || (diagnostics->errors_pending == 0 && !diagnostics->panicking)) {
        /* The usual case: declarations ending without errors change nothing. */
        diagnostics->count = 0;
        return -1;
    }
    qsort(pending, count, sizeof(Event), by_stamp);

    /* Replay on a copy of the state: nothing is committed if the parse must
     * be redone. */
    Diagnostics state = *diagnostics;
    for (size_t i = 0; i < count; i++) {
        Event *event = &pending[i];
        event->shown = false;
        if (state.halted) {
            continue;
        }
        if (event->kind == EVENT_SYNC) {
            if (may_resync && state.panicking && event->skips && !event->synced) {
                return event->token;
            }
            state.panicking = false;
            continue;
        }
        state.had_error = true;
        if (event->kind == EVENT_FATAL) {
            state.halted = true;
            event->shown = true;
            continue;
        }
        if (state.panicking) {
            continue;
        }
        state.panicking = true;
        bool at_end = tokens->tokens[event->token < 0 ? 0 : event->token].type == TOKEN_EOF;
        event->shown = !(at_end && state.reported_at_end);
        state.reported_at_end = state.reported_at_end || at_end;
    }

    for (size_t i = 0; i < count; i++) {
        if (pending[i].shown) {
            print_error(diagnostics->out, tokens, &pending[i]);
        }
    }
    diagnostics->panicking = state.panicking;
    diagnostics->reported_at_end = state.reported_at_end;
    diagnostics->had_error = state.had_error;
    diagnostics->halted = state.halted;
    diagnostics->count = 0;
    diagnostics->errors_pending = 0;
    return -1;
}

void diagnostics_drop_pending(Diagnostics *diagnostics) {
    diagnostics->count = 0;
    diagnostics->errors_pending = 0;
}
