/* tsv.c: escaped fields of tab-separated output (see tsv.h). Runs of bytes
 * that need no escape are written with one fwrite. */
#include "tsv.h"

void tsv_field(FILE *out, const char *text, size_t length) {
    size_t plain = 0; /* start of the run not written yet */
    for (size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c != 0x7f && c != '\\') {
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
