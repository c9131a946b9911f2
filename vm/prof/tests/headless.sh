# headless.sh: loading a check page in headless Chromium, for the browser checks.
# Sourced by vm/prof/tests/browser_check.sh (a flame graph on its own) and
# chapters/book/check_book.sh (the web edition), so both start the browser the
# same way and read its verdict the same way. No driver and no npm: the check
# page's own script does the checks and writes one line per check, then
# "RESULT: PASSED" or "RESULT: FAILED", into its <pre id="result">; Chromium's
# --dump-dom prints the page as the script left it.
#
#   headless_browser
#       prints the path of chromium (or of a browser that takes the same
#       flags), or nothing when none is installed
#   headless_check BROWSER URL WORKDIR PREFIX WHAT
#       loads URL, lets its scripts run for up to five seconds of virtual
#       time, writes the result lines (each after PREFIX) to WORKDIR/result.txt
#       and the browser's own messages to WORKDIR/chromium.log, says how
#       WHAT ("prof: browser check") went, and returns 0 when it passed, 1 otherwise
#
# The flags: running as root needs --no-sandbox; the background-networking
# flags keep Chromium from reaching for the network, which this machine and
# CI do not have; a fresh --user-data-dir each time leaves no state behind;
# file:// pages may read their neighbours (--allow-file-access-from-files),
# which the checks need to look inside the iframes they load.

headless_browser() {
    command -v chromium || command -v chromium-browser || command -v google-chrome || true
}

headless_check() {
    local browser=$1 url=$2 work=$3 prefix=$4 what=$5 profile
    profile=$(mktemp -d)
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --allow-file-access-from-files --user-data-dir="$profile" --virtual-time-budget=5000 \
        --dump-dom "$url" 2>"$work/chromium.log" |
        # From <pre id="result"> to the first </pre>, even on the same line: the
        # page's script, which holds the same words, is never read as a result.
        awk '/<pre id="result">/ { on = 1 } on { print } on && /<\/pre>/ { exit }' |
        sed -e 's/<[^>]*>//g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g' \
            -e "s/^/$prefix/" > "$work/result.txt"
    rm -rf "$profile"
    if grep -qx "${prefix}RESULT: PASSED" "$work/result.txt"; then
        echo "$what passed ($(grep -c "^${prefix}ok" "$work/result.txt") checks in headless chromium)"
        return 0
    fi
    echo "$what FAILED (chromium log: $work/chromium.log)"
    grep -v "^${prefix}ok" "$work/result.txt" | head -20
    return 1
}
