#!/usr/bin/env bash
# test_summary.sh RESULTS SUITE...: the closing line of `make test` (and test-slow),
# `N passed, N failed`, for the suites that just ran. Each suite wrote RESULTS/NAME.result
# ("PASSED FAILED") and its exit status to RESULTS/NAME.status. A suite that exited non-zero
# without counting a failure, or wrote no result, counts as one more failure, and so does
# a failed build of what the suites share (RESULTS/prebuild.status). Exits 1 on any failure.
set -uo pipefail
results=$1
shift
passed=0 failed=0
if [ -e "$results/prebuild.status" ]; then
    echo "make test: building what the suites share failed"
    failed=1
fi
for suite in "$@"; do
    result=$results/$suite.result
    status=$(cat "$results/$suite.status" 2> /dev/null)
    if [ -r "$result" ] && read -r p f < "$result" && [[ $p =~ ^[0-9]+$ && $f =~ ^[0-9]+$ ]]; then
        passed=$((passed + p)) failed=$((failed + f))
        if [ "$status" != 0 ] && [ "$f" -eq 0 ]; then
            echo "suite $suite exited $status but reported no failure"
            failed=$((failed + 1))
        fi
    else
        echo "suite $suite wrote no result (exit $status)"
        failed=$((failed + 1))
    fi
done
echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
