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

#include <stdbool.h>
#include <stdio.h>

#include "trie.h"

/* Blank pixels left and right of the boxes: an image must be wider than twice this. */
enum { FLAME_SIDE_PAD = 10 };

typedef struct {
    const char *title;     /* default "Flame Graph" */
    const char *countname; /* default "samples" */
    double width;          /* image width in pixels, default 1200 */
    double minwidth;       /* boxes narrower than this many pixels are left
                              out with their children; default 0.1 */
    bool minwidth_percent; /* minwidth is a percentage of the boxes' full width instead */
} FlameOptions;

/* Fills in the defaults. */
void flame_default_options(FlameOptions *options);

/* Writes the SVG of a finished trie (trie_finish called) to out: dripprof
 * flame streams the folded lines into a trie and draws it with this. 0 on
 * success; -1 with *error set to a static message (no stack with a count
 * above 0, a bad width, out of memory, write error). */
int flame_write_trie(const Trie *trie, const FlameOptions *options, FILE *out, const char **error);

/* The inline CSS and script (flame_script.c). */
extern const char flame_style[];
extern const char flame_script[];

#endif
