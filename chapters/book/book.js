// book.js: what a page of the web edition does with scripts on (make book; the page is
// whole without it). Loaded last and deferred, after lunr and search.js (BOOK_SEARCH, the
// sections of every page, which chapters/book/page.lua writes).
//   - the theme button switches between light and dark and remembers the choice
//     (head.html applies it before the page is drawn); until then the system's holds;
//   - the Contents button opens and closes the table of contents on a narrow screen;
//   - the contents mark the section being read: the last whose heading is above the
//     top quarter of the window;
//   - every code block gets a Copy button;
//   - the search box searches every page's sections with lunr, indexed on first use.
(function () {
  "use strict";
  var root = document.documentElement, byId = document.getElementById.bind(document);

  var theme = byId("book-theme");
  function dark() {
    return root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  }
  function label() { theme.textContent = dark() ? "Light theme" : "Dark theme"; }
  theme.addEventListener("click", function () {
    root.dataset.theme = dark() ? "light" : "dark";
    try { localStorage.setItem("book-theme", root.dataset.theme); } catch (e) { /* file: may refuse */ }
    label();
  });
  label();

  var sidebar = byId("book-sidebar"), toggle = byId("book-toc-toggle");
  function openContents(open) {
    sidebar.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
  }
  toggle.addEventListener("click", function () { openContents(!sidebar.classList.contains("open")); });
  sidebar.addEventListener("click", function (e) { if (e.target.closest("a")) openContents(false); });

  var links = [].slice.call(byId("book-toc").querySelectorAll('a[href^="#"]'));
  var heads = links.map(function (a) { return byId(decodeURIComponent(a.hash.slice(1))); });
  function markCurrent() {
    var at = 0;
    heads.forEach(function (h, i) { if (h && h.getBoundingClientRect().top < innerHeight / 4) at = i; });
    links.forEach(function (a, i) { a.classList.toggle("current", i === at); });
  }
  addEventListener("scroll", markCurrent, { passive: true });
  markCurrent();

  document.querySelectorAll("pre").forEach(function (pre) {
    var box = document.createElement("div"), copy = document.createElement("button");
    box.className = "copyable";
    copy.type = "button";
    copy.className = "copy";
    copy.textContent = "Copy";
    pre.parentNode.insertBefore(box, pre);
    box.append(pre, copy);
    function said(words) {
      copy.textContent = words;
      setTimeout(function () { copy.textContent = "Copy"; }, 1500);
    }
    function selectIt() { // where the clipboard is refused: select the text, try the old way
      var range = document.createRange();
      range.selectNodeContents(pre);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      said(document.execCommand("copy") ? "Copied" : "Press Ctrl+C");
    }
    copy.addEventListener("click", function () {
      if (navigator.clipboard) navigator.clipboard.writeText(pre.textContent).then(function () { said("Copied"); }, selectIt);
      else selectIt();
    });
  });

  var input = byId("book-search"), results = byId("book-results"), index = null, sections = {};
  var here = location.pathname.split("/").pop();
  function build() {
    index = lunr(function () {
      this.ref("ref");
      this.field("title", { boost: 10 });
      this.field("text");
      BOOK_SEARCH.forEach(function (s) {
        s.ref = s.page + "#" + s.id;
        sections[s.ref] = s;
        this.add(s);
      }, this);
    });
  }
  // Each word as typed (stemmed, as the index is) and as the start of a word.
  function search(words) {
    return index.query(function (q) {
      lunr.tokenizer(words).forEach(function (t) {
        q.term(t, {});
        q.term(t, { usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING, boost: 0.5 });
      });
    });
  }
  function excerpt(text, words) {
    var at = text.toLowerCase().indexOf(words.toLowerCase().split(/\s+/)[0]);
    return at < 0 ? text.slice(0, 90) : (at > 30 ? "…" : "") + text.slice(Math.max(0, at - 30), at + 60) + "…";
  }
  input.addEventListener("input", function () {
    var words = input.value.trim();
    results.textContent = "";
    if (!words) return;
    if (!index) build();
    var hits = search(words).slice(0, 8);
    hits.forEach(function (hit) {
      var s = sections[hit.ref], li = document.createElement("li"), a = document.createElement("a");
      a.href = (s.page === here ? "" : s.page) + "#" + s.id;
      a.textContent = s.title;
      li.append(a, document.createElement("br"), excerpt(s.text, words));
      results.append(li);
    });
    if (hits.length === 0) results.innerHTML = "<li>No section has these words.</li>";
  });
})();
