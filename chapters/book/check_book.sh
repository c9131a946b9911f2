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
#     ways; the index links the page.
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
<iframe id="index" src="index.html" width="600" height="300"></iframe>
<pre id="result">not run</pre>
<script>var FIGURES = $figures, DIFFS = $diffs, NOTES = $notes, PAGE = "$page";</script>
<script src="check_book.js"></script></body></html>
PAGE

headless_check "$browser" "file://$work/check.html" "$work" "chapters: book: " "chapters: book check"
