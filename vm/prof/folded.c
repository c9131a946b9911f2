/* folded.c: reading folded stacks (see folded.h for the API).
 *
 * The format has no specification, only tools that disagree (flamegraph.pl
 * splits at any whitespace and sums decimals as floats; inferno splits at the
 * last space and truncates decimals). The rules chosen here, and why:
 *
 * Count. The count is the text after the last run of blanks/TABs, so frames
 * may contain blanks ("(below main)") and a TAB-separated file reads like a
 * space-separated one. It must be a plain decimal integer that fits in
 * uint64_t: our counts are instructions or bytecodes, exact integers, and
 * summing floats would lose the exactness the profiler is about. So "1.5",
 * "-3", "1e3", "0x10", "+4" and "1,000" are errors with a message saying which, where
 * flamegraph.pl would silently drop or round the line.
 *
 * Stack. Everything before that run of blanks. It must not be empty, and no
 * frame may be empty ("a;;b", ";a", "a;"): such a line is damaged output and
 * an empty frame would draw as a nameless box. Frames are otherwise kept byte
 * for byte (leading blanks included); ';' cannot be escaped.
 *
 * Lines. '\n' ends a line; one '\r' before it is dropped (CRLF files), and so
 * are trailing blanks/TABs. Lines that are empty after that are skipped. The
 * last line needs no '\n' (a file cut short in the middle of a line is still
 * caught: it has no count or a shorter one, which no reader could tell).
 * Any other control character, NUL included, is an error: it means a binary
 * or corrupted file, and it would break the SVG we write from these names.
 *
 * Comments. None: "# note 5" is a stack with the frame "# note", exactly as
 * flamegraph.pl reads it; a C++ frame may well contain '#'.
 *
 * Memory. folded_read_* keep the whole input in one buffer (slurp.h); each
 * stack is cut in place (its terminating blank becomes a NUL), so lines
 * point into the buffer and reading a million lines costs one pass and a
 * handful of allocations. folded_each_* read 1 MB at a time (more only for a
 * longer line) and hand each line to a callback, for consumers that keep
 * less than the input.
 *
 * Speed. Each line is checked a word (eight bytes) at a time for control
 * bytes and for ";;", with bit tricks that have no false negatives; a hint
 * of ";;" is then confirmed exactly.
 */
#define _POSIX_C_SOURCE 200809L
#include "folded.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "message.h"
#include "slurp.h"

static bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

static bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* "1e3", "2.5E+6", "1e-3": digits (or a '.') then e or E, maybe a sign, then the digits
 * that start at line[start]. */
static bool is_exponent(const char *line, size_t start) {
    size_t e = start - 1;
    if ((line[e] == '+' || line[e] == '-') && e > 0) {
        e--;
    }
    return (line[e] == 'e' || line[e] == 'E') && e > 0 &&
           (is_digit(line[e - 1]) || line[e - 1] == '.');
}

/* "0x10", "0xff0": a word that starts "0x" or "0X", then hex digits, the last of them the
 * decimal digits that start at line[start]. */
static bool is_hexadecimal(const char *line, size_t start) {
    size_t x = start - 1;
    while (x > 0 && isxdigit((unsigned char)line[x])) {
        x--;
    }
    return (line[x] == 'x' || line[x] == 'X') && x > 0 && line[x - 1] == '0' &&
           (x == 1 || is_blank(line[x - 2]));
}

/* Explains why the text before the trailing digits (at line[start], start > 0) is not a
 * blank. */
static const char *bad_count_reason(const char *line, size_t start) {
    if (is_exponent(line, start)) {
        return "count is in exponent notation (write 1e3 as 1000)";
    }
    if (is_hexadecimal(line, start)) {
        return "count is hexadecimal (write 0x10 as 16)";
    }
    switch (line[start - 1]) {
    case '.': return "count is not an integer (decimals are not accepted)";
    case '-': return "count is negative";
    case '+': return "count has a sign";
    case ',': return "count has thousands separators";
    case ';': return "no count after the last frame";
    default: return "no blank or TAB between the stack and the count";
    }
}

/* Rejects "a;;b", ";a" and "a;". */
static bool has_empty_frame(const char *stack, size_t len) {
    if (stack[0] == ';' || stack[len - 1] == ';') {
        return true;
    }
    for (const char *p = memchr(stack, ';', len); p != NULL;
         p = memchr(p + 1, ';', len - (size_t)(p + 1 - stack))) {
        if (p[1] == ';') {
            return true;
        }
    }
    return false;
}

/* Bytewise: the first byte below 0x20 other than TAB in [from, len), or len;
 * notes a ";;" on the way. */
static size_t scan_bytes(const char *line, size_t from, size_t len, bool *empty_frame) {
    for (size_t i = from; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c < 0x20 && c != '\t') {
            return i;
        }
        if (c == ';' && i > 0 && line[i - 1] == ';') {
            *empty_frame = true;
        }
    }
    return len;
}

/* Eight bytes of v: does one lie below 0x20, and may two ';' stand side by
 * side? (v - 0x20..) & ~v & 0x80.. is non-zero exactly when some byte is
 * below 0x20. With x = v ^ ";;;;;;;;" a ';' is a zero byte of x, and
 * x | (x >> 8) has a zero in bytes 0-6 exactly when two ';' are adjacent. */
static bool has_control(uint64_t v) {
    return ((v - 0x2020202020202020u) & ~v & 0x8080808080808080u) != 0;
}

static bool has_double_semicolon(uint64_t x) {
    uint64_t y = x | (x >> 8);
    return ((y - 0x0101010101010101u) & ~y & 0x0080808080808080u) != 0;
}

/* One pass over a line, a word at a time: returns the index of the first
 * byte below 0x20 other than TAB (or len) and sets *empty_frame when ";;"
 * occurs (a hint: has_empty_frame decides). A pair split between two words
 * is caught by carrying "the word's last byte was ';'" (either byte order
 * leaves exactly that pair to the carry); the last 1-7 bytes are
 * read as one word that overlaps bytes already seen. */
static size_t scan_line(const char *line, size_t len, bool *empty_frame) {
    const uint64_t semicolons = 0x3B3B3B3B3B3B3B3Bu;
    *empty_frame = false;
    if (len < 8) {
        return scan_bytes(line, 0, len, empty_frame);
    }
    bool carry = false;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t v;
        memcpy(&v, line + i, 8);
        if (has_control(v)) {
            return scan_bytes(line, i, len, empty_frame);
        }
        uint64_t x = v ^ semicolons;
        if (has_double_semicolon(x) || (carry && line[i] == ';')) {
            *empty_frame = true;
        }
        carry = line[i + 7] == ';'; /* memory order, whatever the byte order */
    }
    if (i < len) {
        uint64_t v;
        memcpy(&v, line + len - 8, 8);
        if (has_control(v)) {
            return scan_bytes(line, len - 8, len, empty_frame);
        }
        if (has_double_semicolon(v ^ semicolons)) {
            *empty_frame = true;
        }
    }
    return len;
}

/* parse_line's reason for a line with a control byte; line_error names the byte. */
static const char binary_data[] = "binary data";

/* One line (without its '\n'; a trailing '\r' is allowed), parsed in place: cuts the
 * count off line[] and stores the stack start, its length and the count. Returns 1 for a
 * stack, 0 for a blank line, -1 for a malformed line (left as it was) with *why set to a
 * static message. The one rule of both readers. */
static int parse_line(char *line, size_t len, const char **stack, size_t *stack_len,
                      uint64_t *count, const char **why) {
    if (len > 0 && line[len - 1] == '\r') {
        len--;
    }
    bool empty_frame;
    size_t bad = scan_line(line, len, &empty_frame);
    if (bad < len) {
        *why = binary_data;
        return -1;
    }
    while (len > 0 && is_blank(line[len - 1])) {
        len--;
    }
    if (len == 0) {
        return 0;
    }
    size_t start = len;
    while (start > 0 && is_digit(line[start - 1])) {
        start--;
    }
    if (start == len) {
        *why = "no count at the end of the line";
        return -1;
    }
    if (start == 0) {
        *why = "no stack before the count";
        return -1;
    }
    if (!is_blank(line[start - 1])) {
        *why = bad_count_reason(line, start);
        return -1;
    }
    uint64_t value = 0;
    for (size_t i = start; i < len; i++) {
        uint64_t digit = (uint64_t)(line[i] - '0');
        if (value > UINT64_MAX / 10 || (value == UINT64_MAX / 10 && digit > UINT64_MAX % 10)) {
            *why = "count does not fit in 64 bits";
            return -1;
        }
        value = value * 10 + digit;
    }
    size_t end = start;
    while (end > 0 && is_blank(line[end - 1])) {
        end--;
    }
    if (end == 0) {
        *why = "empty stack";
        return -1;
    }
    if (line[0] == ';' || line[end - 1] == ';' || (empty_frame && has_empty_frame(line, end))) {
        *why = "empty frame in the stack (\";;\", or ';' at either end)";
        return -1;
    }
    line[end] = '\0';
    *stack = line;
    *stack_len = end;
    *count = value;
    return 1;
}

/* The message for a line parse_line refused: why, or for binary data the byte that makes
 * it so, as the callgrind reader words it ("binary data (control character 0x01)"). Found
 * again here, off the hot path: parse_line only says that there is one. */
static const char *line_error(const char *why, const char *line, size_t len, char *buffer,
                              size_t size) {
    if (why != binary_data) {
        return why;
    }
    size_t i = 0;
    while (i < len && ((unsigned char)line[i] >= 0x20 || line[i] == '\t')) {
        i++;
    }
    if (i == len || line[i] == '\0') { /* (the end cannot happen: there is a bad byte) */
        return "binary data (NUL byte)";
    }
    snprintf(buffer, size, "binary data (control character 0x%02x)", (unsigned char)line[i]);
    return buffer;
}

/* Parses the complete lines in buffer[0..*used) and hands them to visit;
 * moves a trailing partial line to the front. At the end of the input
 * (final) the rest is a line too. */
static int visit_lines(char *buffer, size_t *used, bool final, size_t *number, const char *name,
                       FoldedVisitor visit, void *context, char **error) {
    char *cursor = buffer, *end = buffer + *used;
    while (cursor < end) {
        char *newline = memchr(cursor, '\n', (size_t)(end - cursor));
        if (newline == NULL && !final) {
            break;
        }
        size_t line_len = newline ? (size_t)(newline - cursor) : (size_t)(end - cursor);
        (*number)++;
        const char *stack, *why = NULL;
        size_t stack_len;
        uint64_t count;
        int status = parse_line(cursor, line_len, &stack, &stack_len, &count, &why);
        if (status < 0 || (status == 1 && visit(context, stack, stack_len, count, &why) != 0)) {
            char text[48];
            return message_fail(error, name, *number, "%s",
                                why ? line_error(why, cursor, line_len, text, sizeof text)
                                    : "stopped");
        }
        cursor += line_len + 1;
    }
    size_t rest = cursor < end ? (size_t)(end - cursor) : 0;
    memmove(buffer, cursor < end ? cursor : end, rest);
    *used = rest;
    return 0;
}

/* The visitor of folded_read_*: each stack joins the index, numbered by the line it is on. */
typedef struct {
    FoldedFile *out;
    size_t capacity;
    size_t number; /* visit_lines counts the lines here */
} Index;

static int append_line(void *context, const char *stack, size_t length, uint64_t count,
                       const char **why) {
    Index *index = context;
    FoldedFile *out = index->out;
    FoldedLine *lines = grow(out->lines, &index->capacity, out->count + 1, sizeof *lines, 1024);
    if (lines == NULL) {
        *why = "out of memory";
        return -1;
    }
    out->lines = lines;
    out->lines[out->count++] =
        (FoldedLine){.stack = stack, .length = length, .count = count, .line = index->number};
    return 0;
}

/* Splits out->text (len bytes plus a NUL the caller added) into lines, in place: the last
 * line is final, so visit_lines moves nothing. */
static int parse_text(FoldedFile *out, const char *name, size_t len) {
    /* A folded line is rarely shorter than 24 bytes, so len / 24 entries
     * almost always suffice: the index gets its final size at once (memory
     * is only touched as entries are written), and append_line doubles it
     * in the rare case of shorter lines. */
    Index index = {.out = out, .capacity = len / 24 + 16};
    out->lines = malloc(index.capacity * sizeof *out->lines);
    if (out->lines == NULL) {
        return message_fail(&out->error, name, 0, "out of memory");
    }
    return visit_lines(out->text, &len, true, &index.number, name, append_line, &index,
                       &out->error);
}

static void reset(FoldedFile *out) {
    out->lines = NULL;
    out->count = 0;
    out->text = NULL;
    out->error = NULL;
}

int folded_read_buffer(const char *name, const char *data, size_t len, FoldedFile *out) {
    reset(out);
    out->text = malloc(len + 1);
    if (out->text == NULL) {
        return message_fail(&out->error, name, 0, "out of memory");
    }
    if (len > 0) {
        memcpy(out->text, data, len);
    }
    out->text[len] = '\0';
    return parse_text(out, name, len);
}

int folded_read_file(const char *path, FoldedFile *out) {
    reset(out);
    size_t len;
    const char *why;
    out->text = slurp_file(path, &len, &why);
    if (out->text == NULL) {
        return message_fail(&out->error, path, 0, "%s", why);
    }
    return parse_text(out, path, len);
}

void folded_free(FoldedFile *file) {
    free(file->lines);
    free(file->text);
    free(file->error);
    reset(file);
}

int folded_each_stream(FILE *in, const char *name, FoldedVisitor visit, void *context,
                       char **error) {
    size_t capacity = 1 << 20, used = 0, number = 0;
    char *buffer = malloc(capacity);
    *error = NULL;
    if (buffer == NULL) {
        return message_fail(error, name, 0, "out of memory");
    }
    int status = 0;
    for (;;) {
        /* fread always gets a byte (capacity - used - 1 > 0): a line longer than the buffer
         * doubles it */
        char *grown = grow(buffer, &capacity, used + 2, 1, capacity);
        if (grown == NULL) {
            status = message_fail(error, name, number + 1, "out of memory");
            break;
        }
        buffer = grown;
        size_t got = fread(buffer + used, 1, capacity - used - 1, in);
        used += got;
        bool final = got == 0;
        if (final && ferror(in)) {
            status = message_fail(error, name, 0, "read error");
            break;
        }
        status = visit_lines(buffer, &used, final, &number, name, visit, context, error);
        if (status != 0 || final) {
            break;
        }
    }
    free(buffer);
    return status;
}

int folded_each_file(const char *path, FoldedVisitor visit, void *context, char **error) {
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        return message_fail(error, path, 0, "cannot open: %s", strerror(errno));
    }
    int status = folded_each_stream(in, path, visit, context, error);
    fclose(in);
    return status;
}

int folded_total(const FoldedFile *file, uint64_t *total) {
    uint64_t sum = 0;
    for (size_t i = 0; i < file->count; i++) {
        if (file->lines[i].count > UINT64_MAX - sum) {
            return -1;
        }
        sum += file->lines[i].count;
    }
    *total = sum;
    return 0;
}
