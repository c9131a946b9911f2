#!/usr/bin/env bash
# test_chapters.sh RESULT: the `chapters` suite of `make test` (make test-chapters), run
# from the workbook's root with the chapter's files in the environment (chapters.mk):
#
#   CH_TEMPLATE CH_MARKDOWN   the chapter's template and its rendering
#   CH_DATA CH_FIGURES        its data files, its committed flame graphs
#   BUILD CC CWARN MAKE LUA   where builds go, how listings are compiled, the tools
#
# Checks, one pass or failure each: the committed chapter is what its template and data
# render; every committed figure is what its data draws now (make draws a fresh copy into
# $BUILD/chapters/figures); every C listing compiles and prints what the chapter says
# (chapter.lua listings); the chapter tools' own tests (render_spec.lua, under busted); the
# web edition in headless Chromium (check_book.sh: skipped, neither pass nor failure,
# without Chromium). Writes "PASSED FAILED" to RESULT.
set -uo pipefail
result=$1
tool="${LUA:-lua5.4} chapters/tools/chapter.lua"
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
# Adds a "PASSED FAILED" line (a result file or a command's last line) to the counts.
add_counts() {
    local p f
    if read -r p f <<< "$1" && [[ $p =~ ^[0-9]+$ && $f =~ ^[0-9]+$ ]]; then
        passed=$((passed + p)) failed=$((failed + f))
    else
        fail "$2 gave no count"
    fi
}

# shellcheck disable=SC2086 # CH_DATA is a list of files
if $tool stale "$CH_TEMPLATE" "$CH_MARKDOWN" $CH_DATA; then
    pass "$CH_MARKDOWN matches its template and data"
else
    fail "$CH_MARKDOWN is stale"
fi

for figure in $CH_FIGURES; do
    fresh=$BUILD/chapters/figures/$(basename "$figure")
    if "${MAKE:-make}" -s --no-print-directory "$fresh" && cmp -s "$fresh" "$figure"; then
        pass "$figure is drawn from its data"
    else
        fail "$figure differs from what its data draws: run 'make chapters'"
    fi
done

mkdir -p "$BUILD/chapters/listings"
# shellcheck disable=SC2086 # CWARN is a list of flags
out=$($tool listings "$CH_MARKDOWN" "$BUILD/chapters/listings" -- "${CC:-cc}" $CWARN 2>&1)
echo "$out" | sed '$d'
add_counts "$(echo "$out" | tail -n 1)" "chapter.lua listings"

bash vm/lib/busted.sh "$BUILD/chapters/tools.result" chapters/tools/render_spec.lua | grep -v -e '^ok ' -e '^1\.\.'
add_counts "$(cat "$BUILD/chapters/tools.result" 2>/dev/null)" "render_spec.lua"

bash chapters/book/check_book.sh "$BUILD/book" "$BUILD/book-check" "$CH_MARKDOWN"
case $? in
0) passed=$((passed + 1)) ;;
3) ;;
*) failed=$((failed + 1)) ;;
esac

echo "$passed $failed" > "$result"
echo "chapters: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
