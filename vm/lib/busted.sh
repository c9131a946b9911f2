#!/usr/bin/env bash
# busted.sh RESULT ARGS...: runs busted (Debian's lua-busted) with ARGS (spec files, tags)
# under $LUA (default lua5.4), shows its TAP report as it goes, and writes "PASSED FAILED"
# to RESULT, the form `make test` adds up. Every Lua test suite of the workbook
# (*_spec.lua) runs through here.
#
# A pending test counts as neither. A report whose plan (the closing 1..N) is missing or
# does not add up means busted itself failed: one more failure, so a broken suite never
# looks green. Exit status: busted's, or 1 when it could not run.
set -uo pipefail
result=$1
shift
busted=$(command -v busted) || {
    echo "FAIL busted is not installed (Debian package lua-busted; make setup installs it)"
    echo "0 1" > "$result"
    exit 1
}
tap=$result.tap
"${LUA:-lua5.4}" "$busted" --output=TAP "$@" | tee "$tap"
status=${PIPESTATUS[0]}
awk -v status="$status" '
    /^ok [0-9]+ - # SKIP/ { next }
    /^ok [0-9]+ /         { passed++ }
    /^not ok [0-9]+ /     { failed++ }
    /^1\.\.[0-9]+$/       { plan = substr($0, 4) + 0; planned = 1 }
    END {
        if (!planned || plan < passed + failed) { failed++; print "FAIL busted wrote no complete report (exit " status ")" > "/dev/stderr" }
        printf "%d %d\n", passed, failed
    }' "$tap" > "$result"
read -r passed failed < "$result"
echo "[$(basename "$result" .result)] $passed passed, $failed failed"
[ "$status" -eq 0 ] || exit "$status"
[ "$failed" -eq 0 ]
