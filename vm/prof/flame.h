/* flame.h: folded stacks -> a self-contained interactive SVG flame graph.
 *
 * The SVG needs nothing else: its CSS and script are inline (flame_script.c).
 * Each box is a frame in one context, as wide as its share of the total, with
 * a tooltip "NAME (1,234 COUNTNAME, 5.00%)"; clicking zooms, "Reset Zoom"
 * goes back, "Search" (or Ctrl-F) takes a regular expression, paints matches
 * and prints "Matched: X%" counting a recursive function once per stack. The
 * state can be given in the URL: ?s=REGEX searches, ?x=X&y=Y zooms to the box
 * drawn at (X, Y). Output is deterministic: boxes in name order, colours from
 * a hash of the name, numbers printed with integer arithmetic.
 */
#ifndef DRIP_PROF_FLAME_H
#define DRIP_PROF_FLAME_H

#include <stdio.h>

#include "folded.h"
#include "trie.h"

typedef struct {
    const char *title;     /* default "Flame Graph" */
    const char *countname; /* default "samples" */
    double width;          /* image width in pixels, default 1200 */
    double minwidth;       /* boxes narrower than this many pixels are left
                              out with their children; default 0.1 */
} FlameOptions;

/* Fills in the defaults. */
void flame_default_options(FlameOptions *options);

/* Writes the SVG for the stacks to out. 0 on success; -1 with *error set to
 * a static message (no stack with a count above 0, out of memory, overflow,
 * write error). */
int flame_write_svg(const FoldedFile *file, const FlameOptions *options, FILE *out,
                    const char **error);

/* The same for a finished trie (trie_finish called); dripprof flame streams
 * the input into a trie and draws it with this. */
int flame_write_trie(const Trie *trie, const FlameOptions *options, FILE *out, const char **error);

/* The inline CSS and script (flame_script.c). */
extern const char flame_style[];
extern const char flame_script[];

#endif
