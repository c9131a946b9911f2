-- chapter.lua: how chapter 999, the toy chapter of the grader's tests, is graded.
--
-- The engine (grader/engine.lua) asks this module what chapter 165's asks (see
-- grader/165/chapter.lua): kind(name), settings(fixture, manifest), expected(fixture,
-- settings, env), plan(ctx) and trivial(func, answer). A fixture is a text file of values,
-- one a line; every check is one case of the chapter's checker (exercises/999/tests/check.c),
-- whose fields are "value: VALUE SIZE" (one call, a buffer of exactly SIZE bytes).

local wb = require("vm.lib.workbook")

local M = {}

M.rubric = require("grader.999.rubric")

-- The buffer of a fixture's calls, unless the folder's fixtures.lua gives the file another.
M.default_size = 32

-- How many values the seeded check draws.
local SEEDED_VALUES = 24

local UINT64_MAX = "18446744073709551615"

-- The stubs' answer, which is also the right one for a buffer too small.
function M.trivial(func, answer)
  return func == "group_digits" and answer == "-1"
end

-- Every fixture is a file of values.
function M.kind()
  return "values"
end

function M.settings(fixture, manifest)
  local entry = manifest[fixture.name] or {}
  return "size " .. tostring(entry.size or M.default_size)
end

local function size_of(settings)
  return tonumber(settings:match("^size (%d+)$"))
end

-- True when text (decimal digits) is a value of uint64_t.
local function fits_u64(text)
  local digits = text:gsub("^0+(%d)", "%1")
  return #digits < #UINT64_MAX or (#digits == #UINT64_MAX and digits <= UINT64_MAX)
end

-- The values of a fixture, in file order ("#" lines and blank lines skipped), or nil plus
-- "FILE:LINE: why".
local function values_of(fixture)
  local text = wb.read_file(fixture.path)
  if not text then
    return nil, "cannot read " .. fixture.path
  end
  local values = {}
  for number, line in ipairs(wb.split_lines(text)) do
    local value = line:match("^%s*(.-)%s*$")
    if value ~= "" and not value:match("^#") then
      if not value:match("^%d+$") or not fits_u64(value) then
        return nil, string.format("%s:%d: not a value from 0 to %s: \"%s\"", fixture.path, number, UINT64_MAX,
          wb.shorten(wb.escape(value), 60))
      end
      values[#values + 1] = value
    end
  end
  if #values == 0 then
    return nil, fixture.path .. ":1: no value in the whole file (expected one number a line)"
  end
  return values
end

-- A case of the checker: group_digits on each { value, size } of calls, or, given a size, on
-- each value of calls in a buffer of that size.
local function calls_case(calls, size)
  local fields = {}
  for i, call in ipairs(calls) do
    fields[i] = { "value", size and call .. " " .. size or call[1] .. " " .. call[2] }
  end
  return { name = "group_digits.check", func = "group_digits", fields = fields }
end

-- The report's input line for an answer's key, "VALUE size=SIZE".
local function describe(key)
  local value, size = key:match("^(%d+) size=(%d+)$")
  return value and string.format("group_digits(%s, out, %s) with out a buffer of %s bytes", value, size, size)
end

-- The reference's answers for one fixture; env.run(case) runs the reference's checker.
function M.expected(fixture, settings, env)
  local values, why = values_of(fixture)
  if not values then
    return nil, why
  end
  local r = env.run(calls_case(values, size_of(settings)))
  if not r.ok then
    return nil, fixture.path .. ": the reference failed: " .. r.status
  end
  return r.items
end

-- A value of `digits` digits from the run's random stream (the engine seeds it), at most
-- UINT64_MAX.
local function random_value(digits)
  local text
  repeat
    text = tostring(math.random(1, 9))
    for _ = 2, digits do
      text = text .. math.random(0, 9)
    end
  until fits_u64(text)
  return text
end

-- The text's length: its digits and a comma before each group of three but the first.
local function grouped_length(value)
  return #value + (#value - 1) // 3
end

-- The checks of one grading run: one per fixture, and one seeded check of tight buffers.
function M.plan(ctx)
  local checks = {}
  for _, f in ipairs(ctx.fixtures) do
    local values = assert(values_of(f)) -- make expected refused a fixture it cannot read
    checks[#checks + 1] = { group = "group_digits_fixtures", func = "group_digits",
      title = "group_digits: every value of " .. f.name, case = calls_case(values, size_of(f.settings)),
      expected = f.items, describe = describe }
  end
  -- Each seeded value twice: in exactly its room, and in one byte less (which must be -1).
  -- A value drawn twice would answer one key twice, so it is drawn again.
  local calls, seen = { { "5", 0 } }, {}
  while #calls < 1 + 2 * SEEDED_VALUES do
    local value = random_value(math.random(1, #UINT64_MAX))
    if not seen[value] then
      seen[value] = true
      local room = grouped_length(value) + 1
      calls[#calls + 1] = { value, room }
      calls[#calls + 1] = { value, room - 1 }
    end
  end
  checks[#checks + 1] = { group = "group_digits_tight", func = "group_digits",
    title = "group_digits: buffers of exactly the room, and one byte less (seeded)", case = calls_case(calls),
    describe = describe }
  return checks
end

return M
