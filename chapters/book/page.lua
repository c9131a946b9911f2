-- page.lua: a pandoc filter that makes a chapter, or the index, a page of the web edition
-- (`make book`, chapters/chapters.mk).
--
-- Metadata it reads (pandoc -M):
--   book-pages   the book's pages in reading order, one "FILE<TAB>TITLE" a line, the index
--                first
--   book-page    this page's FILE
--   book-search  where to write this page's search entries: one JavaScript object a line,
--                { page, id, title, text }, a section (level-2 heading) each, the text
--                before the first one under the page's title; the make rule joins every
--                page's into search.js, which book.js indexes with lunr
--
-- What it adds, all of it plain HTML, so the page reads the same with scripts off:
--   - a sidebar: the book's title, a search box and a theme button (shown only when
--     scripts run, class js-only), and the table of contents: every page of the book,
--     this page's sections under it;
--   - a link "#" at the end of every section heading, to that heading;
--   - previous/next links to the neighbouring pages, after the last section;
--   - the scripts (lunr, the search entries, book.js), deferred: they run once the page
--     is parsed, in that order.
-- Every id it makes starts with "book-", which no heading's id of a chapter does (the
-- book check fails on a duplicate id).
--
-- This runs inside pandoc (its Lua), with pandoc's `pandoc` module.
local stringify = pandoc.utils.stringify

local escape = require("vm.lib.html").escape

-- A JavaScript string literal: backslash, quote and control characters escaped.
local function js_string(text)
  return '"' .. text:gsub('[%c"\\]', function(c)
    return string.format("\\u%04x", c:byte())
  end) .. '"'
end

local function meta(doc, key)
  return stringify(doc.meta[key] or error("page.lua: no metadata " .. key .. " (chapters/chapters.mk passes it with -M)"))
end

local function read_pages(path)
  local f, err = io.open(path, "r")
  if not f then
    error("page.lua: cannot read " .. path .. " (" .. tostring(err) .. ")")
  end
  local pages, n = {}, 0
  for line in f:lines() do
    n = n + 1
    local file, title = line:match("^([^\t]+)\t(.+)$")
    if not file then
      error("page.lua: " .. path .. ":" .. n .. ": not FILE<TAB>TITLE")
    end
    pages[#pages + 1] = { file = file, title = title }
  end
  f:close()
  return pages
end

-- The sections of the page: { id, title, blocks = the text of the section }, the first
-- one under the level-1 heading. Adds the "#" link to each heading as it goes.
local function sections_of(blocks)
  local sections, current = {}, nil
  for _, block in ipairs(blocks) do
    if block.t == "Header" and block.level <= 2 then
      current = { id = block.identifier, title = stringify(block.content), text = {} }
      sections[#sections + 1] = current
      block.content:insert(pandoc.RawInline("html", '<a class="anchor" href="#' .. block.identifier
        .. '" aria-label="link to this section">#</a>'))
    elseif current then
      current.text[#current.text + 1] = stringify(block)
    end
  end
  return sections
end

local function link(href, text, extra)
  return '<a href="' .. escape(href) .. '"' .. (extra or "") .. ">" .. escape(text) .. "</a>"
end

local function sidebar(pages, here, sections)
  local out = { '<nav class="sidebar" id="book-sidebar" aria-label="Contents">',
    '<p class="book-title">' .. link(pages[1].file, pages[1].title) .. "</p>",
    '<div class="js-only book-tools"><input type="search" id="book-search" placeholder="Search the book"'
      .. ' aria-label="Search the book"> <button type="button" id="book-theme">Dark theme</button>'
      .. ' <button type="button" id="book-toc-toggle" aria-expanded="false"'
      .. ' aria-controls="book-toc">Contents</button></div>',
    '<ol class="search-results" id="book-results"></ol>', '<ol class="toc" id="book-toc">' }
  for i = 2, #pages do
    local page = pages[i]
    if page.file == here then
      out[#out + 1] = '<li class="this-page">' .. link("#" .. (sections[1] and sections[1].id or ""), page.title)
      out[#out + 1] = "<ol>"
      for j = 2, #sections do
        out[#out + 1] = "<li>" .. link("#" .. sections[j].id, sections[j].title) .. "</li>"
      end
      out[#out + 1] = "</ol></li>"
    else
      out[#out + 1] = "<li>" .. link(page.file, page.title) .. "</li>"
    end
  end
  out[#out + 1] = "</ol></nav>"
  return table.concat(out, "\n")
end

local function pager(pages, here)
  local at
  for i, page in ipairs(pages) do
    if page.file == here then at = i end
  end
  if not at then
    error("page.lua: " .. here .. " is not among the book's pages")
  end
  local prev, next = pages[at - 1], pages[at + 1]
  return '<nav class="pager" aria-label="Previous and next page">'
    .. (prev and link(prev.file, "← " .. prev.title, ' rel="prev"') or "<span></span>")
    .. (next and link(next.file, next.title .. " →", ' rel="next"') or "") .. "</nav>"
end

local function write_search(path, here, sections)
  local f, err = io.open(path, "w")
  if not f then
    error("page.lua: cannot write " .. path .. " (" .. tostring(err) .. ")")
  end
  for _, s in ipairs(sections) do
    f:write("{ page: ", js_string(here), ", id: ", js_string(s.id), ", title: ", js_string(s.title),
      ", text: ", js_string(table.concat(s.text, " ")), " },\n")
  end
  f:close()
end

function Pandoc(doc)
  local pages, here = read_pages(meta(doc, "book-pages")), meta(doc, "book-page")
  local sections = sections_of(doc.blocks)
  write_search(meta(doc, "book-search"), here, sections)
  doc.blocks:insert(1, pandoc.RawBlock("html", sidebar(pages, here, sections)))
  doc.blocks:insert(pandoc.RawBlock("html", pager(pages, here) .. "\n"
    .. '<script src="lunr.min.js" defer></script>\n<script src="search.js" defer></script>\n'
    .. '<script src="book.js" defer></script>'))
  return doc
end
