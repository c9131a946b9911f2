// check_book.js: the checks of one web-edition page, run in headless Chromium by
// check_book.sh, which loads this file into its check page after the page's parameters:
// FIGURES (the SVGs the Markdown names), DIFFS (how many are differential), NOTES (the
// Markdown's footnotes) and PAGE (the page's file name). One line per check goes into
// <pre id="result">, then RESULT: PASSED or RESULT: FAILED.
var MATCH = 'rgb(230,0,230)';
var lines = [], failed = 0, loaded = 0;
function check(what, ok, got) {
  lines.push((ok ? 'ok   ' : 'FAIL ') + what + (ok ? '' : ' (got ' + got + ')'));
  if (!ok) failed++;
}
function click(el) { el.dispatchEvent(new MouseEvent('click', { bubbles: true })); }
function boxNamed(svg, name) {
  var found = null;
  svg.querySelectorAll('g.f').forEach(function (g) {
    if (!found && g.querySelector('title').textContent.indexOf(name + ' (') === 0) found = g;
  });
  return found;
}
// The frames of a graph that have one box each and a plain name (no need to escape them in
// a search), with their widths: { name: width }.
function onceNames(svg) {
  var count = {}, width = {}, once = {};
  svg.querySelectorAll('g.f').forEach(function (g) {
    var title = g.querySelector('title').textContent, name = title.slice(0, title.lastIndexOf(' ('));
    count[name] = (count[name] || 0) + 1;
    width[name] = Number(g.querySelector('rect').getAttribute('width'));
  });
  Object.keys(count).forEach(function (n) {
    if (n !== 'all' && count[n] === 1 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) once[n] = width[n];
  });
  return once;
}
function checkPage() {
  var frame = document.getElementById('page'), doc = frame.contentDocument, win = frame.contentWindow;
  var table = doc.querySelector('table');
  if (table) {
    var style = win.getComputedStyle(table);
    check('style sheet applied (tables)', style.borderCollapse === 'collapse', style.borderCollapse);
  }
  if (doc.querySelector('pre.sourceCode.c')) {
    var keyword = doc.querySelector('pre.sourceCode.c code span.kw, pre.sourceCode.c code span.dt');
    check('C listing highlighted', keyword !== null &&
          win.getComputedStyle(keyword).color !== win.getComputedStyle(keyword.parentNode).color,
          keyword && win.getComputedStyle(keyword).color);
  }
  var svgs = [];
  FIGURES.forEach(function (src) {
    var fig = doc.querySelector('figure[data-src="' + src + '"]');
    var svg = fig && fig.querySelector('svg');
    var box = svg && svg.getBoundingClientRect();
    check('figure ' + src + ' inline', svg !== null, fig);
    if (!svg) return;
    svgs.push(svg);
    check('figure ' + src + ' has a size', box.width > 0 && box.height > 0, box.width + 'x' + box.height);
    check('figure ' + src + ' script ran', svg.getAttribute('data-ready') === 'yes',
          svg.getAttribute('data-ready'));
  });
  check('no other inline SVG', doc.querySelectorAll('figure svg').length === FIGURES.length,
        doc.querySelectorAll('figure svg').length);
  if (svgs.length > 0) checkGraphs(svgs);

  var refs = doc.querySelectorAll('a.footnote-ref');
  var dangling = [].filter.call(refs, function (a) { return !doc.getElementById(a.getAttribute('href').slice(1)); });
  check('footnotes link to their notes', (NOTES === 0 || refs.length > 0) && dangling.length === 0,
        refs.length + ' / ' + dangling.length);
  check('no horizontal scrolling', doc.documentElement.scrollWidth <= doc.documentElement.clientWidth,
        doc.documentElement.scrollWidth);
  var problems = win.__problems || ['the recorder did not run'];
  check('no errors while loading and using the page', problems.length === 0, problems.join('; '));
}
function checkGraphs(svgs) {
  // Search in the first graph for its widest frame that has one box: that box turns
  // magenta, the other graphs do not move.
  var first = svgs[0], once = onceNames(first), names = Object.keys(once);
  var full = Number(first.querySelector('g.f > rect').getAttribute('width'));
  names.sort(function (a, b) { return once[b] - once[a]; });
  check('the first graph has a frame with one box', names.length > 0, names.length);
  if (names.length === 0) return;
  var name = names[0];
  var win = document.getElementById('page').contentWindow;
  win.prompt = function () { return '^' + name + '$'; };
  click(first.querySelector('#search'));
  var painted = 0;
  first.querySelectorAll('g.f > rect').forEach(function (r) {
    if (r.getAttribute('fill') === MATCH) painted++;
  });
  var matched = first.querySelector('#matched').textContent;
  check('search for ' + name + ' paints its box', painted === 1, painted);
  check('search says Matched', /^Matched: [0-9.]+%$/.test(matched) && matched !== 'Matched: 0.00%', matched);
  svgs.slice(1).forEach(function (other, i) {
    check('search leaves graph ' + (i + 2) + ' alone', other.querySelector('#matched').textContent.trim() === '',
          other.querySelector('#matched').textContent);
  });
  click(first.querySelector('#search'));
  check('search reset', first.querySelector('#matched').textContent.trim() === '',
        first.querySelector('#matched').textContent);

  // A click on the narrowest of those boxes zooms it to the full width.
  var narrow = names[names.length - 1];
  var box = boxNamed(first, narrow).querySelector('rect');
  click(box);
  check('click zooms ' + narrow, Math.abs(Number(box.getAttribute('width')) - full) < 0.02, box.getAttribute('width'));
  click(first.querySelector('#unzoom'));

  // Hover in each differential graph: both counts and the change.
  var diffs = svgs.filter(function (s) { return s.querySelector('#legend'); });
  check('the differential graphs have a legend', diffs.length === DIFFS, diffs.length + ' of ' + DIFFS);
  diffs.forEach(function (diff) {
    var boxes = diff.querySelectorAll('g.f'), target = boxes[boxes.length - 1];
    target.querySelector('rect').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    var details = diff.querySelector('#details').textContent;
    check('hover shows before, after and change', /\([0-9,]+ [^,]+, [0-9.]+%\); before: [0-9,]+, change: /.test(details),
          details);
  });
}
function checkIndex() {
  var doc = document.getElementById('index').contentDocument;
  check('index links the chapter', doc.querySelector('a[href="' + PAGE + '"]') !== null,
        doc.body && doc.body.innerHTML.slice(0, 200));
}
function finish() {
  try { checkPage(); checkIndex(); } catch (e) { check('no exception in the checks', false, e); }
  document.getElementById('result').textContent =
    lines.join('\n') + '\n' + (failed ? 'RESULT: FAILED' : 'RESULT: PASSED');
}
window.addEventListener('load', finish);
