/* flame.c: writing the flame graph SVG (see flame.h).
 *
 * Geometry follows the classic flame graph: root ("all") at the bottom, one
 * row of 16 px per stack depth, width = count * (width - 2 * 10) / total,
 * 36 px above the boxes for the title and buttons, 34 px below for the
 * details and "Matched" lines. Children are drawn left to right in name order
 * starting at their parent's left edge (the parent's self part is on the
 * right); order means nothing, only width does.
 *
 * Boxes narrower than --minwidth pixels are left out with their subtrees (as
 * flamegraph.pl does), which keeps a million-line input to a picture of a few
 * thousand boxes; the parent keeps its full width.
 *
 * Boxes are nested <g class="f"> elements (a box's children are inside it),
 * so the script finds ancestors and descendants from the DOM. The walk is
 * iterative: deep recursion in a profile must not become deep recursion here.
 *
 * Bytes out: names are XML-escaped and invalid UTF-8 is replaced by U+FFFD,
 * so any input gives well-formed XML. Coordinates are printed from integers
 * (hundredths of a pixel) and colours come from an FNV-1a hash of the name,
 * so the same input always gives the same bytes.
 *
 * Differential input (two counts per line, diff.h) draws the same boxes,
 * sized by AFTER, but colours each by the change of its own count (the part
 * not under its children, as flamegraph.pl's differential mode does): red
 * where it grew, blue where it shrank, grey where it stayed, stronger for
 * larger changes; a legend under the title says so and gives both totals,
 * and each tooltip has two more lines with the BEFORE counts and changes.
 * Stacks found only in BEFORE have no width in AFTER and are not drawn;
 * their counts still show in their callers' BEFORE figures.
 */
#include "flame.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "commas.h"
#include "intern.h"
#include "wide.h"

enum {
    XPAD = FLAME_SIDE_PAD,
    FRAME_HEIGHT = 16,
    TOP_PAD = 36,
    LEGEND_HEIGHT = 20,
    BOTTOM_PAD = 34
};
static const double CHAR_WIDTH = 12 * 0.59;

/* Colours. A plain graph's boxes are warm, from the name's hash: red in
 * WARM_RED_MIN .. +WARM_RED_SPAN, green below WARM_GREEN_SPAN, blue below
 * WARM_BLUE_SPAN (yellows, oranges and reds). A differential box is
 * UNCHANGED_GREY when its own count stayed, else red (grew) or blue (shrank):
 * the other two channels fall from CHANGE_PALE by up to CHANGE_STRENGTH as
 * the change nears the largest one; the legend shows the strongest shades. */
enum {
    WARM_RED_MIN = 205,
    WARM_RED_SPAN = 50,
    WARM_GREEN_SPAN = 230,
    WARM_BLUE_SPAN = 55,
    UNCHANGED_GREY = 224,
    CHANGE_FULL = 255,
    CHANGE_PALE = 225,
    CHANGE_STRENGTH = 185,
    CHANGE_STRONGEST = CHANGE_PALE - CHANGE_STRENGTH,
};
/* The legend: a swatch and its label every LEGEND_SPACING pixels. */
enum { LEGEND_SPACING = 140 };

void flame_default_options(FlameOptions *options) {
    options->title = "Flame Graph";
    options->countname = "samples";
    options->width = 1200;
    options->minwidth = 0.1;
    options->minwidth_percent = false;
}

/* ---- output buffer ---------------------------------------------------------
 * stdio calls per character made writing the boxes cost more than reading a
 * million lines, so the SVG goes through one buffer with inline appends. */

typedef struct {
    FILE *file;
    size_t used;
    bool failed;
    char bytes[1 << 16];
} Out;

static void out_flush(Out *out) {
    if (out->used > 0 && fwrite(out->bytes, 1, out->used, out->file) != out->used) {
        out->failed = true;
    }
    out->used = 0;
}

static void out_bytes(Out *out, const void *data, size_t n) {
    if (out->used + n > sizeof out->bytes) {
        out_flush(out);
        if (n > sizeof out->bytes) {
            if (fwrite(data, 1, n, out->file) != n) {
                out->failed = true;
            }
            return;
        }
    }
    memcpy(out->bytes + out->used, data, n);
    out->used += n;
}

static void out_str(Out *out, const char *text) {
    out_bytes(out, text, strlen(text));
}

static void out_char(Out *out, char c) {
    if (out->used == sizeof out->bytes) {
        out_flush(out);
    }
    out->bytes[out->used++] = c;
}

static void out_u64(Out *out, uint64_t value) {
    char digits[24];
    int n = 0;
    do {
        digits[n++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (n > 0) {
        out_char(out, digits[--n]);
    }
}

/* ---- text output ----------------------------------------------------------- */

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_length(const unsigned char *s, size_t n) {
    size_t len;
    uint32_t min;
    if (s[0] < 0x80) {
        return 1;
    } else if ((s[0] & 0xE0) == 0xC0) {
        len = 2, min = 0x80;
    } else if ((s[0] & 0xF0) == 0xE0) {
        len = 3, min = 0x800;
    } else if ((s[0] & 0xF8) == 0xF0) {
        len = 4, min = 0x10000;
    } else {
        return 0;
    }
    if (len > n) {
        return 0;
    }
    uint32_t cp = s[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return 0;
    }
    return len;
}

/* Writes at most max_chars characters of the name, XML-escaped. */
static void write_escaped(Out *out, const char *text, size_t n, size_t max_chars) {
    const unsigned char *s = (const unsigned char *)text;
    size_t chars = 0;
    for (size_t i = 0; i < n && chars < max_chars; chars++) {
        size_t len = utf8_length(s + i, n - i);
        if (len == 0) {
            out_str(out, "\xEF\xBF\xBD"); /* U+FFFD for a byte that is not UTF-8 */
            i++;
            continue;
        }
        switch (s[i]) {
        case '&': out_str(out, "&amp;"); break;
        case '<': out_str(out, "&lt;"); break;
        case '>': out_str(out, "&gt;"); break;
        case '"': out_str(out, "&quot;"); break;
        case '\'': out_str(out, "&#39;"); break;
        default:
            if (s[i] < 0x20 && s[i] != '\t') {
                out_char(out, '?');
            } else {
                out_bytes(out, s + i, len);
            }
        }
        i += len;
    }
}

static size_t count_chars(const char *text, size_t n) {
    size_t chars = 0;
    for (size_t i = 0; i < n; i++) {
        chars += ((unsigned char)text[i] & 0xC0) != 0x80;
    }
    return chars;
}

/* The label rule shared with the script: whole name, or cut with "..". */
static void write_label(Out *out, const char *name, size_t n, double width) {
    double room = floor((width - 3) / CHAR_WIDTH);
    size_t chars = count_chars(name, n);
    if ((double)chars <= room) {
        write_escaped(out, name, n, chars);
    } else if (room >= 3) {
        write_escaped(out, name, n, (size_t)room - 2);
        out_str(out, "..");
    }
}

/* hundredths / 100 with two decimals: "12.34". */
static void write_hundredths(Out *out, uint64_t hundredths) {
    out_u64(out, hundredths / 100);
    out_char(out, '.');
    out_char(out, (char)('0' + hundredths % 100 / 10));
    out_char(out, (char)('0' + hundredths % 10));
}

/* A pixel value, from integer hundredths. */
static void write_px(Out *out, double value) {
    long long hundredths = llround(value * 100);
    if (hundredths < 0) {
        out_char(out, '-');
        hundredths = -hundredths;
    }
    write_hundredths(out, (uint64_t)hundredths);
}

static void write_commas(Out *out, uint64_t value) {
    char text[COMMAS_SIZE];
    out_str(out, commas(value, text));
}

/* count / total as a percentage with two decimals, rounded half up (count is at most
 * MAX_CHANGE_RATIO times total, so the scaled value fits easily). */
static void write_percent(Out *out, uint64_t count, uint64_t total) {
    write_hundredths(out, (uint64_t)(((Wide)count * 10000 + total / 2) / total));
    out_char(out, '%');
}

static void write_rgb(Out *out, unsigned r, unsigned g, unsigned b) {
    out_str(out, "rgb(");
    out_u64(out, r);
    out_char(out, ',');
    out_u64(out, g);
    out_char(out, ',');
    out_u64(out, b);
    out_char(out, ')');
}

/* A warm colour from the name's hash, the same in every graph. */
static void write_colour(Out *out, const char *name, size_t n) {
    uint64_t h = intern_hash(name, n);
    unsigned r = WARM_RED_MIN + (unsigned)(h % WARM_RED_SPAN);
    unsigned g = (unsigned)((h >> 16) % WARM_GREEN_SPAN);
    unsigned b = (unsigned)((h >> 32) % WARM_BLUE_SPAN);
    write_rgb(out, r, g, b);
}

/* ---- differential graphs ------------------------------------------------------ */

/* A box's own count (the part not under its children): in AFTER from the
 * node totals, in BEFORE from the trie's before array. */
static uint64_t own_count(const Trie *t, uint32_t node, bool before) {
    uint64_t own = before ? t->before[node] : t->nodes[node].total;
    for (uint32_t c = t->nodes[node].first_child; c != 0; c = t->nodes[c].next_sibling) {
        own -= before ? t->before[c] : t->nodes[c].total;
    }
    return own;
}

/* The largest change of any box's own count: the colour scale's end. */
static uint64_t largest_own_change(const Trie *t) {
    uint64_t largest = 0;
    for (uint32_t n = 0; n < t->count; n++) {
        uint64_t a = own_count(t, n, false), b = own_count(t, n, true);
        uint64_t change = a > b ? a - b : b - a;
        if (change > largest) {
            largest = change;
        }
    }
    return largest;
}

/* Grey when the own count did not change; otherwise red (grew) or blue
 * (shrank), from pale to strong in proportion to the change. */
static void write_change_colour(Out *out, uint64_t before, uint64_t after, uint64_t largest) {
    if (before == after || largest == 0) {
        write_rgb(out, UNCHANGED_GREY, UNCHANGED_GREY, UNCHANGED_GREY);
        return;
    }
    uint64_t change = after > before ? after - before : before - after;
    /* change <= largest, so k <= CHANGE_STRENGTH */
    unsigned k = (unsigned)((Wide)change * CHANGE_STRENGTH / largest);
    unsigned fading = CHANGE_PALE - k;
    if (after > before) {
        write_rgb(out, CHANGE_FULL, fading, fading);
    } else {
        write_rgb(out, fading, fading, CHANGE_FULL);
    }
}

/* A change more than this many times its before-count is shown as a count only: a
 * percentage of a near-zero count (+153,394,022%) says nothing the count does not. */
enum { MAX_CHANGE_RATIO = 10 };

/* "+1,234 (+5.67%)", "-1,234 (-5.67%)", "+1,234 (new)", "+1,234" or "none". */
static void write_change(Out *out, uint64_t before, uint64_t after) {
    if (before == after) {
        out_str(out, "none");
        return;
    }
    uint64_t change = after > before ? after - before : before - after;
    out_char(out, after > before ? '+' : '-');
    write_commas(out, change);
    if (before == 0) {
        out_str(out, " (new)");
        return;
    }
    if (change / MAX_CHANGE_RATIO >= before) {
        return;
    }
    out_str(out, " (");
    out_char(out, after > before ? '+' : '-');
    write_percent(out, after > before ? after - before : before - after, before);
    out_char(out, ')');
}

/* ---- layout ------------------------------------------------------------------ */

typedef struct {
    const Trie *trie;
    const FlameOptions *options;
    Out *out;
    double per_count; /* pixels per count */
    double minwidth;  /* in pixels */
    double height;
    uint64_t total;
    bool differential; /* the trie has BEFORE counts: colour by change */
    uint64_t largest;  /* of the own-count changes, when differential */
} Writer;

/* Boxes of count 0 (stacks only in BEFORE) have no width and are not drawn. */
static bool visible(const Writer *w, uint32_t node) {
    double width = (double)w->trie->nodes[node].total * w->per_count;
    return node == 0 || (w->trie->nodes[node].total > 0 && width >= w->minwidth);
}

/* Deepest row that survives pruning. No box is wider than its parent, so the nodes
 * visible() refuses are whole subtrees, and the others are the boxes drawn. */
static uint32_t deepest_visible(const Writer *w) {
    uint32_t deepest = 0;
    for (uint32_t n = 0; n < w->trie->count; n++) {
        if (visible(w, n) && w->trie->nodes[n].depth > deepest) {
            deepest = w->trie->nodes[n].depth;
        }
    }
    return deepest;
}

static void write_box(const Writer *w, uint32_t node, uint64_t start) {
    const TrieNode *n = &w->trie->nodes[node];
    double x = XPAD + (double)start * w->per_count;
    double width = (double)n->total * w->per_count;
    double y = w->height - BOTTOM_PAD - (n->depth + 1.0) * FRAME_HEIGHT + 1;
    Out *out = w->out;
    out_str(out, "<g class=\"f\"><title>");
    write_escaped(out, n->name, n->length, SIZE_MAX);
    out_str(out, " (");
    write_commas(out, n->total);
    out_char(out, ' ');
    write_escaped(out, w->options->countname, strlen(w->options->countname), SIZE_MAX);
    out_str(out, ", ");
    write_percent(out, n->total, w->total);
    out_char(out, ')');
    uint64_t own_before = 0, own_after = 0;
    if (w->differential) {
        /* Two more lines: the box's count before and its change, then the
         * own counts that give it its colour. */
        own_before = own_count(w->trie, node, true);
        own_after = own_count(w->trie, node, false);
        out_str(out, "\nbefore: ");
        write_commas(out, w->trie->before[node]);
        out_str(out, ", change: ");
        write_change(out, w->trie->before[node], n->total);
        out_str(out, "\nown count: before ");
        write_commas(out, own_before);
        out_str(out, ", after ");
        write_commas(out, own_after);
        out_str(out, ", change: ");
        write_change(out, own_before, own_after);
    }
    out_str(out, "</title><rect x=\"");
    write_px(out, x);
    out_str(out, "\" y=\"");
    write_px(out, y);
    out_str(out, "\" width=\"");
    write_px(out, width);
    out_str(out, "\" height=\"");
    out_u64(out, FRAME_HEIGHT - 1);
    out_str(out, "\" rx=\"2\" fill=\"");
    if (w->differential) {
        write_change_colour(out, own_before, own_after, w->largest);
    } else {
        write_colour(out, n->name, n->length);
    }
    out_str(out, "\"/><text x=\"");
    write_px(out, x + 3);
    out_str(out, "\" y=\"");
    write_px(out, y + 11.5);
    out_str(out, "\">");
    write_label(out, n->name, n->length, width);
    out_str(out, "</text>\n");
}

typedef struct {
    uint32_t node;
    uint32_t next_child; /* 0 = none left */
    uint64_t start;      /* the node's left edge, in counts */
    uint64_t child_start;
} Open;

/* Writes every visible box, children nested inside their parent's <g>. */
static int write_boxes(const Writer *w) {
    const Trie *t = w->trie;
    Open *stack = malloc((t->max_depth + 2) * sizeof *stack);
    if (stack == NULL) {
        return -1;
    }
    size_t top = 0;
    write_box(w, 0, 0);
    stack[top++] = (Open){.node = 0, .next_child = t->nodes[0].first_child};
    while (top > 0) {
        Open *o = &stack[top - 1];
        uint32_t c = o->next_child;
        if (c == 0) {
            out_str(w->out, "</g>\n");
            top--;
            continue;
        }
        o->next_child = t->nodes[c].next_sibling;
        uint64_t start = o->child_start + o->start;
        o->child_start += t->nodes[c].total;
        if (!visible(w, c)) {
            continue;
        }
        write_box(w, c, start);
        stack[top++] = (Open){.node = c, .next_child = t->nodes[c].first_child, .start = start};
    }
    free(stack);
    return 0;
}

/* The key to a differential graph's colours, under the title. */
static void write_legend(const Writer *w) {
    static const struct {
        unsigned r, g, b;
        const char *label;
    } keys[] = {{CHANGE_FULL, CHANGE_STRONGEST, CHANGE_STRONGEST, "own count grew"},
                {CHANGE_STRONGEST, CHANGE_STRONGEST, CHANGE_FULL, "own count shrank"},
                {UNCHANGED_GREY, UNCHANGED_GREY, UNCHANGED_GREY, "unchanged"}};
    Out *out = w->out;
    out_str(out, "<g id=\"legend\">\n");
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        out_str(out, "<rect x=\"");
        out_u64(out, XPAD + LEGEND_SPACING * i);
        out_str(out, "\" y=\"38\" width=\"12\" height=\"12\" fill=\"");
        write_rgb(out, keys[i].r, keys[i].g, keys[i].b);
        out_str(out, "\"/><text x=\"");
        out_u64(out, XPAD + LEGEND_SPACING * i + 16);
        out_str(out, "\" y=\"48\">");
        out_str(out, keys[i].label);
        out_str(out, "</text>\n");
    }
    out_str(out, "<text x=\"");
    out_u64(out, XPAD + LEGEND_SPACING * 3);
    out_str(out, "\" y=\"48\">widths from AFTER; total ");
    write_escaped(out, w->options->countname, strlen(w->options->countname), SIZE_MAX);
    out_str(out, ": before ");
    write_commas(out, w->trie->before[0]);
    out_str(out, ", after ");
    write_commas(out, w->total);
    out_str(out, ", change ");
    write_change(out, w->trie->before[0], w->total);
    out_str(out, "</text>\n</g>\n");
}

static void write_header(const Writer *w) {
    Out *out = w->out;
    double width = w->options->width;
    out_str(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    out_str(out, "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"");
    write_px(out, width);
    out_str(out, "\" height=\"");
    write_px(out, w->height);
    out_str(out, "\" viewBox=\"0 0 ");
    write_px(out, width);
    out_char(out, ' ');
    write_px(out, w->height);
    out_str(out, "\">\n<!-- Flame graph written by dripprof flame: a box's width is its share "
                 "of the total; click to zoom, Ctrl-F to search. -->\n");
    out_str(out, "<style type=\"text/css\"><![CDATA[\n");
    out_str(out, flame_style);
    out_str(out, "]]></style>\n");
    out_str(out, "<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#f8f8f4\"/>\n");
    out_str(out, "<text id=\"title\" text-anchor=\"middle\" x=\"");
    write_px(out, width / 2);
    out_str(out, "\" y=\"24\">");
    write_escaped(out, w->options->title, strlen(w->options->title), SIZE_MAX);
    out_str(out, "</text>\n<text id=\"unzoom\" class=\"button hide\" x=\"10\" "
                 "y=\"24\">Reset Zoom</text>\n");
    if (w->differential) {
        write_legend(w);
    }
    out_str(out, "<text id=\"search\" class=\"button\" x=\"");
    write_px(out, width - XPAD - 100);
    out_str(out, "\" y=\"24\">Search</text>\n<text id=\"details\" x=\"10\" y=\"");
    write_px(out, w->height - 17);
    out_str(out, "\"> </text>\n<text id=\"matched\" x=\"");
    write_px(out, width - XPAD - 100);
    out_str(out, "\" y=\"");
    write_px(out, w->height - 17);
    out_str(out, "\"> </text>\n<g id=\"frames\">\n");
}

int flame_write_trie(const Trie *trie, const FlameOptions *options, FILE *stream,
                     const char **error) {
    Out *out = malloc(sizeof *out);
    if (out == NULL) {
        *error = "out of memory";
        return -1;
    }
    out->file = stream;
    out->used = 0;
    out->failed = false;
    int status = -1;
    Writer w = {.trie = trie,
                .options = options,
                .out = out,
                .total = trie->nodes[0].total,
                .differential = trie->before != NULL};
    if (w.total == 0) {
        *error = trie->before != NULL ? "no stack with an AFTER count above 0"
                                      : "no stack with a count above 0";
    } else if (options->width <= 2 * XPAD || !(options->minwidth >= 0)) {
        *error = "the width must exceed twice the side padding and minwidth must not be negative";
    } else {
        w.per_count = (options->width - 2 * XPAD) / (double)w.total;
        w.minwidth = options->minwidth_percent
                         ? options->minwidth / 100 * (options->width - 2 * XPAD)
                         : options->minwidth;
        w.height = (deepest_visible(&w) + 1.0) * FRAME_HEIGHT + TOP_PAD + BOTTOM_PAD +
                   (w.differential ? LEGEND_HEIGHT : 0);
        w.largest = w.differential ? largest_own_change(trie) : 0;
        write_header(&w);
        if (write_boxes(&w) != 0) {
            *error = "out of memory";
        } else {
            out_str(out, "</g>\n<script type=\"text/ecmascript\"><![CDATA[\n");
            out_str(out, flame_script);
            out_str(out, "]]></script>\n</svg>\n");
            status = 0;
        }
    }
    out_flush(out);
    if (status == 0 && (out->failed || fflush(stream) != 0 || ferror(stream))) {
        *error = "write error";
        status = -1;
    }
    free(out);
    return status;
}
