#!/usr/bin/env bash
# test_chapters.sh RESULT: the `chapters` suite of `make test` (make test-chapters), run
# from the workbook's root with, in the environment (chapters.mk):
#
#   CH_DIRS                 the chapter folders (chapters/N/)
#   BUILD CC CWARN LUA      where builds go, how listings are compiled, the Lua to run
#
# For every chapter, one pass or failure each: its committed text is what its template and
# data render, every committed figure is what its data draws now, every C listing compiles
# and prints what the text says (chapter.lua check); its page of the web edition in
# headless Chromium (check_book.sh: skipped, neither pass nor failure, without Chromium).
# Then the engine's tests (render_spec.lua) and the chapters' own (chapter_spec.lua), under
# busted. Writes "PASSED FAILED" to RESULT.
set -uo pipefail
result=$1
lua=${LUA:-lua5.4}
passed=0 failed=0
# Adds a "PASSED FAILED" line (a result file or a command's last line) to the counts.
add_counts() {
    local p f
    if read -r p f <<< "$1" && [[ $p =~ ^[0-9]+$ && $f =~ ^[0-9]+$ ]]; then
        passed=$((passed + p)) failed=$((failed + f))
    else
        failed=$((failed + 1))
        echo "FAIL $2 gave no count"
    fi
}

mkdir -p "$BUILD/chapters"
specs=(chapters/tools/render_spec.lua)
for dir in $CH_DIRS; do
    dir=${dir%/} n=${dir#chapters/}
    # shellcheck disable=SC2086 # CWARN is a list of flags
    out=$($lua chapters/tools/chapter.lua check "$dir" "$BUILD/chapters/$n" -- "${CC:-cc}" $CWARN 2>&1)
    echo "$out" | sed '$d'
    add_counts "$(echo "$out" | tail -n 1)" "chapter.lua check $dir"
    for template in "$dir"/*.md.in; do
        md=${template%.in}
        # The page's name as chapters.mk gives it: chapters/N/NAME.md is N-NAME.html.
        bash chapters/book/check_book.sh "$BUILD/book" "$BUILD/book-check/$n" "$md" "$n-$(basename "$md" .md).html"
        status=$?
        # 3: skipped (no Chromium), neither a pass nor a failure
        [ $status -eq 3 ] || add_counts "$((status == 0)) $((status != 0))" "check_book.sh"
    done
    [ -f "$dir/chapter_spec.lua" ] && specs+=("$dir/chapter_spec.lua")
done

bash vm/lib/busted.sh "$BUILD/chapters/tools.result" "${specs[@]}" | grep -v -e '^ok ' -e '^1\.\.'
add_counts "$(cat "$BUILD/chapters/tools.result" 2>/dev/null)" "the chapters' busted specs"

echo "$passed $failed" > "$result"
echo "chapters: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
