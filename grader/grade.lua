-- grade.lua: `make grade` for one submission (run from the repository root).
--
--   lua5.4 grader/grade.lua [--submission DIR] [--out DIR] [--json FILE]
--                           [--seed N] [--speed-lines N] [--chapter N] [--quiet]
--                           [--jobs N] [--isolation LEVEL]
--
-- Grades every chapter that has a grader/NNN/chapter.lua (or the one named),
-- prints the report, writes it to OUT/report.txt and the Gradescope results to
-- --json (default build/grade/results.json). The submission folder holds the
-- student's files (default: the chapter's exercises folder). SEED=n or --seed
-- repeats a run's randomised checks; without it a fresh seed is printed.
-- Student code runs at the isolation level chosen once per run (exercises/harness/sandbox.lua,
-- GRADE_ISOLATION); --isolation takes a level a batch has already chosen. --jobs runs
-- that many checks at once (default: one per core).
--
-- Exit status: 0 when grading completed, whatever the score; 2 when grading
-- could not run (no sandbox, reference does not build, stale fixtures, ...),
-- with the reason on stderr.

local wb = require("vm.lib.workbook")
local engine = require("grader.engine")
local sandbox = require("exercises.harness.sandbox")
local report = require("grader.report")

local function parse_args(argv)
  local parser = wb.parser("grade.lua", "Grades one submission (make grade).")
  parser:option("--submission", "the folder with the student's files (default: the chapter's exercise)")
  parser:option("--out", "the folder for this run (default build/grade/run)")
  parser:option("--json", "Gradescope's results.json", engine.root .. "/results.json")
  parser:option("--seed", "the seed of the randomised checks (default: SEED, else a fresh one)")
    :convert(wb.to_integer)
  parser:option("--speed-lines", "stacks in the speed input (default: SPEED_LINES, else the rubric's)")
    :convert(wb.to_integer)
  parser:option("--chapter", "grade this chapter only")
  parser:flag("--quiet", "print nothing but errors")
  parser:option("--jobs", "checks at once (default: one per core)"):convert(wb.to_integer)
  parser:option("--isolation", "a level a batch has already chosen (bwrap, user, none)")
  return engine.seed_and_lines(wb.parse(parser, argv))
end

local function combine(results, texts)
  local all = { score = 0, execution_time = 0, output = table.concat(texts, "\n"), output_format = "text",
    visibility = "visible", stdout_visibility = "visible", tests = {}, extra_data = { chapters = {} } }
  for _, r in ipairs(results) do
    local g = report.gradescope(r, "")
    all.score = all.score + g.score
    all.execution_time = all.execution_time + g.execution_time
    for _, t in ipairs(g.tests) do
      all.tests[#all.tests + 1] = t
    end
    all.extra_data.chapters[#all.extra_data.chapters + 1] = g.extra_data
  end
  all.extra_data.isolation = results[1] and results[1].isolation
  all.extra_data.max_score = 0
  for _, r in ipairs(results) do
    all.extra_data.max_score = all.extra_data.max_score + r.max_score
  end
  return all
end

local function main(argv)
  local opts = parse_args(argv)
  engine.require_tools()
  local isolation
  if opts.isolation then
    sandbox.use(opts.isolation)
    isolation = opts.isolation .. ": " .. sandbox.describe[opts.isolation]
  else
    local private = require("grader.fixtures").private_folders()
    table.insert(private, 1, wb.realpath("."))
    local chosen = sandbox.choose({ private = private })
    isolation = chosen.text
    if chosen.warning then
      io.stderr:write("make grade: WARNING: " .. chosen.warning .. "\n")
    end
  end
  local chapters = opts.chapter and { opts.chapter } or engine.chapters()
  if #chapters == 0 then
    error({ message = "no chapter to grade: no grader/NNN/chapter.lua" }, 0)
  end
  local results, texts = {}, {}
  for _, id in ipairs(chapters) do
    local chapter = engine.load_chapter(id)
    local fixtures, dir = engine.load_fixtures(chapter)
    local ref = engine.reference(chapter)
    local submission = (opts.submission or chapter.rubric.default_submission):gsub("/+$", "")
    if not wb.is_dir(submission) then
      error({ message = "submission folder " .. submission .. " does not exist" }, 0)
    end
    local out = (opts.out or (engine.root .. "/run")) .. "/" .. id
    local result = engine.grade({ chapter = chapter, submission = submission, out = out, seed = opts.seed,
      speed_lines = opts.speed_lines, ref = ref, fixtures = fixtures, fixtures_dir = dir,
      jobs = opts.jobs or wb.nproc(), isolation = isolation })
    local text = report.text(result)
    wb.write_file(out .. "/report.txt", text)
    if not opts.quiet then
      io.write(text)
    end
    results[#results + 1] = result
    texts[#texts + 1] = text
  end
  report.write_json(opts.json, combine(results, texts))
  if not opts.quiet then
    print("results: " .. opts.json)
  end
end

wb.exit_with("make grade: could not grade", main, arg)
