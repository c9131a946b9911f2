#!/usr/bin/env bash
# capture165.sh PROFILE_DIR DRIP DRIPPROF: copies what chapter 165 quotes
# from a `make profile-165` run (FIB_N=35) into chapters/data/165/, and
# measures the few things the profile does not record: normal-run times, a
# second profile of zoo (to show the count is steady), the real names behind
# callgrind's "(below main)", and the machine.
#
# Everything the chapter says comes from the files this writes; `make chapters`
# renders the text from them and `make test` checks the committed text against
# them. Tables are trimmed to their top rows, with absolute paths made
# relative to the repository.
#
# Folded stacks and callgrind_annotate's rows are read by dripprof, the
# workbook's one reader of each (`dripprof stacks` and `dripprof rows`: one
# tab-separated record per stack or row, so a frame or a label with blanks,
# such as "(below main)", stays one field); awk here only picks records.
set -euo pipefail
prof=$1 drip=$2 dripprof=$3
data=chapters/data/165
mkdir -p "$data"
root=$(pwd)

die() { echo "capture165: $*" >&2; exit 1; }
[ -f "$prof/summary-165.txt" ] || die "no $prof/summary-165.txt: run 'make profile-165' first"
grep -q '^fib_n = 35$' "$prof/summary-165.txt" || die "the profile was not made with FIB_N=35"
grep -q '^checks_failed = 0$' "$prof/summary-165.txt" || die "the profile's checks failed"

# Paths as a reader of the repository sees them.
trim_paths() { sed -e "s|$root/||g" -e 's|build/profile/src/|vm/src/|g'; }
# The PROGRAM TOTALS line and the first $2 rows of a callgrind_annotate function table,
# as they stand in the file (alignment kept): dripprof rows --table gives their line
# numbers, the totals row first.
table_top() {
    local lines
    lines=$("$dripprof" rows --table "$1" | awk -F'\t' -v rows="$2" 'NR <= rows + 1 { print $1 }')
    awk -v lines="$lines" '
        BEGIN { n = split(lines, wanted, "\n"); for (i = 1; i <= n; i++) order[wanted[i]] = i }
        FNR in order { print; if (order[FNR] == 1) print "" }' "$1" | trim_paths
}
# The sum of the counts of the rows for function $1 (every file and object it has
# rows for) in callgrind_annotate output read from stdin.
function_rows() {
    "$dripprof" rows --table - |
        awk -F'\t' -v f="$1" 'NR > 1 && $6 == f { s += $2 } END { printf "%.0f\n", s }'
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
    awk 'NR <= 10' > "$data/fib-inclusive.out"
# The rows of that table the chapter explains: a function's row without an
# object is callgrind_annotate's sum over the calls INTO it (call records
# name the file with its full path, so the key differs); the row with the
# object is built from the function's own records, and holds only the lines
# of its own file (inlined code from other files has rows of its own).
# Fields of `dripprof rows`: line, count, percentage, label, file, function, object.
{
    echo "# Rows of $prof/annotate-fib-inclusive.txt (callgrind_annotate --inclusive=yes)."
    "$dripprof" rows --table "$prof/annotate-fib-inclusive.txt" | awk -F'\t' -v root="$root/" '
        NR == 1 || $3 == "" { next }
        $6 == "main" || $6 == "interpret" || $6 == "runPlain" {
            n = $6
            if ($7 != "") own[n] = $2
            else if (index($5, root) == 1) called[n] = $2
            else if (n == "runPlain") inlined += $2
        }
        END {
            for (n in own) printf "%s_own = %s\n%s_called = %s\n", n, own[n], n, called[n]
            printf "runPlain_inlined_rows = %d\n", inlined
        }' | sort
} > "$data/inclusive.txt"
head -n 5 "$prof/annotate-fib-g1-files.txt" | trim_paths > "$data/fib-files.out"
# The loop's own count in the builds without and with line tables: every row
# of runPlain (one per source file once there are line tables), added up.
runplain_rows() { callgrind_annotate --auto=no --threshold=100 "$1" | function_rows runPlain; }
{
    echo "# runPlain's instructions (all its rows) in the -O2 and -O2 -g1 profiles of fib."
    echo "runPlain_nodebug = $(runplain_rows "$prof/callgrind.out.fib-nodebug")"
    echo "runPlain_line_tables = $(runplain_rows "$prof/callgrind.out.fib-g1")"
} > "$data/line_tables.txt"
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
# The chapter's sentences about them (depths, widths, the heaviest stack,
# what grew) are computed from these files when it is rendered (stacks.lua).
cp "$prof/fib-c.folded" "$data/fib-c.folded"
cp "$prof/fib-drip.folded" "$data/fib-drip.folded"
# The outlined-call build, for the differential flame graph against fib-c.
[ -f "$prof/callgrind.out.fib-outline" ] ||
    die "no $prof/callgrind.out.fib-outline: profile-165 needs its DRIP_OUTLINE build"
"$dripprof" fold "$prof/callgrind.out.fib-outline" > "$data/fib-outline-c.folded" ||
    die "dripprof fold failed on $prof/callgrind.out.fib-outline"
rm -f "$data/drip.txt" "$data/folded.txt" # computed by the renderer now

# ---- what callgrind calls "(below main)" and the loader's nameless entry -------------
# Valgrind renames the functions below main unless --show-below-main=yes;
# one tiny run with it shows which they are. The first frame of every stack
# is the dynamic loader's entry point, which has no symbol: callgrind names
# it by its address, the "Entry point address" of the loader's ELF header.
empty=$(mktemp --suffix=.drip)
names=$(mktemp)
valgrind --tool=callgrind --show-below-main=yes --callgrind-out-file="$names" "$drip" "$empty" \
    >/dev/null 2>&1 || die "valgrind --show-below-main=yes failed"
# The first stack that ends in main below at least one frame (dripprof stacks: the count,
# then one field per frame), joined again with ';'.
below=$("$dripprof" stacks "$names" | awk -F'\t' '
    !found && NF > 2 && $NF == "main" {
        found = 1; stack = $2; for (i = 3; i <= NF; i++) stack = stack ";" $i; print stack }')
rm -f "$empty" "$names"
loader=$(readelf -l "$drip" | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
[ -n "$below" ] && [ -n "$loader" ] || die "could not find the frames below main or the loader"
{
    echo "# The frames below main, by their own names (callgrind --show-below-main=yes)."
    echo "$below" | awk -F';' '{ printf "stack = %s\n", $0
        for (i = 1; i < NF; i++) printf "frame_%d = %s\n", i, $i }'
    echo "loader = $loader"
    echo "loader_entry = $(readelf -h "$loader" | sed -n 's/.*Entry point address: *//p')"
} > "$data/below.txt"

# ---- the same profile twice -------------------------------------------------------
second=$(mktemp)
valgrind --tool=callgrind --callgrind-out-file="$second" "$drip" vm/bench/zoo.drip >/dev/null 2>&1 ||
    die "valgrind failed on zoo.drip"
{
    echo "# Two callgrind runs of zoo.drip: profile-165's and one more by capture165.sh."
    echo "ir_zoo_first = $(sed -n 's/^ir_zoo_total = //p' "$prof/summary-165.txt")"
    echo "ir_zoo_second = $("$dripprof" stacks "$second" |
        awk -F'\t' '{ s += $1 } END { printf "%.0f", s }')"
    echo "runPlain_zoo_first = $(runplain_rows "$prof/callgrind.out.zoo")"
    echo "runPlain_zoo_second = $(runplain_rows "$second")"
} > "$data/repeat.txt"
rm -f "$second"

# ---- time: the best of three normal runs, and the run under callgrind -------------
runs=$(for _ in 1 2 3; do "$drip" vm/bench/fib.drip | tail -n 1; done | sort -g)
best=$(echo "$runs" | head -n 1)
slowest=$(echo "$runs" | tail -n 1)
under=$(tail -n 1 "$prof/fib.stdout")
{
    echo "# Seconds printed by fib.drip itself: three normal runs, and the run under callgrind."
    echo "fib_seconds = $(awk -v s="$best" 'BEGIN { printf "%.2f", s }')"
    echo "fib_seconds_slowest = $(awk -v s="$slowest" 'BEGIN { printf "%.2f", s }')"
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
