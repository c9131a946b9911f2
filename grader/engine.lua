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
-- Scoring rules, applied to every check:
--   * credit is the share of items whose answer equals the reference's;
--   * a run that crashed, timed out or hit a sanitizer or a limit scores 0;
--     one that only leaked memory keeps rubric.leak_credit of its credit;
--   * an error answer ("-1") that matches counts only when the same function
--     also gave a right non-error answer somewhere in the run: returning -1
--     for everything (the stubs) earns nothing.

-- The exercise harness (exercises/harness/runner.lua) builds the sandbox's command
-- lines and reads sanitizer stack traces, for the grader as for `make exercise-N`.
package.path = "exercises/harness/?.lua;" .. package.path
local runner = require("runner")
local util = require("util")
local sandbox = require("sandbox")
local build = require("build")
local fixtures = require("fixtures")
local rng = require("rng")

local M = {}

M.root = "build/grade"

-- Chapter folders under grader/ (a number with a chapter.lua), sorted.
function M.chapters()
  local list = {}
  for _, name in ipairs(util.list_dir("grader") or {}) do
    if name:match("^%d+$") and util.exists("grader/" .. name .. "/chapter.lua") then
      list[#list + 1] = name
    end
  end
  return list
end

function M.load_chapter(id)
  return require(id .. ".chapter")
end

-- Fails with a message when a tool the grader needs is missing.
function M.require_tools()
  if not util.exists(sandbox.program) then
    error({ message = sandbox.program .. " is missing; build it with `make " .. sandbox.program .. "`" }, 0)
  end
end

-- Runs a checker under the sandbox; the answers are read from the OUT file
-- the checker writes (its last argument). Returns the sandbox result plus
-- class, items, stdout and stderr.
function M.run_checker(program, argv, dir, tag, limits)
  local out = dir .. "/" .. tag .. ".out"
  os.remove(out)
  local words = { program }
  for _, a in ipairs(argv) do
    words[#words + 1] = a
  end
  words[#words + 1] = out
  local r = sandbox.run({
    argv = words,
    timeout = limits.timeout,
    memory = limits.memory,
    output = limits.output,
    file_size = limits.file_size,
    stdout = dir .. "/" .. tag .. ".stdout",
    stderr = dir .. "/" .. tag .. ".stderr",
  })
  r.class = sandbox.class(r.status)
  r.items = fixtures.parse_items(util.read_file(out) or "")
  if r.class == "ok" and not r.items.finished then
    r.class, r.ok = "exit", false
    r.status = "stopped early with exit status 0 (exit() in the code under test?)"
  end
  r.stdout = util.read_file(dir .. "/" .. tag .. ".stdout") or ""
  r.stderr = util.read_file(dir .. "/" .. tag .. ".stderr") or ""
  return r
end

-- A build spec for a submission folder.
local function build_spec(rubric, dir, submission)
  return {
    dir = dir,
    submission = submission,
    student_files = rubric.student_files,
    pristine = rubric.pristine,
    ours = rubric.ours,
  }
end

-- Builds the reference solution once (both flavours) into a folder named by
-- the hash of its inputs, reusing it while they are unchanged. Parallel
-- graders may race to build it: each builds in a private folder and renames
-- it into place, so nobody ever sees half a build. Raises when it cannot be
-- built.
function M.reference(chapter)
  local rubric = chapter.rubric
  local stamp, inputs = { build.cc, build.flavours.asan, build.flavours.fast }, {}
  for _, name in ipairs(rubric.student_files) do
    inputs[#inputs + 1] = rubric.reference .. "/" .. name
  end
  for _, pair in ipairs(rubric.pristine) do
    inputs[#inputs + 1] = pair[1]
  end
  local hashes = util.sha256_many(inputs)
  for _, path in ipairs(inputs) do
    stamp[#stamp + 1] = path .. " " .. (hashes[path] or "missing")
  end
  local parent = M.root .. "/reference"
  util.mkdir_p(parent)
  util.write_file(parent .. "/stamp.txt", table.concat(stamp, "\n"))
  local dir = parent .. "/" .. rubric.chapter .. "-" .. util.sha256(parent .. "/stamp.txt"):sub(1, 16)
  local ref = { asan = dir .. "/check-asan", fast = dir .. "/check-fast", dir = dir }
  if util.exists(ref.asan) and util.exists(ref.fast) then
    return ref
  end
  local private = dir .. ".tmp" .. tostring({}):match("0x(%x+)")
  local spec = build_spec(rubric, private, rubric.reference)
  local ok, why = build.prepare(spec)
  if not ok then
    error({ message = "cannot build the reference solution: " .. why }, 0)
  end
  for _, flavour in ipairs({ "asan", "fast" }) do
    local r = build.link(spec, flavour, "check-" .. flavour)
    if not r.ok then
      util.rm_rf(private)
      error({ message = "the reference solution (" .. rubric.reference .. ") does not build: " .. r.error }, 0)
    end
  end
  if not util.run("mv -T " .. util.quote(private) .. " " .. util.quote(dir) .. " 2>/dev/null") then
    util.rm_rf(private) -- another grader got there first; its build is the same
  end
  return ref
end

-- Loads every fixture with its expected answers. Raises with every problem
-- listed (missing or stale expected files name the fixture and the command).
-- The chapter's fixture folder: its files (each with its settings from the
-- folder's manifest) and its path. Raises when the folder or manifest is unusable.
function M.fixture_list(chapter)
  local dir = fixtures.folder(chapter.rubric.chapter)
  local list, err = fixtures.list(dir, chapter.kind)
  if not list then
    error({ message = err }, 0)
  end
  local manifest, merr = fixtures.manifest(dir)
  if not manifest then
    error({ message = merr }, 0)
  end
  for _, f in ipairs(list) do
    f.settings = chapter.settings(f, manifest)
  end
  return list, dir
end

function M.load_fixtures(chapter)
  local list, dir = M.fixture_list(chapter)
  local err
  local command = "make expected" .. (os.getenv("FIXTURES") and (" FIXTURES=" .. dir) or "")
  local problems, paths = {}, {}
  for i, f in ipairs(list) do
    paths[i] = f.path
  end
  local hashes = util.sha256_many(paths)
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
  if #problems > 0 then
    error({ message = table.concat(problems, "\n") }, 0)
  end
  return list, dir
end

local function is_error_answer(result)
  return result == "-1"
end

-- Compares answers item by item. Returns counts and the first difference:
-- the first in order, or the first of the lowest `priority(expected, actual)`
-- when the check has one (a wrong cost says more than a rank it pushed down).
function M.compare(expected, actual_items, priority)
  local actual, seen_twice, known = {}, {}, {}
  for _, item in ipairs(actual_items) do
    if actual[item.key] then
      seen_twice[item.key] = true
    else
      actual[item.key] = item.result
    end
  end
  local c = { total = #expected, matched = 0, matched_errors = 0 }
  for _, e in ipairs(expected) do
    known[e.key] = true
    local a = actual[e.key]
    if a == e.result and not seen_twice[e.key] then
      c.matched = c.matched + 1
      if is_error_answer(e.result) then
        c.matched_errors = c.matched_errors + 1
      end
    else
      local rank = priority and priority(e.result, a) or 1
      if not c.first or rank < c.first.rank then
        c.first = { key = e.key, expected = e.result, actual = a, rank = rank }
        if seen_twice[e.key] then
          c.first.actual = (a or "") .. "   (and this item appears more than once)"
        end
      end
    end
  end
  for _, item in ipairs(actual_items) do
    if not known[item.key] then
      c.total = c.total + 1
      if not c.first then
        c.first = { key = item.key, expected = "(no such item)", actual = item.result }
      end
      known[item.key] = true
    end
  end
  return c
end

local function wall_clock()
  local text = util.capture("date +%s.%N")
  return tonumber(text) or os.time()
end

-- The valgrind to use; GRADE_VALGRIND names another (the tests name a
-- missing one to check the "skipped" path).
local function valgrind()
  local v = os.getenv("GRADE_VALGRIND")
  return (v and v ~= "") and v or "valgrind"
end

-- Instruction count of one run under callgrind, counting only inside the
-- function `toggle`. Returns ir, wall seconds, the sandbox result.
local function callgrind(program, argv, dir, tag, timeout, toggle)
  local cg = dir .. "/" .. tag .. ".callgrind"
  os.remove(cg)
  local words = { valgrind(), "--tool=callgrind", "--callgrind-out-file=" .. cg, "--toggle-collect=" .. toggle,
    program }
  for _, a in ipairs(argv) do
    words[#words + 1] = a
  end
  local t0 = wall_clock()
  local r = M.run_checker(words[1], { table.unpack(words, 2) }, dir, tag,
    { timeout = timeout, memory = 16384, output = 1 << 20, file_size = 256 << 20 })
  local wall = wall_clock() - t0
  local text = util.read_file(cg) or ""
  local ir = tonumber(text:match("\nsummary: (%d+)") or text:match("\ntotals: (%d+)") or "")
  return ir, wall, r
end

-- The reference's instruction count and answers on the speed input, cached
-- by input content and reference build so a batch measures it once.
local function speed_reference(ref, check, chapter)
  local cache_dir = M.root .. "/cache"
  util.mkdir_p(cache_dir)
  local key = util.sha256(check.argv[#check.argv]) .. "-" .. (util.sha256(ref.fast) or "")
  local cache = cache_dir .. "/speed-" .. chapter.rubric.chapter .. "-" .. key
  local text = util.read_file(cache)
  if text then
    local ir, wall = text:match("^(%d+) ([%d.]+)\n")
    return { ir = tonumber(ir), wall = tonumber(wall), items = fixtures.parse_items(text:match("\n(.*)$") or "") }
  end
  -- A private folder: in a batch two graders may measure at the same time.
  local dir = cache_dir .. "/run-" .. key .. "-" .. tostring({}):match("0x(%x+)")
  util.mkdir_p(dir)
  local ir, wall, r = callgrind(ref.fast, check.argv, dir, "reference", 3600, check.toggle)
  if not r.ok or not ir then
    local why = r.stderr:match("[^\n]*[Ee]rror[^\n]*") or r.stderr:match("[^\n]+") or ""
    util.rm_rf(dir)
    error({ message = "the reference failed under callgrind: " .. r.status .. " " .. why }, 0)
  end
  local lines = { string.format("%d %.3f", ir, wall) }
  for _, item in ipairs(r.items) do
    lines[#lines + 1] = item.key .. "\t" .. item.result
  end
  util.write_file(cache, table.concat(lines, "\n") .. "\n")
  util.rm_rf(dir)
  return { ir = ir, wall = wall, items = r.items }
end

local function have_valgrind()
  return util.run("command -v " .. util.quote(valgrind()) .. " >/dev/null 2>&1")
end

-- Runs the speed check (check.kind == "speed": the instructions spent inside
-- the function check.toggle, compared with the reference's on the same input,
-- with the limits in rubric.speed) and fills in the check's result fields.
local function run_speed(check, student_fast, ref, chapter, runs)
  local speed = chapter.rubric.speed
  if os.getenv("GRADE_NO_SPEED") == "1" then
    check.skipped = "skipped: GRADE_NO_SPEED=1"
    return
  end
  if not have_valgrind() then
    check.skipped = "skipped: valgrind is not installed (install the Debian package valgrind)"
    return
  end
  if not student_fast.ok then
    check.status, check.class = "not built (see the build error above)", "build"
    return
  end
  local base = speed_reference(ref, check, chapter)
  local timeout = math.max(speed.timeout_floor, math.ceil(base.wall * speed.timeout_factor))
  local ir, _, r = callgrind(student_fast.program, check.argv, runs, "speed", timeout, check.toggle)
  check.class = r.class
  check.status = r.status
  local c = M.compare(base.items, r.items)
  check.matched, check.total, check.first = c.matched, c.total, c.first
  check.reference_ir = base.ir
  if r.class == "timeout" then
    check.status = string.format("timed out after %d s under callgrind (the reference took %.1f s)", timeout,
      base.wall)
    return
  end
  if r.class ~= "ok" then
    return
  end
  if c.matched ~= c.total or not ir then
    check.class = "wrong"
    check.status = "wrong answers on the speed input, so speed is not credited"
    return
  end
  check.ir = ir
  check.ratio = ir / base.ir
  local share = check.ratio <= speed.limit and 1 or (check.ratio <= speed.half_limit and 0.5 or 0)
  check.earned = share
  check.status = string.format("%.2fx the reference's instructions (%s vs %s; full marks up to %gx, half up to %gx)",
    check.ratio, util.points(ir), util.points(base.ir), speed.limit, speed.half_limit)
  check.class = share == 1 and "ok" or "slow"
end

-- The reference's answers for a generated input, cached by the content of
-- the input files and the reference build (a batch computes them once).
local function reference_answers(opts, check, runs, tag)
  local key = { opts.ref.dir, table.concat(check.argv, "\t") }
  for _, a in ipairs(check.argv) do
    key[#key + 1] = util.exists(a) and util.sha256(a) or a
  end
  local cache_dir = M.root .. "/cache"
  util.mkdir_p(cache_dir)
  util.write_file(runs .. "/" .. tag .. ".key", table.concat(key, "\n"))
  local cache = cache_dir .. "/expected-" .. util.sha256(runs .. "/" .. tag .. ".key")
  local text = util.read_file(cache)
  if text then
    return fixtures.parse_items(text)
  end
  local r = M.run_checker(opts.ref.asan, check.argv, runs, tag,
    setmetatable({ timeout = 60, memory = 4096, output = 64 << 20 }, { __index = opts.chapter.rubric.limits }))
  if not r.ok then
    error({ message = string.format("the reference solution failed on a generated input (seed %d): %s\n  %s",
      opts.seed, r.status, r.stderr:match("[^\n]+") or "") }, 0)
  end
  local lines = {}
  for _, item in ipairs(r.items) do
    lines[#lines + 1] = item.key .. "\t" .. item.result .. "\n"
  end
  util.write_file(cache, table.concat(lines))
  return r.items
end

-- Grades one submission. opts: chapter (module), submission (folder), out
-- (folder for this run), seed, speed_lines, ref (from M.reference), fixtures
-- (from M.load_fixtures). Returns a result table (see report.lua).
function M.grade(opts)
  local chapter, rubric = opts.chapter, opts.chapter.rubric
  local started = wall_clock()
  util.rm_rf(opts.out)
  local bdir, gen, runs = opts.out .. "/build", opts.out .. "/gen", opts.out .. "/runs"
  util.mkdir_p(gen)
  util.mkdir_p(runs)
  local result = {
    chapter = rubric.chapter,
    title = rubric.title,
    submission = opts.submission,
    seed = opts.seed,
    fixtures_dir = opts.fixtures_dir,
    fixtures = {},
    checks = {},
  }
  for _, f in ipairs(opts.fixtures) do
    result.fixtures[#result.fixtures + 1] = { name = f.name, sha256 = f.sha256 }
  end

  local spec = build_spec(rubric, bdir, opts.submission)
  spec.prebuilt = opts.ref.dir
  local ok, why = build.prepare(spec)
  local asan, fast
  if not ok then
    asan = { ok = false, error = why, warnings = 0, log = why }
    fast = asan
  else
    asan = build.link(spec, "asan", "check-asan")
    local want_fast = os.getenv("GRADE_NO_SPEED") ~= "1"
    fast = (asan.ok and want_fast) and build.link(spec, "fast", "check-fast") or asan
    if asan.ours then
      error({ message = asan.error }, 0)
    end
  end
  result.build = { ok = asan.ok, error = asan.error, warnings = asan.warnings, log = asan.log }

  local ctx = { rubric = rubric, fixtures = opts.fixtures, gen = gen, rng = rng.new(opts.seed),
    speed_lines = opts.speed_lines, no_speed = os.getenv("GRADE_NO_SPEED") == "1" }
  local checks = chapter.plan(ctx)
  local per_group = {}
  for _, check in ipairs(checks) do
    per_group[check.group] = (per_group[check.group] or 0) + 1
  end

  for i, check in ipairs(checks) do
    check.number = i
    check.points = (rubric.points[check.group] or 0) / per_group[check.group]
    check.limits = setmetatable(check.limits or {}, { __index = rubric.limits })
    if check.kind == "speed" then
      run_speed(check, fast, opts.ref, chapter, runs)
    else
      if not check.expected then
        check.expected = reference_answers(opts, check, runs, "reference-" .. i)
      end
      if not asan.ok then
        check.status, check.class = "not built (see the build error above)", "build"
        check.matched, check.total = 0, #check.expected
      else
        local r = M.run_checker(asan.program, check.argv, runs, "check-" .. i, check.limits)
        local c = M.compare(check.expected, r.items, check.priority)
        check.status, check.class = r.status, r.class
        check.matched, check.total, check.first = c.matched, c.total, c.first
        check.matched_errors = c.matched_errors
        check.output = util.shorten(r.stdout .. r.stderr, 1500)
        local where = runner.where(r.stderr, rubric.student_files)
        check.where = where and where:gsub("^.*/", "")
      end
    end
    result.checks[#result.checks + 1] = check
  end
  M.score(result, rubric)
  result.execution_time = wall_clock() - started
  return result
end

-- Turns matches and statuses into points (the rules at the top of this file).
function M.score(result, rubric)
  local works = {}
  for _, check in ipairs(result.checks) do
    if (check.matched or 0) > (check.matched_errors or 0) and check.class ~= "build" then
      works[check.func] = true
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
      local matched = check.matched or 0
      if not works[check.func] then
        matched = matched - (check.matched_errors or 0)
      end
      share = (check.total or 0) == 0 and 1 or matched / check.total
      if check.class == "leak" then
        share = share * rubric.leak_credit
      elseif check.class ~= "ok" then
        share = 0
      end
    end
    check.score = check.points * share
    if not check.skipped then
      max = max + check.points
    end
    score = score + check.score
  end
  result.score = score
  result.max_score = max
end

return M
