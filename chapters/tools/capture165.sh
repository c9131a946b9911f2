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
    awk 'NR <= 10' > "$data/fib-inclusive.out"
# The rows of that table the chapter explains: a function's row without an
# object is callgrind_annotate's sum over the calls INTO it (call records
# name the file with its full path, so the key differs); the row with the
# object is built from the function's own records, and holds only the lines
# of its own file (inlined code from other files has rows of its own).
{
    echo "# Rows of $prof/annotate-fib-inclusive.txt (callgrind_annotate --inclusive=yes)."
    awk -v root="$root/" '
        function count(s) { gsub(",", "", s); return s }
        /file:function$/ { intable = 1; next }
        !intable || !/ \(/ { next }
        $NF ~ /^\[/ { obj = 1; label = $(NF - 1) } !($NF ~ /^\[/) { obj = 0; label = $NF }
        { n = label; sub(/.*:/, "", n) }
        n == "main" || n == "interpret" || n == "runPlain" {
            file = label; sub(/:[^:]*$/, "", file)
            if (obj) own[n] = count($1)
            else if (index(file, root) == 1) called[n] = count($1)
            else if (n == "runPlain") inlined += count($1)
        }
        END {
            for (n in own) printf "%s_own = %s\n%s_called = %s\n", n, own[n], n, called[n]
            printf "runPlain_inlined_rows = %d\n", inlined
        }' "$prof/annotate-fib-inclusive.txt" | sort
} > "$data/inclusive.txt"
head -n 5 "$prof/annotate-fib-g1-files.txt" | trim_paths > "$data/fib-files.out"
# The loop's own count in the builds without and with line tables: every row
# of runPlain (one per source file once there are line tables), added up.
runplain_rows() {
    callgrind_annotate --auto=no --threshold=100 "$1" |
        awk '$0 ~ /:runPlain( |$)/ { c = $1; gsub(",", "", c); s += c } END { printf "%.0f\n", s }'
}
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
below=$("$dripprof" fold "$names" | awk '$1 ~ /;main$/ { print $1; exit }')
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
    echo "ir_zoo_second = $(sed -n 's/^totals: *//p' "$second")"
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
