-- chapter.lua: how chapter 165 is graded: which fixtures there are, what each check runs.
--
-- The grader's engine (grader/engine.lua) knows nothing about parse_row or folded stacks. It
-- asks this module:
--   kind(name)                    which fixtures are annotate outputs and which folded;
--   expected(fixture, settings, env)  the reference's answers for one fixture (make expected);
--   inputs(ctx)                   the seeded and generated data of one grading run;
--   plan(ctx, inputs)             the checks of one grading run.
-- Every check is one case of chapter 165's checker (exercises/165/tests/check.c, which the
-- student's `make exercise-165` runs too): a function and its fields; its answers are compared
-- item by item with the reference's.

local wb = require("vm.lib.workbook")
local dripprof = require("vm.lib.dripprof")
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
local FOLDED = { "%.folded$", "%.collapsed$", "%.stacks$" }
function M.kind(name)
  return wb.matches_any(name, FOLDED) and "folded" or "annotate"
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

-- A name or stack as a report shows it.
local function shown(s)
  return s == nil and "NULL" or ("\"" .. wb.escape(s) .. "\"")
end

-- A case of the checker: { name, func, fields }. Its fields are made by make_fields when first
-- read: a grade whose plan is kept reads the cases files kept with it, and never asks.
local function case(func, make_fields)
  return setmetatable({ name = func .. ".check", func = func }, { __index = function(c, key)
    if key == "fields" then
      rawset(c, "fields", make_fields())
      return c.fields
    end
  end })
end

-- parse_row on every line of a text, line ends kept.
local function lines_case(text)
  return case("parse_row", function()
    local fields = {}
    for _, line in ipairs(wb.split_lines(text, true)) do
      fields[#fields + 1] = { "line", line }
    end
    return fields
  end)
end

-- sum_named over rows ({ ir, name }; no name: NULL) for each needle.
local function sums_case(rows, needles)
  return case("sum_named", function()
    local fields = {}
    for _, r in ipairs(rows) do
      fields[#fields + 1] = r.name and { "row", r.ir .. " " .. r.name } or { "null-row", r.ir }
    end
    for _, needle in ipairs(needles) do
      fields[#fields + 1] = { "needle", needle }
    end
    return fields
  end)
end

-- inclusive over vectors { count, stack } (no stack: NULL), ranks compared; vectors may be a
-- function that makes them, called when the fields are.
local function stacks_case(vectors)
  return case("inclusive", function()
    local fields = { { "order", "checked" } }
    for _, v in ipairs(type(vectors) == "function" and vectors() or vectors) do
      fields[#fields + 1] = v[2] and { "stack", v[2] .. " " .. v[1] } or { "null-stack", v[1] }
    end
    return fields
  end)
end

-- A folded file's stacks (vm/prof/folded.c reads it, through dripprof.stacks), as vectors,
-- in file order.
local function folded_vectors(stacks)
  local vectors = {}
  for i, stack in ipairs(stacks) do
    vectors[i] = { stack.count_text, table.concat(stack.frames, ";") }
  end
  return vectors
end

-- Folded text ("STACK COUNT" lines) as vectors.
local function text_vectors(lines)
  local vectors = {}
  for i, line in ipairs(lines) do
    local stack, count = line:match("^(.*) (%d+)\n?$")
    vectors[i] = { count, stack }
  end
  return vectors
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
-- callgrind_annotate and folding tools end every line with one), unless that line is blank;
-- or when it holds a NUL byte (no text tool writes one).
local function unusable(fixture, text)
  local nul = text:find("\0", 1, true)
  if nul then
    local _, before = text:sub(1, nul):gsub("\n", "")
    return string.format("%s:%d: binary data (a NUL byte) in a fixture", fixture.path, before + 1)
  end
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

-- The reference's answers for one fixture. env.run(case) runs the reference checker on a
-- case and returns its result (exercises/harness/runner.lua). Returns the item list, or nil
-- plus "FILE:LINE: why". A fixture with no row (annotate) or no stack (folded), or cut short,
-- is refused: it would hand out free points.
function M.expected(fixture, settings, env)
  local text = wb.read_file(fixture.path) or ""
  local bad = unusable(fixture, text)
  if bad then
    return nil, bad
  end
  if fixture.kind == "folded" then
    local ok, vectors = pcall(function()
      return folded_vectors(dripprof.stacks(fixture.path))
    end)
    if not ok then
      return nil, tostring(vectors)
    end
    if #vectors == 0 then
      return nil, fixture.path .. ":1: no stack in the whole file (expected lines such as \"main;run;fib 10\")"
    end
    local r = env.run(stacks_case(vectors))
    if not r.ok then
      return nil, fixture.path .. ": the reference failed: " .. r.status
    end
    if r.items[1] and r.items[1].result ~= "0 n=" .. (#r.items - 1) then
      return nil, fixture.path .. ": the reference's inclusive() failed (" .. r.items[1].result .. ")"
    end
    return r.items
  end
  local r = env.run(lines_case(text))
  if not r.ok then
    return nil, fixture.path .. ": the reference failed: " .. r.status
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
  local s = env.run(sums_case(rows_from(r.items), needles_of(settings)))
  if not s.ok then
    return nil, fixture.path .. ": the reference's sum_named failed: " .. s.status
  end
  return table.move(s.items, 1, #s.items, #r.items + 1, r.items)
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

-- The fixtures of each kind, in the folder's order.
local function by_kind(fixtures)
  local annotate, folded = {}, {}
  for _, f in ipairs(fixtures) do
    if f.kind == "folded" then
      folded[#folded + 1] = f
    else
      annotate[#annotate + 1] = f
    end
  end
  return annotate, folded
end

-- The data a run's checks are made of that takes work to make: every seeded input (from
-- math.random, which the engine has seeded with the run's seed) and the folded fixtures'
-- stacks as dripprof reads them. Plain data only, so the engine may keep it per seed
-- (engine.lua, planned); plan() below makes the checks from it. ctx: as for plan.
function M.inputs(ctx)
  local annotate, folded = by_kind(ctx.fixtures)
  local stacks, vectors = {}, {}
  for _, f in ipairs(folded) do
    stacks[f.path] = stacks[f.path] or dripprof.stacks(f.path)
    vectors[f.path] = folded_vectors(stacks[f.path])
  end
  local inputs = { vectors = vectors, edge_rows = variants.edge_rows() }
  local rename = variants.renamer()
  local lines = {}
  for _, f in ipairs(annotate) do
    local more = variants.annotate_variant(f, rename)
    table.move(more, 1, #more, #lines + 1, lines)
  end
  inputs.variant_rows = table.concat(variants.shuffle(lines))
  inputs.sum_rows, inputs.sum_needles = variants.sum_edges()
  inputs.stack_edges = variants.stack_edges()
  inputs.overflow_stacks = variants.overflow_stacks()
  local folded_lines = {}
  for _, f in ipairs(folded) do
    local more = variants.folded_variant(stacks[f.path], rename)
    table.move(more, 1, #more, #folded_lines + 1, folded_lines)
  end
  inputs.folded_lines = variants.shuffle(folded_lines)
  inputs.speed_seed = math.random(1, 1 << 30)
  return inputs
end

-- The checks of one grading run. ctx: rubric, fixtures (each with kind, path, name, items),
-- gen (a folder for generated inputs, already made), speed_lines; inputs: M.inputs(ctx), made
-- here when not given.
function M.plan(ctx, inputs)
  inputs = inputs or M.inputs(ctx)
  local checks = {}
  local function add(check)
    checks[#checks + 1] = check
  end
  local annotate, folded = by_kind(ctx.fixtures)

  for _, f in ipairs(annotate) do
    add({ group = "parse_row_fixtures", func = "parse_row", title = "parse_row: every line of " .. f.name,
      case = lines_case(wb.read_file(f.path) or ""), expected = with_prefix(f.items, "row:"),
      describe = line_describer(f.path) })
  end

  local edges = ctx.gen .. "/edge-rows.txt"
  wb.write_file(edges, inputs.edge_rows)
  add({ group = "parse_row_edges", func = "parse_row", title = "parse_row: edge cases from the rules (seeded)",
    case = lines_case(inputs.edge_rows), describe = line_describer(edges) })

  local variant_rows = ctx.gen .. "/variant-rows.txt"
  wb.write_file(variant_rows, inputs.variant_rows)
  add({ group = "parse_row_variants", func = "parse_row",
    title = "parse_row: fixtures renamed, renumbered and shuffled (seeded)",
    case = lines_case(inputs.variant_rows), describe = line_describer(variant_rows) })

  for _, f in ipairs(annotate) do
    local expected = with_prefix(f.items, "sum:")
    local needles = {}
    for i, item in ipairs(expected) do
      needles[i] = wb.unescape(item.key:sub(5))
    end
    add({ group = "sum_named_fixtures", func = "sum_named", title = "sum_named: needles over the rows of " .. f.name,
      case = sums_case(rows_from(f.items), needles), expected = expected,
      describe = function(key)
        return string.format("sum_named(rows of %s, \"%s\")", f.name, key:sub(5))
      end })
  end

  local rows = inputs.sum_rows
  add({ group = "sum_named_edges", func = "sum_named",
    title = "sum_named: substrings, case, overflow past UINT64_MAX (seeded)",
    case = sums_case(rows, inputs.sum_needles),
    describe = function(key)
      local listing = {}
      for i, r in ipairs(rows) do
        listing[i] = r.ir .. " " .. shown(r.name)
      end
      return string.format("sum_named({%s}, \"%s\")", table.concat(listing, ", "), key:sub(5))
    end })

  for _, f in ipairs(folded) do
    add({ group = "inclusive_fixtures", func = "inclusive", title = "inclusive: " .. f.name,
      case = stacks_case(inputs.vectors[f.path]), expected = f.items, priority = cost_first,
      describe = function()
        return "inclusive(every stack of " .. f.name .. ")"
      end })
  end

  local function vector_check(group, title, vectors)
    add({ group = group, func = "inclusive", title = title, case = stacks_case(vectors), priority = cost_first,
      describe = function()
        local listing = {}
        for i, v in ipairs(vectors) do
          listing[i] = "{" .. wb.shorten(shown(v[2]), 62) .. ", " .. v[1] .. "}"
        end
        return "inclusive({" .. table.concat(listing, ", ") .. "})"
      end })
  end
  vector_check("inclusive_edges", "inclusive: recursion, empty frames, duplicates, zero counts (seeded)",
    inputs.stack_edges)
  vector_check("inclusive_overflow", "inclusive: a cost past UINT64_MAX is an error (seeded)",
    inputs.overflow_stacks)

  local shuffled = inputs.folded_lines
  if #shuffled > 0 then
    add({ group = "inclusive_variants", func = "inclusive",
      title = "inclusive: folded fixtures renamed, renumbered, shuffled (seeded)",
      case = stacks_case(function()
        return text_vectors(shuffled)
      end), priority = cost_first,
      describe = function()
        return string.format("inclusive(the %d stacks of the folded fixtures, renamed and shuffled)", #shuffled)
      end })
  end

  -- The speed input (exercises/165/chapter.lua's speed), from a seed of the run's.
  local input = require("exercises.165.chapter").speed
  local lines_wanted = ctx.speed_lines or input.lines
  add({ group = "speed", func = "inclusive", kind = "speed",
    title = string.format("speed: inclusive() over %d stacks, at most %gx the reference's instructions",
      lines_wanted, ctx.rubric.speed.limit),
    case = case("inclusive", function()
      return input.fields(lines_wanted, inputs.speed_seed)
    end) })

  return checks
end

return M
