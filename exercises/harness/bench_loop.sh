#!/usr/bin/env bash
# bench_loop.sh: how long a student waits between saving profile.c and reading the
# verdict: `touch profile.c`, then `make exercise-N` until its last line (the progress
# line and the count of failing tests), RUNS times, for exercises/N (the shipped stubs, or
# in the student edition the student's code) and for the reference (SOLUTION=1). Prints
# the median and the range of the wall-clock time, and the median CPU time (user + sys,
# the make and everything it ran), which depends far less on what else the machine is
# doing; and the load average before and after, since on a shared machine the
# wall-clock figures mean little without it.
#
#   bash exercises/harness/bench_loop.sh [CHAPTER [RUNS]]     (make bench-loop)
set -u
chapter=${1:-165}
runs=${2:-9}
make=${MAKE:-make}
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "edit-to-verdict of make exercise-$chapter, $runs runs each ($(nproc) cores)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for which in stubs reference; do
    if [ $which = stubs ]; then src=exercises/$chapter; flag=""; else src=solutions/$chapter; flag="SOLUTION=1"; fi
    if [ ! -d "$src" ]; then
        echo "$src is not here ($which), skipped"
        continue
    fi
    $make -s exercise-$chapter $flag > /dev/null 2>&1 # the test driver's objects, once
    : > "$out"
    TIMEFORMAT='%R %U %S'
    for _ in $(seq "$runs"); do
        touch "$src"/*.c
        { time $make -s exercise-$chapter $flag > /dev/null 2>&1; } 2>> "$out"
    done
    wall=$(awk '{ print $1 }' "$out" | median)
    cpu=$(awk '{ print $2 + $3 }' "$out" | median)
    range=$(awk '{ print $1 }' "$out" | sort -g | sed -n '1p;$p' | paste -sd' ')
    # Named by folder: in the student edition exercises/N holds the student's code, not stubs.
    printf '%-15s wall median %.2f s (min, max: %s s), CPU median %.2f s\n' \
        "$src:" "$wall" "$range" "$cpu"
done
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
