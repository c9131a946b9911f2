-- engine.lua: grades one submission for one chapter.
--
-- The engine is chapter-agnostic. A chapter folder grader/NNN/ provides
-- chapter.lua (which fixtures exist, what each check runs), rubric.lua (points
-- and limits) and its C checker; the engine builds, runs every check in its
-- own sandboxed process, compares the answers with the reference solution's
-- and scores them. Anything a submission does wrong becomes a status in the
-- result; only a problem with the grader itself (no sandbox, no reference,
-- stale fixtures) raises, and the caller turns that into "could not grade".
--
-- A grading run, in order:
--   1. the checks are planned and their seeded inputs generated;
--   2. the reference's answers for them are computed (and cached in build/grade-cache), before
--      any student code runs; the student's code never sees them;
--   3. the submission is compiled, in the sandbox (build.lua);
--   4. every check runs the student's checker in the sandbox: the process only prints its
--      answers, on the sandbox's results channel;
--   5. after the sandbox has ended every process of the run, the grader reads the answers,
--      compares them with the reference's and scores; every file under build/grade is
--      written by the grader, never by student code.
--
-- Scoring rules, applied to every check:
--   * credit is the share of items whose answer equals the reference's;
--   * a "trivial" answer (what code that does nothing would say: not a row, a sum of 0,
--     no function, an error; chapter.trivial decides) earns full credit only when the same
--     function gets at least rubric.trivial_full_at of its real answers right over the
--     whole run, and proportionally less below that, so an implementation that answers
--     nothing to everything scores 0;
--   * a run that crashed, timed out or hit a sanitizer or a limit scores 0;
--     one that only leaked memory keeps rubric.leak_credit of its credit;
--   * speed is credited only when every answer of the speed run is right and the same
--     input runs clean under the sanitizers (no report, no leak).
-- Time limits are CPU time of the check's whole process tree (GRADE_CPU_SCALE scales them,
-- for tests), so a verdict is the same on a busy machine as on a quiet one.

local lfs = require("lfs")
local wb = require("vm.lib.workbook")
local harness = require("exercises.harness.chapter")
local build = require("exercises.harness.build")
local cases = require("exercises.harness.cases")
local compare = require("exercises.harness.compare")
local speed = require("exercises.harness.speed")
local runner = require("exercises.harness.runner")
local sandbox = require("exercises.harness.sandbox")
local answers = require("exercises.harness.answers")
local fixtures = require("grader.fixtures")
local dripprof = require("vm.lib.dripprof")

local M = {}

M.root = "build/grade"

-- What outlives a run: the reference's builds and its answers (build/grade is the run's, and
-- the platforms' entrypoints empty it), each named by what it is made from, so that an entry
-- is either right or never looked up. GRADE_CACHE moves it (the tests' private caches).
M.cache_root = os.getenv("GRADE_CACHE") or "build/grade-cache"
local ANSWERS = M.cache_root .. "/answers" -- the reference's answers and speed figures

-- The sandbox's limits for the runs the chapter does not set (exercises/N/chapter.lua has the
-- student's): the reference's answers (ours, bounded only in case of a bug), the reference's
-- CPU seconds under cachegrind (speed.lua has a counted run's other limits), and the speed
-- input run again under the sanitizers.
M.reference_limits = { cpu = 120, memory = 4096, output = 64 << 20, results = 256 << 20 }
local SPEED_ASAN_LIMITS = { memory = 4096, output = 65536, file_size = 1 << 20, procs = 16, results = 64 << 20 }

-- The chapters the grader grades: an exercise (exercises/N/chapter.lua) with a grading plan
-- (grader/N/chapter.lua), sorted.
function M.chapters()
  local list = {}
  for _, id in ipairs(harness.ids()) do
    if wb.exists("grader/" .. id .. "/chapter.lua") then
      list[#list + 1] = id
    end
  end
  return list
end

-- FIXTURES=dir is one chapter's fixture folder (grader/fixtures.lua). A command that works on
-- several chapters would give it to each: every chapter would read the others' fixtures, and
-- write its answers over theirs in dir/expected/. Raises when list holds more than one chapter
-- while FIXTURES is set; returns list.
function M.one_chapter_for_fixtures(list)
  local dir = os.getenv("FIXTURES")
  wb.must(not (dir and dir ~= "" and #list > 1), string.format("FIXTURES=%s is one chapter's fixture folder, but "
    .. "this would use it for chapters %s: name the chapter with CHAPTER=N", dir, table.concat(list, ", ")))
  return list
end

-- The chapters a command works on: CHAPTER=N (or the option), else every chapter.
function M.chosen(id)
  id = id or os.getenv("CHAPTER")
  if id and id ~= "" then
    wb.must(wb.exists("grader/" .. id .. "/chapter.lua"), "there is no chapter " .. id .. " to grade (no grader/"
      .. id .. "/chapter.lua)")
    return { id }
  end
  local list = M.chapters()
  wb.must(#list > 0, "no chapter to grade: no grader/N/chapter.lua")
  return M.one_chapter_for_fixtures(list)
end

-- A chapter's grading module (grader/N/chapter.lua) with its exercise (.exercise: the
-- harness's view, exercises/N/chapter.lua) and its id.
function M.load_chapter(id)
  return setmetatable({ id = id, exercise = harness.load(id) }, { __index = require("grader." .. id .. ".chapter") })
end

-- Fails with a message when a tool the grader needs is missing: the sandbox, and the
-- dripprof whose `stacks` reads the folded fixtures.
function M.require_tools()
  for _, program in ipairs({ sandbox.program, dripprof.program() }) do
    wb.must(wb.exists(program), program .. " is missing; build it with `make " .. program .. "`")
  end
end

-- Chooses the run's isolation level once (sandbox.choose), with the repository, a FIXTURES
-- folder elsewhere and `extra` (a batch's submissions) made private at the user level;
-- warns on stderr when the level is not bubblewrap.
function M.choose_isolation(extra)
  local private = fixtures.private_folders()
  private[#private + 1] = extra
  local chosen = sandbox.choose({ private = private })
  if chosen.warning then
    io.stderr:write("make grade: WARNING: " .. chosen.warning .. "\n")
  end
  return chosen
end

-- A seed for a run that was given none: from the clock and this process (never from
-- math.random, the seeded stream itself). The report prints it, so SEED=n repeats the run.
function M.fresh_seed()
  return (os.time() * 7919 + wb.pid()) % 1000000000
end

-- The seed pool (grader/pool.lua, `make seed-pool`): seeds whose reference answers and speed
-- figures the cache holds, one per line of this file.
function M.pool_path(chapter)
  return M.cache_root .. "/pool-" .. chapter.id
end

function M.pool_seeds(chapter)
  local path, seeds = M.pool_path(chapter), {}
  for n, line in ipairs(wb.split_lines(wb.read_file(path) or "")) do
    seeds[n] = wb.must(line:match("^%d+$") and #line <= 15 and tonumber(line), string.format("%s:%d: not a seed "
      .. "(a whole number per line; `make seed-pool FORCE=1` makes the pool anew)", path, n))
  end
  return seeds
end

-- The seed a run of chapter uses: the one it was given (opts.seed_given, see seed_and_lines),
-- else one of the chapter's pool drawn by a fresh seed, else the fresh seed. Returns the seed
-- and the pool's size (nil when it is not the pool's).
function M.seed_for(chapter, opts)
  local pool = M.pool_seeds(chapter)
  if opts.seed_given or #pool == 0 then
    return opts.seed, nil
  end
  return pool[opts.seed % #pool + 1], #pool
end

-- The run's seed and speed-input size: the command line's, else SEED and SPEED_LINES
-- from the environment, else a fresh seed (seed_given false: seed_for may take the pool's
-- instead) and the rubric's size.
function M.seed_and_lines(opts)
  local function env_number(name)
    return tonumber(os.getenv(name) or "")
  end
  opts.seed = opts.seed or env_number("SEED")
  opts.seed_given = opts.seed ~= nil
  opts.seed = opts.seed or M.fresh_seed()
  opts.speed_lines = opts.speed_lines or env_number("SPEED_LINES")
  return opts
end

-- Puts the kept file `from` at `to`: a second name for it where the file system allows.
local function place(from, to)
  if not lfs.link(from, to) then
    wb.write_file(to, assert(wb.read_file(from), from))
  end
end

-- CPU seconds, scaled by GRADE_CPU_SCALE (the load test makes limits tight).
local function scaled(seconds)
  local scale = tonumber(os.getenv("GRADE_CPU_SCALE") or "") or 1
  return seconds * scale
end

-- A check's case in a cases file of its own (the checker's input: cases.lua), named by
-- its content, so the reference's answers for it can be cached by name.
function M.case_file(dir, check)
  local path = dir .. "/case-" .. check.number .. ".tsv"
  cases.write_tsv(path, { check.case })
  return path
end

-- Starts a check's case under the sandbox (runner.start). limits: cpu, memory, output,
-- file_size, procs, results.
function M.start_check(program, check, dir, tag, limits)
  return runner.start({ program = program, cases = check.tsv, name = check.case.name, dir = dir, tag = tag,
    limits = setmetatable({ cpu = scaled(limits.cpu) }, { __index = limits }), sources = check.sources })
end

-- Runs start(job) for every job, at most n at once, and finish(job, handle) in order.
local function run_parallel(jobs, n, start, finish)
  local running = {}
  for i, job in ipairs(jobs) do
    running[i] = start(job)
    if i > n then
      finish(jobs[i - n], running[i - n])
      running[i - n] = nil
    end
  end
  for i = math.max(1, #jobs - n + 1), #jobs do
    if running[i] then
      finish(jobs[i], running[i])
    end
  end
end

-- Builds the reference solution once (both flavours) into a folder named by the hash of
-- its inputs, reusing it while they are unchanged. Parallel graders may race to build it:
-- each builds in a private folder and renames it into place, so nobody ever sees half a
-- build. Raises when it cannot be built.
function M.reference(chapter)
  local ex = chapter.exercise
  local probe = harness.build_spec(ex, "", ex.solution, true)
  local inputs = {}
  for _, name in ipairs(ex.student_files) do
    inputs[#inputs + 1] = ex.solution .. "/" .. name
  end
  for _, pair in ipairs(probe.headers) do
    inputs[#inputs + 1] = pair[1]
  end
  table.move(probe.ours.sources, 1, #probe.ours.sources, #inputs + 1, inputs)
  inputs[#inputs + 1] = "exercises/harness/build.lua" -- how it is built, and what a build leaves
  local stamp = { build.cc }
  for _, flavour in ipairs({ "asan", "fast" }) do
    local f = build.flavours[flavour]
    stamp[#stamp + 1] = table.concat({ f.cflags, f.ours, f.ldflags, f.libs }, " ")
  end
  local parent = M.cache_root .. "/reference"
  wb.mkdir_p(parent)
  local dir = parent .. "/" .. chapter.id .. "-" .. wb.content_hash(stamp, inputs):sub(1, 16)
  local ref = { asan = dir .. "/check-asan", fast = dir .. "/check-fast", dir = dir }
  if wb.exists(ref.asan) and wb.exists(ref.fast) then
    ref.fast_sha256 = (wb.read_file(dir .. "/check-fast.sha256") or ""):match("^%x+")
    return ref
  end
  local private = dir .. ".tmp" .. wb.pid()
  local spec = harness.build_spec(ex, private, ex.solution, true)
  local ok, why = build.prepare(spec)
  wb.must(ok, "cannot build the reference solution: " .. tostring(why))
  local built = build.link_all(spec, { { flavour = "asan", name = "check-asan" },
    { flavour = "fast", name = "check-fast" } })
  for k = 1, 2 do
    if not (built[k] and built[k].ok) then
      wb.rm_rf(private)
      wb.fail("the reference solution (" .. ex.solution .. ") does not build: " .. (built[k] or built[k - 1]).error)
    end
  end
  -- What names the reference's speed figures (speed_reference), hashed once.
  wb.write_file(private .. "/check-fast.sha256", wb.sha256(private .. "/check-fast") .. "\n")
  wb.move_into_place(private, dir) -- or another grader got there first; its build is the same
  ref.fast_sha256 = (wb.read_file(dir .. "/check-fast.sha256") or ""):match("^%x+")
  return ref
end

-- The chapter's fixture folder: its files (each with its settings from the
-- folder's manifest) and its path. Raises when the folder or manifest is unusable.
function M.fixture_list(chapter)
  local dir = fixtures.folder(chapter.id)
  local list = wb.must(fixtures.list(dir, chapter.kind))
  local manifest = wb.must(fixtures.manifest(dir))
  for _, f in ipairs(list) do
    f.settings = chapter.settings(f, manifest)
  end
  return list, dir
end

-- Loads every fixture with its expected answers. Raises with every problem
-- listed (missing or stale expected files name the fixture and the command).
function M.load_fixtures(chapter)
  local list, dir = M.fixture_list(chapter)
  local err
  local command = "make expected" .. (os.getenv("FIXTURES") and (" FIXTURES=" .. dir) or "")
  local problems, paths = {}, {}
  for i, f in ipairs(list) do
    paths[i] = f.path
  end
  local hashes = wb.sha256_many(paths)
  for _, f in ipairs(list) do
    f.sha256 = hashes[f.path]
    f.items, err = fixtures.load_expected(f, f.settings, command, f.sha256)
    if not f.items then
      problems[#problems + 1] = err
    end
  end
  if #list == 0 then
    problems[#problems + 1] = dir .. " holds no fixtures"
  end
  wb.must(#problems == 0, table.concat(problems, "\n"))
  return list, dir
end

-- ------------------------------------------------------------------ the speed check

local have_valgrind = speed.have_valgrind

-- The reference's answers read from the cache file `path` by parse(text), or nil when there is
-- none; read once per process: a batch's worker grades many submissions against the same ones
-- (nothing changes answers once they are read).
local parsed_answers = {}
local function cached_answers(path, parse)
  if parsed_answers[path] == nil then
    local text = wb.read_file(path)
    parsed_answers[path] = text and parse(text) or nil
  end
  return parsed_answers[path]
end

-- The reference's counts and answers on the speed input, cached by input content and
-- reference build so a batch measures them once: the whole run, the same run that only
-- reads the input (subtracted from every count), its CPU seconds.
local function speed_reference(ref, check, chapter)
  wb.mkdir_p(ANSWERS)
  local key = (check.tsv_sha256 or wb.sha256(check.tsv)) .. "-" .. (ref.fast_sha256 or wb.sha256(ref.fast) or "")
    .. "-" .. speed.COUNTER
  local cache = ANSWERS .. "/speed-" .. chapter.id .. "-" .. key
  local kept = cached_answers(cache, function(text)
    local ir, base, cpu, base_cpu = text:match("^(%d+) (%d+) ([%d.]+) ([%d.]+)\n")
    return { ir = tonumber(ir), base = tonumber(base), cpu = tonumber(cpu), base_cpu = tonumber(base_cpu),
      items = answers.parse(text:match("\n(.*)$") or "") }
  end)
  if kept then
    return kept
  end
  -- A private folder: in a batch two graders may measure at the same time.
  local dir = ANSWERS .. "/run-" .. key .. "-" .. wb.pid()
  wb.mkdir_p(dir)
  local ok, m = pcall(speed.measure, { program = ref.fast, case = check.case, dir = dir, tag = "reference",
    cpu = scaled(speed.REFERENCE_CPU), sources = check.sources })
  wb.rm_rf(dir)
  if not ok then
    error(m, 0)
  end
  wb.write_file(cache, string.format("%d %d %.3f %.3f\n", m.ir, m.base, m.cpu, m.base_cpu) .. answers.text(m.items))
  return m
end

-- Runs the speed check (check.kind == "speed"): instructions of the whole checked
-- process, constructors included, minus the reference's run that only reads the input,
-- compared with the reference's; the answers must be right and the same input must run
-- clean under the sanitizers. Fills in the check's result fields.
local function run_speed(check, student, ref, chapter, runs)
  local rule = chapter.rubric.speed
  if os.getenv("GRADE_NO_SPEED") == "1" then
    check.skipped = "skipped: GRADE_NO_SPEED=1"
    return
  end
  if not have_valgrind() then
    check.skipped = "skipped: valgrind is not installed (install the Debian package valgrind)"
    return
  end
  if not student.asan.ok then
    check.status, check.class, check.earned = "not built (see the build error above)", "build", 0
    return
  elseif not student.fast.ok then
    check.status, check.class, check.earned = "the build without sanitizers, which is measured, failed: "
      .. tostring(student.fast.error), "build", 0
    return
  end
  -- Nothing is earned unless the count comes out right below: a leak, say, must not earn
  -- the leak credit of the other checks (score()).
  check.earned = 0
  if student.differs then
    check.class, check.status = "wrong", string.format("the build without sanitizers answers check %d (%s) "
      .. "differently from the graded build, so speed is not credited", student.differs.number,
      student.differs.title or student.differs.func)
    return
  end
  local base = check.reference
  -- Scaled once, where each run is started (start_check scales the sanitized run itself).
  local cpu = speed.cpu_limit(base.cpu, rule)
  -- The instructions of the whole run under cachegrind: ir (or nil), why not, the result.
  local ir, why, r = speed.count({ program = student.fast.program, case = check.case, dir = runs, tag = "speed",
    cpu = scaled(cpu), sources = check.sources })
  check.class, check.status = r.kind, r.status
  local c = compare.items(base.items, r.items)
  check.matched, check.total, check.first = c.matched, c.total, c.first
  check.reference_ir = base.ir
  if r.kind == "timeout" then
    check.status = string.format("%s under cachegrind (the reference needs %.1f s)", r.status, base.cpu)
    return
  elseif r.kind ~= "ok" then
    return
  elseif c.matched ~= c.total then
    check.class, check.status = "wrong", "wrong answers on the speed input, so speed is not credited"
    return
  elseif not ir then
    check.class, check.status = "wrong", why .. ", so speed is not credited"
    return
  end
  -- The same input, sanitized: a heap overflow that cachegrind would not notice (already run
  -- with the sealed cases when it stood alone there).
  local clean = check.sealed_asan or runner.finish(M.start_check(student.asan.program, check, runs, "speed-asan",
    setmetatable({ cpu = cpu }, { __index = SPEED_ASAN_LIMITS })))
  local cc = compare.items(base.items, clean.items)
  if clean.kind ~= "ok" or cc.matched ~= cc.total then
    check.class = clean.kind == "ok" and "wrong" or clean.kind
    check.status = "the speed input under the sanitizers: " .. (clean.kind == "ok" and "wrong answers" or clean.status)
      .. ", so speed is not credited"
    check.output = wb.shorten(clean.stdout .. clean.stderr, 1500)
    return
  end
  check.ir = ir
  check.ratio = math.max(ir - base.base, 1) / (base.ir - base.base)
  local agrees, allowed = speed.witness(base, check.ratio, r.cpu or 0, rule)
  if not agrees then
    check.class = "wrong"
    check.status = string.format("its count (%.2fx the reference's instructions) is contradicted by its CPU time: "
      .. "%.1f s, more than the %.1f s such a count allows (the reference: %.1f s), so speed is not credited",
      check.ratio, r.cpu or 0, allowed, base.cpu)
    return
  end
  local share = speed.share(check.ratio, rule)
  check.earned = share
  check.status = string.format("%.2fx the reference's instructions (%s vs %s; full marks up to %gx, half up to %gx)",
    check.ratio, wb.format_number(ir - base.base), wb.format_number(base.ir - base.base), rule.limit, rule.half_limit)
  check.class = share == 1 and "ok" or "slow"
end

-- ------------------------------------------------------------------ reference answers

-- Where the reference's answers for a check are cached: named by its case and the reference
-- build (a batch computes them once).
local function cache_path(opts, tsv_hash)
  return ANSWERS .. "/expected-" .. tsv_hash:sub(1, 32) .. "-" .. wb.basename(opts.ref.dir)
end

local function reference_limits(ex)
  return setmetatable({}, { __index = function(_, key)
    return M.reference_limits[key] or ex.limits[key]
  end })
end

-- Phase 2: every check's expected answers, from the reference, before student code runs.
local function reference_answers(opts, checks, runs)
  wb.mkdir_p(ANSWERS)
  local todo, cases_files = {}, {}
  for _, check in ipairs(checks) do
    if check.kind ~= "speed" and not check.expected and not check.tsv_sha256 then
      cases_files[#cases_files + 1] = check.tsv
    end
  end
  local hashes = wb.sha256_many(cases_files)
  for i, check in ipairs(checks) do
    if check.kind == "speed" then
      if os.getenv("GRADE_NO_SPEED") ~= "1" and have_valgrind() then
        check.reference = speed_reference(opts.ref, check, opts.chapter)
      end
    elseif not check.expected then
      check.cache = cache_path(opts, assert(check.tsv_sha256 or hashes[check.tsv], check.tsv))
      check.expected = cached_answers(check.cache, answers.parse)
      if not check.expected then
        check.tag = "reference-" .. i
        todo[#todo + 1] = check
      end
    end
  end
  local limits = reference_limits(opts.chapter.exercise)
  run_parallel(todo, opts.jobs, function(check)
    return M.start_check(opts.ref.asan, check, runs, check.tag, limits)
  end, function(check, handle)
    local r = runner.finish(handle)
    if not r.ok then
      wb.fail(string.format("the reference solution failed on a generated input (seed %d): %s\n  %s",
        opts.seed, r.status, r.stderr:match("[^\n]+") or ""))
    end
    wb.write_file(check.cache, answers.text(r.items))
    check.expected = r.items
  end)
end

-- ------------------------------------------------------------------ grading

-- Phase 3: the student's builds (the fast one only when the chapter's speed check runs).
local function build_submission(opts, bdir)
  local spec = harness.build_spec(opts.chapter.exercise, bdir, opts.submission)
  -- Reports name the student's files by their own names ("./FILE.c:12"), not by the
  -- folder they were graded from: that path is the instructor's (a batch's download folder,
  -- another student's name beside it), and the compiler's command line, which every uid can
  -- read in /proc at the user level, would show it while other submissions run.
  spec.display = "."
  local ok, why = build.prepare(spec)
  if not ok then
    local failed = { ok = false, error = why, warnings = 0, log = why }
    return { asan = failed, fast = failed }
  end
  local builds = { { flavour = "asan", name = "check-asan" } }
  if opts.chapter.exercise.speed and os.getenv("GRADE_NO_SPEED") ~= "1" and have_valgrind() then
    builds[2] = { flavour = "fast", name = "check-fast" }
  end
  local built = build.link_all(spec, builds)
  local asan = built[1]
  wb.must(not asan.ours, asan.error)
  return { asan = asan, fast = asan.ok and built[2] or asan }
end

-- The size of the reference's answers to a check, as written on the results channel.
local function answers_bytes(check)
  if not check.answers_bytes then
    local bytes = 0
    for _, item in ipairs(check.expected) do
      bytes = bytes + #item.key + #item.result + 2
    end
    check.answers_bytes = bytes
  end
  return check.answers_bytes
end

-- How many bytes of answers a check may write: the chapter's limit, or twice the size of
-- the reference's answers when an instructor's fixtures make those larger.
local function results_room(check)
  return math.max(check.limits.results, 2 * answers_bytes(check))
end

-- The limits of one box running every case of checks, each in a child of its own forked
-- there: per case the largest any check has; the channel has room for one check's answers at
-- their limit and for every check's captures, usage and twice its reference's answers (so what
-- it reads stays near one check's worth, not the sum of every limit).
local function packed_limits(checks)
  local limits = { results = 0, results_total = 0 }
  for _, check in ipairs(checks) do
    for _, key in ipairs({ "cpu", "wall", "memory", "output", "file_size", "procs" }) do
      local value = key == "cpu" and scaled(check.limits.cpu) or check.limits[key]
      limits[key] = math.max(limits[key] or 0, value)
    end
    limits.results = math.max(limits.results, results_room(check))
    limits.results_total = limits.results_total + 2 * check.limits.output + 2 * answers_bytes(check) + 256
  end
  limits.results_total = limits.results_total + limits.results
  return limits
end

-- The cases file of checks joined, in gen: the one made already for the same checks in this
-- run (the fast build's pack usually runs the very checks of the sealed box), else the one
-- the run's kept plan holds for them (check.plan_dir, planned), else made and kept there.
local joined = {}
local function joined_cases(checks, gen, tag)
  local files, numbers = {}, {}
  for i, check in ipairs(checks) do
    files[i], numbers[i] = { check.tsv, check.case.name:match("^[^.]+") .. "." .. check.number }, check.number
  end
  local list = table.concat(numbers, "-")
  local path = joined[gen .. " " .. list]
  if path and wb.exists(path) then
    return path
  end
  path = gen .. "/" .. tag .. ".tsv"
  local dir = checks[1] and checks[1].plan_dir
  local kept = dir and #list < 200 and dir .. "/pack-" .. list .. ".tsv"
  if not (kept and wb.exists(kept) and pcall(place, kept, path)) then
    cases.join_tsv(path, files)
    if kept then
      pcall(place, path, kept) -- a cache deleted meanwhile keeps nothing
    end
  end
  joined[gen .. " " .. list] = path
  return path
end

-- Runs every case of checks in one box (runner.run_packed; extra: its further options, sealed
-- say); returns { [check] = result }.
local function run_packed(program, checks, gen, runs, tag, extra)
  local names = {}
  for i, check in ipairs(checks) do
    names[i] = check.case.name:match("^[^.]+") .. "." .. check.number
  end
  local path = joined_cases(checks, gen, tag)
  local opts = { program = program, cases = path, names = names, dir = runs, tag = tag,
    limits = packed_limits(checks), sources = checks[1] and checks[1].sources }
  for key, value in pairs(extra) do
    opts[key] = value
  end
  local results, by_check = runner.run_packed(opts), {}
  for i, check in ipairs(checks) do
    by_check[check] = results[names[i]]
  end
  return by_check
end

-- The first of the checks whose answers from the build without sanitizers differ from the
-- graded build's clean ones (graded: check -> items), or nil. Every case runs in one box, in a
-- child of its own forked there: only the answers count here, and a case's code could not
-- gain from the others' (they all run the same code, and the graded build already answered
-- them), so a box per case would buy nothing but start-ups.
local function first_difference(program, checks, graded, jobs, gen, runs)
  local results = run_packed(program, checks, gen, runs, "fast", { jobs = jobs })
  for _, check in ipairs(checks) do
    if graded[check] and compare.items(graded[check], results[check].items).first then
      return check
    end
  end
end

-- Whether a check's result from the sealed box is the one a box of its own would give, and
-- so may stand for it: ended well, every answer right, in its own results room, and inside
-- half its CPU and memory limits (a forked child's usage is not a fresh process's, which
-- counts the checker's start as well). A sealed case cannot leave anything for the next one
-- (fork_tests.c), so nothing but its own code and input made that result.
local function stands_alone(check, r, trivial)
  if r.kind ~= "ok" or not r.cpu or not r.memory then
    return false
  end
  local c = compare.items(check.expected, r.items, check.priority, trivial)
  r.compared = c
  return c.first == nil and c.matched == c.total and #r.out <= results_room(check)
    and r.cpu <= scaled(check.limits.cpu) / 2 and r.memory <= check.limits.memory / 2
end

-- The graded checks' results that a sealed box gives as a box of its own would
-- ({ [check] = result }; the rest need a box each). Checks with the same limits share a box.
-- Only bubblewrap's box is sealed enough: at the user level a case could leave files in the
-- machine's shared folders. graded is the graded build (build.link's): one whose code could run
-- in the process that forks the cases (build.unsealable; the exercise's functions are those the
-- reference defines) gets a box per check. trivial_of(check): the check's trivial(answer). A
-- result taken leaves the files its own box would: runs/check-N.* (runs/TAG.* for a check with
-- tag_alone).
local function sealed_results(graded, ref, checks, gen, runs, trivial_of)
  if sandbox.level ~= "bwrap" or #checks == 0
    or build.unsealable(graded, build.defined(wb.read_file(ref.dir .. "/check-asan.symbols") or "")) then
    return {}
  end
  local groups, order = {}, {}
  for _, check in ipairs(checks) do
    local l = check.limits
    local key = table.concat({ l.cpu, l.wall, l.memory, l.output, l.file_size, l.procs }, " ")
    if not groups[key] then
      groups[key] = {}
      order[#order + 1] = key
    end
    table.insert(groups[key], check)
  end
  local taken = {}
  for g, key in ipairs(order) do
    for check, r in pairs(run_packed(graded.program, groups[key], gen, runs, "sealed-" .. g, { sealed = true })) do
      if stands_alone(check, r, trivial_of(check)) then
        taken[check] = r
        for _, stream in ipairs({ "out", "stdout", "stderr" }) do
          wb.write_file(runs .. "/" .. (check.tag_alone or ("check-" .. check.number)) .. "." .. stream, r[stream])
        end
      end
    end
  end
  return taken
end

-- Phase 4: one check's result from its run.
local function record(check, r, trivial)
  local c = r.compared or compare.items(check.expected, r.items, check.priority, trivial)
  check.status, check.class = r.status, r.kind
  check.matched, check.total, check.first = c.matched, c.total, c.first
  check.matched_trivial, check.real = c.matched_trivial, c.real
  check.differences = c.differences
  check.output = wb.shorten(r.stdout .. r.stderr, 1500)
  check.where = r.where and r.where:gsub("^.*/", "")
end

-- Where a run's plan is kept (a folder: inputs.lua, what chapter.inputs made, plain data;
-- case-N.tsv, every check's cases file; hashes, their SHA-256s), named by the hash of all the
-- plan is made from: the seed and the speed size, each fixture with its expected answers, the
-- chapter's modules and the code that reads folded files and writes cases files. A seed of
-- the pool has one from `make seed-pool`; making it is most of a grade's own work.
local function plan_folder_of(chapter, ctx, seed)
  local dir = "grader/" .. chapter.id
  local paths = { "vm/lib/workbook.lua", "vm/lib/dripprof.lua", dripprof.program(), "exercises/harness/cases.lua",
    "grader/engine.lua", "exercises/" .. chapter.id .. "/chapter.lua" }
  for _, name in ipairs(wb.list_dir(dir) or {}) do
    if name:match("%.lua$") then
      paths[#paths + 1] = dir .. "/" .. name
    end
  end
  local stamp = { "seed " .. seed, "lines " .. tostring(ctx.speed_lines), "no speed " .. tostring(ctx.no_speed) }
  for _, f in ipairs(ctx.fixtures) do
    paths[#paths + 1] = fixtures.expected_path(f)
    stamp[#stamp + 1] = table.concat({ f.path, f.kind, f.sha256 }, " ")
  end
  return ANSWERS .. "/plan-" .. chapter.id .. "-" .. wb.content_hash(stamp, paths):sub(1, 32)
end

-- plan_folder_of(), and the plan's inputs, once per process for the same run: a batch's
-- worker grades many submissions with one plan (chapter.plan() only reads its inputs).
local plan_folders, loaded_inputs = {}, {}
local function plan_folder(chapter, ctx, seed)
  local same = table.concat({ chapter.id, seed, tostring(ctx.speed_lines), tostring(ctx.no_speed),
    tostring(ctx.fixtures) }, " ")
  plan_folders[same] = plan_folders[same] or plan_folder_of(chapter, ctx, seed)
  return plan_folders[same]
end

-- Phase 1: the run's checks, their seeded inputs written in gen; and how many checks each
-- group has.
local function planned(opts, gen)
  local chapter = opts.chapter
  -- Every seeded input of the run comes from Lua's one random stream, seeded here: the
  -- same seed plans the same inputs, byte for byte (xoshiro256** in every Lua 5.4).
  math.randomseed(opts.seed)
  local ctx = { rubric = chapter.rubric, fixtures = opts.fixtures, gen = gen, speed_lines = opts.speed_lines,
    no_speed = os.getenv("GRADE_NO_SPEED") == "1" }
  local kept = chapter.inputs and plan_folder(chapter, ctx, opts.seed)
  local inputs = kept and (loaded_inputs[kept] or wb.load_data(kept .. "/inputs.lua"))
  local made = kept and type(inputs) ~= "table"
  local broken = made and wb.exists(kept) -- there, but not whole: made anew
  if made then
    inputs = chapter.inputs(ctx)
  end
  if kept then
    loaded_inputs[kept] = inputs
  end
  local checks = chapter.plan(ctx, inputs)
  -- The SHA-256 of each kept cases file, hashed when the plan was made ("N HEX" lines): what
  -- names the reference's answers for it.
  local kept_hashes = {}
  for n, hex in (kept and not made and wb.read_file(kept .. "/hashes") or ""):gmatch("(%d+) (%x+)\n") do
    kept_hashes[tonumber(n)] = hex
  end
  local per_group = {}
  for i, check in ipairs(checks) do
    per_group[check.group] = (per_group[check.group] or 0) + 1
    check.number = i
    check.limits = setmetatable(check.limits or {}, { __index = chapter.exercise.limits })
    check.sources = chapter.exercise.student_files
    check.plan_dir = kept or nil
    local case, path = kept and not made and kept .. "/case-" .. i .. ".tsv", gen .. "/case-" .. i .. ".tsv"
    if case and wb.exists(case) and pcall(place, case, path) then
      check.tsv, check.tsv_sha256 = path, kept_hashes[i]
    else
      check.tsv = M.case_file(gen, check)
    end
  end
  if made then -- kept whole or not at all: another grader may be making the same folder
    local private = kept .. ".tmp" .. wb.pid()
    wb.rm_rf(private)
    wb.mkdir_p(private)
    wb.write_file(private .. "/inputs.lua", wb.serialize(inputs))
    local paths, lines = {}, {}
    for i, check in ipairs(checks) do
      place(check.tsv, private .. "/case-" .. i .. ".tsv")
      paths[i] = check.tsv
    end
    local hashes = wb.sha256_many(paths)
    for i, check in ipairs(checks) do
      check.tsv_sha256 = hashes[check.tsv]
      lines[i] = i .. " " .. (check.tsv_sha256 or "") .. "\n"
    end
    wb.write_file(private .. "/hashes", table.concat(lines))
    if broken then
      wb.rm_rf(kept)
    end
    wb.move_into_place(private, kept)
  end
  return checks, per_group
end

-- Phases 1 and 2 alone, for the seed pool: the reference's answers and speed figures for
-- opts.seed put in the cache. opts: chapter, seed, speed_lines, ref, fixtures, out, jobs.
function M.prepare(opts)
  opts.jobs = opts.jobs or 1
  wb.rm_rf(opts.out)
  local gen, runs = opts.out .. "/gen", opts.out .. "/runs"
  wb.mkdir_p(gen)
  wb.mkdir_p(runs)
  reference_answers(opts, (planned(opts, gen)), runs)
  wb.rm_rf(opts.out)
end

-- Grades one submission. opts: chapter (module), submission (folder), out
-- (folder for this run), seed, speed_lines, ref (from M.reference), fixtures
-- (from M.load_fixtures), jobs (checks at once), isolation (from sandbox.choose).
-- Returns a result table (see report.lua).
function M.grade(opts)
  local chapter, rubric = opts.chapter, opts.chapter.rubric
  opts.jobs = opts.jobs or 1
  local started = wb.wall_clock()
  wb.rm_rf(opts.out)
  local bdir, gen, runs = opts.out .. "/build", opts.out .. "/gen", opts.out .. "/runs"
  wb.mkdir_p(gen)
  wb.mkdir_p(runs)
  local result = {
    exercise = chapter.exercise,
    chapter = chapter.id,
    title = chapter.exercise.title,
    submission = opts.submission,
    seed = opts.seed,
    fixtures_dir = opts.fixtures_dir,
    isolation = opts.isolation,
    fixtures = {},
    checks = {},
  }
  for _, f in ipairs(opts.fixtures) do
    result.fixtures[#result.fixtures + 1] = { name = f.name, sha256 = f.sha256 }
  end

  local checks, per_group = planned(opts, gen)
  reference_answers(opts, checks, runs)

  local student = build_submission(opts, bdir)
  local asan = student.asan
  result.build = { ok = asan.ok, error = asan.error, warnings = asan.warnings, log = asan.log,
    refused = asan.refused }

  local runnable = {}
  for _, check in ipairs(checks) do
    check.points = (rubric.points[check.group] or 0) / per_group[check.group]
    if check.kind ~= "speed" then
      if asan.ok then
        runnable[#runnable + 1] = check
      else
        check.status, check.class = "not built (see the build error above)", "build"
        check.matched, check.total = 0, #check.expected
      end
    end
  end
  local function trivial_of(check)
    return function(answer)
      return chapter.trivial ~= nil and chapter.trivial(check.func, answer)
    end
  end
  local function start(program, prefix)
    return function(check)
      return M.start_check(program, check, runs, prefix .. check.number,
        setmetatable({ results = results_room(check) }, { __index = check.limits }))
    end
  end
  local graded = {}
  local function graded_result(check, r)
    graded[check] = (r.kind == "ok" or r.kind == "leak") and r.items or nil
    record(check, r, trivial_of(check))
  end
  -- The speed input under the sanitizers (run_speed) goes with the sealed cases as a twin of
  -- the speed check whose answers are the reference's: a result that stands alone there is
  -- the one its own box would give (whose limits are wider), and saves that box.
  local sealed_list, twins = runnable, {}
  if student.fast ~= asan and student.fast.ok then
    sealed_list = table.move(runnable, 1, #runnable, 1, {})
    for _, check in ipairs(checks) do
      if check.kind == "speed" and check.reference then
        twins[check] = setmetatable({ expected = check.reference.items, tag_alone = "speed-asan" }, { __index = check })
        sealed_list[#sealed_list + 1] = twins[check]
      end
    end
  end
  local sealed, alone = sealed_results(asan, opts.ref, sealed_list, gen, runs, trivial_of), {}
  for check, twin in pairs(twins) do
    check.sealed_asan = sealed[twin]
  end
  for _, check in ipairs(runnable) do
    if sealed[check] then
      graded_result(check, sealed[check])
    else
      alone[#alone + 1] = check
    end
  end
  run_parallel(alone, opts.jobs, start(asan.program, "check-"), function(check, handle)
    graded_result(check, runner.finish(handle))
  end)
  -- Speed is measured on the build without sanitizers, so it must answer every input of the
  -- measured function that the graded build answered cleanly exactly as that build did: code
  -- may differ between the two (#ifdef __SANITIZE_ADDRESS__, a run-time test), and only one
  -- is graded. The counted run calls that function alone, so the others' answers are not asked.
  if student.fast ~= asan and student.fast.ok then
    local measured = {}
    for _, check in ipairs(runnable) do
      if check.func == chapter.exercise.speed.func then
        measured[#measured + 1] = check
      end
    end
    student.differs = first_difference(student.fast.program, measured, graded, opts.jobs, gen, runs)
  end
  for _, check in ipairs(checks) do
    if check.kind == "speed" then
      run_speed(check, student, opts.ref, chapter, runs)
    end
    result.checks[#result.checks + 1] = check
  end
  M.score(result, rubric)
  result.execution_time = wb.wall_clock() - started
  return result
end

-- Turns matches and statuses into points (the rules at the top of this file).
function M.score(result, rubric)
  -- How many real (non-trivial) answers each function got right, over the whole run.
  local real_right, real_total = {}, {}
  for _, check in ipairs(result.checks) do
    if check.kind ~= "speed" and check.class ~= "build" then
      local f = check.func
      real_right[f] = (real_right[f] or 0) + (check.matched or 0) - (check.matched_trivial or 0)
      real_total[f] = (real_total[f] or 0) + (check.real or 0)
    end
  end
  local score, max = 0, 0
  for _, check in ipairs(result.checks) do
    local share
    if check.skipped then
      share = 0
      check.status = check.skipped
    elseif check.earned then
      share = check.earned
    else
      local f = check.func
      local accuracy = (real_total[f] or 0) > 0 and (real_right[f] or 0) / real_total[f] or 1
      local weight = math.min(1, accuracy / rubric.trivial_full_at)
      check.trivial_weight = weight
      local matched = (check.matched or 0) - (check.matched_trivial or 0) + (check.matched_trivial or 0) * weight
      share = (check.total or 0) == 0 and 1 or matched / check.total
      if check.class == "leak" then
        share = share * rubric.leak_credit
      elseif check.class ~= "ok" then
        share = 0
      end
    end
    check.score = check.points * share
    max = max + (check.skipped and 0 or check.points)
    score = score + check.score
  end
  result.score = score
  result.max_score = max
end

return M
