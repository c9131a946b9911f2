-- chapter.lua: how chapter 165 turns fixtures into checks.
--
-- The grader's engine (grader/grade.lua and friends) knows nothing about
-- parse_row or folded stacks. It asks this module three things:
--   kind(name)               which fixtures are annotate outputs and which folded;
--   expected(fixture, env)   the reference's answers for one fixture (for `make expected`);
--   plan(ctx)                the list of checks for one grading run.
-- Every check is one run of grader/165/check.c (see its header) with some
-- arguments; its answers are compared item by item with the expected ones.
-- A new chapter writes its own chapter.lua, rubric.lua and checker.

local wb = require("vm.lib.workbook")
local variants = require("grader.165.variants")

local M = {}

M.rubric = require("grader.165.rubric")

-- The families of checks, in report order, with the function they grade.
M.families = {
  { group = "parse_row_fixtures", func = "parse_row" },
  { group = "parse_row_edges", func = "parse_row" },
  { group = "parse_row_variants", func = "parse_row" },
  { group = "sum_named_fixtures", func = "sum_named" },
  { group = "sum_named_edges", func = "sum_named" },
  { group = "inclusive_fixtures", func = "inclusive" },
  { group = "inclusive_edges", func = "inclusive" },
  { group = "inclusive_overflow", func = "inclusive" },
  { group = "inclusive_variants", func = "inclusive" },
  { group = "speed", func = "inclusive" },
}

-- Answers that code doing nothing would give ("not a row", a sum of 0, no function) or
-- the stubs' error (-1). They earn credit only as far as the same function gets real
-- answers right elsewhere in the run (engine.lua, "Scoring rules").
local TRIVIAL = {
  parse_row = { ["0"] = true, ["-1"] = true },
  sum_named = { ["0 sum=0"] = true, ["-1"] = true },
  inclusive = { ["0 n=0"] = true, ["-1"] = true },
}

function M.trivial(func, result)
  return TRIVIAL[func] ~= nil and TRIVIAL[func][result] == true
end

-- Folded files by extension; everything else is read as callgrind_annotate output.
function M.kind(name)
  if name:match("%.folded$") or name:match("%.collapsed$") or name:match("%.stacks$") then
    return "folded"
  end
  return "annotate"
end

-- The needles sum_named is checked with on an annotate fixture: those listed
-- for it in the fixture folder's fixtures.lua, or these defaults.
M.default_needles = { "", "PROGRAM TOTALS", "main" }

function M.settings(fixture, manifest)
  if fixture.kind ~= "annotate" then
    return ""
  end
  local entry = manifest[fixture.name] or {}
  local needles = entry.needles or M.default_needles
  local escaped = {}
  for i, needle in ipairs(needles) do
    escaped[i] = wb.escape(needle)
  end
  return "needles " .. table.concat(escaped, "\t")
end

local function needles_of(settings)
  local list = {}
  local text = settings:match("^needles (.*)$")
  if text then
    for needle in (text .. "\t"):gmatch("([^\t]*)\t") do
      list[#list + 1] = wb.unescape(needle)
    end
  end
  return list
end

-- "1 ir=5 pct=1.000 name=\"main\"" -> "5", "main" (unescaped), or nil.
local function row_fields(result)
  local ir, name = result:match('^1 ir=(%d+) pct=%S+ name="(.*)"$')
  if ir then
    return ir, wb.unescape(name)
  end
end

-- A name or stack as the checker reads it: escaped, and NULL as "\N" (which escape()
-- never writes: it doubles every backslash).
local function text_or_null(s)
  return s == nil and "\\N" or wb.escape(s)
end

-- How a name or stack reads in a report.
local function shown(s)
  return s == nil and "NULL" or ("\"" .. wb.escape(s) .. "\"")
end

-- Writes one line per item, line(item) each: the files the checker's modes read.
local function write_lines(path, items, line)
  local out = {}
  for i, item in ipairs(items) do
    out[i] = line(item) .. "\n"
  end
  wb.write_file(path, table.concat(out))
end

-- The rows file the checker's `sums` mode reads ("ir<TAB>name"), its needles (one a line)
-- and the vectors its `stacks` mode reads ("count<TAB>stack").
local function write_rows(path, rows)
  write_lines(path, rows, function(r)
    return r.ir .. "\t" .. text_or_null(r.name)
  end)
end

local function write_needles(path, needles)
  write_lines(path, needles, wb.escape)
end

local function write_vectors(path, vectors)
  write_lines(path, vectors, function(v)
    return v[1] .. "\t" .. text_or_null(v[2])
  end)
end

-- The rows a fixture's expected answers name, for sum_named.
local function rows_from(items)
  local rows = {}
  for _, item in ipairs(items) do
    if item.key:match("^row:") then
      local ir, name = row_fields(item.result)
      if ir then
        rows[#rows + 1] = { ir = ir, name = name }
      end
    end
  end
  return rows
end

-- "FILE:LINE: why" when a fixture looks cut short: its last line has no newline (both
-- callgrind_annotate and folding tools end every line with one), unless that line is blank.
local function truncated(fixture)
  local text = wb.read_file(fixture.path) or ""
  if text == "" or text:sub(-1) == "\n" then
    return nil
  end
  local last = text:match("([^\n]*)$")
  if last:match("^%s*$") then
    return nil
  end
  local _, newlines = text:gsub("\n", "")
  return string.format("%s:%d: the last line has no newline: is the file cut short? (\"%s\"; "
    .. "add the newline if the line is whole)", fixture.path, newlines + 1, wb.shorten(wb.escape(last), 60))
end

-- The reference's answers for one fixture. env.run(argv) runs the reference
-- checker and returns { ok, status, items, stderr }; env.scratch is a folder.
-- Returns the item list, or nil plus "FILE:LINE: why". A fixture with no row (annotate)
-- or no stack (folded), or cut short, is refused: it would hand out free points.
function M.expected(fixture, settings, env)
  local cut = truncated(fixture)
  if cut then
    return nil, cut
  end
  if fixture.kind == "folded" then
    local r = env.run({ "inclusive", fixture.path })
    if not r.ok then
      return nil, (r.stderr:match("[^\n]+") or (fixture.path .. ": the reference failed: " .. r.status))
    end
    if r.items[1] and r.items[1].result ~= "0 n=" .. (#r.items - 1) then
      return nil, fixture.path .. ": the reference's inclusive() failed (" .. r.items[1].result .. ")"
    end
    if #r.items <= 1 then
      return nil, fixture.path .. ":1: no stack in the whole file (expected lines such as \"main;run;fib 10\")"
    end
    return r.items
  end
  local r = env.run({ "rows", fixture.path })
  if not r.ok then
    return nil, (r.stderr:match("[^\n]+") or (fixture.path .. ": the reference failed: " .. r.status))
  end
  local rows = 0
  for _, item in ipairs(r.items) do
    local line = item.key:match("^row:(%d+)$")
    if item.result ~= "0" and not item.result:match("^1 ") then
      return nil, string.format("%s:%s: the reference's parse_row cannot read this line (%s)",
        fixture.path, line, item.result)
    end
    if item.result:match("^1 ") then
      rows = rows + 1
    end
  end
  if rows == 0 then
    return nil, fixture.path .. ":1: no callgrind_annotate row in the whole file "
      .. "(expected lines such as \"5,468,396 (100.0%)  PROGRAM TOTALS\")"
  end
  local rows_path = env.scratch .. "/rows.tsv"
  local needles_path = env.scratch .. "/needles.txt"
  write_rows(rows_path, rows_from(r.items))
  write_needles(needles_path, needles_of(settings))
  local s = env.run({ "sums", rows_path, needles_path })
  if not s.ok then
    return nil, fixture.path .. ": the reference's sum_named failed: " .. s.status
  end
  local items = r.items
  for _, item in ipairs(s.items) do
    items[#items + 1] = item
  end
  return items
end

-- Items of a list whose key starts with prefix.
local function with_prefix(items, prefix)
  local out = {}
  for _, item in ipairs(items) do
    if item.key:sub(1, #prefix) == prefix then
      out[#out + 1] = item
    end
  end
  return out
end

-- Describes a "row:N" key as the input line N of the file.
local function line_describer(path)
  local lines
  return function(key)
    local n = tonumber(key:match("^row:(%d+)$"))
    if not n then
      return nil
    end
    lines = lines or wb.split_lines(wb.read_file(path) or "", true)
    local line = lines[n] or ""
    return string.format("%s line %d: parse_row(\"%s\")", wb.basename(path), n, wb.escape(line))
  end
end

-- For inclusive's answers: a wrong cost is a better first difference to show
-- than a rank that only moved because some other cost was wrong.
local function cost_first(expected, actual)
  if not expected:match("cost=") then
    return 0 -- the return code and the number of functions come first
  end
  if actual and expected:match("cost=(%d+)") == actual:match("cost=(%d+)") then
    return 2
  end
  return 1
end

-- The checks of one grading run. ctx: rubric, fixtures (each with kind, path,
-- name, items), gen (a folder for generated inputs, already made). The seeded inputs
-- come from math.random, which the engine has seeded with the run's seed.
function M.plan(ctx)
  local checks = {}
  local function add(check)
    checks[#checks + 1] = check
  end
  local annotate, folded = {}, {}
  for _, f in ipairs(ctx.fixtures) do
    if f.kind == "folded" then
      folded[#folded + 1] = f
    else
      annotate[#annotate + 1] = f
    end
  end

  for _, f in ipairs(annotate) do
    add({ group = "parse_row_fixtures", func = "parse_row", title = "parse_row: every line of " .. f.name,
      argv = { "rows", f.path }, expected = with_prefix(f.items, "row:"), describe = line_describer(f.path) })
  end

  local edges = ctx.gen .. "/edge-rows.txt"
  wb.write_file(edges, variants.edge_rows())
  add({ group = "parse_row_edges", func = "parse_row", title = "parse_row: edge cases from the rules (seeded)",
    argv = { "rows", edges }, describe = line_describer(edges) })

  local rename = variants.renamer()
  local lines = {}
  for _, f in ipairs(annotate) do
    for _, line in ipairs(variants.annotate_variant(f.path, wb.read_file(f.path) or "", rename)) do
      lines[#lines + 1] = line
    end
  end
  local variant_rows = ctx.gen .. "/variant-rows.txt"
  wb.write_file(variant_rows, table.concat(variants.shuffle(lines)))
  add({ group = "parse_row_variants", func = "parse_row",
    title = "parse_row: fixtures renamed, renumbered and shuffled (seeded)",
    argv = { "rows", variant_rows }, describe = line_describer(variant_rows) })

  for _, f in ipairs(annotate) do
    local rows_path = ctx.gen .. "/" .. f.name .. ".rows.tsv"
    local needles_path = ctx.gen .. "/" .. f.name .. ".needles.txt"
    write_rows(rows_path, rows_from(f.items))
    local expected = with_prefix(f.items, "sum:")
    local needles = {}
    for i, item in ipairs(expected) do
      needles[i] = wb.unescape(item.key:sub(5))
    end
    write_needles(needles_path, needles)
    add({ group = "sum_named_fixtures", func = "sum_named", title = "sum_named: needles over the rows of " .. f.name,
      argv = { "sums", rows_path, needles_path }, expected = expected,
      describe = function(key)
        return string.format("sum_named(rows of %s, \"%s\")", f.name, key:sub(5))
      end })
  end

  local rows, needles = variants.sum_edges()
  local edge_rows, edge_needles = ctx.gen .. "/sum-edges.rows.tsv", ctx.gen .. "/sum-edges.needles.txt"
  write_rows(edge_rows, rows)
  write_needles(edge_needles, needles)
  add({ group = "sum_named_edges", func = "sum_named",
    title = "sum_named: substrings, case, overflow past UINT64_MAX (seeded)",
    argv = { "sums", edge_rows, edge_needles },
    describe = function(key)
      local listing = {}
      for i, r in ipairs(rows) do
        listing[i] = r.ir .. " " .. shown(r.name)
      end
      return string.format("sum_named({%s}, \"%s\")", table.concat(listing, ", "), key:sub(5))
    end })

  for _, f in ipairs(folded) do
    add({ group = "inclusive_fixtures", func = "inclusive", title = "inclusive: " .. f.name,
      argv = { "inclusive", f.path }, expected = f.items, priority = cost_first,
      describe = function()
        return "inclusive(every stack of " .. f.name .. ")"
      end })
  end

  local function vector_check(group, title, name, vectors)
    local path = ctx.gen .. "/" .. name
    write_vectors(path, vectors)
    add({ group = group, func = "inclusive", title = title, argv = { "stacks", path }, priority = cost_first,
      describe = function()
        local listing = {}
        for i, v in ipairs(vectors) do
          listing[i] = "{" .. wb.shorten(shown(v[2]), 62) .. ", " .. v[1] .. "}"
        end
        return "inclusive({" .. table.concat(listing, ", ") .. "})"
      end })
  end
  vector_check("inclusive_edges", "inclusive: recursion, empty frames, duplicates, zero counts (seeded)",
    "stack-edges.tsv", variants.stack_edges())
  vector_check("inclusive_overflow", "inclusive: a cost past UINT64_MAX is an error (seeded)",
    "stack-overflow.tsv", variants.overflow_stacks())

  local folded_lines = {}
  for _, f in ipairs(folded) do
    for _, line in ipairs(variants.folded_variant(f.path, rename)) do
      folded_lines[#folded_lines + 1] = line
    end
  end
  if #folded_lines > 0 then
    local path = ctx.gen .. "/variant.folded"
    wb.write_file(path, table.concat(variants.shuffle(folded_lines), "\n") .. "\n")
    add({ group = "inclusive_variants", func = "inclusive",
      title = "inclusive: folded fixtures renamed, renumbered, shuffled (seeded)",
      argv = { "inclusive", path }, priority = cost_first,
      describe = function()
        return string.format("inclusive(every stack of %s, %d lines)", path, #folded_lines)
      end })
  end

  local speed = ctx.rubric.speed
  local lines_wanted = ctx.speed_lines or speed.lines
  local speed_path = ctx.gen .. "/speed-" .. lines_wanted .. ".folded"
  if not ctx.no_speed and not wb.exists(speed_path) then
    wb.write_file(speed_path, variants.speed_input(lines_wanted, speed.distinct_per_line))
  end
  add({ group = "speed", func = "inclusive", kind = "speed", toggle = "inclusive",
    title = string.format("speed: inclusive() over %d stacks, at most %gx the reference's instructions",
      lines_wanted, speed.limit),
    argv = { "inclusive", speed_path } })

  return checks
end

return M
