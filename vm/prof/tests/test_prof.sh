#!/usr/bin/env bash
# test_prof.sh TESTBIN DRIPPROF DRIPPROF_ASAN DRIP WORKDIR RESULT: the `prof` suite of
# `make test` (make test-prof), run from the workbook's root.
#
# The cmocka binary TESTBIN (built with the sanitizers) writes "PASSED FAILED" itself; it
# also checks the fold invariants on fresh callgrind profiles of our own VM (DRIP on
# fib(15) and on the chapter's zoo), which only a machine without valgrind skips. run_cases.lua runs the cases of
# cases/*.txt on DRIPPROF_ASAN and counts them the same way. Then the headless-browser check
# of a flame graph made by DRIPPROF (browser_check.sh) adds one pass or one failure, or
# prints that it was skipped where Chromium is missing (neither). A callgrind run that
# fails is one more failure, and so is a part that wrote no count. Writes the total
# "PASSED FAILED" to RESULT.
set -uo pipefail
testbin=$1 dripprof=$2 dripprof_asan=$3 drip=$4 work=$5 result=$6
here=$(dirname "$0")
mkdir -p "$work"
rm -f "$result"

extra="" valgrind_failed=0
if command -v valgrind > /dev/null; then
    printf 'fun fib(n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }\nprint fib(15);\n' \
        > "$work/fib15.drip"
    for program in "$work/fib15.drip" vm/bench/zoo.drip; do
        out=$work/$(basename "$program" .drip).callgrind.out
        if valgrind --tool=callgrind --callgrind-out-file="$out" "$drip" "$program" > /dev/null 2>&1
        then
            extra="$extra $out"
        else
            echo "prof: FAILED: valgrind --tool=callgrind $drip $program"
            valgrind_failed=$((valgrind_failed + 1))
        fi
    done
else
    echo "prof: valgrind missing: fold invariants checked on the committed profiles only"
fi

rm -f "$work/unit.result" "$work/cases.result"
PROF_EXTRA_CALLGRIND="$extra" ASAN_OPTIONS=detect_leaks=1 "$testbin" "$work/unit.result"
status=$?
ASAN_OPTIONS=detect_leaks=1 "${LUA:-lua5.4}" "$here/run_cases.lua" "$dripprof_asan" "$work/cases.result" \
    "$here"/cases/*.txt
cases_status=$?
bash "$here/browser_check.sh" "$dripprof" "$work/browser"
browser=$?

passed=0 failed=$valgrind_failed
for part in unit cases; do
    if read -r p f < "$work/$part.result" 2> /dev/null; then
        passed=$((passed + p)) failed=$((failed + f))
    else
        echo "prof: FAILED: the $part tests wrote no result"
        failed=$((failed + 1))
    fi
done
case $browser in
0) passed=$((passed + 1)) ;;
1) failed=$((failed + 1)) ;;
esac
echo "$passed $failed" > "$result"
echo "prof: $passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$cases_status" -eq 0 ] && [ "$failed" -eq 0 ]
