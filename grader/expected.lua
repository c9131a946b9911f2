-- expected.lua: `make expected` writes the reference's answers: for the public cases of each
-- chapter's exercise (exercises/N/tests/expected/, which the student's run compares with), the
-- speed budget of a chapter with a speed check (exercises/N/tests/expected/speed.txt and the
-- handout's table: exercises/harness/speed.lua) and for every grader fixture
-- (grader/N/fixtures/expected/).
--
--   lua5.4 grader/expected.lua [--chapter N]      (CHAPTER=N; FIXTURES=dir: that folder's
--                                                  answers only, not the public cases')
--
-- The answers come from the reference solution, built with the chapter's own checker and run
-- under the sandbox like any submission. Each answer file records its input's SHA-256, so the
-- grader can tell when it is stale. A fixture the reference cannot read stops the run with
-- "FILE:LINE: why" and no answer file is written for it. Exit status: 0 when every fixture has
-- answers, 1 when some fixture could not be read, 2 when nothing could run.

local wb = require("vm.lib.workbook")
local engine = require("grader.engine")
local fixtures = require("grader.fixtures")
local sandbox = require("exercises.harness.sandbox")
local runner = require("exercises.harness.runner")
local cases = require("exercises.harness.cases")
local exercise = require("exercises.harness.exercise")
local speed = require("exercises.harness.speed")

-- The sandbox's limits for the reference's runs on the fixtures: ours, so bounded only in
-- case of a bug, with room for the answers to an instructor's large fixture.
local LIMITS = { cpu = 120, wall = 1200, memory = 4096, output = 1 << 20, file_size = 1 << 20, procs = 16,
  results = 512 << 20 }

-- Says which step make expected is on, before a step that may take a while.
local function step(format, ...)
  print("expected: " .. string.format(format, ...) .. " ...")
  io.stdout:flush()
end

local function expected_for_chapter(id)
  local chapter = engine.load_chapter(id)
  -- FIXTURES=dir asks for that folder's answers; the public cases are the chapter's own files
  -- and do not depend on it.
  if not os.getenv("FIXTURES") then
    for _, w in ipairs(exercise.write_expected(chapter.exercise)) do
      print(string.format("expected: %-40s %6d cases   -> %s", wb.basename(w.path):gsub("%.expected$", ""), w.cases,
        w.path))
    end
  end
  step("chapter %s: building the reference", id)
  local ref = engine.reference(chapter)
  if not os.getenv("FIXTURES") and chapter.exercise.speed then
    local scratch = engine.root .. "/expected/" .. id .. "-speed"
    wb.rm_rf(scratch)
    wb.mkdir_p(scratch)
    local sizes = {}
    for i, n in ipairs(chapter.exercise.speed.sizes) do
      sizes[i] = wb.commas(n)
    end
    step("chapter %s: counting the reference's instructions under cachegrind on %s stacks", id,
      table.concat(sizes, " and "))
    for _, row in ipairs(speed.write_budgets(chapter.exercise, ref.fast, chapter.rubric.speed, scratch).rows) do
      print(string.format("expected: %-40s %s instructions (the reference's) -> %s", "speed, " .. row.lines .. " stacks",
        wb.commas(row.reference), speed.table_path(chapter.exercise)))
    end
    wb.rm_rf(scratch)
  end
  local list, dir = engine.fixture_list(chapter)
  -- Said here, not only by make grade: a silent success would leave the instructor
  -- believing the folder's answers were written.
  wb.must(#list > 0, dir .. " holds no fixtures (callgrind_annotate outputs, or folded stacks named"
    .. " .folded, .collapsed or .stacks)")
  local scratch = engine.root .. "/expected/" .. id
  wb.rm_rf(scratch)
  wb.mkdir_p(scratch)
  local env = {
    run = function(c)
      local path = scratch .. "/case.tsv"
      cases.write_tsv(path, { c })
      return runner.run({ program = ref.asan, cases = path, name = c.name, dir = scratch, tag = "reference",
        limits = LIMITS, sources = chapter.exercise.student_files })
    end,
  }
  step("chapter %s: running the reference on %d fixture%s from %s", id, #list, #list == 1 and "" or "s", dir)
  local failures = 0
  for _, f in ipairs(list) do
    local items, why = chapter.expected(f, f.settings, env)
    if items then
      fixtures.write_expected(f, f.settings, items, chapter.exercise.solution)
      print(string.format("expected: %-40s %6d answers -> %s", f.name, #items, fixtures.expected_path(f)))
    else
      failures = failures + 1
      io.stderr:write("make expected: " .. why .. "\n")
    end
  end
  return failures
end

local function main()
  local parser = wb.parser("expected.lua", "Writes every fixture's expected answers (make expected).")
  parser:option("--chapter", "this chapter only")
  local chapter = wb.parse(parser, arg).chapter
  engine.require_tools()
  sandbox.use("none") -- only the reference runs here, and it is ours
  local failures = 0
  for _, id in ipairs(engine.chosen(chapter)) do
    failures = failures + expected_for_chapter(id)
  end
  if failures > 0 then
    io.stderr:write(string.format("make expected: %d fixture(s) could not be read; fix them and run it again\n",
      failures))
    return 1
  end
  return 0
end

wb.exit_with("make expected: could not run", main)
