/* tsv.c: the workbook's escape (see tsv.h). Runs of bytes that need no
 * escape are written with one fwrite. */
#include "tsv.h"

#include <string.h>

static int needs_escape(unsigned char c) {
    return c < 0x20 || c > 0x7e || c == '\\';
}

void tsv_field(FILE *out, const char *text, size_t length) {
    size_t plain = 0; /* start of the run not written yet */
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (!needs_escape(c)) {
            continue;
        }
        fwrite(text + plain, 1, i - plain, out);
        plain = i + 1;
        switch (c) {
        case '\\': fputs("\\\\", out); break;
        case '\t': fputs("\\t", out); break;
        case '\r': fputs("\\r", out); break;
        case '\n': fputs("\\n", out); break;
        default: fprintf(out, "\\x%02x", c);
        }
    }
    fwrite(text + plain, 1, length - plain, out);
}

static int hex_digit(char c) {
    const char *digits = "0123456789abcdef0123456789ABCDEF";
    const char *at = c != '\0' ? strchr(digits, c) : NULL;
    return at == NULL ? -1 : (int)((at - digits) % 16);
}

long tsv_unescape(char *text) {
    const char *first = strchr(text, '\\');
    if (first == NULL) {
        return (long)strlen(text); /* most fields: nothing to undo */
    }
    size_t in = (size_t)(first - text), out = in;
    while (text[in] != '\0') {
        char c = text[in++];
        if (c == '\\') {
            char e = text[in++];
            if (e == 'x' && hex_digit(text[in]) >= 0 && hex_digit(text[in + 1]) >= 0) {
                c = (char)(hex_digit(text[in]) * 16 + hex_digit(text[in + 1]));
                in += 2;
            } else {
                const char *from = "\\tnr", *to = "\\\t\n\r";
                const char *at = e != '\0' ? strchr(from, e) : NULL;
                if (at == NULL) {
                    return -1;
                }
                c = to[at - from];
            }
        }
        text[out++] = c;
    }
    text[out] = '\0';
    return (long)out;
}
