/* dripprof.c: the command line of the Drip profiler tools.
 *
 *   dripprof fold CALLGRIND.OUT       folded stacks of C functions
 *   dripprof flame FOLDED [options]   an interactive SVG flame graph
 *   dripprof top FILE                 self and inclusive tables
 *   dripprof calls CALLGRIND.OUT      call counts per function
 *   dripprof files ANNOTATE.TXT       callgrind_annotate's table per source file
 *   dripprof diff BEFORE AFTER        differential folded stacks (two counts)
 *
 * This file only parses arguments, reads inputs and reports errors; the work
 * is in callgrind.c (reader), fold.c (stacks from the call graph), folded.c
 * (reader), flame.c (SVG), top.c (tables) and diff.c (two profiles
 * merged). Every failure prints one line "dripprof: FILE:LINE: message" on
 * stderr and exits 1; usage errors exit 2. FILE may be "-" for standard
 * input where folded stacks are read.
 *
 * top and files run the chapter's exercise functions (inclusive, parse_row)
 * from the file prof.mk's PROFILE_IMPL names, which in the student edition is
 * the student's own exercises/165/profile.c. Until those answer a simple
 * case, the two commands say which function is missing and exit 3
 * (EXERCISE_NOT_READY, see exercise.h); fold, flame and calls never need them.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "callgrind.h"
#include "diff.h"
#include "exercise.h"
#include "flame.h"
#include "fold.h"
#include "folded.h"
#include "top.h"

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
    "\n"
    "`dripprof COMMAND --help` describes each command. Errors name the file and line.\n"
    "Exit status: 0 done, 1 bad input, 2 usage error, 3 top/files need a function of the\n"
    "exercise that does not work yet (run make exercise-165).\n";

static const char fold_help[] =
    "usage: dripprof fold [--stats] CALLGRIND.OUT\n"
    "\n"
    "Prints one line per stack, `main;run;fib COUNT`, counts in the profile's first event\n"
    "(Ir), sorted bytewise. The counts add up exactly to the profile's totals and the lines\n"
    "ending in a function add up to its self cost. The stacks are exact when the call graph\n"
    "is a tree (valgrind --separate-callers=N, plus --separate-recs=M for deep recursion);\n"
    "otherwise each function's cost is split among its callers in proportion to the calls'\n"
    "inclusive costs (see vm/prof/README.md). Frames are function names without callgrind's\n"
    "'N (recursion) and 'caller (context) suffixes.\n"
    "\n"
    "  --stats   print a summary on stderr: lines, total, exact or approximate\n";

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

static const char top_help[] =
    "usage: dripprof top [--limit N] [--countname NAME] FILE\n"
    "\n"
    "Prints the total, then a self table and an inclusive table, formatted like\n"
    "callgrind_annotate (`20,186,274,402 (100.0%)  name`). FILE is folded stacks or a\n"
    "callgrind.out (recognised by its header; folded with `dripprof fold` first).\n"
    "Inclusive costs count a function once per stack, so they stay right under recursion.\n"
    "\n"
    "  --limit N          at most N rows per table (default: all)\n"
    "  --countname NAME   column name for folded input (default \"samples\"; a callgrind\n"
    "                     profile uses its event, e.g. Ir)\n";

static const char calls_help[] =
    "usage: dripprof calls CALLGRIND.OUT [FUNCTION...]\n"
    "\n"
    "Prints `COUNT  FUNCTION` for every function of the profile that was called (or only\n"
    "for the FUNCTIONs named; one that was never called prints 0), most calls first. Names\n"
    "are cleaned like `dripprof fold`'s frames, so fib and fib'2 are one function; all\n"
    "calls count, recursive ones included.\n";

static const char files_help[] =
    "usage: dripprof files ANNOTATE.TXT\n"
    "\n"
    "Reads the function table of callgrind_annotate output (with the exercise's parse_row)\n"
    "and prints its cost per source file, callgrind_annotate-style. Code inlined from a\n"
    "header is charged to the header, so this shows where inlined helpers went.\n";

static const char diff_help[] =
    "usage: dripprof diff BEFORE.folded AFTER.folded > diff.folded\n"
    "\n"
    "Prints one line per stack found in either file, `stack BEFORE AFTER`: its counts in\n"
    "the two files (0 where a file lacks it; repeated lines summed), sorted bytewise. The\n"
    "columns add up to the two files' totals. `dripprof flame diff.folded` draws it.\n"
    "Either file may be - for stdin.\n";

static int usage_error(const char *help, const char *fmt, const char *arg) {
    fprintf(stderr, "dripprof: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n\n%s", help);
    return 2;
}

static bool wants_help(int argc, char **argv) {
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return true;
        }
    }
    return false;
}

/* Matches "--name VALUE" and "--name=VALUE"; advances *i past the value. */
static bool option_value(int argc, char **argv, int *i, const char *name, const char **value) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) {
        return false;
    }
    if (argv[*i][n] == '=') {
        *value = argv[*i] + n + 1;
        return true;
    }
    if (argv[*i][n] != '\0') {
        return false;
    }
    if (*i + 1 >= argc) {
        *value = NULL;
        return true;
    }
    *value = argv[++*i];
    return true;
}

static bool parse_number(const char *text, double *value) {
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0;
}

static int read_callgrind(const char *path, Callgrind *graph, FoldResult *folded) {
    if (callgrind_read_file(path, graph) != 0) {
        fprintf(stderr, "dripprof: %s\n", graph->error ? graph->error : "out of memory");
        return 1;
    }
    const char *error;
    if (fold_callgrind(graph, folded, &error) != 0) {
        fprintf(stderr, "dripprof: %s: %s\n", path, error);
        return 1;
    }
    return 0;
}

static int run_fold(int argc, char **argv) {
    if (wants_help(argc, argv)) {
        fputs(fold_help, stdout);
        return 0;
    }
    const char *path = NULL;
    bool stats = false;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--stats") == 0) {
            stats = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error(fold_help, "fold: unknown option %s", argv[i]);
        } else if (path != NULL) {
            return usage_error(fold_help, "fold: more than one file (%s)", argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (path == NULL) {
        return usage_error(fold_help, "fold: no callgrind.out file given%s", "");
    }
    Callgrind graph;
    FoldResult folded;
    memset(&folded, 0, sizeof folded);
    int status = read_callgrind(path, &graph, &folded);
    if (status == 0) {
        for (size_t i = 0; i < folded.count; i++) {
            printf("%s %" PRIu64 "\n", folded.lines[i].stack, folded.lines[i].count);
        }
        if (fflush(stdout) != 0 || ferror(stdout)) {
            fprintf(stderr, "dripprof: fold: write error\n");
            status = 1;
        }
    }
    if (status == 0 && stats) {
        fprintf(stderr,
                "dripprof fold: %s: %zu lines, total %" PRIu64 " %s (totals: %" PRIu64
                "), %zu functions, %zu arcs; %s (%zu shared non-leaf functions, %zu arcs cut "
                "from cycles, %zu self-loops dropped)\n",
                path, folded.count, folded.total, graph.event, graph.totals, graph.function_count,
                graph.arc_count, folded.exact ? "exact stacks" : "approximate stacks",
                folded.shared, folded.cut_arcs, folded.self_loops);
    }
    fold_free(&folded);
    callgrind_free(&graph);
    return status;
}

static int read_folded(const char *path, FoldedFile *file) {
    int status = strcmp(path, "-") == 0 ? folded_read_stream(stdin, "<stdin>", file)
                                        : folded_read_file(path, file);
    if (status != 0) {
        fprintf(stderr, "dripprof: %s\n", file->error ? file->error : "out of memory");
        return 1;
    }
    return 0;
}

static int run_flame(int argc, char **argv) {
    if (wants_help(argc, argv)) {
        fputs(flame_help, stdout);
        return 0;
    }
    FlameOptions options;
    flame_default_options(&options);
    const char *path = NULL, *value;
    bool minwidth_percent = false;
    for (int i = 0; i < argc; i++) {
        if (option_value(argc, argv, &i, "--title", &value)) {
            if (value == NULL) {
                return usage_error(flame_help, "flame: --title needs a value%s", "");
            }
            options.title = value;
        } else if (option_value(argc, argv, &i, "--countname", &value)) {
            if (value == NULL) {
                return usage_error(flame_help, "flame: --countname needs a value%s", "");
            }
            options.countname = value;
        } else if (option_value(argc, argv, &i, "--width", &value)) {
            if (value == NULL || !parse_number(value, &options.width) || options.width <= 20 ||
                options.width > 1e6) {
                return usage_error(flame_help, "flame: --width wants pixels above 20, not %s",
                                   value ? value : "nothing");
            }
        } else if (option_value(argc, argv, &i, "--minwidth", &value)) {
            char number[64];
            size_t n = value ? strlen(value) : 0;
            minwidth_percent = n > 0 && value[n - 1] == '%';
            if (value == NULL || n - minwidth_percent >= sizeof number) {
                return usage_error(flame_help, "flame: bad --minwidth %s",
                                   value ? value : "(none)");
            }
            memcpy(number, value, n - minwidth_percent);
            number[n - minwidth_percent] = '\0';
            if (!parse_number(number, &options.minwidth) || options.minwidth < 0) {
                return usage_error(flame_help, "flame: bad --minwidth %s", value);
            }
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error(flame_help, "flame: unknown option %s", argv[i]);
        } else if (path != NULL) {
            return usage_error(flame_help, "flame: more than one file (%s)", argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (path == NULL) {
        return usage_error(flame_help, "flame: no folded-stacks file given%s", "");
    }
    if (minwidth_percent) {
        options.minwidth = options.minwidth / 100 * (options.width - 20);
    }
    /* Streamed: the input is never held in memory, only its distinct stacks. */
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
        fprintf(stderr, "dripprof: %s\n", read_error ? read_error : "out of memory");
    } else if (trie_finish(&trie) != 0) {
        fprintf(stderr, "dripprof: %s: %s\n", path, error);
        status = 1;
    } else {
        static char buffer[1 << 20];
        setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
        if (flame_write_trie(&trie, &options, stdout, &error) != 0) {
            fprintf(stderr, "dripprof: %s: %s\n", path, error);
            status = 1;
        }
    }
    free(read_error);
    trie_free(&trie);
    return status != 0;
}

/* The Folded view inclusive() takes, of folded lines. */
static Folded *as_folded(const FoldedFile *file) {
    Folded *stacks = malloc((file->count + 1) * sizeof *stacks);
    for (size_t i = 0; stacks != NULL && i < file->count; i++) {
        stacks[i] = (Folded){.stack = file->lines[i].stack, .count = file->lines[i].count};
    }
    return stacks;
}

static bool is_callgrind_file(const char *path) {
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        return false; /* the folded reader reports the open error */
    }
    char head[4096];
    size_t n = fread(head, 1, sizeof head, in);
    fclose(in);
    return callgrind_sniff(head, n);
}

static int top_of_callgrind(const char *path, TopOptions *options, const char *countname_set) {
    Callgrind graph;
    FoldResult folded;
    memset(&folded, 0, sizeof folded);
    int status = read_callgrind(path, &graph, &folded);
    Folded *stacks = NULL;
    if (status == 0) {
        stacks = malloc((folded.count + 1) * sizeof *stacks);
        status = stacks == NULL;
    }
    if (status == 0 && !exercise_ready("top", "inclusive")) {
        status = EXERCISE_NOT_READY;
    }
    if (status == 0) {
        for (size_t i = 0; i < folded.count; i++) {
            stacks[i] = (Folded){.stack = folded.lines[i].stack, .count = folded.lines[i].count};
        }
        options->kind = "callgrind.out, folded by dripprof fold";
        options->countname = countname_set ? countname_set : graph.event;
        const char *error;
        if (top_write(stacks, folded.count, folded.total, options, stdout, &error) != 0) {
            fprintf(stderr, "dripprof: %s: %s\n", path, error);
            status = 1;
        }
    }
    free(stacks);
    fold_free(&folded);
    callgrind_free(&graph);
    return status;
}

static int top_of_folded(const char *path, TopOptions *options, const char *countname_set) {
    FoldedFile file;
    if (read_folded(path, &file) != 0) {
        folded_free(&file);
        return 1;
    }
    uint64_t total;
    Folded *stacks = as_folded(&file);
    int status = 0;
    const char *error = NULL;
    if (stacks == NULL) {
        error = "out of memory";
    } else if (folded_total(&file, &total) != 0) {
        error = "the counts add up to more than 64 bits";
    } else if (file.count == 0) {
        error = "no stacks in the file";
    } else if (!exercise_ready("top", "inclusive")) {
        status = EXERCISE_NOT_READY;
    } else {
        options->kind = "folded stacks";
        options->countname = countname_set ? countname_set : "samples";
        top_write(stacks, file.count, total, options, stdout, &error);
    }
    if (error != NULL) {
        fprintf(stderr, "dripprof: %s: %s\n", path, error);
        status = 1;
    }
    free(stacks);
    folded_free(&file);
    return status;
}

static int run_top(int argc, char **argv) {
    if (wants_help(argc, argv)) {
        fputs(top_help, stdout);
        printf("\nThe inclusive table is computed by inclusive() from %s;\nuntil it works, top "
               "says so and exits 3.\n",
               exercise_source());
        return 0;
    }
    TopOptions options = {0};
    const char *path = NULL, *value, *countname = NULL;
    for (int i = 0; i < argc; i++) {
        if (option_value(argc, argv, &i, "--limit", &value)) {
            char *end;
            long long limit = value ? strtoll(value, &end, 10) : -1;
            if (value == NULL || *end != '\0' || limit < 0) {
                return usage_error(top_help, "top: --limit wants a number, not %s",
                                   value ? value : "nothing");
            }
            options.limit = (size_t)limit;
        } else if (option_value(argc, argv, &i, "--countname", &value)) {
            if (value == NULL) {
                return usage_error(top_help, "top: --countname needs a value%s", "");
            }
            countname = value;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error(top_help, "top: unknown option %s", argv[i]);
        } else if (path != NULL) {
            return usage_error(top_help, "top: more than one file (%s)", argv[i]);
        } else {
            path = argv[i];
        }
    }
    if (path == NULL) {
        return usage_error(top_help, "top: no file given%s", "");
    }
    options.source = path;
    if (strcmp(path, "-") != 0 && is_callgrind_file(path)) {
        return top_of_callgrind(path, &options, countname);
    }
    return top_of_folded(path, &options, countname);
}

static int run_calls(int argc, char **argv) {
    if (wants_help(argc, argv)) {
        fputs(calls_help, stdout);
        return 0;
    }
    if (argc < 1 || argv[0][0] == '-') {
        return usage_error(calls_help, "calls: no callgrind.out file given%s", "");
    }
    Callgrind graph;
    if (callgrind_read_file(argv[0], &graph) != 0) {
        fprintf(stderr, "dripprof: %s\n", graph.error ? graph.error : "out of memory");
        callgrind_free(&graph);
        return 1;
    }
    size_t n = graph.function_count;
    char **names = fold_clean_names(&graph);
    Cost *calls = calloc(n + 1, sizeof *calls);
    int status = names && calls ? 0 : 1;
    for (size_t f = 0; status == 0 && f < n; f++) {
        calls[f].name = names[f];
    }
    for (size_t i = 0; status == 0 && i < graph.arc_count; i++) {
        const CgArc *arc = &graph.arcs[i];
        if (arc->calls > UINT64_MAX - calls[arc->callee].cost) {
            status = 1;
        } else {
            calls[arc->callee].cost += arc->calls;
        }
    }
    /* One row per name: merge the functions that share a cleaned name. */
    size_t merged = 0;
    if (status == 0) {
        qsort(calls, n, sizeof *calls, top_compare_costs);
        for (size_t f = 0; f < n; f++) {
            size_t k = 0;
            while (k < merged && strcmp(calls[k].name, calls[f].name) != 0) {
                k++;
            }
            if (k == merged) {
                calls[merged++] = calls[f];
            } else {
                calls[k].cost += calls[f].cost;
            }
        }
        qsort(calls, merged, sizeof *calls, top_compare_costs);
    }
    for (size_t k = 0; status == 0 && k < merged; k++) {
        bool wanted = argc == 1 && calls[k].cost > 0;
        for (int a = 1; a < argc && !wanted; a++) {
            wanted = strcmp(argv[a], calls[k].name) == 0;
        }
        if (wanted) {
            printf("%" PRIu64 "  %s\n", calls[k].cost, calls[k].name);
        }
    }
    for (int a = 1; status == 0 && a < argc; a++) {
        bool found = false;
        for (size_t k = 0; k < merged && !found; k++) {
            found = strcmp(argv[a], calls[k].name) == 0;
        }
        if (!found) {
            printf("0  %s\n", argv[a]);
        }
    }
    if (status != 0) {
        fprintf(stderr, "dripprof: %s: out of memory or a call count above 64 bits\n", argv[0]);
    }
    free(calls);
    fold_free_names(names, n);
    callgrind_free(&graph);
    return status;
}

static int run_files(int argc, char **argv) {
    if (wants_help(argc, argv)) {
        fputs(files_help, stdout);
        printf("\nThe rows are read by parse_row() from %s; until it works, files says so\nand "
               "exits 3.\n",
               exercise_source());
        return 0;
    }
    if (argc != 1 || argv[0][0] == '-') {
        return usage_error(files_help, "files: give one callgrind_annotate output file%s", "");
    }
    /* Before reading: every line of the file goes through parse_row(). */
    if (!exercise_ready("files", "parse_row")) {
        return EXERCISE_NOT_READY;
    }
    AnnotateTable table;
    if (annotate_read_file(argv[0], &table) != 0) {
        fprintf(stderr, "dripprof: %s\n", table.error ? table.error : "out of memory");
        annotate_free(&table);
        return 1;
    }
    Cost *files = NULL;
    size_t count = 0;
    int status = 0;
    if (annotate_sum_by_file(&table, &files, &count) != 0) {
        fprintf(stderr, "dripprof: %s: out of memory or a sum above 64 bits\n", argv[0]);
        status = 1;
    } else {
        char total[40];
        int width = snprintf(total, sizeof total, "%" PRIu64, table.total);
        width += (width - 1) / 3;
        printf("Ir (self, by source file)\n");
        top_write_row(stdout, table.total, table.total, width, "PROGRAM TOTALS");
        for (size_t i = 0; i < count; i++) {
            top_write_row(stdout, files[i].cost, table.total, width, files[i].name);
            free(files[i].name);
        }
        free(files);
    }
    annotate_free(&table);
    return status;
}

/* Refuses a file that is already differential: its first line has two counts. */
static int plain_folded(const char *path, const FoldedFile *file) {
    size_t length;
    uint64_t count;
    if (file->count > 0 &&
        diff_split_first_count(file->lines[0].stack, file->lines[0].length, &length, &count) != 0) {
        fprintf(stderr,
                "dripprof: %s:%zu: two counts on the line: diff compares plain folded stacks, "
                "not differential ones\n",
                path, file->lines[0].line);
        return 1;
    }
    return 0;
}

static int run_diff(int argc, char **argv) {
    if (wants_help(argc, argv)) {
        fputs(diff_help, stdout);
        return 0;
    }
    for (int i = 0; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error(diff_help, "diff: unknown option %s", argv[i]);
        }
    }
    if (argc != 2) {
        return usage_error(diff_help, "diff: give two folded-stacks files, BEFORE and AFTER%s", "");
    }
    if (strcmp(argv[0], "-") == 0 && strcmp(argv[1], "-") == 0) {
        return usage_error(diff_help, "diff: only one of the files can be stdin%s", "");
    }
    FoldedFile files[2];
    memset(files, 0, sizeof files);
    int status = 0;
    for (int i = 0; i < 2 && status == 0; i++) {
        status = read_folded(argv[i], &files[i]) || plain_folded(argv[i], &files[i]);
    }
    FoldedDiff diff;
    const char *error;
    int which;
    if (status == 0 && diff_folded(&files[0], &files[1], &diff, &error, &which) != 0) {
        fprintf(stderr, "dripprof: %s: %s\n", which >= 0 ? argv[which] : "diff", error);
        status = 1;
    } else if (status == 0) {
        if (diff.count == 0) {
            fprintf(stderr, "dripprof: diff: no stack with a count above 0 in %s or %s\n", argv[0],
                    argv[1]);
            status = 1;
        } else if (diff_write(&diff, stdout) != 0) {
            fprintf(stderr, "dripprof: diff: write error\n");
            status = 1;
        }
        diff_free(&diff);
    }
    folded_free(&files[0]);
    folded_free(&files[1]);
    return status;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fputs(main_help, stderr);
        return 2;
    }
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
        strcmp(command, "help") == 0) {
        fputs(main_help, stdout);
        return 0;
    }
    if (strcmp(command, "fold") == 0) {
        return run_fold(argc - 2, argv + 2);
    }
    if (strcmp(command, "flame") == 0) {
        return run_flame(argc - 2, argv + 2);
    }
    if (strcmp(command, "top") == 0) {
        return run_top(argc - 2, argv + 2);
    }
    if (strcmp(command, "calls") == 0) {
        return run_calls(argc - 2, argv + 2);
    }
    if (strcmp(command, "files") == 0) {
        return run_files(argc - 2, argv + 2);
    }
    if (strcmp(command, "diff") == 0) {
        return run_diff(argc - 2, argv + 2);
    }
    fprintf(stderr, "dripprof: unknown command '%s'\n\n%s", command, main_help);
    return 2;
}
