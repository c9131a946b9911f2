#!/usr/bin/env bash
# time_flame.sh DRIPPROF DIR: times `dripprof flame` on DIR/million.folded
# (best of three wall-clock runs) and, when flamegraph.pl is on the PATH,
# flamegraph.pl on the same input, for comparison, plus the instruction count
# under callgrind (stable across runs and load). Prints; asserts nothing.
set -uo pipefail
dripprof=$1
dir=$2
input=$dir/million.folded
now() { date +%s.%N; }
best=""
for run in 1 2 3; do
    start=$(now)
    "$dripprof" flame --title "bench: 1,000,000 lines" "$input" > "$dir/million.svg" || exit 1
    end=$(now)
    t=$(echo "$end - $start" | bc -l 2>/dev/null || awk "BEGIN { print $end - $start }")
    if [ -z "$best" ] || awk "BEGIN { exit !($t < $best) }"; then best=$t; fi
done
boxes=$(grep -c '<g class="f">' "$dir/million.svg")
printf 'bench-prof: dripprof flame: %.3f s (best of 3) for %s lines -> %s bytes of SVG, %s boxes\n' \
    "$best" "$(wc -l < "$input")" "$(wc -c < "$dir/million.svg")" "$boxes"
if command -v valgrind >/dev/null; then
    # Wall time depends on the machine and its load; the instruction count does not.
    valgrind --tool=callgrind --callgrind-out-file="$dir/flame.callgrind.out" \
        "$dripprof" flame "$input" > /dev/null 2> "$dir/valgrind.log"
    ir=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$dir/flame.callgrind.out")
    printf 'bench-prof: dripprof flame: %s instructions (callgrind), %s per line\n' \
        "$ir" "$(( ir / $(wc -l < "$input") ))"
fi
if command -v flamegraph.pl >/dev/null; then
    start=$(now)
    flamegraph.pl "$input" > "$dir/million-flamegraph-pl.svg"
    end=$(now)
    pl=$(awk "BEGIN { print $end - $start }")
    printf 'bench-prof: flamegraph.pl: %.3f s; ratio flamegraph.pl / dripprof = %.1f\n' \
        "$pl" "$(awk "BEGIN { print $pl / $best }")"
else
    echo "bench-prof: flamegraph.pl not on the PATH: no comparison run"
fi
