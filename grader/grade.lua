-- grade.lua: `make grade` for one submission (run from the repository root).
--
--   lua5.4 grader/grade.lua [--submission DIR] [--out DIR] [--json FILE]
--                           [--seed N] [--speed-lines N] [--chapter N] [--quiet]
--                           [--jobs N] [--isolation LEVEL] [--job FILE]
--
-- Grades each chapter on its own (--chapter, CHAPTER=N: that one; with --submission, the
-- chapters whose files the folder holds), prints the report, and writes it to
-- OUT/N/report.txt, Gradescope's results to OUT/N/results.json and PrairieLearn's to
-- OUT/N/prairielearn.json, one per chapter graded
-- (and, when one chapter was graded, to --json too: default build/grade/results.json). The
-- submission folder holds the student's files (default: the chapter's exercises folder). SEED=n or --seed
-- repeats a run's randomised checks; without it the run takes one of the chapter's seed pool
-- (`make seed-pool`: its reference answers are ready), else a fresh seed, and prints it.
-- Student code runs at the isolation level chosen once per run (exercises/harness/sandbox.lua,
-- GRADE_ISOLATION); --isolation takes a level a batch has already chosen. --jobs runs
-- that many checks at once (default: one per core). --job makes it one of a batch's workers
-- (work(), below).
--
-- Exit status: 0 when grading completed, whatever the score; 2 when grading
-- could not run (no sandbox, reference does not build, stale fixtures, ...),
-- with the reason on stderr.

local lfs = require("lfs")
local wb = require("vm.lib.workbook")
local engine = require("grader.engine")
local sandbox = require("exercises.harness.sandbox")
local report = require("grader.report")

-- opts for grading a job of a batch's jobs file (grader/batch.lua): the submission's folder
-- and key come from the file, so that no command line names the submission; the results go
-- to the job's folder, OUT/.job-INDEX.
local function for_job(opts, job)
  local run = setmetatable({}, { __index = opts })
  run.submission, run.key, run.out, run.json = job.folder, job.key, job.out, job.out .. "/results.json"
  return run
end

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
  parser:option("--key", "recorded in results.json as extra_data.grade_key (a batch's hash of what the grade depends on)")
  parser:option("--job", "a batch's jobs file: grade its jobs that no other worker took (see work())")
  return engine.seed_and_lines(wb.parse(parser, argv))
end

-- The chapters to grade: the one asked for; else, for a submission folder, every chapter
-- whose student files it holds; else every chapter.
local function chapters_to_grade(opts)
  if opts.chapter or (os.getenv("CHAPTER") or "") ~= "" or not opts.submission then
    return engine.chosen(opts.chapter)
  end
  local list = {}
  for _, id in ipairs(engine.chapters()) do
    local files = engine.load_chapter(id).exercise.student_files
    local held = true
    for _, name in ipairs(files) do
      held = held and wb.exists(opts.submission .. "/" .. name)
    end
    if held then
      list[#list + 1] = id
    end
  end
  wb.must(#list > 0, "the submission " .. opts.submission .. " holds the files of no chapter; name one with "
    .. "CHAPTER=N")
  return engine.one_chapter_for_fixtures(list)
end

-- What grading a chapter needs besides the submission, made once per process (a worker
-- grades many submissions): the chapter, its fixtures and the reference's builds.
local prepared = {}
local function prepare(id)
  if not prepared[id] then
    local chapter = engine.load_chapter(id)
    local fixtures, dir = engine.load_fixtures(chapter)
    prepared[id] = { chapter = chapter, fixtures = fixtures, dir = dir, ref = engine.reference(chapter) }
  end
  return prepared[id]
end

-- Grades opts.submission (see the top).
local function grade(opts, isolation)
  local chapters = chapters_to_grade(opts)
  local written = {}
  for _, id in ipairs(chapters) do
    local p = prepare(id)
    local chapter, fixtures, dir, ref = p.chapter, p.fixtures, p.dir, p.ref
    local seed, pool = engine.seed_for(chapter, opts)
    local submission = (opts.submission or chapter.exercise.dir):gsub("/+$", "")
    wb.must(wb.is_dir(submission), "submission folder " .. submission .. " does not exist")
    local out = (opts.out or (engine.root .. "/run")) .. "/" .. id
    local result = engine.grade({ chapter = chapter, submission = submission, out = out, seed = seed,
      speed_lines = opts.speed_lines, ref = ref, fixtures = fixtures, fixtures_dir = dir,
      jobs = opts.jobs or wb.nproc(), isolation = isolation })
    result.pool = pool
    local text = report.text(result)
    wb.write_file(out .. "/report.txt", text)
    if not opts.quiet then
      io.write(text)
    end
    local results = report.gradescope(result, text)
    results.extra_data.grade_key = opts.key
    report.write_json(out .. "/results.json", results)
    report.write_json(out .. "/prairielearn.json", report.prairielearn(result, text))
    written[#written + 1] = out .. "/results.json"
    if #chapters == 1 then
      report.write_json(opts.json, results)
      written[#written] = opts.json
    end
  end
  if not opts.quiet then
    print("results: " .. table.concat(written, ", "))
  end
end

local FAILED = "make grade: could not grade"

-- --job FILE (batch.lua starts one such worker per core): grades the jobs of FILE in order, each
-- one that no other worker took: a worker takes job INDEX by making the folder OUT/.taken-INDEX
-- (mkdir makes it for one of them only; the batch removes them when it is done). Prints INDEX
-- when the job is done; what stopped its grade goes to OUT/.job-INDEX.err, as the message of a
-- grade.lua of its own would.
local function work(opts, isolation)
  local batch = require("grader.batch")
  for _, job in ipairs(wb.must(batch.jobs(opts.job))) do
    if lfs.mkdir(wb.dirname(opts.job) .. "/.taken-" .. job.index) then
      wb.mkdir_p(job.out)
      local ok, err = pcall(grade, for_job(opts, job), isolation)
      if not ok then
        wb.write_file(job.out .. ".err", FAILED .. ": " .. (type(err) == "table" and tostring(err.message)
          or tostring(err)) .. "\n")
      end
      io.stdout:write(job.index, "\n")
      io.stdout:flush()
    end
  end
end

local function main(argv)
  local opts = parse_args(argv)
  engine.require_tools()
  local isolation
  if opts.isolation then
    sandbox.use(opts.isolation)
    isolation = opts.isolation .. ": " .. sandbox.describe[opts.isolation]
  else
    isolation = engine.choose_isolation().text
  end
  if opts.job then
    return work(opts, isolation)
  end
  return grade(opts, isolation)
end

wb.exit_with(FAILED, main, arg)
