-- expected.lua: `make expected` writes every fixture's expected answers.
--
--   lua5.4 grader/expected.lua [--chapter N]      (FIXTURES=dir for another folder)
--
-- The answers come from the reference solution, built with the chapter's own
-- checker and run under the sandbox like any submission. Each answer file
-- records the fixture's SHA-256, so the grader can tell when it is stale. A
-- fixture the reference cannot read stops the run with "FILE:LINE: why" and
-- no answer file is written for it. Exit status: 0 when every fixture has
-- answers, 1 when some fixture could not be read, 2 when nothing could run.

local wb = require("vm.lib.workbook")
local engine = require("grader.engine")
local fixtures = require("grader.fixtures")
local sandbox = require("exercises.harness.sandbox")

-- The sandbox's limits for the reference's runs on the fixtures: ours, so bounded only in
-- case of a bug, with room for the answers to an instructor's large fixture.
local LIMITS = { cpu = 120, memory = 4096, output = 1 << 20, file_size = 1 << 20, procs = 16,
  results_limit = 512 << 20 }

local function expected_for_chapter(id)
  local chapter = engine.load_chapter(id)
  local ref = engine.reference(chapter)
  local list, dir = engine.fixture_list(chapter)
  if #list == 0 then
    -- Said here, not only by make grade: a silent success would leave the instructor
    -- believing the folder's answers were written.
    error({ message = dir .. " holds no fixtures (callgrind_annotate outputs, or folded stacks named"
      .. " .folded, .collapsed or .stacks)" }, 0)
  end
  local scratch = engine.root .. "/expected/" .. id
  wb.rm_rf(scratch)
  wb.mkdir_p(scratch)
  local env = {
    scratch = scratch,
    run = function(argv)
      return engine.run_checker(ref.asan, argv, scratch, "reference", LIMITS)
    end,
  }
  local failures = 0
  for _, f in ipairs(list) do
    local items, why = chapter.expected(f, f.settings, env)
    if items then
      fixtures.write_expected(f, f.settings, items, chapter.rubric.reference)
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
  for _, id in ipairs(chapter and { chapter } or engine.chapters()) do
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
