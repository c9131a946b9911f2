#!/usr/bin/env bash
# check_book.sh BOOK_DIR WORKDIR CHAPTER.md PAGE.html: one page of the web edition
# in headless Chromium.
#
# Loads the chapter's page (and the index) the way a reader does, with the
# browser of vm/prof/tests/headless.sh, and checks what a reader would see (each
# check of a kind of content the chapter has: tables, C listings, figures,
# differential figures, footnotes):
#
#   - the page loads without a script error, a console.error, an unhandled
#     rejection or a resource that failed to load (a recorder script is put
#     first into a copy of the page, so it hears everything after it);
#   - the style sheet applies (tables collapse their borders) and the C
#     listings are highlighted (keywords drawn in another colour);
#   - every figure the Markdown names is in the page as an inline <svg>, its
#     script has run (data-ready), and it has a non-zero size;
#   - a search in the first flame graph (for a frame it holds once) paints
#     the matching box, says "Matched: ...", and leaves the other graphs alone;
#     a click zooms;
#   - hovering over a box of each differential graph (a figure whose SVG has
#     a legend) shows both counts and the change; the footnotes link both
#     ways; the index links the page;
#   - the book around the text: every contents link leads to a heading and
#     every section is listed, the section in view is marked, each heading
#     links to itself, the search finds each section by a word of its title
#     ("inclusive"), the theme button changes the background, every code
#     block has a copy button, previous/next lead to pages of the book, and no
#     id is there twice;
#   - at 420 and 1400 px: nothing wider than the window but what scrolls
#     inside a box, figure labels of 11 px or more, the contents folded behind
#     a button (420) or beside the text (1400); with scripts off, the text,
#     figures and contents are shown.
# Then it writes three screenshots (420, 900 dark, 1400 px) into BOOK_DIR.
#
# The page's own script writes one line per check into the harness, which
# --dump-dom prints. Exit: 0 all passed, 1 a check failed, 3 skipped because
# no chromium is installed (not a pass).
set -uo pipefail
book=$1
work=$2
chapter=$3
page=$4
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../vm/prof/tests/headless.sh"
browser=$(headless_browser)
if [ -z "$browser" ]; then
    echo "chapters: book check SKIPPED: chromium is not installed (apt-get install chromium)"
    exit 3
fi
[ -f "$book/$page" ] || { echo "chapters: book check FAILED: no $book/$page (make book)"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cp -R "$book"/. "$work"/ && work=$(cd "$work" && pwd)

# The figures the Markdown shows, as the page names them (data-src).
figures=$(sed -n 's/^!\[[^]]*\](\([^)]*\.svg\))$/\1/p' "$chapter" |
    awk 'BEGIN { printf "[" } { printf "%s\"%s\"", (NR > 1 ? ", " : ""), $0 } END { printf "]" }')
# Of those, the differential ones (their SVG has a legend), and the Markdown's footnotes.
diffs=$(sed -n 's/^!\[[^]]*\](\([^)]*\.svg\))$/\1/p' "$chapter" |
    while read -r svg; do grep -q 'id="legend"' "$(dirname "$chapter")/$svg" && echo "$svg"; done | wc -l)
notes=$(grep -c '^\[\^[^]]*\]:' "$chapter")

# The recorder, first thing in the copy's <head>.
cat > "$work/recorder.js" <<'SCRIPT'
<script>window.__problems = [];
window.addEventListener("error", function (e) {
  var t = e.target;
  __problems.push(t && t !== window ? "failed to load " + (t.src || t.href || t.tagName) : "error: " + e.message);
}, true);
window.addEventListener("unhandledrejection", function (e) { __problems.push("rejection: " + e.reason); });
(function (original) {
  console.error = function () {
    __problems.push("console.error: " + [].join.call(arguments, " "));
    original.apply(console, arguments);
  };
})(console.error);</script>
SCRIPT
awk -v recorder="$work/recorder.js" '
    { print }
    /<head>/ && !done { while ((getline line < recorder) > 0) print line; done = 1 }' \
    "$book/$page" > "$work/$page"
grep -q '__problems' "$work/$page" || { echo "chapters: book check FAILED: no <head> in $page"; exit 1; }

cp "$here/check_book.js" "$work/check_book.js"
cat > "$work/check.html" <<PAGE
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>web edition check</title></head>
<body><iframe id="page" src="$page" width="1100" height="900"></iframe>
<iframe id="narrow" src="$page" width="420" height="900"></iframe>
<iframe id="wide" src="$page" width="1400" height="900"></iframe>
<iframe id="noscript" src="$page" width="1100" height="900" sandbox="allow-same-origin"></iframe>
<iframe id="index" src="index.html" width="600" height="300"></iframe>
<pre id="result">not run</pre>
<script>var FIGURES = $figures, DIFFS = $diffs, NOTES = $notes, PAGE = "$page";</script>
<script src="check_book.js"></script></body></html>
PAGE

headless_check "$browser" "file://$work/check.html" "$work" "chapters: book: " "chapters: book check"
status=$?

# Screenshots for a person to look at, into BOOK_DIR: the section of the page's first
# figure (or its top, without one) at three widths, the middle one in the dark theme. They
# are of a copy of the page that removes, once loaded, what comes before that section
# (Chromium draws nothing when the page scrolls before a screenshot). A screenshot that is
# not written fails the check.
cat > "$work/trim.js" <<'SCRIPT'
<script>addEventListener("load", function () {
  var h = document.querySelector("figure.flame") || document.querySelector("h1");
  while (h && h.tagName !== "H2") h = h.previousElementSibling;
  while (h && h.previousElementSibling && h.previousElementSibling.id !== "book-sidebar")
    h.previousElementSibling.remove();
});</script>
SCRIPT
awk -v trim="$work/trim.js" '/<\/body>/ { while ((getline line < trim) > 0) print line } { print }' \
    "$book/$page" > "$work/figure.html"
sed 's/^<html /<html data-theme="dark" /' "$work/figure.html" > "$work/figure-dark.html"
shots=""
for shot in 420:figure.html 900:figure-dark.html 1400:figure.html; do
    width=${shot%%:*} from=${shot#*:} profile=$(mktemp -d)
    png="$book/${page%.html}-$width$([ "$from" = figure.html ] || echo -dark).png"
    rm -f "$png"
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
        --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$profile" \
        --window-size="$width,1600" --virtual-time-budget=3000 --screenshot="$png" "file://$work/$from" \
        >>"$work/chromium.log" 2>&1
    rm -rf "$profile"
    if [ -s "$png" ]; then shots="$shots $png"; else echo "chapters: book: screenshot $png not written"; status=1; fi
done
[ -z "$shots" ] || echo "chapters: book: screenshots:$shots"
exit $status
