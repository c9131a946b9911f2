-- test.lua: the grader's own tests (`make test-grader`, suite `grader` of `make test`).
--
--   lua5.4 grader/test.lua RESULT_FILE        writes "PASSED FAILED" to RESULT_FILE
--   lua5.4 grader/test.lua --batch N          the scale test: N copies with SUBMISSIONS, busy machine
--   lua5.4 grader/test.lua --attacks LEVEL    the attack suite at one isolation level
--   lua5.4 grader/test.lua --gradescope       the attacks through the Gradescope layout (root)
--
-- Every test drives the real entry points (grade.lua, batch.lua, expected.lua,
-- verify.lua) as processes, the way `make` does, and checks what they print
-- and write. The speed check runs on a smaller input (SPEED_LINES) and only
-- where it is the point of the test, to keep the suite near two minutes.

package.path = "grader/?.lua;" .. package.path

local util = require("util")
local json = require("dkjson")
local verify = require("verify")
local engine = require("engine")
local sandbox = require("sandbox")

local LUA = os.getenv("LUA") or "lua5.4"
local ROOT = engine.root .. "/test"
local SEED = 4242
local SPEED_LINES = 10000

local passed, failed = 0, 0

local function check(ok, name, why)
  if ok then
    passed = passed + 1
  else
    failed = failed + 1
    print("FAIL grader: " .. name .. (why and (": " .. why) or ""))
  end
  return ok
end

-- Runs a shell command; returns exit code, stdout, stderr.
local function run(cmd)
  local out, err = ROOT .. "/cmd.stdout", ROOT .. "/cmd.stderr"
  local _, code = util.run(cmd .. " > " .. util.quote(out) .. " 2> " .. util.quote(err))
  return code, util.read_file(out) or "", util.read_file(err) or ""
end

local function grade_cmd(env, args)
  return string.format("%s %s grader/grade.lua --seed %d --speed-lines %d %s", env, LUA, SEED, SPEED_LINES, args)
end

local function decode(path)
  return json.decode(util.read_file(path) or "null")
end

-- The mutants, the reference (full marks) and the stubs (zero), via verify.
-- The fixtures that make every mutant lose points, a subset of the full set
-- so the suite stays fast (`make verify-fixtures` uses them all).
local SUBSET = { "book-fib-self.txt", "c-wordfreq-self.txt", "c-wordfreq-nopct.txt", "vm-fib.folded",
  "vm-zoo.folded", "toy-vm.folded", "book-fib.folded" }

-- A fixture folder with some of the committed fixtures and their answers.
local function fixture_subset(tag, names)
  local dir = ROOT .. "/fixtures-" .. tag
  util.rm_rf(dir)
  util.mkdir_p(dir .. "/expected")
  util.copy("grader/fixtures/165/fixtures.lua", dir .. "/fixtures.lua")
  for _, name in ipairs(names) do
    util.copy("grader/fixtures/165/" .. name, dir .. "/" .. name)
    util.copy("grader/fixtures/165/expected/" .. name .. ".expected", dir .. "/expected/" .. name .. ".expected")
  end
  return dir
end

local function test_verify()
  local dir = fixture_subset("subset", SUBSET)
  local problems, lines = verify.verify({ out = ROOT .. "/verify", seed = SEED, speed_lines = SPEED_LINES,
    no_speed = true, fixtures = dir })
  for _, line in ipairs(lines) do
    local name = line:match("^%S+%s+(%S+)")
    check(line:match("^ok"), "verify " .. (name or line), line)
  end
  for _, p in ipairs(problems) do
    print("  " .. p)
  end
  check(#lines >= 3, "verify graded the reference, the stubs and the mutants", #lines .. " candidates")
  -- The report of a planted fault names it: the first difference shows input, expected and actual.
  local r = decode(ROOT .. "/verify/graded/165-mutant-every_occurrence/results.json") or {}
  local found = false
  for _, t in ipairs(r.tests or {}) do
    if t.name:match("^inclusive: toy%-vm") and t.output:match("first difference") and t.output:match("expected:")
      and t.output:match("actual:") and t.output:match("input:") then
      found = true
    end
  end
  check(found, "a wrong inclusive() shows its first difference as input/expected/actual")
  local h = decode(ROOT .. "/verify/graded/165-mutant-hangs_on_empty_needle/results.json") or {}
  local text = h.output or ""
  check(text:match("timed out after 2 s"), "an endless loop is reported as 'timed out after 2 s'")
end

-- results.json: the Gradescope fields and their types.
local function test_results_json(path)
  local r = decode(path)
  if not check(type(r) == "table", "results.json decodes", path) then
    return
  end
  check(math.type(r.score) ~= nil, "results.json score is a number")
  check(type(r.execution_time) == "number", "results.json execution_time is a number")
  check(type(r.output) == "string" and r.output:match("seed"), "results.json output is the report")
  check(r.output_format == "text" and r.visibility == "visible" and r.stdout_visibility == "visible",
    "results.json formats and visibility")
  local tests_ok = type(r.tests) == "table" and #r.tests > 10
  for _, t in ipairs(tests_ok and r.tests or {}) do
    tests_ok = tests_ok and type(t.name) == "string" and type(t.number) == "string" and type(t.score) == "number"
      and type(t.max_score) == "number" and (t.status == "passed" or t.status == "failed")
      and type(t.output) == "string" and type(t.tags) == "table" and t.visibility == "visible"
      and t.score <= t.max_score + 1e-9
  end
  check(tests_ok, "results.json tests[] have name, number, score, max_score, status, output, tags, visibility")
end

-- Starts n busy loops; returns a function that ends them.
local function busy_loops(n)
  local pids = {}
  for _ = 1, n do
    pids[#pids + 1] = util.capture("sh -c 'while :; do :; done' > /dev/null 2>&1 & echo $!"):match("%d+")
  end
  return function()
    util.run("kill " .. table.concat(pids, " ") .. " 2>/dev/null")
  end
end

-- SUBMISSIONS: stubs and reference copies, graded in parallel with the speed check on
-- (with `busy`, while three busy loops per core keep the machine loaded).
local function test_batch(copies, busy)
  local subs = ROOT .. "/submissions"
  util.rm_rf(subs)
  for i = 1, copies do
    local name = string.format("student-%02d", i)
    local from = (i % 3 == 0) and "solutions/165" or "exercises/165"
    -- Nested one level, as LMS downloads are.
    util.mkdir_p(subs .. "/" .. name .. "/work")
    util.copy(from .. "/profile.c", subs .. "/" .. name .. "/work/profile.c")
  end
  util.mkdir_p(subs .. "/student-empty")
  local out = ROOT .. "/batch"
  -- --skip-reference: a reference copy is among the submissions anyway.
  local stop = busy and busy_loops(3 * util.nproc()) or function() end
  local ok, code, stdout, stderr = pcall(run, string.format(
    "SPEED_LINES=%d %s grader/batch.lua %s --skip-reference --out %s --seed %d", SPEED_LINES, LUA, subs, out, SEED))
  stop()
  if not ok then
    error(code, 0)
  end
  check(code == 0, "SUBMISSIONS batch exits 0", stderr)
  local csv = util.read_file(out .. "/scores.csv") or ""
  local rows = util.split_lines(csv)
  check(#rows == copies + 2, "scores.csv has a header and one row per submission", #rows .. " lines")
  local zero, full = true, true
  for _, row in ipairs(rows) do
    local name, score, max = row:match("^([^,]+),([^,]*),([^,]*),")
    local n = tonumber(name and name:match("student%-(%d+)"))
    if n then
      if n % 3 == 0 then
        full = full and score == max and tonumber(score) == 100
      else
        zero = zero and tonumber(score) == 0
      end
    end
  end
  check(zero, "make grade on the shipped stubs scores 0 (with the speed check)", csv)
  check(full, "make grade on the reference scores 100 of 100 (with the speed check)", csv)
  check(csv:match("student%-empty,0,") ~= nil, "a submission without profile.c scores 0 and does not stop the batch")
  check((util.read_file(out .. "/failures.txt") or ""):match("checks most often failed") ~= nil,
    "failures.txt lists the checks most often failed")
  check(stdout:match("graded %d+ of %d+ submissions") ~= nil, "the batch prints a summary", stdout)
  test_results_json(out .. "/student-03/results.json")
  local report = util.read_file(out .. "/student-03/165/report.txt") or ""
  check(report:match("seed: " .. SEED .. " %(repeat this run with SEED=" .. SEED .. "%)") ~= nil,
    "the report prints the seed and how to repeat it", report:sub(1, 300))
end

-- A swapped-in fixture folder, stale and corrupted fixtures.
local function test_fixture_folder()
  local dir = ROOT .. "/fixtures"
  util.rm_rf(dir)
  util.mkdir_p(dir)
  util.copy("grader/fixtures/165/toy-vm.folded", dir .. "/toy-vm.folded")
  util.copy("grader/fixtures/165/book-fib-self.txt", dir .. "/book.txt")
  util.write_file(dir .. "/dropped-in.folded", "main;a;b;a 7\nmain;c 3\n")
  local env = "FIXTURES=" .. util.quote(dir)
  local code, _, stderr = run(grade_cmd(env .. " GRADE_NO_SPEED=1", "--submission solutions/165 --quiet"))
  check(code == 2 and stderr:match("has no expected answers") and stderr:match("make expected FIXTURES="),
    "a fixture without expected answers is refused, naming the command", stderr)
  code, _, stderr = run(env .. " " .. LUA .. " grader/expected.lua")
  check(code == 0, "make expected FIXTURES=dir writes answers for a new folder", stderr)
  code, _, stderr = run(grade_cmd(env .. " GRADE_NO_SPEED=1", "--submission solutions/165 --json "
    .. ROOT .. "/fixtures.json --out " .. ROOT .. "/fixtures-run --quiet"))
  local r = decode(ROOT .. "/fixtures.json") or {}
  check(code == 0 and r.score and r.extra_data and r.score == r.extra_data.max_score and r.score > 0,
    "a swapped-in fixture folder is graded after make expected alone (reference: full marks)", stderr)
  local names = {}
  for _, t in ipairs(r.tests or {}) do
    names[#names + 1] = t.name
  end
  check(table.concat(names, "\n"):match("dropped%-in%.folded") ~= nil, "a dropped-in folded file becomes a check")

  util.write_file(dir .. "/toy-vm.folded", (util.read_file(dir .. "/toy-vm.folded") or "") .. "main;run 5\n")
  code, _, stderr = run(grade_cmd(env, "--submission solutions/165 --quiet"))
  check(code == 2 and stderr:match("toy%-vm%.folded changed") and stderr:match("stale"),
    "a changed fixture's stale answers are refused", stderr)

  util.write_file(dir .. "/toy-vm.folded", "main;run;fib 10\nmain;run 5\nmain;;x 4\n")
  code, _, stderr = run(env .. " " .. LUA .. " grader/expected.lua")
  check(code == 1 and stderr:find(dir .. "/toy-vm.folded:3:", 1, true),
    "a corrupted folded fixture gives an error naming file and line", stderr)

  util.write_file(dir .. "/toy-vm.folded", "main;run 5\n")
  util.write_file(dir .. "/book.txt", "--------\n20,186,274,402 (100.0%)  PROGRAM TOTALS\nbad\0line\n")
  code, _, stderr = run(env .. " " .. LUA .. " grader/expected.lua")
  check(code == 1 and stderr:find(dir .. "/book.txt:3:", 1, true),
    "a corrupted annotate fixture (NUL byte) gives an error naming file and line", stderr)

  util.write_file(dir .. "/book.txt", "just some text\nwith no rows\n")
  code, _, stderr = run(env .. " " .. LUA .. " grader/expected.lua")
  check(code == 1 and stderr:find(dir .. "/book.txt:1: no callgrind_annotate row", 1, true),
    "a file with no annotate rows is refused with file and line", stderr)

  -- Fixtures that would hand out free points: (folded, annotate, message or nil, what).
  local totals = "--------\n20,186,274,402 (100.0%)  PROGRAM TOTALS\n"
  for _, case in ipairs({
    { "", totals, "toy-vm.folded:1: no stack", "a folded fixture with no stack is refused" },
    { "\n\n", totals, "toy-vm.folded:1: no stack", "a folded fixture of blank lines is refused" },
    { "main;run 5\n", totals .. "3,4", "book.txt:3: the last line has no newline",
      "an annotate fixture cut short (last line without a newline) is refused" },
    { "main;run 5\nmain;fi", totals, "toy-vm.folded:2: the last line has no newline",
      "a folded fixture cut short is refused" },
    { "main;run 5\n", totals .. "\n  ", nil, "an annotate fixture ending in a blank line without a newline is accepted" },
  }) do
    util.write_file(dir .. "/toy-vm.folded", case[1])
    util.write_file(dir .. "/book.txt", case[2])
    code, _, stderr = run(env .. " " .. LUA .. " grader/expected.lua")
    check(case[3] == nil and code == 0 or case[3] ~= nil and code == 1 and stderr:find(dir .. "/" .. case[3], 1, true),
      case[4] .. (case[3] and " with file and line" or ""), stderr)
  end
end

-- Bad submissions are results, not grader crashes.
local function test_bad_submissions()
  local dir = ROOT .. "/broken"
  util.rm_rf(dir)
  util.mkdir_p(dir)
  util.write_file(dir .. "/profile.c", "#include \"profile.h\"\nint parse_row(const char *line, Row *row) {\n"
    .. "  return 1 +\n}\n")
  local code, stdout, stderr = run(grade_cmd("GRADE_VALGRIND=/nonexistent/valgrind", "--submission " .. dir .. " --out " .. ROOT
    .. "/broken-run --json " .. ROOT .. "/broken.json"))
  local r = decode(ROOT .. "/broken.json") or {}
  check(code == 0 and r.score == 0, "a compile error is graded (exit 0, score 0)", stderr)
  check(stdout:match("build: FAILED: profile%.c does not compile: .*error") ~= nil,
    "the report shows the compile error", stdout:sub(1, 400))
  check(stdout:match("skipped: valgrind is not installed") and r.extra_data and r.extra_data.max_score == 85,
    "without valgrind the speed check is skipped with the reason and left out of the total",
    tostring(r.extra_data and r.extra_data.max_score))
end

-- The student's copy of profile.h (or anything but profile.c) is never used.
local function test_pristine()
  local dir = ROOT .. "/own-header"
  util.rm_rf(dir)
  util.mkdir_p(dir)
  util.copy("solutions/165/profile.c", dir .. "/profile.c")
  util.write_file(dir .. "/profile.h", "#error a student's header must not be used\n")
  util.write_file(dir .. "/check.c", "#error a student's checker must not be used\n")
  local code, _, stderr = run(grade_cmd("GRADE_NO_SPEED=1", "--submission " .. dir .. " --out " .. ROOT
    .. "/own-header-run --json " .. ROOT .. "/own-header.json --quiet"))
  local r = decode(ROOT .. "/own-header.json") or {}
  check(code == 0 and r.score and r.extra_data and r.score == r.extra_data.max_score,
    "only profile.c is taken from a submission; headers and checker are restored pristine", stderr)
end

-- make gradescope: a zip whose entries include the two scripts, executable.
local function test_gradescope()
  local code, _, stderr = run(LUA .. " grader/gradescope.lua")
  local data = util.read_file("build/gradescope/autograder.zip") or ""
  local names = {}
  local eocd = data:find("PK\5\6", #data - 64, true)
  if code == 0 and eocd then
    local entries, _, offset = string.unpack("<I2I4I4", data, eocd + 10)
    local pos = offset + 1
    for _ = 1, entries do
      local attr = string.unpack("<I4", data, pos + 38)
      local name_len, extra_len, comment_len = string.unpack("<I2I2I2", data, pos + 28)
      names[data:sub(pos + 46, pos + 45 + name_len)] = (attr >> 16) & 0x1FF
      pos = pos + 46 + name_len + extra_len + comment_len
    end
  end
  check(names["run_autograder"] == 493 and names["setup.sh"] == 493, "make gradescope: run_autograder and setup.sh, executable", stderr)
  check(names["solutions/165/profile.c"] and names["grader/165/check.c"] and names["exercises/harness/sandbox.c"]
    and names["exercises/harness/sandbox_box.c"] and names["vm/prof/folded.c"] and names["Makefile"] and true
    or false, "make gradescope: the zip carries the grader, reference, sandbox and reader")
  local useless = {}
  for name in pairs(names) do
    if name:match("mutants/") or name:match("attacks") or name:match("^exercises/165/") or name:match("test%.lua$") then
      useless[#useless + 1] = name
    end
  end
  check(#useless == 0, "make gradescope: no mutant (a correct implementation), attack, stub or test in the zip",
    table.concat(useless, " "))
  local run_script = data:match("chmod 700 /autograder /autograder/source")
  check(run_script ~= nil, "make gradescope: run_autograder makes /autograder private before grading")
end

-- Same seed, same generated inputs; another seed, other inputs.
local function test_seed()
  local chapter = engine.load_chapter("165")
  local fixtures = engine.load_fixtures(chapter)
  local rng = require("rng")
  local function generated(seed, name)
    local gen = ROOT .. "/seed-" .. name
    util.rm_rf(gen)
    util.mkdir_p(gen)
    chapter.plan({ rubric = chapter.rubric, fixtures = fixtures, gen = gen, rng = rng.new(seed), speed_lines = 500 })
    local sums = {}
    for _, f in ipairs(util.list_dir(gen)) do
      sums[#sums + 1] = f .. " " .. util.sha256(gen .. "/" .. f)
    end
    return table.concat(sums, "\n")
  end
  local a, b, c = generated(11, "a"), generated(11, "b"), generated(12, "c")
  check(a == b, "the same seed generates the same randomised inputs")
  check(a ~= c, "another seed generates other inputs")
end

-- The attack suite (grader/165/attacks/) at one isolation level: every attack comes to its
-- designed outcome, nothing survives, the repository is unchanged, the stubs still score 0.
local function test_attacks(level)
  local attacks = require("attacks")
  -- At the user level the grader makes the repository private (chmod 700): undo it after.
  local mode = util.capture("stat -c %a .")
  local fixtures = fixture_subset("attacks", { "book-fib-self.txt", "toy-vm.folded" })
  local outcomes = attacks.run({ level = level, out = ROOT .. "/attacks-" .. level, seed = SEED,
    fixtures = fixtures, speed_lines = SPEED_LINES })
  for _, o in ipairs(outcomes) do
    check(#o.problems == 0, "attack (" .. level .. ") " .. o.name, table.concat(o.problems, "; "))
  end
  local json_path = ROOT .. "/attacks-" .. level .. "/stubs.json"
  local code, _, stderr = run(grade_cmd("GRADE_NO_SPEED=1 GRADE_ISOLATION=" .. level .. " FIXTURES="
    .. util.quote(fixtures), "--submission exercises/165 --quiet --out " .. ROOT .. "/attacks-" .. level
    .. "/stubs --json " .. json_path))
  local r = decode(json_path) or {}
  check(code == 0 and r.score == 0, "attack (" .. level .. "): the shipped stubs still score 0 afterwards", stderr)
  check(type(r.extra_data) == "table" and tostring(r.extra_data.isolation):match("^" .. level .. ":"),
    "attack (" .. level .. "): results.json names the isolation level", tostring(r.extra_data and r.extra_data.isolation))
  util.run("chmod " .. mode:gsub("%s+", "") .. " .")
end

-- The speed check reads callgrind's log defensively: the program can write lines into it.
local function test_callgrind_log()
  local real = "==7== Callgrind, a call-graph generating cache profiler\n==7== Command: ./check inclusive x\n"
  local ending = "==7== Events    : Ir\n==7== Collected : 123456\n==7== \n==7== I   refs:      123,456\n"
  check(engine.callgrind_count(real .. ending) == 123456, "callgrind log: the count is read")
  check(engine.callgrind_count(real .. "==7== Collected : 1\n" .. ending) == 123456,
    "callgrind log: a count the program wrote before valgrind's own is ignored")
  check(engine.callgrind_count(real .. "==7== Command: /bin/true\n" .. ending) == nil,
    "callgrind log: a second program (exec) means no count")
  check(engine.callgrind_count(real) == nil, "callgrind log: no count when valgrind wrote none")
  check(engine.callgrind_count("==8== Collected : 5\n" .. real) == nil,
    "callgrind log: a log that does not start with valgrind's header gives no count")
end

-- Verdicts do not depend on load: the reference, an endless loop and a crash, graded with
-- CPU limits scaled down to a quarter, on the machine as it is and with three busy loops
-- per core beside it, get the same points and the same statuses.
local function test_load()
  local fixtures = fixture_subset("load", { "book-fib-self.txt", "toy-vm.folded" })
  local subs = ROOT .. "/load-submissions"
  util.rm_rf(subs)
  local base = util.read_file("grader/165/mutants/profile.c")
  local candidates = { reference = util.read_file("solutions/165/profile.c"),
    hangs = "#define FAULT_HANGS_ON_EMPTY_NEEDLE 1\n" .. base, crashes = "#define FAULT_NEEDS_SEMICOLON 1\n" .. base }
  for name, text in pairs(candidates) do
    util.mkdir_p(subs .. "/" .. name)
    util.write_file(subs .. "/" .. name .. "/profile.c", text)
  end
  local function grade(tag)
    local out = ROOT .. "/load-" .. tag
    local code, _, stderr = run(string.format("GRADE_NO_SPEED=1 GRADE_CPU_SCALE=0.25 FIXTURES=%s %s grader/batch.lua %s"
      .. " --skip-reference --out %s --seed %d", util.quote(fixtures), LUA, subs, out, SEED))
    check(code == 0, "load: the batch ran (" .. tag .. ")", stderr)
    local verdicts, full = {}, {}
    for name in pairs(candidates) do
      local r = decode(out .. "/" .. name .. "/results.json") or {}
      full[name] = r.score ~= nil and r.extra_data ~= nil and r.score == r.extra_data.max_score
      local lines = { name .. " " .. tostring(r.score) }
      for _, t in ipairs(r.tests or {}) do
        lines[#lines + 1] = string.format("%s %s %s", t.name, util.points(t.score), t.output:match("^[^\n]*"))
      end
      table.sort(lines)
      verdicts[name] = table.concat(lines, "\n")
    end
    return verdicts, full
  end
  local quiet, full = grade("quiet")
  local stop = busy_loops(3 * util.nproc())
  local ok, loaded = pcall(grade, "busy")
  stop()
  if not ok then
    error(loaded, 0)
  end
  for name in pairs(candidates) do
    check(quiet[name] == loaded[name], "load: " .. name .. " gets the same points and statuses with "
      .. 3 * util.nproc() .. " busy loops beside it", "quiet:\n" .. quiet[name] .. "\nbusy:\n" .. loaded[name])
  end
  check(full.reference, "load: the reference scores full marks with a quarter of the CPU time", quiet.reference)
  check(quiet.hangs:match("timed out after 0%.5 s of CPU time") ~= nil, "load: an endless loop is a CPU-time timeout",
    quiet.hangs)
  check(quiet.crashes:match("SEGV") ~= nil, "load: a crash is reported as the crash", quiet.crashes)
end

-- The Gradescope layout: the zip's run_autograder on the reference, the stubs and the
-- attacks that aim at it, at every isolation level this machine offers (root only).
local GRADESCOPE_ATTACKS = { "reference", "stubs", "include_gradescope", "include_relative", "incbin",
  "exec_reference", "rewrite_results", "read_expected", "exfiltrate", "env_dump", "fork_bomb", "do_nothing",
  "leak_off", "symlink_solution", "huge_source" }

local function test_gradescope_emulation()
  if not util.is_root() then
    print("SKIP grader: Gradescope emulation needs root (a private mount namespace on /autograder)")
    return
  end
  local code, _, stderr = run(LUA .. " grader/gradescope.lua")
  check(code == 0, "make gradescope builds the zip", stderr)
  local attacks = require("attacks")
  local before = attacks.repository_fingerprint()
  for _, level in ipairs({ "bwrap", "user" }) do
    local ok, probe = pcall(sandbox.run, { isolation = level, cpu = 5, argv = { "true" } })
    if ok and probe.ok then
      local outcomes = attacks.gradescope({ level = level, out = util.realpath(ROOT) .. "/gradescope-" .. level,
        zip = "build/gradescope/autograder.zip", names = GRADESCOPE_ATTACKS })
      for _, o in ipairs(outcomes) do
        check(#o.problems == 0, "gradescope (" .. level .. ") " .. o.name, table.concat(o.problems, "; "))
      end
    else
      print("SKIP grader: Gradescope emulation at the " .. level .. " level: not possible here")
    end
  end
  local survivors = util.capture("ps -eo comm= | grep -c '^drip-attack' || true"):match("%d+")
  check(tonumber(survivors) == 0, "gradescope: no attack process survives", survivors)
  check(attacks.repository_fingerprint() == before, "gradescope: the repository is unchanged")
end

local function main(argv)
  util.mkdir_p(ROOT)
  if argv[1] == "--gradescope" then
    test_gradescope_emulation()
    print(string.format("%d passed, %d failed", passed, failed))
    return failed == 0
  end
  if argv[1] == "--attacks" then
    test_attacks(argv[2] or "bwrap")
    print(string.format("%d passed, %d failed", passed, failed))
    return failed == 0
  end
  if argv[1] == "--batch" then
    test_batch(tonumber(argv[2]) or 20, true)
    print(string.format("%d passed, %d failed", passed, failed))
    return failed == 0
  end
  local result_file = argv[1] or (engine.root .. "/grader.result")
  if not util.exists("exercises/165/profile.c") then
    check(false, "exercises/165/profile.c (the stubs) exists")
  end
  local function timed(name, f, ...)
    local t0 = (util.capture("date +%s.%N"))
    f(...)
    print(string.format("grader: %-28s %5.1f s", name, tonumber((util.capture("date +%s.%N"))) - tonumber(t0)))
  end
  timed("seeds", test_seed)
  timed("bad submissions", test_bad_submissions)
  timed("pristine files", test_pristine)
  timed("gradescope zip", test_gradescope)
  timed("fixture folders", test_fixture_folder)
  timed("callgrind log", test_callgrind_log)
  timed("SUBMISSIONS batch", test_batch, 3)
  timed("mutants (verify)", test_verify)
  timed("verdicts under load", test_load)
  for _, level in ipairs({ "bwrap", "user" }) do
    local ok, why = pcall(sandbox.use, level)
    local probe = ok and select(2, pcall(sandbox.run, { isolation = level, cpu = 5, argv = { "true" } }))
    if type(probe) == "table" and probe.ok then
      timed("attacks (" .. level .. ")", test_attacks, level)
    else
      print("SKIP grader: the attack suite at the " .. level .. " level: not possible on this machine ("
        .. tostring(type(probe) == "table" and (probe.status or probe.message) or why) .. ")")
    end
  end
  util.mkdir_p(util.dirname(result_file))
  util.write_file(result_file, string.format("%d %d\n", passed, failed))
  print(string.format("grader: %d passed, %d failed", passed, failed))
  return failed == 0
end

local ok, result = pcall(main, arg)
if not ok then
  print("FAIL grader: the test script itself failed: " .. tostring(type(result) == "table" and result.message or result))
  os.exit(1)
end
os.exit(result and 0 or 1)
