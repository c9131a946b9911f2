/* dripprof.c: the command line of the Drip profiler tools.
 *
 *   dripprof fold CALLGRIND.OUT                 folded stacks of C functions
 *   dripprof flame FOLDED [options]             an interactive SVG flame graph
 *   dripprof top [--with CHECKER] FILE          self and inclusive tables
 *   dripprof calls CALLGRIND.OUT                call counts per function
 *   dripprof files --with CHECKER ANNOTATE.TXT  callgrind_annotate's table per source file
 *   dripprof diff BEFORE AFTER                  differential folded stacks (two counts)
 *   dripprof stacks FILE                        stacks for scripts, tab-separated
 *   dripprof rows --with CHECKER ANNOTATE.TXT   callgrind_annotate rows for scripts
 *
 * This file only parses arguments (getopt_long), reads inputs and reports
 * errors; the work is in callgrind.c (reader), fold.c (stacks from the call
 * graph), folded.c (reader), flame.c (SVG), top.c (tables), annotate.c
 * (callgrind_annotate's rows), diff.c (two profiles merged) and tsv.c
 * (output for scripts). Every failure prints one line "dripprof: FILE:LINE:
 * message" on stderr and exits 1; usage errors exit 2. Every FILE may be "-"
 * for standard input. Scripts read folded stacks and annotate rows through
 * `stacks` and `rows`, so the workbook has one reader of each format.
 *
 * What a file is comes from its first lines (callgrind_sniff): a command
 * given the wrong kind says what it got and what to run instead. Standard
 * input is read whole first when the command needs to know (fold, top,
 * stacks, calls, diff); flame streams it.
 *
 * top, files and rows need the answers of a chapter's exercise functions
 * (inclusive, parse_row), which dripprof does not contain: a checker program
 * named by --with runs them under the sandbox (checker.h). When it
 * cannot answer, the command says why and exits 3 (the function is not ready),
 * 4 (the checker cannot be run) or 5 (its answers do not fit the case). fold,
 * flame, calls, diff and stacks never need one.
 */
#define _GNU_SOURCE /* getopt_long */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "annotate.h"
#include "callgrind.h"
#include "checker.h"
#include "decimal.h"
#include "diff.h"
#include "flame.h"
#include "fold.h"
#include "folded.h"
#include "slurp.h"
#include "top.h"
#include "tsv.h"

/* How much of a file is read to tell what it is: callgrind's and cachegrind's header lines
 * (a long cmd: line included) come before it ends. */
enum { SNIFF_BYTES = 1 << 16 };
/* A --width beyond this many pixels is a typo, not a picture. */
enum { MAX_WIDTH = 1000000 };
/* flame's output buffer: the SVG goes out in large writes. */
enum { FLAME_OUTPUT_BUFFER = 1 << 20 };
/* The result of next_option after a usage error (already printed). */
enum { USAGE = -2 };

static const char main_help[] =
    "usage: dripprof COMMAND [OPTIONS] FILE\n"
    "\n"
    "Commands:\n"
    "  fold CALLGRIND.OUT   print folded stacks of the C functions in a callgrind profile\n"
    "  flame FOLDED         write an interactive SVG flame graph of folded stacks to stdout\n"
    "  top FILE             self and inclusive tables of folded stacks or a callgrind.out\n"
    "  calls CALLGRIND.OUT [FUNCTION...]   how often each function was called\n"
    "  files ANNOTATE.TXT   a callgrind_annotate function table summed per source file\n"
    "  diff BEFORE AFTER    differential folded stacks of two profiles, for flame\n"
    "  stacks FILE          stacks of folded stacks or a callgrind.out, tab-separated\n"
    "  rows ANNOTATE.TXT    the rows of callgrind_annotate output, tab-separated\n"
    "\n"
    "`dripprof COMMAND --help` describes each command. FILE may be - for stdin.\n"
    "top, files and rows get an exercise function's answers from a chapter's checker\n"
    "(--with CHECKER). Errors name the file and line. Exit status: 0 done, 1 bad input,\n"
    "2 usage error; with a checker: 3 the function is not written yet, crashed, hung or\n"
    "broke its contract, 4 the checker cannot be run, 5 its answers do not fit the case.\n";

static const char fold_help[] =
    "usage: dripprof fold [--stats] [--resolution N] CALLGRIND.OUT\n"
    "\n"
    "Prints one line per stack, `main;run;fib COUNT`, counts in the profile's first event\n"
    "(Ir), sorted bytewise. The counts add up exactly to the profile's totals and the lines\n"
    "ending in a function add up to its self cost. The stacks are exact when the call graph\n"
    "is a tree (valgrind --separate-callers=N, plus --separate-recs=M for deep recursion);\n"
    "otherwise each function's cost is split among its callers in proportion to the calls'\n"
    "inclusive costs (see vm/prof/README.md). Frames are function names without callgrind's\n"
    "'N (recursion) and 'caller (context) suffixes. A profile of several parts\n"
    "(--combine-dumps=yes) is folded as the sum of its parts. CALLGRIND.OUT may be - for\n"
    "stdin.\n"
    "\n"
    "A large program has millions of call paths, most of them a few instructions. When the\n"
    "stacks would be more than 100,000 lines, a caller's share below 1/N of the total is not\n"
    "split further up, and the shares merged at one split become one line\n"
    "`[other callers];f;...;leaf`. Both sums above still hold, and the lines stay about N\n"
    "however many call paths there are.\n"
    "\n"
    "  --stats         print a summary on stderr: lines, total, exact or approximate, merged\n"
    "  --resolution N  always merge below 1/N (default: N = 1000000, 80 times finer than a\n"
    "                  flame graph's narrowest box, beyond 100,000 lines); 0: never merge\n";

static const char flame_help[] =
    "usage: dripprof flame [--title T] [--countname NAME] [--width W] [--minwidth PX]\n"
    "                      FOLDED > graph.svg\n"
    "\n"
    "Writes a self-contained SVG flame graph (inline CSS and script) of folded stacks\n"
    "(`frame;frame COUNT` lines; FOLDED may be - for stdin). Hover for name, count and\n"
    "percentage; click a box to zoom, `Reset Zoom` to go back; `Search` or Ctrl-F takes a\n"
    "regular expression and shows `Matched: X%` (a recursive function counts once per\n"
    "stack). The same input always gives the same bytes.\n"
    "\n"
    "Differential input (`dripprof diff` output, two counts per line) gives boxes as wide\n"
    "as AFTER, coloured by the change of each box's own count: red grew, blue shrank,\n"
    "grey unchanged; tooltips add the BEFORE counts and the changes.\n"
    "\n"
    "  --title T          title (default \"Flame Graph\")\n"
    "  --countname NAME   what the counts are (default \"samples\")\n"
    "  --width W          image width in pixels (default 1200)\n"
    "  --minwidth PX      leave out boxes narrower than PX pixels (default 0.1);\n"
    "                     PX% means a percentage of the total\n";

#define CHECKER_HELP(function)                                                                     \
    "  --with CHECKER     the chapter's checker that runs " function "() (vm/prof/README.md)\n"    \
    "  --sandbox PATH     the sandbox it runs in (default: harness/sandbox beside dripprof)\n"

static const char top_help[] =
    "usage: dripprof top [--limit N] [--countname NAME] [--with CHECKER] FILE\n"
    "\n"
    "Prints the total, then a self table and an inclusive table, formatted like\n"
    "callgrind_annotate (`20,186,274,402 (100.0%)  name`). FILE is folded stacks or a\n"
    "callgrind.out (recognised by its header; folded with `dripprof fold` first), or - for\n"
    "stdin. The inclusive costs are the chapter's inclusive() (a function counts once per\n"
    "stack, so they stay right under recursion), asked of CHECKER; without --with, the\n"
    "self table comes alone.\n"
    "\n"
    "  --limit N          at most N rows per table (default: all)\n"
    "  --countname NAME   column name for folded input (default \"samples\"; a callgrind\n"
    "                     profile uses its event, e.g. Ir)\n" CHECKER_HELP("inclusive");

static const char calls_help[] =
    "usage: dripprof calls CALLGRIND.OUT [FUNCTION...]\n"
    "\n"
    "Prints `COUNT  FUNCTION` for every function of the profile that was called (or only\n"
    "for the FUNCTIONs named; one that was never called prints 0), most calls first. Names\n"
    "are cleaned like `dripprof fold`'s frames, so fib and fib'2 are one function; all\n"
    "calls count, recursive ones included. CALLGRIND.OUT may be - for stdin.\n";

static const char files_help[] =
    "usage: dripprof files --with CHECKER ANNOTATE.TXT\n"
    "\n"
    "Reads the function table of callgrind_annotate output (its rows are the chapter's\n"
    "parse_row(), asked of CHECKER) and prints its cost per source file,\n"
    "callgrind_annotate-style. Code inlined from a header is charged to the header, so this\n"
    "shows where inlined helpers went. ANNOTATE.TXT may be - for stdin.\n"
    "\n" CHECKER_HELP("parse_row");

static const char diff_help[] =
    "usage: dripprof diff BEFORE.folded AFTER.folded > diff.folded\n"
    "\n"
    "Prints one line per stack found in either file, `stack BEFORE AFTER`: its counts in\n"
    "the two files (0 where a file lacks it; repeated lines summed), sorted bytewise. The\n"
    "columns add up to the two files' totals. `dripprof flame diff.folded` draws it.\n"
    "Either file may be - for stdin.\n";

static const char stacks_help[] =
    "usage: dripprof stacks FILE\n"
    "\n"
    "Prints the stacks of folded stacks or of a callgrind.out (folded as `dripprof fold`\n"
    "does) for scripts: one line per stack, tab-separated, the count first, then the\n"
    "frames root first:\n"
    "\n"
    "    5<TAB>(below main)<TAB>main<TAB>fib\n"
    "\n"
    "A folded file's lines keep their order and their repeats (blank lines are left out);\n"
    "a callgrind profile's come sorted, as from fold. A backslash, TAB, CR or LF in a frame\n"
    "is written \\\\, \\t, \\r or \\n and every other byte outside 0x20..0x7e (control bytes,\n"
    "UTF-8) \\xHH, so every TAB separates two fields (awk -F'\\t'). FILE may be - for stdin.\n";

static const char rows_help[] =
    "usage: dripprof rows [--table] --with CHECKER ANNOTATE.TXT\n"
    "\n"
    "Prints the rows of callgrind_annotate output, as the chapter's parse_row() reads them\n"
    "(asked of CHECKER), for scripts: one line per row, tab-separated: the line number, the\n"
    "count, the percentage (empty when the row shows none), the label, then the label's\n"
    "file, function and object (each empty when missing; PROGRAM TOTALS has only a\n"
    "function):\n"
    "\n"
    "    12<TAB>3400013<TAB>62.18<TAB>prog.c:hot [/tmp/p]<TAB>prog.c<TAB>hot<TAB>/tmp/p\n"
    "\n"
    "Every row of the file (totals, function table, annotated source), or with --table\n"
    "only the PROGRAM TOTALS row and the function table, as `dripprof files` reads them.\n"
    "Escapes as in `dripprof stacks`. ANNOTATE.TXT may be - for stdin.\n"
    "\n"
    "  --table            the PROGRAM TOTALS row and the function table only\n" CHECKER_HELP(
        "parse_row");

/* ---- the command line ------------------------------------------------------------ */

typedef struct Command Command;

/* An input as given on the command line: a file, or standard input read whole. */
typedef struct {
    const char *path; /* as given */
    const char *name; /* in messages: the path, or "<stdin>" */
    char *data;       /* standard input's bytes; NULL for a file */
    size_t length;
    CgKind kind;
} Input;

/* A command's arguments, its options read and its files counted (parse_args). */
typedef struct {
    const Command *command;
    char **files; /* the operands after the options */
    int nfiles;
    Checker checker;       /* --with, --sandbox (top, files, rows) */
    bool stats;            /* fold --stats */
    bool table_only;       /* rows --table */
    FlameOptions flame;    /* flame's options, defaults filled in */
    const char *countname; /* --countname, or NULL (top then names the profile's event) */
    size_t limit;          /* top --limit; 0 for all rows */
    uint64_t resolution;   /* --resolution: how finely a callgrind profile is folded */
    Input in;              /* files[0], opened by main for the commands with `input` */
} Args;

struct Command {
    const char *name; /* "fold" */
    const char *help;
    const struct option *options; /* --help among them */
    const char *file;             /* the FILE operand, for "no FILE given"; NULL: run checks */
    bool names_follow;            /* operands after the file are names (calls' FUNCTIONs) */
    const char *needs;            /* the function that makes --with required, or NULL */
    bool input;                   /* main opens files[0] as args->in (and closes it) */
    int (*run)(Args *args);       /* an exit status */
};

static int usage_error(const Command *command, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "dripprof: %s: ", command->name);
    vfprintf(stderr, fmt, args);
    fprintf(stderr, "\n\n%s", command->help);
    va_end(args);
    return 2;
}

/* ---- output ------------------------------------------------------------------------ */

/* errno of a write to stdout that failed inside a writer (flame, top, diff), for
 * finish_output's message: by then stdout's buffer may be gone and errno reused. */
static int output_errno = 0;

/* Every command ends here: the result is only good if all of it reached stdout (a full
 * disk, a closed pipe), and a write error names stdout, not the input. */
static int finish_output(int status) {
    if (fflush(stdout) != 0) {
        output_errno = errno;
    }
    if (ferror(stdout)) {
        fprintf(stderr, "dripprof: write error on standard output%s%s\n", output_errno ? ": " : "",
                output_errno ? strerror(output_errno) : "");
        return 1;
    }
    return status;
}

/* A failure of a writer (flame, top, diff): a write error is finish_output's to report;
 * anything else is about the input. */
static int writer_failed(const char *path, const char *error) {
    if (ferror(stdout)) {
        output_errno = errno;
    } else {
        fprintf(stderr, "dripprof: %s: %s\n", path, error);
    }
    return 1;
}

/* ---- inputs -------------------------------------------------------------------------- */

/* What the file at path is, from its first bytes (CG_NONE when it cannot be read: the
 * reader then says why). */
static CgKind sniff_file(const char *path) {
    static char head[SNIFF_BYTES];
    FILE *in = fopen(path, "rb");
    CgKind kind = CG_NONE;
    if (in != NULL) {
        kind = callgrind_sniff(head, fread(head, 1, SNIFF_BYTES, in));
        fclose(in);
    }
    return kind;
}

/* A directory opens for reading, and then every read fails: true, after saying so, when
 * path is one. */
static bool refuse_directory(const char *path) {
    struct stat info;
    if (strcmp(path, "-") == 0 || stat(path, &info) != 0 || !S_ISDIR(info.st_mode)) {
        return false;
    }
    fprintf(stderr, "dripprof: %s: is a directory, not a file\n", path);
    return true;
}

/* Opens an input far enough to know what it is. 0, or 1 after printing why not. */
static int open_input(const char *path, Input *in) {
    *in = (Input){.path = path, .name = path};
    if (refuse_directory(path)) {
        return 1;
    }
    if (strcmp(path, "-") != 0) {
        in->kind = sniff_file(path);
        return 0;
    }
    in->name = "<stdin>";
    in->data = slurp(stdin, &in->length);
    if (in->data == NULL) {
        fprintf(stderr, "dripprof: <stdin>: %s\n", ferror(stdin) ? "read error" : "out of memory");
        return 1;
    }
    in->kind = callgrind_sniff(in->data, in->length);
    return 0;
}

static void close_input(Input *in) {
    free(in->data);
    in->data = NULL;
}

/* Cachegrind counts instructions per line but records no calls: nothing to fold. */
static int refuse_cachegrind(const Input *in) {
    fprintf(stderr,
            "dripprof: %s: this is a cachegrind profile (valgrind --tool=cachegrind): it "
            "records no calls, so it has no stacks. cg_annotate %s prints its table; "
            "valgrind --tool=callgrind writes a profile dripprof reads.\n",
            in->name, in->data ? "FILE" : in->path);
    return 1;
}

/* For commands that take folded stacks only. */
static int refuse_profile(const Input *in, const char *command) {
    if (in->kind == CG_CACHEGRIND) {
        return refuse_cachegrind(in);
    }
    fprintf(stderr,
            "dripprof: %s: this is a callgrind profile, not folded stacks: dripprof %s reads "
            "`dripprof fold %s > FILE.folded`\n",
            in->name, command, in->data ? "FILE" : in->path);
    return 1;
}

/* A reader's failure: its message ("FILE:LINE: why"), NULL when it ran out of memory. */
static int reader_failed(const char *error) {
    fprintf(stderr, "dripprof: %s\n", error ? error : "out of memory");
    return 1;
}

static int read_callgrind(const Input *in, Callgrind *graph) {
    if (in->kind == CG_CACHEGRIND) {
        memset(graph, 0, sizeof *graph);
        return refuse_cachegrind(in);
    }
    int status = in->data ? callgrind_read_buffer(in->name, in->data, in->length, graph)
                          : callgrind_read_file(in->path, graph);
    return status != 0 ? reader_failed(graph->error) : 0;
}

static int fold_input(const Input *in, uint64_t resolution, Callgrind *graph, FoldResult *folded) {
    memset(folded, 0, sizeof *folded);
    if (read_callgrind(in, graph) != 0) {
        return 1;
    }
    const char *error;
    if (fold_callgrind(graph, resolution, folded, &error) != 0) {
        fprintf(stderr, "dripprof: %s: %s\n", in->name, error);
        return 1;
    }
    return 0;
}

static int read_folded(const Input *in, FoldedFile *file) {
    int status = in->data ? folded_read_buffer(in->name, in->data, in->length, file)
                          : folded_read_file(in->path, file);
    return status != 0 ? reader_failed(file->error) : 0;
}

/* The stacks of folded stacks or of a callgrind profile, one FoldedLine each: a folded
 * file's lines in file order (repeats kept), a profile's as `dripprof fold` prints them. */
typedef struct {
    Callgrind graph; /* a profile's (its event names the counts); zeroed for folded stacks */
    FoldResult folded;
    FoldedFile file;
    FoldedLine *lines; /* file.lines, or a malloc'd view of folded.lines */
    size_t count;
} Stacks;

/* 0, or 1 after the message (a cachegrind profile has no stacks). free_stacks either way. */
static int read_stacks(const Input *in, uint64_t resolution, Stacks *stacks) {
    *stacks = (Stacks){0};
    if (in->kind != CG_CALLGRIND) {
        int status =
            in->kind == CG_CACHEGRIND ? refuse_cachegrind(in) : read_folded(in, &stacks->file);
        stacks->lines = stacks->file.lines;
        stacks->count = stacks->file.count;
        return status;
    }
    if (fold_input(in, resolution, &stacks->graph, &stacks->folded) != 0) {
        return 1;
    }
    stacks->lines = malloc((stacks->folded.count + 1) * sizeof *stacks->lines);
    if (stacks->lines == NULL) {
        return writer_failed(in->name, "out of memory");
    }
    for (; stacks->count < stacks->folded.count; stacks->count++) {
        char *text = fold_stack(&stacks->folded, stacks->count);
        if (text == NULL) {
            return writer_failed(in->name, "out of memory");
        }
        stacks->lines[stacks->count] =
            (FoldedLine){.stack = text,
                         .length = strlen(text),
                         .count = stacks->folded.lines[stacks->count].count};
    }
    return 0;
}

static void free_stacks(Stacks *stacks) {
    if (stacks->lines != stacks->file.lines) {
        for (size_t i = 0; i < stacks->count; i++) {
            free((char *)stacks->lines[i].stack);
        }
        free(stacks->lines);
    }
    folded_free(&stacks->file);
    fold_free(&stacks->folded);
    callgrind_free(&stacks->graph);
}

/* ---- fold ---------------------------------------------------------------------------- */

static int run_fold(Args *args) {
    Input *in = &args->in;
    Callgrind graph;
    FoldResult folded;
    int status = fold_input(in, args->resolution, &graph, &folded);
    if (status == 0) {
        fold_print(&folded, stdout); /* a write error is finish_output's to report */
    }
    status = finish_output(status);
    if (status == 0 && args->stats) {
        fprintf(stderr,
                "dripprof fold: %s: %zu lines, total %" PRIu64 " %s (totals: %" PRIu64
                "%s), %zu functions, %zu arcs; %s (%zu shared non-leaf functions, %zu arcs cut "
                "from cycles, %zu self-loops dropped); %zu shares below %" PRIu64
                " merged into " FOLD_OTHER_CALLERS " lines, %" PRIu64 " %s (%.4f%%)\n",
                in->name, folded.count, folded.total, graph.event, graph.totals,
                graph.parts > 1 ? ", the sum of the parts" : "", graph.function_count,
                graph.arc_count, folded.exact ? "exact stacks" : "approximate stacks",
                folded.shared, folded.cut_arcs, folded.self_loops, folded.merged_shares,
                folded.threshold, folded.merged, graph.event,
                folded.total ? 100.0 * (double)folded.merged / (double)folded.total : 0.0);
    }
    fold_free(&folded);
    callgrind_free(&graph);
    return status;
}

/* ---- flame --------------------------------------------------------------------------- */

static int run_flame(Args *args) {
    const char *path = args->files[0];
    /* Streamed: the input is never held in memory, only its distinct stacks. So only a
     * file is looked at first; standard input must be folded stacks. */
    if (refuse_directory(path)) {
        return 1;
    }
    Input in = {.path = path, .name = path, .kind = strcmp(path, "-") ? sniff_file(path) : CG_NONE};
    if (in.kind != CG_NONE) {
        return refuse_profile(&in, "flame");
    }
    Trie trie;
    if (trie_init(&trie) != 0) {
        fprintf(stderr, "dripprof: out of memory\n");
        return 1;
    }
    char *read_error = NULL;
    DiffReader reader = {.trie = &trie}; /* one count per line, or two (diff.h) */
    int status = strcmp(path, "-") == 0
                     ? folded_each_stream(stdin, "<stdin>", diff_reader_visit, &reader, &read_error)
                     : folded_each_file(path, diff_reader_visit, &reader, &read_error);
    const char *error = "out of memory";
    if (status != 0) {
        reader_failed(read_error);
    } else if (trie_finish(&trie) != 0) {
        fprintf(stderr, "dripprof: %s: %s\n", path, error);
        status = 1;
    } else {
        static char buffer[FLAME_OUTPUT_BUFFER];
        setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
        if (flame_write_trie(&trie, &args->flame, stdout, &error) != 0) {
            status = writer_failed(path, error);
        }
    }
    free(read_error);
    trie_free(&trie);
    return finish_output(status != 0);
}

/* ---- top ------------------------------------------------------------------------------- */

/* The self costs summed per cleaned name (functions that share one are merged), sorted by
 * costs_compare. 0, or -1 when out of memory or a sum overflows. */
static int self_by_name(const Callgrind *graph, Cost **rows, size_t *count) {
    char **names = fold_clean_names(graph);
    CostSums sums = {0};
    int status = names == NULL ? -1 : 0;
    for (size_t f = 0; status == 0 && f < graph->function_count; f++) {
        uint64_t self = graph->functions[f].self;
        status = self > 0 ? costs_add(&sums, names[f], strlen(names[f]), self) : 0;
    }
    fold_free_names(names, graph->function_count);
    return costs_finish(&sums, status, rows, count);
}

/* The tables of stacks[0..count), or of the profile in stacks->graph when there is no
 * checker: self from the stacks' leaves or straight from the graph (the same sums: the
 * lines ending in a function add up to its self cost, fold.h), inclusive asked of the
 * checker (when there is one). report has the header's fields and the total. */
static int write_top(const Input *in, const Stacks *stacks, TopReport *report,
                     const Checker *checker) {
    Cost *self = NULL, *inclusive = NULL;
    size_t nself = 0, ninclusive = 0;
    int failed = stacks->lines != NULL ? top_self_costs(stacks->lines, stacks->count, &self, &nself)
                                       : self_by_name(&stacks->graph, &self, &nself);
    if (failed) {
        return writer_failed(in->name, "out of memory or a cost above 64 bits");
    }
    int status = checker->program ? checker_inclusive(checker, stacks->lines, stacks->count,
                                                      &inclusive, &ninclusive)
                                  : 0;
    if (status == 0) {
        report->self = self;
        report->nself = nself;
        report->inclusive = inclusive;
        report->ninclusive = ninclusive;
        status = top_write(report, stdout) != 0 ? writer_failed(in->name, "write error") : 0;
    }
    if (status == 0 && checker->program == NULL) {
        fprintf(stderr, "dripprof top: no inclusive table: it needs --with CHECKER, a chapter's "
                        "checker that runs inclusive()\n");
    }
    costs_free(self, nself);
    costs_free(inclusive, ninclusive);
    return status;
}

static int run_top(Args *args) {
    Input *in = &args->in;
    Stacks stacks = {0};
    bool profile = in->kind == CG_CALLGRIND;
    /* Without a checker, a profile's self table needs no stacks: only its graph. */
    int status = profile && args->checker.program == NULL
                     ? read_callgrind(in, &stacks.graph)
                     : read_stacks(in, args->resolution, &stacks);
    TopReport report = {.source = in->name,
                        .kind =
                            profile ? "callgrind.out, folded by dripprof fold" : "folded stacks",
                        .countname = args->countname ? args->countname
                                     : profile       ? stacks.graph.event
                                                     : "samples",
                        .limit = args->limit,
                        .total = stacks.graph.totals};
    if (status == 0 && !profile && folded_total(&stacks.file, &report.total) != 0) {
        status = writer_failed(in->name, "the counts add up to more than 64 bits");
    } else if (status == 0 && !profile && stacks.count == 0) {
        status = writer_failed(in->name, "no stacks in the file");
    } else if (status == 0) {
        status = write_top(in, &stacks, &report, &args->checker);
    }
    free_stacks(&stacks);
    return finish_output(status);
}

/* ---- calls ------------------------------------------------------------------------------- */

/* Calls into each function (summed over its arcs), one row per cleaned name (functions
 * that share one are merged), most calls first. 0, or -1 when out of memory or a count
 * overflows. */
static int count_calls(const Callgrind *graph, char **names, Cost **rows, size_t *count) {
    CostSums sums = {0};
    int status = 0;
    for (size_t f = 0; status == 0 && f < graph->function_count; f++) {
        status = costs_add(&sums, names[f], strlen(names[f]), 0); /* listed, even uncalled */
    }
    for (size_t i = 0; status == 0 && i < graph->arc_count; i++) {
        const char *callee = names[graph->arcs[i].callee];
        status = costs_add(&sums, callee, strlen(callee), graph->arcs[i].calls);
    }
    return costs_finish(&sums, status, rows, count);
}

static bool is_named(char **wanted, int count, const char *name) {
    for (int a = 0; a < count; a++) {
        if (strcmp(wanted[a], name) == 0) {
            return true;
        }
    }
    return false;
}

static int run_calls(Args *args) {
    char **wanted = args->files + 1;
    int nwanted = args->nfiles - 1;
    Input *in = &args->in;
    Callgrind graph;
    int status = read_callgrind(in, &graph);
    char **names = status == 0 ? fold_clean_names(&graph) : NULL;
    Cost *calls = NULL;
    size_t count = 0;
    if (status == 0 && (names == NULL || count_calls(&graph, names, &calls, &count) != 0)) {
        status = writer_failed(in->name, "out of memory or a call count above 64 bits");
    }
    for (size_t k = 0; status == 0 && k < count; k++) {
        if (nwanted == 0 ? calls[k].cost > 0 : is_named(wanted, nwanted, calls[k].name)) {
            printf("%" PRIu64 "  %s\n", calls[k].cost, calls[k].name);
        }
    }
    for (int a = 0; status == 0 && a < nwanted; a++) {
        size_t k = 0;
        while (k < count && strcmp(wanted[a], calls[k].name) != 0) {
            k++;
        }
        if (k == count) { /* not a function of the profile */
            printf("0  %s\n", wanted[a]);
        }
    }
    costs_free(calls, count);
    fold_free_names(names, graph.function_count); /* NULL is fine */
    callgrind_free(&graph);
    return finish_output(status);
}

/* ---- files and rows -------------------------------------------------------------------------- */

/* Reads callgrind_annotate output, its rows answered by the checker's parse_row(): the
 * function table, or (all) every row anywhere. 0, or an exit status after the message. */
static int read_annotate(Input *in, bool all, const Checker *checker, AnnotateTable *table) {
    *table = (AnnotateTable){0};
    const char *why; /* a file is read whole here (standard input, by open_input) */
    if (in->data == NULL && (in->data = slurp_file(in->path, &in->length, &why)) == NULL) {
        fprintf(stderr, "dripprof: %s: %s\n", in->path, why);
        return 1;
    }
    AnnotateText text = {0};
    AnnotateRow *answers = NULL;
    char *error = NULL;
    bool refused = annotate_split(in->name, in->data, in->length, all, &text, &error) != 0;
    int status = refused ? 0 : checker_parse_row(checker, in->name, &text, &answers);
    if (status == 0 && !refused) {
        refused = annotate_table(in->name, &text, answers, all, table, &error) != 0;
    }
    if (refused) {
        status = reader_failed(error);
    }
    free(error);
    free(answers);
    annotate_free_text(&text);
    return status;
}

static int run_files(Args *args) {
    const char *path = args->files[0];
    AnnotateTable table;
    int status = read_annotate(&args->in, false, &args->checker, &table);
    Cost *files = NULL;
    size_t count = 0;
    if (status == 0 && annotate_sum_by_file(&table, &files, &count) != 0) {
        status = writer_failed(path, "out of memory or a sum above 64 bits");
    } else if (status == 0) {
        int width = top_width(table.total.ir);
        printf("Ir (self, by source file)\n");
        top_write_row(stdout, table.total.ir, table.total.ir, width, "PROGRAM TOTALS");
        for (size_t i = 0; i < count; i++) {
            top_write_row(stdout, files[i].cost, table.total.ir, width, files[i].name);
        }
    }
    costs_free(files, count);
    annotate_free(&table);
    return finish_output(status);
}

/* One row of `dripprof rows`. */
static void write_row(const AnnotateRow *row) {
    printf("%zu\t%" PRIu64 "\t", row->line, row->ir);
    if (row->has_pct) {
        printf("%.2f", row->pct);
    }
    AnnotateLabel label = annotate_split_label(row->name);
    const char *fields[] = {row->name, label.file, label.function, label.object};
    size_t lengths[] = {strlen(row->name), label.file_length, label.function_length,
                        label.object_length};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        putchar('\t');
        tsv_field(stdout, fields[i], lengths[i]);
    }
    putchar('\n');
}

static int run_rows(Args *args) {
    AnnotateTable table;
    int status = read_annotate(&args->in, !args->table_only, &args->checker, &table);
    if (status == 0 && args->table_only) {
        write_row(&table.total); /* its name is "PROGRAM TOTALS" */
    }
    for (size_t i = 0; status == 0 && i < table.count; i++) {
        write_row(&table.rows[i]);
    }
    annotate_free(&table);
    return finish_output(status);
}

/* ---- stacks ------------------------------------------------------------------------------- */

/* One stack as a record: the count, then each frame. */
static void write_stack(const FoldedLine *line) {
    const char *stack = line->stack;
    size_t length = line->length;
    printf("%" PRIu64, line->count);
    for (size_t start = 0; start <= length;) {
        const char *semicolon = memchr(stack + start, ';', length - start);
        size_t end = semicolon ? (size_t)(semicolon - stack) : length;
        putchar('\t');
        tsv_field(stdout, stack + start, end - start);
        start = end + 1;
    }
    putchar('\n');
}

static int run_stacks(Args *args) {
    Input *in = &args->in;
    Stacks stacks;
    int status = read_stacks(in, args->resolution, &stacks);
    for (size_t i = 0; status == 0 && i < stacks.count; i++) {
        write_stack(&stacks.lines[i]);
    }
    free_stacks(&stacks);
    return finish_output(status);
}

/* ---- diff ------------------------------------------------------------------------------- */

/* Refuses a file that is already differential: its first line has two counts. */
static int plain_folded(const char *name, const FoldedFile *file) {
    size_t length;
    uint64_t count;
    if (file->count > 0 &&
        diff_split_first_count(file->lines[0].stack, file->lines[0].length, &length, &count) != 0) {
        fprintf(stderr,
                "dripprof: %s:%zu: two counts on the line: diff compares plain folded stacks, "
                "not differential ones\n",
                name, file->lines[0].line);
        return 1;
    }
    return 0;
}

static int run_diff(Args *args) {
    const Command *command = args->command;
    if (args->nfiles != 2) {
        return usage_error(command, "give two folded-stacks files, BEFORE and AFTER");
    }
    char **paths = args->files;
    if (strcmp(paths[0], "-") == 0 && strcmp(paths[1], "-") == 0) {
        return usage_error(command, "only one of the files can be stdin");
    }
    Input inputs[2] = {{0}, {0}};
    FoldedFile files[2];
    memset(files, 0, sizeof files);
    int status = 0;
    for (int i = 0; i < 2 && status == 0; i++) {
        status = open_input(paths[i], &inputs[i]);
        if (status == 0 && inputs[i].kind != CG_NONE) {
            status = refuse_profile(&inputs[i], "diff");
        }
        status =
            status || read_folded(&inputs[i], &files[i]) || plain_folded(inputs[i].name, &files[i]);
    }
    FoldedDiff diff;
    const char *error;
    int which;
    if (status == 0 && diff_folded(&files[0], &files[1], &diff, &error, &which) != 0) {
        status = writer_failed(which >= 0 ? inputs[which].name : "diff", error);
    } else if (status == 0) {
        if (diff.count == 0) {
            fprintf(stderr, "dripprof: diff: no stack with a count above 0 in %s or %s\n",
                    inputs[0].name, inputs[1].name);
            status = 1;
        } else if (diff_write(&diff, stdout) != 0) {
            status = writer_failed("diff", "write error"); /* finish_output names stdout */
        }
        diff_free(&diff);
    }
    for (int i = 0; i < 2; i++) {
        folded_free(&files[i]);
        close_input(&inputs[i]);
    }
    return finish_output(status);
}

/* ---- options and main ------------------------------------------------------------------ */

static bool parse_number(const char *text, double *value) {
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0;
}

/* getopt_long over a command's arguments (argv[0] is the command's name), with dripprof's
 * messages: the option's value, -1 after the last option, or USAGE after printing what
 * was wrong. -h and --help are 'h' for every command. */
static int next_option(int argc, char **argv, const Command *command) {
    opterr = 0;
    int option = getopt_long(argc, argv, ":h", command->options, NULL);
    if (option == '?') {
        if (optopt != 0) {
            usage_error(command, "unknown option -%c", optopt);
        } else {
            usage_error(command, "unknown option %s", argv[optind - 1]);
        }
        return USAGE;
    }
    if (option == ':') {
        usage_error(command, "%s needs a value", argv[optind - 1]);
        return USAGE;
    }
    return option;
}

/* --minwidth PX or N%. */
static bool parse_minwidth(const char *text, FlameOptions *flame) {
    char *end;
    errno = 0;
    flame->minwidth = strtod(text, &end);
    flame->minwidth_percent = *end == '%';
    return end != text && end[flame->minwidth_percent] == '\0' && errno == 0 &&
           flame->minwidth >= 0;
}

/* Reads the options of args->command into args and counts its files: -1 to run it, or
 * the exit status (0 after printing the help, 2 after a usage error). Each command's
 * table admits only its own options, so one switch serves them all. */
static int parse_args(int argc, char **argv, Args *args) {
    const Command *command = args->command;
    for (int option; (option = next_option(argc, argv, command)) != -1;) {
        uint64_t limit;
        FlameOptions *flame = &args->flame;
        switch (option) {
        case 'h': fputs(command->help, stdout); return 0;
        case 'W': args->checker.program = optarg; break;
        case 'S': args->checker.sandbox = optarg; break;
        case 's': args->stats = true; break;
        case 'T': args->table_only = true; break;
        case 't': flame->title = optarg; break;
        case 'c': args->countname = flame->countname = optarg; break;
        case 'w':
            if (!parse_number(optarg, &flame->width) || flame->width <= 2 * FLAME_SIDE_PAD ||
                flame->width > MAX_WIDTH) {
                return usage_error(command, "--width wants pixels above %d, not %s",
                                   2 * FLAME_SIDE_PAD, optarg);
            }
            break;
        case 'm':
            if (!parse_minwidth(optarg, flame)) {
                return usage_error(command, "bad --minwidth %s", optarg);
            }
            break;
        case 'r':
            if (!decimal_parse(optarg, &args->resolution)) {
                return usage_error(command, "--resolution wants a number, not %s", optarg);
            }
            break;
        case 'l':
            if (!decimal_parse(optarg, &limit) || limit > SIZE_MAX) {
                return usage_error(command, "--limit wants a number, not %s", optarg);
            }
            args->limit = (size_t)limit;
            break;
        default: return 2;
        }
    }
    if (command->needs != NULL && args->checker.program == NULL) {
        return usage_error(command, "needs --with CHECKER: a chapter's checker that runs %s()",
                           command->needs);
    }
    args->files = argv + optind;
    args->nfiles = argc - optind;
    if (command->file != NULL && args->nfiles == 0) {
        return usage_error(command, "no %s given", command->file);
    }
    if (command->file != NULL && !command->names_follow && args->nfiles > 1) {
        return usage_error(command, "more than one file (%s)", args->files[1]);
    }
    return -1;
}

#define HELP_OPTION                                                                                \
    { "help", no_argument, NULL, 'h' }
#define END_OF_OPTIONS                                                                             \
    { NULL, 0, NULL, 0 }
/* The options of the commands that ask a checker (top, files, rows). */
#define CHECKER_OPTIONS                                                                            \
    {"with", required_argument, NULL, 'W'}, {                                                      \
        "sandbox", required_argument, NULL, 'S'                                                    \
    }

/* How finely a callgrind profile is folded (fold, top, stacks). */
#define RESOLUTION_OPTION                                                                          \
    { "resolution", required_argument, NULL, 'r' }

static const struct option only_help[] = {HELP_OPTION, END_OF_OPTIONS};
static const struct option checker_options[] = {CHECKER_OPTIONS, HELP_OPTION, END_OF_OPTIONS};

static const Command commands[] = {
    {"fold", fold_help,
     (const struct option[]){
         {"stats", no_argument, NULL, 's'}, RESOLUTION_OPTION, HELP_OPTION, END_OF_OPTIONS},
     "callgrind.out file", false, NULL, true, run_fold},
    {"flame", flame_help,
     (const struct option[]){{"title", required_argument, NULL, 't'},
                             {"countname", required_argument, NULL, 'c'},
                             {"width", required_argument, NULL, 'w'},
                             {"minwidth", required_argument, NULL, 'm'},
                             HELP_OPTION,
                             END_OF_OPTIONS},
     "folded-stacks file", false, NULL, false, run_flame},
    {"top", top_help,
     (const struct option[]){{"limit", required_argument, NULL, 'l'},
                             {"countname", required_argument, NULL, 'c'},
                             RESOLUTION_OPTION,
                             CHECKER_OPTIONS,
                             HELP_OPTION,
                             END_OF_OPTIONS},
     "file", false, NULL, true, run_top},
    {"calls", calls_help, only_help, "callgrind.out file", true, NULL, true, run_calls},
    {"files", files_help, checker_options, "callgrind_annotate output file", false, "parse_row",
     true, run_files},
    {"diff", diff_help, only_help, NULL, false, NULL, false, run_diff},
    {"stacks", stacks_help, (const struct option[]){RESOLUTION_OPTION, HELP_OPTION, END_OF_OPTIONS},
     "file", false, NULL, true, run_stacks},
    {"rows", rows_help,
     (const struct option[]){
         {"table", no_argument, NULL, 'T'}, CHECKER_OPTIONS, HELP_OPTION, END_OF_OPTIONS},
     "callgrind_annotate output file", false, "parse_row", true, run_rows},
};

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(main_help, stderr);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        fputs(main_help, stdout);
        return finish_output(0);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(name, commands[i].name) == 0) {
            Args args = {.command = &commands[i],
                         .checker = {.command = commands[i].name},
                         .resolution = FOLD_AUTO};
            flame_default_options(&args.flame);
            /* the command's own arguments, with its name in argv[0] as getopt expects */
            int status = parse_args(argc - 1, argv + 1, &args);
            if (status < 0 && commands[i].input && open_input(args.files[0], &args.in) != 0) {
                status = 1;
            }
            if (status < 0) {
                status = commands[i].run(&args);
                close_input(&args.in);
            }
            return status;
        }
    }
    fprintf(stderr, "dripprof: unknown command '%s'\n\n%s", name, main_help);
    return 2;
}
