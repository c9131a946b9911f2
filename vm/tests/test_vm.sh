#!/usr/bin/env bash
# test_vm.sh RESULT: the `vm` suite of `make test` (make test-vm), run from the workbook's
# root after make has built every VM flavour. The environment (vm/vm.mk) names them:
#
#   BUILD       where build/drip and its flavours are
#   TEST_DIRS   the Drip test programs (vm/tests/*/), run in every flavour
#   BENCH_DIR   the benchmarks (vm/bench), run by the differential test too
#   MEMCHECK    the subset that runs under valgrind memcheck
#   VALGRIND    the valgrind command; SAN_ENV the sanitizers' environment
#   LUA         the Lua interpreter (lua5.4)
#
# Parts: the release, outline, switch and GC-stress builds, the command-line spec
# (cli_spec.lua, under busted) and the differential test (differential.lua: the plain loop,
# which runs superinstructions, against the counting loop, on the tests and the benchmarks
# in the release build and on the tests in the switch build) in one group; the ASan+UBSan
# build and memcheck in another.
# The two groups run side by side, each into its own log; the logs are then printed in a
# fixed order, so the output does not interleave. Writes "PASSED FAILED" to RESULT.
set -uo pipefail
result=$1
out=$BUILD/test/vm
mkdir -p "$out"
rm -f "$out"/*.result "$out"/*.log
run() { "${LUA:-lua5.4}" vm/tests/run.lua "$@"; }
# shellcheck disable=SC2086 # TEST_DIRS and MEMCHECK are lists of paths
{
    for flavour in release outline switch gcstress; do
        drip=$BUILD/drip-$flavour
        [ $flavour = release ] && drip=$BUILD/drip
        run --label $flavour --result "$out/$flavour.result" "$drip" $TEST_DIRS
    done
    DRIP=$BUILD/drip bash vm/lib/busted.sh "$out/cli.result" vm/tests/cli_spec.lua | grep -v '^ok '
    "${LUA:-lua5.4}" vm/tests/differential.lua --label differential --scratch "$out" \
        --result "$out/differential.result" "$BUILD/drip" $TEST_DIRS "$BENCH_DIR"
    "${LUA:-lua5.4}" vm/tests/differential.lua --label differential-switch --scratch "$out" \
        --result "$out/differential-switch.result" "$BUILD/drip-switch" $TEST_DIRS
} > "$out/a.log" 2>&1 &
{
    run --label asan --wrap "$SAN_ENV" --result "$out/asan.result" "$BUILD/drip-asan" $TEST_DIRS
    if command -v valgrind > /dev/null; then
        run --label memcheck --wrap "$VALGRIND" --result "$out/memcheck.result" "$BUILD/drip" $MEMCHECK
    else
        echo "FAIL [memcheck] valgrind is not installed (make setup)"
        echo "0 1" > "$out/memcheck.result"
    fi
} > "$out/b.log" 2>&1 &
wait
cat "$out/a.log" "$out/b.log" | head -n 300

passed=0 failed=0
for part in release outline switch gcstress cli differential differential-switch asan memcheck; do
    if read -r p f < "$out/$part.result" 2> /dev/null; then
        passed=$((passed + p)) failed=$((failed + f))
    else
        echo "FAIL [$part] wrote no result"
        failed=$((failed + 1))
    fi
done
echo "$passed $failed" > "$result"
echo "vm: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
