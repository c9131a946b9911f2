/* xml_check.c: a small well-formedness checker for the SVGs in the tests.
 *
 * Not a full XML parser: enough of one to catch what a flame graph writer
 * can get wrong (an unescaped '<' or '&' in a name, an unclosed <g>, an
 * attribute without quotes, bytes that are not UTF-8, text outside the root)
 * without needing xmllint. Handles the prolog, comments, CDATA sections,
 * start/end/empty tags with quoted attributes and the five predefined
 * entities plus numeric character references.
 */
#include "prof_test.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *text;
    size_t length;
    size_t at;
    char *why;
    size_t why_size;
} Xml;

static int bad(Xml *x, const char *what) {
    snprintf(x->why, x->why_size, "%s at byte %zu", what, x->at);
    return 0;
}

static int is_name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_' || c == ':' || c == '.';
}

static int starts(const Xml *x, const char *s) {
    size_t n = strlen(s);
    return x->at + n <= x->length && memcmp(x->text + x->at, s, n) == 0;
}

static int skip_until(Xml *x, const char *end) {
    const char *found = strstr(x->text + x->at, end);
    if (found == NULL) {
        return 0;
    }
    x->at = (size_t)(found - x->text) + strlen(end);
    return 1;
}

/* Checks the text at x->at up to a '<' (or the end): entities, no '>'-less
 * surprises, valid UTF-8. */
static int text_ok(Xml *x, char stop) {
    while (x->at < x->length && x->text[x->at] != stop) {
        unsigned char c = (unsigned char)x->text[x->at];
        if (c == '&') {
            const char *p = x->text + x->at + 1;
            if (strncmp(p, "amp;", 4) && strncmp(p, "lt;", 3) && strncmp(p, "gt;", 3) &&
                strncmp(p, "quot;", 5) && strncmp(p, "apos;", 5) && *p != '#') {
                return bad(x, "unknown entity");
            }
            if (*p == '#') {
                p++;
                while ((*p >= '0' && *p <= '9') || *p == 'x' || (*p >= 'a' && *p <= 'f')) {
                    p++;
                }
                if (*p != ';') {
                    return bad(x, "bad character reference");
                }
            }
        } else if (c == '<' && stop != '<') {
            return bad(x, "'<' inside an attribute value");
        } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            return bad(x, "control character");
        } else if (c >= 0x80) {
            int extra = (c & 0xE0) == 0xC0   ? 1
                        : (c & 0xF0) == 0xE0 ? 2
                        : (c & 0xF8) == 0xF0 ? 3
                                             : -1;
            if (extra < 0 || x->at + (size_t)extra >= x->length) {
                return bad(x, "invalid UTF-8");
            }
            for (int i = 1; i <= extra; i++) {
                if (((unsigned char)x->text[x->at + (size_t)i] & 0xC0) != 0x80) {
                    return bad(x, "invalid UTF-8");
                }
            }
            x->at += (size_t)extra;
        }
        x->at++;
    }
    return 1;
}

static int skip_space(Xml *x) {
    size_t start = x->at;
    while (x->at < x->length && strchr(" \t\r\n", x->text[x->at]) != NULL) {
        x->at++;
    }
    return x->at > start;
}

/* A start or empty tag at '<'; fills name. 1 start, 2 empty, 0 bad. */
static int start_tag(Xml *x, char *name, size_t size) {
    x->at++;
    size_t n = 0;
    while (x->at < x->length && is_name_char(x->text[x->at])) {
        if (n + 1 < size) {
            name[n++] = x->text[x->at];
        }
        x->at++;
    }
    name[n] = '\0';
    if (n == 0) {
        return bad(x, "tag without a name");
    }
    for (;;) {
        int spaced = skip_space(x);
        if (starts(x, "/>")) {
            x->at += 2;
            return 2;
        }
        if (starts(x, ">")) {
            x->at++;
            return 1;
        }
        if (!spaced || !is_name_char(x->text[x->at])) {
            return bad(x, "bad attribute");
        }
        while (x->at < x->length && is_name_char(x->text[x->at])) {
            x->at++;
        }
        if (!starts(x, "=\"")) {
            return bad(x, "attribute value not in double quotes");
        }
        x->at += 2;
        if (!text_ok(x, '"') || x->at >= x->length) {
            return 0;
        }
        x->at++;
    }
}

int prof_xml_well_formed(const char *text, size_t length, char *why, size_t why_size) {
    Xml x = {.text = text, .length = length, .why = why, .why_size = why_size};
    static char stack[8192][16];
    int depth = 0, roots = 0;
    if (strlen(text) != length) {
        return bad(&x, "NUL byte");
    }
    if (starts(&x, "<?xml") && !skip_until(&x, "?>")) {
        return bad(&x, "unterminated prolog");
    }
    while (x.at < length) {
        if (depth == 0) {
            skip_space(&x);
            if (x.at == length) {
                break;
            }
            if (!starts(&x, "<")) {
                return bad(&x, "text outside the root element");
            }
        }
        if (starts(&x, "<!--")) {
            if (!skip_until(&x, "-->")) {
                return bad(&x, "unterminated comment");
            }
        } else if (starts(&x, "<![CDATA[")) {
            if (depth == 0 || !skip_until(&x, "]]>")) {
                return bad(&x, "bad CDATA section");
            }
        } else if (starts(&x, "</")) {
            x.at += 2;
            size_t n = 0;
            char name[32];
            while (x.at < length && is_name_char(text[x.at])) {
                if (n + 1 < sizeof name) {
                    name[n++] = text[x.at];
                }
                x.at++;
            }
            name[n] = '\0';
            skip_space(&x);
            if (!starts(&x, ">") || depth == 0 || strcmp(stack[depth - 1], name) != 0) {
                return bad(&x, "end tag does not match the open element");
            }
            x.at++;
            depth--;
        } else if (starts(&x, "<")) {
            if (depth == 0 && roots++ > 0) {
                return bad(&x, "more than one root element");
            }
            char name[32];
            int kind = start_tag(&x, name, sizeof name);
            if (kind == 0) {
                return 0;
            }
            if (kind == 1) {
                if (depth == 8192 || strlen(name) >= sizeof stack[0]) {
                    return bad(&x, "nesting deeper than 8192 or a long tag name");
                }
                strcpy(stack[depth++], name);
            }
        } else if (!text_ok(&x, '<')) {
            return 0;
        }
    }
    if (depth != 0) {
        return bad(&x, "element left open at the end");
    }
    if (roots != 1) {
        return bad(&x, "no root element");
    }
    return 1;
}
