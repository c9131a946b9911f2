#!/usr/bin/env bash
# capture165.sh PROFILE_DIR DRIP: copies what chapter 165 quotes from a
# `make profile-165` run (FIB_N=35) into chapters/data/165/, and measures the
# few things the profile does not record: normal-run time, a second profile of
# zoo (to show the count is steady), and the machine.
#
# Everything the chapter says comes from the files this writes; `make chapters`
# renders the text from them and `make test` checks the committed text against
# them. Tables are trimmed to their top rows, with absolute paths made
# relative to the repository.
set -euo pipefail
prof=$1 drip=$2
data=chapters/data/165
mkdir -p "$data"
root=$(pwd)

die() { echo "capture165: $*" >&2; exit 1; }
[ -f "$prof/summary-165.txt" ] || die "no $prof/summary-165.txt: run 'make profile-165' first"
grep -q '^fib_n = 35$' "$prof/summary-165.txt" || die "the profile was not made with FIB_N=35"
grep -q '^checks_failed = 0$' "$prof/summary-165.txt" || die "the profile's checks failed"

# Paths as a reader of the repository sees them.
trim_paths() { sed -e "s|$root/||g" -e 's|build/profile/src/|vm/src/|g'; }
# The PROGRAM TOTALS line and the first $2 rows of a callgrind_annotate function table.
table_top() {
    awk -v rows="$2" '
        /PROGRAM TOTALS/ { print; print ""; next }
        /file:function$/ { intable = 1; getline; next }
        intable && /^$/ { exit }
        intable && shown < rows { print; shown++ }' "$1" | trim_paths
}

# ---- the profile's numbers --------------------------------------------------------
{
    echo "# Copied from $prof/summary-165.txt by chapters/tools/capture165.sh."
    grep -v '^check' "$prof/summary-165.txt"
    calls=$(sed -n 's/^fib_calls = //p' "$prof/summary-165.txt")
    echo "fib_calls_leaf = $(((calls + 1) / 2))"
    echo "fib_calls_inner = $(((calls - 1) / 2))"
} > "$data/profile.txt"

table_top "$prof/annotate-fib-self.txt" 4 > "$data/fib-self.out"
# Inclusive: the VM's own rows (the rows above them are the dynamic loader and libc's start-up).
table_top "$prof/annotate-fib-inclusive.txt" 100 | awk '/PROGRAM TOTALS|^$/ || /vm\/src\// { print }' |
    awk 'NR <= 8' > "$data/fib-inclusive.out"
head -n 5 "$prof/annotate-fib-g1-files.txt" | trim_paths > "$data/fib-files.out"
# The busiest source lines of the -g1 profile: count, then file:line and the text.
# Call sites (`=> ...`) and the `events annotated` footer are not source lines.
awk '
    /^-- Auto-annotated source: / { file = $4; sub(/.*\//, "", file); next }
    /^-- line [0-9]+ / { line = $3; next }
    file == "" { next }
    match($0, /^ *[0-9,]+ \( *[0-9.]+%\)  /) {
        head = substr($0, 1, RLENGTH); text = substr($0, RLENGTH + 1)
        if (text ~ /^ *=> / || text ~ /^events annotated/) next
        gsub(/^ +| +$/, "", head); gsub(/^[ \t]+/, "", text)
        printf "%s  %s:%d  %s\n", head, file, line, text
        line++; next
    }
    /^ *\. / { line++ }' "$prof/annotate-fib-g1-lines.txt" |
    awk '{ n = $1; gsub(/,/, "", n); print n "\t" $0 }' | sort -t "$(printf '\t')" -k1,1nr |
    awk 'NR <= 6' | cut -f2- > "$data/fib-lines.out"

sed -n '/drip --count/,/^total/p' "$prof/fib-counts.txt" |
    awk '/^total/ || !/ 0 +0\.00%$/' > "$data/fib-count.out"
sed -n '/drip --profile/,$p' "$prof/fib-counts.txt" > "$data/fib-profile.out"

# ---- the flame graphs' data (make chapters draws them) ----------------------------
cp "$prof/fib-c.folded" "$data/fib-c.folded"
cp "$prof/fib-drip.folded" "$data/fib-drip.folded"
{
    echo "# Drip-level stacks of fib.drip ($prof/fib-drip.folded)."
    awk '{ n = gsub(/;fib/, "&"); if (n > max) max = n } END { print "fib_depth = " max }' \
        "$data/fib-drip.folded"
    # How wide the tower is, as a share of the whole, 20 and 30 levels up.
    awk '{ n = split($1, f, ";"); for (d = 1; d <= n; d++) w[d] += $2 }
         END { printf "width_at_20 = %.1f\nwidth_at_30 = %.1f\n", 100 * w[20] / w[1], 100 * w[30] / w[1] }' \
        "$data/fib-drip.folded"
} > "$data/drip.txt"
{
    echo "# The heaviest line of the C-level folded stacks of fib.drip."
    awk '$NF + 0 > max { max = $NF + 0; line = $0 } END { print "heaviest = " line }' "$data/fib-c.folded"
} > "$data/folded.txt"

# ---- the same profile twice -------------------------------------------------------
second=$(mktemp)
valgrind --tool=callgrind --callgrind-out-file="$second" "$drip" vm/bench/zoo.drip >/dev/null 2>&1 ||
    die "valgrind failed on zoo.drip"
{
    echo "# Two callgrind runs of zoo.drip: profile-165's and one more by capture165.sh."
    echo "ir_zoo_first = $(sed -n 's/^ir_zoo_total = //p' "$prof/summary-165.txt")"
    echo "ir_zoo_second = $(sed -n 's/^totals: *//p' "$second")"
} > "$data/repeat.txt"
rm -f "$second"

# ---- time: the best of three normal runs, and the run under callgrind -------------
best=$(for _ in 1 2 3; do "$drip" vm/bench/fib.drip | tail -n 1; done | sort -g | head -n 1)
under=$(tail -n 1 "$prof/fib.stdout")
{
    echo "# Seconds printed by fib.drip itself: best of three normal runs, and under callgrind."
    echo "fib_seconds = $(awk -v s="$best" 'BEGIN { printf "%.2f", s }')"
    echo "fib_seconds_callgrind = $(awk -v s="$under" 'BEGIN { printf "%.1f", s }')"
    echo "callgrind_slowdown = $(awk -v a="$under" -v b="$best" 'BEGIN { printf "%.1f", a / b }')"
} > "$data/timing.txt"

{
    echo "# The machine behind the numbers."
    cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)
    echo "description = Debian $(cat /etc/debian_version 2>/dev/null || echo '?'), ${cpu:-unknown CPU}, $(nproc) cores"
    echo "compiler = $(${CC:-cc} --version | head -n 1)"
    echo "valgrind = $(valgrind --version)"
} > "$data/machine.txt"

echo "capture165: wrote $data/; now run 'make chapters' (text and figures) and reread the chapter"
