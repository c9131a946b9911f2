#!/usr/bin/env bash
# bench_prof.sh DRIPPROF GEN_FOLDED DIR: dripprof against callgrind_annotate on large
# real profiles, and dripprof flame on large synthetic folded files, side by side in one
# run. Prints a table; exits 1 when a total disagrees, and asserts no time.
#
# Inputs, made once and kept in DIR (a second run only measures):
#   cc1.callgrind.out      callgrind of gcc -O2 -g -c $BENCH_PROF_SOURCE (vm/src/codegen.c):
#                          cc1's own file of the --trace-children=yes run;
#   python3.callgrind.out  callgrind of python3 importing 20 stdlib modules (if python3);
#   synthetic-N.folded     gen_folded N, for each N of $BENCH_PROF_LINES (100000 1000000).
# Any *.callgrind.out already in DIR is measured too; BENCH_PROF_REAL=0 makes no real
# profile (make test runs the script so, on a copy of a small fixture).
#
# Each command runs under /usr/bin/time: CPU is user+sys seconds, peak is the maximum
# resident set. The totals of callgrind_annotate (PROGRAM TOTALS), of dripprof fold (the sum
# of its lines) and of dripprof top (its PROGRAM TOTALS) must equal the file's totals:.
set -uo pipefail
dripprof=$1
gen_folded=$2
dir=$3
source=${BENCH_PROF_SOURCE:-vm/src/codegen.c}
lines=${BENCH_PROF_LINES:-100000 1000000}
real=${BENCH_PROF_REAL:-1}
modules="json re csv decimal fractions statistics datetime argparse logging email.parser
 http.client urllib.request xml.etree.ElementTree sqlite3 pathlib subprocess asyncio
 unittest zipfile tarfile"
mkdir -p "$dir"
failed=0
say() { echo "bench-prof: $*"; }

if [ "$real" = 1 ] && [ ! -e "$dir/cc1.callgrind.out" ] && command -v valgrind > /dev/null; then
    say "profiling gcc -O2 -g -c $source under callgrind (once; kept in $dir)"
    rm -f "$dir"/gcc.*.out
    valgrind --tool=callgrind --trace-children=yes --callgrind-out-file="$dir/gcc.%p.out" \
        gcc -O2 -g -c "$source" -o /dev/null 2> "$dir/gcc.valgrind.log" || exit 1
    mv "$(grep -l '^cmd: .*cc1 ' "$dir"/gcc.*.out | head -1)" "$dir/cc1.callgrind.out" || exit 1
    rm -f "$dir"/gcc.*.out
fi
if [ "$real" = 1 ] && [ ! -e "$dir/python3.callgrind.out" ] && command -v python3 > /dev/null &&
    command -v valgrind > /dev/null; then
    say "profiling python3 importing 20 modules under callgrind (once)"
    # The interpreter itself: python3 on the PATH may be a shell script that runs it.
    python=$(python3 -c 'import sys; print(sys.executable)')
    valgrind --tool=callgrind --callgrind-out-file="$dir/python3.callgrind.out" \
        "$python" -c "import $(echo $modules | sed 's/ /, /g')" 2> "$dir/python3.valgrind.log" ||
        { rm -f "$dir/python3.callgrind.out"; exit 1; }
fi
for n in $lines; do
    [ -e "$dir/synthetic-$n.folded" ] || "$gen_folded" "$n" > "$dir/synthetic-$n.folded" || exit 1
done

# run OUTPUT COMMAND...: runs it, output to OUTPUT; sets cpu (s) and peak (MB).
run() {
    local output=$1
    shift
    /usr/bin/time -f '%U %S %M' -o "$dir/time.txt" "$@" > "$output" 2> "$dir/stderr.txt" ||
        { say "FAIL: $* failed: $(head -c 300 "$dir/stderr.txt")"; failed=1; }
    read -r user sys kb < <(tail -1 "$dir/time.txt")
    cpu=$(awk "BEGIN { printf \"%.2f\", $user + $sys }")
    peak=$(awk "BEGIN { printf \"%.1f\", $kb / 1024 }")
}
row() { printf 'bench-prof: %-24s %-20s %8s %9s  %s\n' "$@"; }
# program_totals FILE: the PROGRAM TOTALS row's count, without commas.
program_totals() { sed -n 's/^ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' "$1" | head -1 | tr -d ,; }

row input tool "CPU s" "peak MB" total
for profile in "$dir"/*.callgrind.out; do
    [ -e "$profile" ] || continue
    name=$(basename "$profile" .callgrind.out)
    want=$(sed -n 's/^\(totals\|summary\): *\([0-9]*\).*/\2/p' "$profile" | head -1)
    label="$name ($(( $(wc -c < "$profile") / 1024 )) KB)"
    row "$label" "totals: line" "" "" "$want"
    run "$dir/$name.annotate.txt" callgrind_annotate "$profile"
    annotate_cpu=$cpu annotate_peak=$peak
    row "" callgrind_annotate "$cpu" "$peak" "$(program_totals "$dir/$name.annotate.txt")"
    [ "$(program_totals "$dir/$name.annotate.txt")" = "$want" ] || failed=2
    run "$dir/$name.folded" "$dripprof" fold "$profile"
    # awk sums in doubles: exact below 2^53, far above any profile here.
    sum=$(awk '{ s += $NF } END { printf "%.0f", s }' "$dir/$name.folded")
    row "" "dripprof fold" "$cpu" "$peak" "$sum ($(wc -l < "$dir/$name.folded") lines)"
    printf 'bench-prof: %-24s %-20s %7.2fx %8.2fx\n' "" "fold/annotate" \
        "$(awk "BEGIN { print $cpu / ($annotate_cpu + 0.005) }")" \
        "$(awk "BEGIN { print $peak / $annotate_peak }")"
    [ "$sum" = "$want" ] || failed=2
    run "$dir/$name.top.txt" "$dripprof" top "$profile"
    row "" "dripprof top" "$cpu" "$peak" "$(program_totals "$dir/$name.top.txt")"
    printf 'bench-prof: %-24s %-20s %7.2fx %8.2fx\n' "" "top/annotate" \
        "$(awk "BEGIN { print $cpu / ($annotate_cpu + 0.005) }")" \
        "$(awk "BEGIN { print $peak / $annotate_peak }")"
    [ "$(program_totals "$dir/$name.top.txt")" = "$want" ] || failed=2
done
for n in $lines; do
    folded=$dir/synthetic-$n.folded
    run "$dir/synthetic-$n.svg" "$dripprof" flame "$folded"
    row "synthetic-$n.folded" "dripprof flame" "$cpu" "$peak" \
        "$(grep -c '<g class="f">' "$dir/synthetic-$n.svg") boxes, $(wc -c < "$dir/synthetic-$n.svg") B"
done
if [ "$failed" = 2 ]; then
    say "FAIL: a total differs from the profile's totals: line (above)"
fi
[ "$failed" = 0 ] && say "every total equal" || exit 1
