-- chapter.lua: chapter 165's exercise, as the workbook's engine needs to know it
-- (exercises/harness/chapter.lua says what each field means). The cases are in tests/, the
-- checker that runs them is tests/check.c, and the reference's answers are in
-- tests/expected/ (written from the reference in the instructor's workbook).

local feedback = require("exercises.harness.feedback")

local M = {
  title = "Profiling the VM",
  student_files = { "profile.c" },
  headers = { "profile.h" },
  checker = { "tests/check.c" },
  cases = { "tests/parse_row.txt", "tests/sum_named.txt", "tests/inclusive.txt" },
  handout = "README.md",
  stub = "-1",
  calls = {
    parse_row = "parse_row(line, &row)",
    sum_named = "sum_named(rows, count, needle, &sum)",
    inclusive = "inclusive(stacks, count, &costs, &ncosts)",
  },
  owned = "the caller frees Row.name, and the Cost array with its names",
  -- The speed check's input (exercises/harness/speed.lua): inclusive() over `lines` stacks
  -- with a distinct function name per 40, made by the checker (random_stacks) from a seed;
  -- the handout publishes the budget for `sizes`, measured on `seed` (the grader picks one).
  speed = {
    func = "inclusive",
    lines = 20000,
    sizes = { 10000, 20000 },
    seed = 165,
    fields = function(lines, seed)
      return { { "order", "checked" },
        { "generate", string.format("random_stacks %d %d %d", lines, math.max(16, lines // 40), seed) } }
    end,
  },
  -- What to do once every public test passes, in the order to do it: the commands of the
  -- handout's "Profiling the VM yourself" (grader/165/student-README.md) and README.md.
  next_steps = {
    { "make exercise-165 BUDGET=1", "your inclusive() against the grader's speed budget" },
    { "make", "builds the VM (build/drip) and the profiler" },
    { "make profile-165 FIB_N=25", "the chapter's profile, quick (build/profile/)" },
    { "build/dripprof top --with build/exercise/165/check build/profile/callgrind.out.fib",
      "its tables, one made by your inclusive()" },
    { "make book", "the web pages: open build/book/index.html" },
    "Hand in exercises/165/profile.c as your instructor asks.",
  },
}

local STUB = "an error; the shipped stub returns -1: not written yet?"

-- What a return value means.
local function returns(rc, meaning)
  return string.format("returns %s (%s)", rc, meaning)
end

local function row_words(answer)
  local ir, pct, name = answer:match('^1 ir=(%d+) pct=(%S+) name=(.*)$')
  if ir then
    local has_pct = not pct:match("^none")
    local shown_pct = has_pct and string.format("%.2f", tonumber(pct))
      or (pct == "none" and "-1.00" or pct:gsub("^none%-but%-pct%-is%-", ""))
    local words = string.format("returns 1 (a row) with ir = %s, has_pct = %s, pct = %s, name = %s", ir,
      tostring(has_pct), shown_pct, feedback.show_answer(name))
    if ir == "12345" or pct:match("12345%.000$") then
      words = words .. "\n            (12345 is what the test put in the Row before the call: your code did not set it)"
    end
    return words
  end
  local rc, rest = answer:match("^(%-?%d+)(.*)$")
  local named = rest and rest:match("but%-name") and ", but row.name is not NULL: set it to NULL" or ""
  if rc == "0" then
    return returns(0, "not a row") .. named
  elseif rc == "-1" then
    return named ~= "" and ("returns -1 (an error)" .. named) or returns(-1, STUB)
  end
  local other = answer:match("^returned%-(%-?%d+)$")
  return other and returns(other, "not a value parse_row may return") or answer
end

local function sum_words(answer)
  local sum = answer:match("^0 sum=(%d+)$")
  if sum then
    return "returns 0 with sum = " .. sum
  end
  return answer == "-1" and returns(-1, STUB) or answer
end

local function inclusive_words(key, answer)
  if key:match("count$") then
    local n = answer:match("^0 n=(%d+)$")
    return n and string.format("returns 0 with %s functions", n) or (answer == "-1" and returns(-1, STUB)) or answer
  elseif key:match("costs$") then
    return "*costs is NULL but *ncosts is not 0"
  elseif key == "out-of-memory" then
    return answer == "ok" and "each call with an allocation failing returns -1, or the right result" or answer
  end
  local name = key:match("cost:(.*)$") or "?"
  local rank, cost = answer:match("^rank=(%d+) cost=(%d+)$")
  if rank then
    return string.format("%s with cost %s, at place %s of the array", feedback.show_answer(name), cost, rank)
  end
  cost = answer:match("^cost=(%d+)$")
  return cost and string.format("%s with cost %s", feedback.show_answer(name), cost) or answer
end

-- An answer of tests/check.c in words (exercises/harness/chapter.lua, `words`).
function M.words(func, key, answer)
  local words
  if func == "parse_row" then
    words = row_words((answer:gsub(" %(it allocated nothing%)$", "")))
    if answer:match("%(it allocated nothing%)$") then
      words = words .. "\n            (your code allocated nothing the test could make fail)"
    end
    if key:match("^out%-of%-memory") then
      words = "with every malloc failing: " .. words
    end
  elseif func == "sum_named" then
    words = sum_words(answer)
  else
    words = inclusive_words(key, answer)
  end
  return key:match("^control:") and ("with the first inputs only: " .. words) or words
end

return M
