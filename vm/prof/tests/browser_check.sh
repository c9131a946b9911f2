#!/usr/bin/env bash
# browser_check.sh DRIPPROF WORKDIR: loads a flame graph in headless Chromium.
#
# An HTML page holds the SVG in an iframe; its script drives the real user
# interface (the Search button with prompt() answered, a click on a box, the
# Reset Zoom button), checks the outcome against numbers computed from the
# folded input below, and writes one line per check into the page, which
# --dump-dom prints. No npm, no driver: just Debian's chromium, started by
# headless.sh (shared with the web edition's check, chapters/book/).
#
# Exit: 0 all checks passed, 1 a check failed (or the page never ran),
#       3 skipped because no chromium is installed (not a pass).
set -uo pipefail
dripprof=$1
work=$2
. "$(dirname "$0")/headless.sh"
browser=$(headless_browser)
if [ -z "$browser" ]; then
    echo "prof: browser check SKIPPED: chromium is not installed (apt-get install chromium)"
    exit 3
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)
# fib: 15 of 20 (once per stack); run: 18 of 20; fib under run: 15 of 18.
cat > "$work/stacks.folded" <<'DATA'
main;run;fib;fib;fib 10
main;run;fib 5
main;run;op_add 3
main;other (2) 2
DATA
if ! "$dripprof" flame --title 'browser <check> & co' --countname 'Ir (x)' "$work/stacks.folded" > "$work/graph.svg"; then
    echo "prof: browser check FAILED: dripprof flame failed"
    exit 1
fi
cat > "$work/check.html" <<'PAGE'
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>flame graph check</title></head>
<body><iframe id="graph" src="graph.svg" width="1200" height="400"></iframe>
<pre id="result">not run</pre>
<script>
window.addEventListener('load', function () {
  var lines = [], failed = 0;
  function check(what, ok, got) {
    lines.push((ok ? 'ok   ' : 'FAIL ') + what + (ok ? '' : ' (got ' + got + ')'));
    if (!ok) failed++;
  }
  try {
    var frame = document.getElementById('graph');
    var doc = frame.contentDocument, win = frame.contentWindow;
    var scriptErrors = [];
    win.addEventListener('error', function (e) { scriptErrors.push(e.message); });
    check('script ran (data-ready)', doc.documentElement.getAttribute('data-ready') === 'yes',
          doc.documentElement.getAttribute('data-ready'));
    function box(name, d) { /* in this graph, or in the document d */
      var found = null;
      (d || doc).querySelectorAll('g.f').forEach(function (g) {
        if (!found && g.querySelector('title').textContent.indexOf(name + ' (') === 0) found = g;
      });
      return found;
    }
    function width(name) { return Number(box(name).querySelector('rect').getAttribute('width')); }
    function click(el) { el.dispatchEvent(new MouseEvent('click', { bubbles: true })); }
    check('title escaped', doc.getElementById('title').textContent === 'browser <check> & co',
          doc.getElementById('title').textContent);
    check('tooltip', box('fib').querySelector('title').textContent === 'fib (15 Ir (x), 75.00%)',
          box('fib').querySelector('title').textContent);
    var full = width('all');
    var parsed = win.flame.frames.filter(function (f) { return f.name === 'other (2)' && f.count === 2; });
    check('names and counts read back from titles with parentheses', parsed.length === 1,
          JSON.stringify(win.flame.frames.map(function (f) { return [f.name, f.count]; })));
    check('run is 90% wide', Math.abs(width('run') - full * 0.9) < 0.02, width('run'));

    win.prompt = function () { return '^fib$'; };
    click(doc.getElementById('search'));
    var matched = doc.getElementById('matched').textContent;
    check('search: Matched counts recursion once', matched === 'Matched: 75.00%', matched);
    var painted = 0;
    doc.querySelectorAll('g.f > rect').forEach(function (r) {
      if (r.getAttribute('fill') === 'rgb(230,0,230)') painted++;
    });
    check('search: three fib boxes painted', painted === 3, painted);
    click(doc.getElementById('search'));
    check('search reset', doc.getElementById('matched').textContent.trim() === '',
          doc.getElementById('matched').textContent);

    click(box('run').querySelector('rect'));
    check('zoom: run fills the width', Math.abs(width('run') - full) < 0.02, width('run'));
    check('zoom: fib scaled to 15/18', Math.abs(width('fib') - full * 15 / 18) < 0.02, width('fib'));
    check('zoom: other hidden', box('other').classList.contains('hide'), box('other').getAttribute('class'));
    check('zoom: main dimmed', box('main').classList.contains('parent'), box('main').getAttribute('class'));
    var unzoom = doc.getElementById('unzoom');
    check('zoom: Reset Zoom shown', !unzoom.classList.contains('hide'), unzoom.getAttribute('class'));
    click(unzoom);
    check('reset zoom: run back to 90%', Math.abs(width('run') - full * 0.9) < 0.02, width('run'));
    check('reset zoom: other visible', !box('other').classList.contains('hide'), box('other').getAttribute('class'));
    win.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    check('no script errors in the handlers', scriptErrors.length === 0, scriptErrors.join('; '));
    // The state in the URL: a second copy opened at ?x=..&y=.. (run's box) and ?s=..
    var rect = box('run').querySelector('rect');
    var second = document.createElement('iframe');
    second.width = 1200;
    second.height = 400;
    second.addEventListener('load', function () {
      try {
        var d2 = second.contentDocument;
        var w2 = Number(box('run', d2).querySelector('rect').getAttribute('width'));
        check('URL ?x=&y= zooms to run', Math.abs(w2 - full) < 0.02, w2);
        var m2 = d2.getElementById('matched').textContent;
        check('URL ?s= searches', m2 === 'Matched: 75.00%', m2);
      } catch (e) {
        check('no exception in the URL checks', false, e);
      }
      finish();
    });
    second.src = 'graph.svg?x=' + rect.getAttribute('x') + '&y=' + rect.getAttribute('y') +
                 '&s=' + encodeURIComponent('^fib$');
    document.body.appendChild(second);
  } catch (e) {
    check('no exception', false, e);
    finish();
  }
  function finish() {
    document.getElementById('result').textContent =
      lines.join('\n') + '\n' + (failed ? 'RESULT: FAILED' : 'RESULT: PASSED');
  }
});
</script></body></html>
PAGE
headless_check "$browser" "file://$work/check.html" "$work" "prof: browser: " "prof: browser check"
