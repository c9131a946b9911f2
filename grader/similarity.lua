-- similarity.lua: `make similarity SUBMISSIONS=dir/` ranks the pairs of submissions whose
-- code is most alike (and `make grade SUBMISSIONS=dir/` writes the same into its batch).
--
--   lua5.4 grader/similarity.lua DIR [--chapter N] [--out OUT] [--base DIR] [--threshold PCT]
--
-- The comparison is Debian's similarity-tester (sim_c), which reduces C to tokens with every
-- identifier, number and string alike and finds runs of at least RUN tokens in common, so a
-- copy survives renaming, reformatting, new comments and reordered functions. Each submission
-- is the chapter's student files (found as the batch finds them), joined, copied to OUT under
-- a number: sim_c never sees a name the student chose, and its output is parsed on numbers.
--
-- Base code never counts: the shipped stub (exercises/N/FILES) and, with --base, every
-- submission of a folder of past ones. Lines of a submission in a run found in the base
-- (sim_c -S, new files against old only) are blanked before the submissions are compared
-- among themselves, so a pair shares only what neither got from the base.
--
-- Compared pairwise (sim_c -e -a: each pair in isolation, both ways), a pair's share of A is
-- the tokens of A in runs also in B over A's tokens (sim_c's -p percentage, computed from the
-- runs so that one call gives the shares, the longest run and the regions). Written to OUT:
--   similarity.txt   every pair with a run in common, most alike first: rank, share of each,
--                    longest common run (tokens), the two names, the HTML view if any
--   pair-K.html      for each pair whose larger share is THRESHOLD % or more: the two files
--                    side by side, each common run marked with its number in both
-- Names and code are the students' text: escaped (wb.escape, then HTML) and names cut to
-- report.QUOTE bytes everywhere; each file read up to MAX_BYTES.

local wb = require("vm.lib.workbook")
local engine = require("grader.engine")
local batch = require("grader.batch")
local report = require("grader.report")
local entities = require("vm.lib.html").escape

local M = {}

-- sim_c's own default run length; the man page calls 30 % and more significant.
M.RUN, M.THRESHOLD = 24, 30
local MAX_BYTES = 1 << 20

-- Runs sim_c in dir on the files named (relative to it) with options; returns its output.
local function sim(dir, options, names)
  local words = { "sim_c" }
  table.move(options, 1, #options, 2, words)
  table.move(names, 1, #names, #words + 1, words)
  local text, ok = wb.capture("cd " .. wb.quote(dir) .. " && " .. wb.command(words) .. " 2>&1")
  wb.must(ok, "sim_c failed (Debian package similarity-tester; make setup-similarity installs it): "
    .. wb.shorten(text, report.QUOTE))
  return text
end

-- sim_c -n's runs: { a, a_first, a_last, b, b_first, b_last, tokens } and the token count per file.
local function parse(text)
  local runs, tokens = {}, {}
  text = "\n" .. text
  for name, n in text:gmatch("\nFile ([^\n:]+): (%d+) tokens") do
    tokens[name] = tonumber(n)
  end
  for a, a1, a2, b, b1, b2, n in text:gmatch("\n([^\n|]-): line (%d+)%-(%d+)%s*|([^\n|]-): line (%d+)%-(%d+)%s*%[(%d+)%]") do
    runs[#runs + 1] = { a = a, a_first = tonumber(a1), a_last = tonumber(a2), b = b, b_first = tonumber(b1),
      b_last = tonumber(b2), tokens = tonumber(n) }
  end
  return runs, tokens
end

-- The text of a submission: the chapter's student files under folder, joined (nil: none).
local function gather(folder, files)
  local parts, found = {}, batch.locate(folder, files[1])
  for _, file in ipairs(files) do
    local path = found .. "/" .. file
    local handle = io.open(path, "rb")
    if handle then
      parts[#parts + 1] = handle:read(MAX_BYTES) or ""
      handle:close()
    end
  end
  return #parts > 0 and table.concat(parts, "\n") or nil
end

-- The submissions of dir (or nil): a list of { name, text } for each folder holding the files.
local function submissions(dir, files)
  local list = {}
  local names, linked, loose = batch.list(dir)
  for _, name in ipairs(names) do
    local text = not (linked[name] or loose[name]) and gather(dir .. "/" .. name, files)
    if text then
      list[#list + 1] = { name = name, text = text }
    end
  end
  return list
end

-- Blanks the lines of each submission that sim_c finds in the base files; writes them as
-- OUT/work/I.c and returns the names written.
local function strip_base(work, subs, bases)
  local names, old = {}, {}
  for i, sub in ipairs(subs) do
    names[i] = i .. ".c"
    wb.write_file(work .. "/" .. names[i], sub.text)
  end
  for i, text in ipairs(bases) do
    old[i] = "base-" .. i .. ".c"
    wb.write_file(work .. "/" .. old[i], text)
  end
  local args = { table.unpack(names) }
  args[#args + 1] = "/"
  table.move(old, 1, #old, #args + 1, args)
  local runs = parse(sim(work, { "-n", "-S", "-r", tostring(M.RUN) }, args))
  local blank = {}
  for _, run in ipairs(runs) do
    blank[run.a] = blank[run.a] or {}
    for line = run.a_first, run.a_last do
      blank[run.a][line] = true
    end
  end
  for i, sub in ipairs(subs) do
    sub.lines = wb.split_lines(sub.text)
    local kept = {}
    for n, line in ipairs(sub.lines) do
      kept[n] = (blank[names[i]] or {})[n] and "" or line
    end
    wb.write_file(work .. "/" .. names[i], table.concat(kept, "\n") .. "\n")
  end
  return names
end

-- The pairs with a run in common, most alike first: { a, b (indexes), share_a, share_b, longest, runs }.
function M.pairs(work, names)
  if #names < 2 then
    return {}
  end
  local runs, tokens = parse(sim(work, { "-n", "-e", "-a", "-s", "-r", tostring(M.RUN) }, names))
  local by_key, list = {}, {}
  for _, run in ipairs(runs) do
    local a, b = tonumber(run.a:match("^(%d+)%.c$")), tonumber(run.b:match("^(%d+)%.c$"))
    if a and b and a ~= b then
      local key = math.min(a, b) .. "-" .. math.max(a, b)
      local pair = by_key[key]
      if not pair then
        pair = { a = math.min(a, b), b = math.max(a, b), matched = { [a] = 0, [b] = 0 }, longest = 0, runs = {} }
        by_key[key] = pair
        list[#list + 1] = pair
      end
      pair.matched[a] = pair.matched[a] + run.tokens
      pair.longest = math.max(pair.longest, run.tokens)
      -- Both directions report a run: the view keeps each once, from A's side.
      if a == pair.a then
        pair.runs[#pair.runs + 1] = run
      end
    end
  end
  for _, pair in ipairs(list) do
    pair.share_a = math.min(100, 100 * pair.matched[pair.a] / math.max(1, tokens[pair.a .. ".c"] or 0))
    pair.share_b = math.min(100, 100 * pair.matched[pair.b] / math.max(1, tokens[pair.b .. ".c"] or 0))
    pair.top = math.max(pair.share_a, pair.share_b)
  end
  table.sort(list, function(x, y)
    if x.top ~= y.top then
      return x.top > y.top
    end
    if x.longest ~= y.longest then
      return x.longest > y.longest
    end
    return x.a < y.a or (x.a == y.a and x.b < y.b)
  end)
  return list
end

-- Student text as HTML: control bytes and bytes past 0x7e in the workbook's escape, then entities.
local function html(text)
  return entities(wb.escape(text))
end

-- A name as quoted in every output: cut, then escaped (in HTML, then entities).
local function shown(name)
  return wb.escape(wb.shorten(name, report.QUOTE))
end

-- One side of the view: the lines numbered, each line of a common run marked with its number.
local function side(lines, marks)
  local out = {}
  for n, line in ipairs(lines) do
    local text = string.format("%5d  %s", n, html(line))
    out[n] = marks[n] and string.format('<mark title="run %d">%s</mark>', marks[n], text) or text
  end
  return "<pre>" .. table.concat(out, "\n") .. "</pre>"
end

local function write_view(path, pair, subs)
  local marks_a, marks_b, rows = {}, {}, {}
  for i, run in ipairs(pair.runs) do
    for n = run.a_first, run.a_last do
      marks_a[n] = marks_a[n] or i
    end
    for n = run.b_first, run.b_last do
      marks_b[n] = marks_b[n] or i
    end
    rows[#rows + 1] = string.format("<li>run %d: %d tokens, lines %d-%d and %d-%d</li>", i, run.tokens, run.a_first,
      run.a_last, run.b_first, run.b_last)
  end
  local a, b = subs[pair.a], subs[pair.b]
  wb.write_file(path, table.concat({
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>similar pair</title>',
    "<style>td{vertical-align:top}pre{font-size:12px}mark{background:#fd6}</style></head><body>",
    string.format("<h1>%s and %s</h1>", entities(shown(a.name)), entities(shown(b.name))),
    string.format("<p>%.0f %% of the first and %.0f %% of the second are in common runs (base code left out); "
      .. "the longest is %d tokens.</p>", pair.share_a, pair.share_b, pair.longest),
    "<ul>" .. table.concat(rows) .. "</ul>",
    "<table><tr><td>" .. side(a.lines, marks_a) .. "</td><td>" .. side(b.lines, marks_b) .. "</td></tr></table>",
    "</body></html>\n" }, "\n"))
end

-- Compares the submissions of dir; writes OUT/similarity.txt and the views. Returns the
-- table's lines and the pairs.
function M.run(opts)
  local chapter = engine.load_chapter(opts.chapter)
  local files = chapter.exercise.student_files
  local dir = opts.dir:gsub("/+$", "")
  local subs = submissions(dir, files)
  local bases = { gather(chapter.exercise.dir, files) }
  for _, past in ipairs(opts.base and submissions(opts.base, files) or {}) do
    bases[#bases + 1] = past.text
  end
  local out = opts.out
  wb.rm_rf(out)
  local work = out .. "/work"
  wb.mkdir_p(work)
  local names = strip_base(work, subs, bases)
  local pairs_found = M.pairs(work, names)
  local threshold = opts.threshold or M.THRESHOLD
  local lines = { string.format("code similarity of %d submissions in %s (sim_c, runs of %d tokens or more; "
    .. "base code left out: the shipped stub%s)", #subs, shown(dir), M.RUN,
    opts.base and (" and " .. (#bases - 1) .. " submissions in " .. shown(opts.base)) or ""),
    string.format("%d pairs share a run; a view for each pair with a share of %d %% or more", #pairs_found, threshold),
    "rank  share A  share B  longest  view           A | B" }
  for rank, pair in ipairs(pairs_found) do
    local view = "-"
    if pair.top >= threshold then
      view = "pair-" .. rank .. ".html"
      write_view(out .. "/" .. view, pair, subs)
    end
    lines[#lines + 1] = string.format("%4d  %6.0f%%  %6.0f%%  %7d  %-13s  %s | %s", rank, pair.share_a, pair.share_b,
      pair.longest, view, shown(subs[pair.a].name), shown(subs[pair.b].name))
  end
  wb.write_file(out .. "/similarity.txt", table.concat(lines, "\n") .. "\n")
  wb.rm_rf(work)
  return lines, pairs_found
end

-- The batch's section: the pairs with a view, or why there are none.
function M.section(dir, chapter, out, base)
  if not select(2, wb.capture("command -v sim_c")) then
    return { "code similarity: not compared: sim_c is missing (Debian package similarity-tester, which "
      .. "make setup-similarity installs; Debian 13 has none)" }
  end
  local lines, found = M.run({ dir = dir, chapter = chapter, out = out, base = base })
  local shown_n = 0
  for _, pair in ipairs(found) do
    shown_n = shown_n + (pair.top >= M.THRESHOLD and 1 or 0)
  end
  lines[2] = lines[2] .. " (" .. out .. "/similarity.txt)"
  return { table.unpack(lines, 1, 3 + math.min(shown_n, 10)) }
end

local function main(argv)
  local parser = wb.parser("similarity.lua", "Ranks the pairs of submissions of DIR by code similarity.")
  parser:argument("dir", "one sub-folder per submission")
  parser:option("--out", "where the table and the views go", engine.root .. "/similarity")
  parser:option("--base", "a folder of past submissions, base code like the stub")
  parser:option("--threshold", "the share (%) from which a pair gets a side-by-side view"):convert(wb.to_integer)
  parser:option("--chapter", "this chapter only (default: CHAPTER, else each chapter on its own)")
  local opts = wb.parse(parser, argv)
  local ids = engine.chosen(opts.chapter)
  local out = opts.out
  for _, id in ipairs(ids) do
    opts.chapter, opts.out = id, #ids > 1 and (out .. "/" .. id) or out
    local lines = M.run(opts)
    print(table.concat(lines, "\n", 1, math.min(#lines, 13)))
    print(string.format("chapter %s: the table is %s/similarity.txt", id, opts.out))
  end
end

if arg and arg[0] and arg[0]:match("similarity%.lua$") then
  wb.exit_with("make similarity: could not compare", main, arg)
end

return M
