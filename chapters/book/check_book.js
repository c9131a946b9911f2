// check_book.js: the checks of one web-edition page, run in headless Chromium by
// check_book.sh, which loads this file into its check page after the page's parameters:
// FIGURES (the SVGs the Markdown names), DIFFS (how many are differential), NOTES (the
// Markdown's footnotes) and PAGE (the page's file name). The check page holds the page
// four times: #page at 1100 px (where the checks that click and type run), #narrow at
// 420, #wide at 1400 and #noscript with its scripts off (a sandboxed frame). One line
// per check goes into <pre id="result">, then RESULT: PASSED or RESULT: FAILED.
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
// An element of a graph by its name: inline_svg.lua gives the ids of the N-th figure the
// prefix figure-N-.
function part(svg, name) { return svg.querySelector('[id$="-' + name + '"]'); }
function frameOf(id) {
  var frame = document.getElementById(id);
  return { doc: frame.contentDocument, win: frame.contentWindow };
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
  click(part(first, 'search'));
  var painted = 0;
  first.querySelectorAll('g.f > rect').forEach(function (r) {
    if (r.getAttribute('fill') === MATCH) painted++;
  });
  var matched = part(first, 'matched').textContent;
  check('search for ' + name + ' paints its box', painted === 1, painted);
  check('search says Matched', /^Matched: [0-9.]+%$/.test(matched) && matched !== 'Matched: 0.00%', matched);
  svgs.slice(1).forEach(function (other, i) {
    check('search leaves graph ' + (i + 2) + ' alone', part(other, 'matched').textContent.trim() === '',
          part(other, 'matched').textContent);
  });
  click(part(first, 'search'));
  check('search reset', part(first, 'matched').textContent.trim() === '',
        part(first, 'matched').textContent);

  // A click on the narrowest of those boxes zooms it to the full width.
  var narrow = names[names.length - 1];
  var box = boxNamed(first, narrow).querySelector('rect');
  click(box);
  check('click zooms ' + narrow, Math.abs(Number(box.getAttribute('width')) - full) < 0.02, box.getAttribute('width'));
  click(part(first, 'unzoom'));

  // Hover in each differential graph: both counts and the change.
  var diffs = svgs.filter(function (s) { return part(s, 'legend'); });
  check('the differential graphs have a legend', diffs.length === DIFFS, diffs.length + ' of ' + DIFFS);
  diffs.forEach(function (diff) {
    var boxes = diff.querySelectorAll('g.f'), target = boxes[boxes.length - 1];
    target.querySelector('rect').dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    var details = part(diff, 'details').textContent;
    check('hover shows before, after and change', /\([0-9,]+ [^,]+, [0-9.]+%\); before: [0-9,]+, change: /.test(details),
          details);
  });
}
// The book around the text: contents, heading links, search, theme, copy buttons, ids.
function checkBook(doc, win) {
  var heads = [].slice.call(doc.querySelectorAll('h2'));
  var toc = [].slice.call(doc.querySelectorAll('#book-toc a[href^="#"]'));
  var targets = toc.map(function (a) { return doc.getElementById(decodeURIComponent(a.hash.slice(1))); });
  var astray = toc.filter(function (a, i) { return !targets[i] || !/^H[12]$/.test(targets[i].tagName); });
  check('every contents link leads to a heading', toc.length > 0 && astray.length === 0,
        toc.length + ' links, astray: ' + astray.map(function (a) { return a.hash; }).join(' '));
  check('every section is in the contents', heads.every(function (h) { return targets.indexOf(h) >= 0; }),
        heads.filter(function (h) { return targets.indexOf(h) < 0; }).map(function (h) { return h.id; }).join(' '));
  check('every section heading links to itself', heads.every(function (h) {
    var a = h.querySelector('a.anchor');
    return a && a.getAttribute('href') === '#' + h.id;
  }), heads.length);

  // Scrolled to a section's heading, the contents mark that section.
  var mid = heads[Math.floor(heads.length / 2)];
  if (mid) {
    win.scrollTo(0, mid.getBoundingClientRect().top + win.scrollY);
    win.dispatchEvent(new Event('scroll'));
    var current = doc.querySelectorAll('#book-toc a.current');
    check('the contents mark the section in view', current.length === 1 && current[0].hash === '#' + mid.id,
          [].map.call(current, function (a) { return a.hash; }).join(' '));
    win.scrollTo(0, 0);
  }

  // Each section found by the longest word of its title that lunr indexes (no stop word):
  // "inclusive" for "Self and inclusive".
  var input = doc.getElementById('book-search');
  heads.forEach(function (h) {
    var word = h.textContent.replace(/#$/, '').split(/[^A-Za-z]+/).filter(function (w) {
      return win.lunr.stopWordFilter(w.toLowerCase());
    }).sort(function (a, b) { return b.length - a.length; })[0];
    input.value = word;
    input.dispatchEvent(new Event('input'));
    var found = [].map.call(doc.querySelectorAll('#book-results a'), function (a) { return a.hash; });
    check('search for "' + word + '" finds ' + h.id, found.indexOf('#' + h.id) >= 0, found.join(' '));
  });
  input.value = '';
  input.dispatchEvent(new Event('input'));

  var html = doc.documentElement, before = win.getComputedStyle(html).backgroundColor;
  click(doc.getElementById('book-theme'));
  var after = win.getComputedStyle(html).backgroundColor;
  click(doc.getElementById('book-theme'));
  check('the theme button changes the background', after !== before &&
        win.getComputedStyle(html).backgroundColor === before, before + ' / ' + after);
  html.removeAttribute('data-theme');
  check('without a choice the page follows the system theme', win.getComputedStyle(html).colorScheme === 'light dark',
        win.getComputedStyle(html).colorScheme);

  var pres = doc.querySelectorAll('pre');
  check('every code block has a copy button', [].every.call(pres, function (pre) {
    return pre.parentNode.querySelector(':scope > button.copy') !== null;
  }), pres.length);
  var pager = [].map.call(doc.querySelectorAll('nav.pager a[rel]'), function (a) { return a.getAttribute('href'); });
  var pages = [].map.call(frameOf('index').doc.querySelectorAll('a[href$=".html"]'), function (a) { return a.getAttribute('href'); });
  check('previous/next link to pages of the book', pager.length > 0 && pager.every(function (href) {
    return pages.indexOf(href) >= 0;
  }), pager.join(' '));

  var seen = {}, twice = [];
  doc.querySelectorAll('[id]').forEach(function (el) {
    if (seen[el.id] && twice.indexOf(el.id) < 0) twice.push(el.id);
    seen[el.id] = true;
  });
  check('no id twice', twice.length === 0, twice.slice(0, 10).join(' '));
}
// A figure's labels in CSS pixels: their font size times the graph's scale.
function labelSize(svg) {
  var label = svg.querySelector('g.f text');
  return parseFloat(svg.ownerDocument.defaultView.getComputedStyle(label).fontSize) * svg.getScreenCTM().a;
}
function checkWidth(id, width) {
  var f = frameOf(id), doc = f.doc, win = f.win, view = doc.documentElement.clientWidth;
  check(width + ' px: the frame is that wide', win.innerWidth === width, win.innerWidth);
  doc.querySelectorAll('figure.flame svg').forEach(function (svg, i) {
    check(width + ' px: figure ' + (i + 1) + "'s labels are 11 px or more", labelSize(svg) >= 11, labelSize(svg).toFixed(1));
  });
  check(width + ' px: no horizontal scrolling', doc.documentElement.scrollWidth <= view, doc.documentElement.scrollWidth);
  // Wider than the window is what a box that scrolls sideways holds, nothing else.
  var wide = [];
  doc.body.querySelectorAll('*').forEach(function (el) {
    for (var up = el.parentElement; up !== doc.body; up = up.parentElement)
      if (/auto|scroll/.test(win.getComputedStyle(up).overflowX)) return;
    var box = el.getBoundingClientRect();
    if (box.width > 0 && (box.right > view + 0.5 || box.left < -0.5))
      wide.push(el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined ? '.' + el.className : '') + ' ' + Math.round(box.right));
  });
  check(width + ' px: no element wider than the window', wide.length === 0, wide.slice(0, 5).join(', '));
  var toc = doc.getElementById('book-toc'), toggle = doc.getElementById('book-toc-toggle');
  var shown = function () { return toc.getBoundingClientRect().height > 0; };
  if (width < 900) {
    var folded = !shown();
    click(toggle);
    var opened = shown();
    click(toggle);
    check(width + ' px: the contents fold behind a button', folded && opened && !shown(), folded + ' ' + opened);
  } else {
    check(width + ' px: the contents are shown beside the text', shown() && win.getComputedStyle(toggle).display === 'none' &&
          toc.getBoundingClientRect().right <= doc.querySelector('h1').getBoundingClientRect().left,
          shown() + ' ' + win.getComputedStyle(toggle).display);
  }
  var problems = win.__problems || ['the recorder did not run'];
  check(width + ' px: no errors', problems.length === 0, problems.join('; '));
}
function checkNoScript() {
  var f = frameOf('noscript'), doc = f.doc, win = f.win;
  check('scripts off: no script ran', !doc.documentElement.classList.contains('js'), doc.documentElement.className);
  var svgs = doc.querySelectorAll('figure.flame svg');
  check('scripts off: every figure is shown', svgs.length === FIGURES.length && [].every.call(svgs, function (svg) {
    return svg.getBoundingClientRect().height > 0 && svg.querySelector('g.f text').textContent !== '';
  }), svgs.length);
  var links = doc.querySelectorAll('#book-toc a');
  check('scripts off: the contents are shown', links.length > 0 && [].every.call(links, function (a) {
    return a.getBoundingClientRect().height > 0;
  }), links.length);
  check('scripts off: no search box that cannot work', doc.getElementById('book-search').getBoundingClientRect().height === 0,
        win.getComputedStyle(doc.getElementById('book-search')).display);
}
function checkIndex() {
  var doc = document.getElementById('index').contentDocument;
  check('index links the chapter', doc.querySelector('a[href="' + PAGE + '"]') !== null,
        doc.body && doc.body.innerHTML.slice(0, 200));
}
function finish() {
  try {
    checkPage();
    checkIndex();
    var page = frameOf('page');
    checkBook(page.doc, page.win);
    checkWidth('narrow', 420);
    checkWidth('wide', 1400);
    checkNoScript();
  } catch (e) { check('no exception in the checks', false, e + ' ' + e.stack); }
  document.getElementById('result').textContent =
    lines.join('\n') + '\n' + (failed ? 'RESULT: FAILED' : 'RESULT: PASSED');
}
window.addEventListener('load', finish);
