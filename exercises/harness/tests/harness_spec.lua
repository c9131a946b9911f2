-- harness_spec.lua: the `exercises` suite of `make test` (make test-exercises) and its long
-- version (#slow, make test-slow-exercises); a busted spec, run from the repository root
-- after make has built the sandbox and the victims.
--
--   sandbox   build/harness/sandbox against victims.c (segfault, abort, stack overflow,
--             endless loop, exit(3), output flood, leak, heap overflow, ...).
--   fork      the same victims as tests of one program (victims --each): fork_tests.c must
--             name each child's fate in status.c's words, keep each test's limits and
--             isolate the tests.
--   kit       the checker kit and chapter 165's checker: a bad cases file or field stops it
--             with FILE:LINE, the public cases' answers are fresh.
--   pieces    the reading of statuses and sanitizer stacks, the case files, the hints.
--   report    what a student sees first (the shipped stubs): one line per function not
--             written yet, a failure in full with its rule escaped, watch mode's report.
--   mistakes  a student's mistakes (the stubs with one function changed): a build error, a
--             name one character too long, const input written into, one element too far.
--   watch     make watch-165 on a copy: a run at once, another after a save; SIGINT (what
--             Ctrl-C sends) ends it.
--   planted   planted faults (crash, endless loop, slow algorithm, leak, exit()) in a copy
--             of the reference: each costs only its cases, the report explains each, and
--             the verdicts are the same with busy loops running beside the run.
--   exercise  the reference passes every public case, also with busy loops beside it; a
--             student who copies the reference into a copy of exercises/165 passes.
-- The parts that need solutions/ (planted, exercise) are pending, with a note, in an edition
-- without it. #slow: the reference 3 times and the planted faults on every public case,
-- each with 4 busy loops beside it. Blocks prepare with lazy_setup, so a block whose tests
-- a tag leaves out does none of its work (nor starts a watch).

local wb = require("vm.lib.workbook")
local runner = require("exercises.harness.runner")
local sandbox = require("exercises.harness.sandbox")
local feedback = require("exercises.harness.feedback")
local cases = require("exercises.harness.cases")
local answers = require("exercises.harness.answers")
local chapter = require("exercises.harness.chapter")
local exercise = require("exercises.harness.exercise")

local SANDBOX = "build/harness/sandbox"
local VICTIMS = "build/harness/victims"
local HAVE_SOLUTIONS = wb.exists("solutions/165/profile.c")

-- A fresh folder per run (build/exercise/suite.XXXXXX): runs may overlap. Kept when a test
-- failed, for a look at its files.
local TMP = wb.realpath(wb.temp_dir("build/exercise", "suite"))
local clean_up = wb.test_scratch(TMP)

-- Runs a shell command; returns its exit status and its output (stdout and stderr).
local function sh(command)
  return wb.finish(wb.start(command))
end

-- Whether text holds each plain string of the list `want`, each of want.flat once every run of
-- blanks is one blank (the report wraps its lines), a match of each pattern of want.like, and
-- none of the plain strings of want.no.
local function holds(text, want)
  local flat = text:gsub("%s+", " ")
  for _, check in ipairs({ { text, want, true }, { flat, want.flat or {}, true }, { text, want.like or {}, false } }) do
    local haystack, needles, plain = table.unpack(check)
    for _, needle in ipairs(needles) do
      if not haystack:find(needle, 1, plain) then
        return false
      end
    end
  end
  for _, s in ipairs(want.no or {}) do
    if text:find(s, 1, true) then
      return false
    end
  end
  return true
end

-- ------------------------------------------------------------------ runs of the loop

-- Results of a `make exercise-165` run: name -> verdict, from its results.tsv.
local function verdicts(out_dir)
  local map, count = {}, 0
  for name, verdict in (wb.read_file(out_dir .. "/results.tsv") or ""):gmatch("([^\t\n]+)\t([^\t\n]+)") do
    map[name] = verdict
    count = count + 1
  end
  return map, count
end

-- nil when both runs gave every case the same verdict, else the first difference.
local function verdict_difference(a, b)
  for name, verdict in pairs(a) do
    if b[name] ~= verdict then
      return string.format("%s: %s, then %s", name, verdict, tostring(b[name]))
    end
  end
  for name in pairs(b) do
    if a[name] == nil then
      return name .. " only in the second run"
    end
  end
  return nil
end

-- The loop's command on a copy: MAKEFLAGS is cleared, since a jobserver of ours is not
-- passed down to this make.
local function exercise_command(src, out, extra)
  return string.format("MAKEFLAGS= make --no-print-directory exercise-165 EX_FROM_DIR=%s EX_OUT=%s %s",
    src, out, extra or "")
end

local function exercise_run(src, out, extra)
  return sh(exercise_command(src, out, extra))
end

-- Starts a run in the background with its output going to OUT.log (a pipe nobody reads
-- for a while would fill up and stall it); exercise_finish() waits and returns status
-- and output.
local function exercise_start(src, out, extra)
  wb.mkdir_p(out)
  return { pipe = wb.start(exercise_command(src, out, extra) .. " > " .. out .. ".log 2>&1"), log = out .. ".log" }
end

local function exercise_finish(run)
  local status = wb.finish(run.pipe)
  return status, wb.read_file(run.log) or ""
end

-- The shipped stubs, as the suite builds them from the API header (exercises/165/profile.h):
-- each function it declares voids its parameters and returns -1 ("not written yet"), or,
-- where instead names it, ends in those lines. In a student edition exercises/165/profile.c
-- (and its git HEAD, once the student commits) holds the student's work, and `make test` must
-- not depend on it; in the instructor's tree the suite checks that the shipped stubs are these.
local function stub_functions(instead)
  local out = {}
  for head, name, params in wb.read_file("exercises/165/profile.h"):gmatch("\n(int ([%w_]+)%(([^)]*)%));") do
    out[#out + 1] = head .. " {\n"
    for param in (params .. ","):gmatch("([%w_]+)%s*,") do
      out[#out + 1] = "    (void)" .. param .. ";\n"
    end
    out[#out + 1] = ((instead or {})[name] or "    return -1;") .. "\n}\n\n"
  end
  return table.concat(out)
end
local STUB_HEAD = "#define _POSIX_C_SOURCE 200809L\n#include \"profile.h\"\n\n#include <stdlib.h>\n"
  .. "#include <string.h>\n\n"

-- The shipped stubs: in the instructor's tree the file as committed (a filled-in working
-- copy must not break the suite); in a student edition the stand-in above.
local function stub_code()
  if HAVE_SOLUTIONS then
    local _, committed = sh("git show HEAD:exercises/165/profile.c 2>/dev/null")
    return committed ~= "" and committed or wb.read_file("exercises/165/profile.c")
  end
  return STUB_HEAD .. stub_functions()
end

-- A folder with the shipped stubs as profile.c, or another profile.c when one is given.
local function student_copy(dir, profile_c)
  return wb.make_tree(dir, { ["profile.c"] = profile_c or stub_code() })
end

-- ------------------------------------------------------------------ planted faults

-- The reference with planted faults, each on some cases only: a leak in parse_row for
-- PROGRAM TOTALS, a crash in sum_named for the needle "fib" and exit(3) for the empty
-- one, an endless loop in inclusive on recursive stacks, and a hash that makes inclusive
-- quadratic (too slow for many_functions).
local function planter(code)
  return function(pattern, insert)
    local changed, n = code:gsub(pattern, "%0\n" .. insert, 1)
    assert(n == 1, "cannot plant a fault at " .. pattern)
    code = changed
    return code
  end
end

-- The hash that makes inclusive quadratic, and the reference with it only (correct, slow).
local SLOW_HASH = { "static uint64_t hash_frame%(const char %*key, size_t length%) {",
  "    if (key != NULL) { return length; } /* planted: nearly every name collides */" }
local function slow_code()
  return planter(wb.read_file("solutions/165/profile.c"))(SLOW_HASH[1], SLOW_HASH[2])
end

local function planted_code()
  local plant = planter(wb.read_file("solutions/165/profile.c"))
  plant("int parse_row%(const char %*line, Row %*row%) {",
    "    if (line != NULL && strstr(line, \"TOTALS\")) { char *lost = malloc(32); if (lost) lost[0] = 1; }")
  plant("int sum_named%(const Row %*rows, size_t count, const char %*needle, uint64_t %*sum%) {",
    "    if (needle && strcmp(needle, \"fib\") == 0) { volatile int *crash = NULL; *crash = 1; }\n"
      .. "    if (needle && needle[0] == '\\0') { exit(3); }")
  plant("int inclusive%(const Folded %*stacks, size_t count, Cost %*%*costs, size_t %*ncosts%) {",
    "    for (size_t i = 0; i < count; i++) { if (stacks[i].stack && strstr(stacks[i].stack, \"fib;fib\")) "
      .. "{ for (volatile unsigned spin = 0;; spin++) {} } }")
  return plant(SLOW_HASH[1], SLOW_HASH[2])
end

local PLANTED_CASES = "parse_row.plain_row,parse_row.program_totals,parse_row.one_blank,parse_row.call_site,"
  .. "sum_named.needle_fib,sum_named.empty_needle,sum_named.no_rows,sum_named.case_sensitive,"
  .. "inclusive.worked_example,inclusive.no_stacks,inclusive.many_functions,inclusive.one_stack"

local PLANTED_VERDICTS = {
  ["parse_row.plain_row"] = "passed", ["parse_row.program_totals"] = "leak",
  ["parse_row.one_blank"] = "passed", ["parse_row.call_site"] = "passed",
  ["parse_row.program_totals_big"] = "leak", -- TEST names prefixes
  ["sum_named.needle_fib"] = "sanitizer", ["sum_named.empty_needle"] = "exit",
  ["sum_named.no_rows"] = "exit", ["sum_named.case_sensitive"] = "passed",
  ["inclusive.worked_example"] = "timeout", ["inclusive.no_stacks"] = "passed", ["inclusive.many_functions"] = "timeout",
  ["inclusive.one_stack"] = "passed",
}

-- One run of the planted faults (1 s of CPU per case).
local function planted_run(src, out, extra)
  local status, output = exercise_run(src, out, "EX_CPU=1 " .. (extra or ""))
  return status, output, verdicts(out)
end

-- ------------------------------------------------------------------ the suite

describe("the exercise harness", function()
  lazy_teardown(clean_up)

  -- The reference first: it says how many public cases there are. Then two long runs start
  -- in the background (the shipped stubs, and a student who copied the reference in) while
  -- the other parts run; their checks come last.
  local total
  local stubs_run, student_run
  if HAVE_SOLUTIONS then
    describe("exercise: the reference", function()
      it("the shipped stubs hold the suite's stand-in for them (what an edition's suite runs)", function()
        local code = stub_code():gsub("%s*/%*.-%*/", "") .. "\n" -- comments aside
        assert.is_truthy(code:find(STUB_HEAD .. stub_functions(), 1, true), code)
      end)
      it("passes every public case, each in its own process", function()
        local status, output = sh("MAKEFLAGS= make --no-print-directory exercise-165 SOLUTION=1")
        total = tonumber(output:match("All (%d+) tests pass%."))
        assert.is_truthy(status == 0 and total and total > 100, output:sub(-2000))
        -- nothing of a student's to profile or hand in
        assert.is_falsy(output:find("Next steps:", 1, true), output:sub(-600))
      end)
      it("... and with 4 busy loops beside the run", function()
        local status, output = wb.while_busy(4, exercise_run, "solutions/165", TMP .. "/reference-busy")
        assert.is_truthy(status == 0 and output:find("All " .. tostring(total) .. " tests pass.", 1, true),
          output:sub(-2000))
      end)
      it("the checker's --list names every case", function()
        local _, count = sh("build/exercise/165-solution/check --cases build/exercise/165-solution/cases.tsv --list | wc -l")
        assert.are.equal(total, tonumber(count))
      end)
      it("starts the student's run (the reference copied in) in the background", function()
        local copy = student_copy(TMP .. "/student", wb.read_file("solutions/165/profile.c"))
        wb.mkdir_p(TMP .. "/student-build")
        wb.write_file(TMP .. "/student-build/hint-state", "inclusive 5\nparse_row 2\n") -- a pass resets them
        student_run = exercise_start(copy, TMP .. "/student-build")
        assert.is_truthy(student_run.pipe)
      end)
    end)
  else
    pending("exercise: solutions/165 is not here (a student edition)")
  end

  it("starts a run of the shipped stubs in the background", function()
    stubs_run = exercise_start(student_copy(TMP .. "/stubs-src"), TMP .. "/stubs")
    assert.is_truthy(stubs_run.pipe)
  end)

  -- ---------------------------------------------------------------- fork

  -- Every victim mode as a test of one program (fork_tests.c). UBSan is told to stop at its
  -- first report, as the sandbox tells it.
  describe("fork", function()
    local function fork_start(asan, options, tag)
      local dir = TMP .. "/fork" .. (asan and "-asan" or "") .. (tag or "")
      wb.mkdir_p(dir)
      return { dir = dir, pipe = wb.start(string.format("UBSAN_OPTIONS=halt_on_error=1 %s --each %s %s",
        VICTIMS .. (asan and "-asan" or ""), dir, options)) }
    end
    -- name -> { status, stdout }, the program's exit status and its output.
    local function fork_finish(run)
      local status, output = wb.finish(run.pipe)
      local tests = {}
      for name, fate in output:gmatch("%d+\t([^\t\n]+)\t([^\n]*)") do
        tests[name] = { status = fate, stdout = wb.read_file(run.dir .. "/" .. name .. ".stdout") or "" }
      end
      return { tests = tests, status = status, output = output }
    end
    local plain, asan, sleeper
    lazy_setup(function()
      -- The wall-clock backstop is generous (the machine may be busy), except in a run of
      -- the sleeping victim alone. The victim that eats memory has CPU time to spare: on a
      -- busy machine its page faults cost more of it than on an idle one.
      local limits = "--cpu 1 --wall 60 --memory 200 --jobs 2"
      local modes = " ok segfault abort stack-overflow loop exit3 flood leak heap-overflow int-overflow "
        .. "grandchild sigterm big-file exit0 fails writes-static reads-static"
      local eater = "--cpu 20 --wall 120 --memory 200 --output 65536 eat-memory"
      local runs = { fork_start(false, limits .. " --output 1000" .. modes),
        fork_start(true, limits .. " --output 65536" .. modes),
        fork_start(false, "--only sl --cpu 1 --memory 200 --output 1000 --wall 0.5 segfault sleep", "-sleep"),
        fork_start(false, eater, "-eat"), fork_start(true, eater, "-eat") }
      plain, asan, sleeper = fork_finish(runs[1]), fork_finish(runs[2]), fork_finish(runs[3])
      plain.tests["eat-memory"] = fork_finish(runs[4]).tests["eat-memory"]
      asan.tests["eat-memory"] = fork_finish(runs[5]).tests["eat-memory"]
    end)
    local function is(run, name, want)
      it(string.format("victim %s is '%s'%s", name, want, run == "asan" and " under ASan+UBSan" or ""), function()
        local t = (run == "asan" and asan or plain).tests[name]
        assert.are.equal(want, t and t.status)
      end)
    end
    it("the program ran every mode and exited 0", function()
      assert.is_truthy(plain.status == 0 and plain.tests.ok and plain.tests["reads-static"], plain.output)
    end)
    -- exit(0) inside a test is no pass; a leak without ASan goes unnoticed.
    for _, c in ipairs({ { "ok", "ok" }, { "segfault", "crashed: SIGSEGV" }, { "abort", "crashed: SIGABRT" },
      { "stack-overflow", "crashed: SIGSEGV" }, { "sigterm", "crashed: SIGTERM" },
      { "loop", "timed out after 1 s of CPU time" }, { "exit3", "exit 3" }, { "exit0", "exit 0" },
      { "fails", "exit 1" }, { "flood", "output limit: more than 1000 bytes" },
      { "eat-memory", "memory limit: more than 200 MB" }, { "grandchild", "ok" }, { "leak", "ok" } }) do
      is("plain", c[1], c[2])
    end
    it("... and the flood's stdout file holds exactly the 1000 bytes", function()
      assert.are.equal(1000, plain.tests.flood and #plain.tests.flood.stdout)
    end)
    it("a static variable one test changes is as it was for the next", function()
      local t = plain.tests
      assert.is_truthy(t["writes-static"] and t["writes-static"].status == "ok" and t["reads-static"].status == "ok")
    end)
    it("stdout is captured per test", function()
      assert.are.equal("hello from stdout\n", plain.tests.ok and plain.tests.ok.stdout)
    end)
    it("the ASan program ran every mode and exited 0", function()
      assert.is_truthy(asan.status == 0 and asan.tests.ok, asan.output)
    end)
    -- The sanitizers' reports are read by fork_tests.c itself, in the sandbox's words.
    for _, c in ipairs({ { "leak", "leaked 4242 bytes" }, { "heap-overflow", "AddressSanitizer: heap-buffer-overflow" },
      { "stack-overflow", "AddressSanitizer: stack-overflow" }, { "eat-memory", "memory limit: more than 200 MB" },
      { "loop", "timed out after 1 s of CPU time" }, { "fails", "exit 1" } }) do
      is("asan", c[1], c[2])
    end
    it("under ASan+UBSan a NULL dereference is a sanitizer report", function()
      local t = asan.tests.segfault
      assert.is_truthy(t and t.status:match("Sanitizer: "), t and t.status)
    end)
    it("signed overflow is a UBSan report naming the file", function()
      local t = asan.tests["int-overflow"]
      assert.is_truthy(t and t.status:match(
        "^UndefinedBehaviorSanitizer: signed integer overflow.*%(victims%.c:%d+:%d+%)$"), t and t.status)
    end)
    -- --sealed (the grader's box of many cases): what would outlive a test ends it, and the
    -- tests after it still run, each as if first.
    describe("sealed", function()
      local sealed, sealed_asan
      lazy_setup(function()
        local modes = " ok makes-file forks makes-shm signals-parent thread writes-static reads-static ok"
        local runs = { fork_start(false, "--sealed --cpu 1 --wall 60 --memory 200 --output 1000" .. modes, "-sealed"),
          fork_start(true, "--sealed --cpu 1 --wall 60 --memory 400 --output 65536 ok leak ok", "-sealed-asan") }
        sealed, sealed_asan = fork_finish(runs[1]), fork_finish(runs[2])
      end)
      it("a file, a process, a System V object or a signal to the parent ends the test", function()
        for _, name in ipairs({ "makes-file", "forks", "makes-shm", "signals-parent" }) do
          local t = sealed.tests[name]
          assert.are.equal("crashed: SIGSYS", t and t.status, name)
        end
      end)
      it("... while a thread, static variables and the tests after them are as without --sealed", function()
        local t = sealed.tests
        for _, name in ipairs({ "ok", "thread", "writes-static", "reads-static" }) do
          assert.are.equal("ok", t[name] and t[name].status, name .. "\n" .. sealed.output)
        end
        assert.are.equal(0, sealed.status)
      end)
      it("under ASan a test that ends with memory in use is stopped too (LeakSanitizer's scan clones)", function()
        local t = sealed_asan.tests
        assert.are.equal("crashed: SIGSYS", t.leak and t.leak.status, sealed_asan.output)
        assert.are.equal("ok", t.ok and t.ok.status, sealed_asan.output)
      end)
      it("runs one test at a time, and a folder left with files stops the run", function()
        assert.are.equal(2, (sh(VICTIMS .. " --each " .. TMP .. " --sealed --jobs 2 --cpu 1 --wall 9 --memory 9 --output 9 ok")))
        local dir = TMP .. "/sealed-left"
        wb.mkdir_p(dir)
        wb.write_file(dir .. "/left.txt", "x")
        local status, output = wb.finish(wb.start(VICTIMS .. " --each " .. dir
          .. " --sealed --cpu 1 --wall 9 --memory 200 --output 1000 ok ok 2>&1"))
        assert.is_truthy(status == 0 and output:find("^0\tok\tok\n") and not output:find("1\tok")
          and output:find("left files in", 1, true), output)
      end)
    end)
    it("a test that sleeps is stopped by the wall-clock backstop; --only picks tests", function()
      assert.is_truthy(sleeper.status == 0 and sleeper.tests.sleep
        and sleeper.tests.sleep.status == "timed out after 0.5 s of wall-clock time"
        and select(2, sleeper.output:gsub("\n", "")) == 1, sleeper.output)
    end)
    for _, bad in ipairs({ "--cpu 0", "--cpu 1.5", "--jobs x", "--wall", "--bogus 1", "" }) do
      it("a bad or missing limit stops the program with exit 2: '" .. bad .. "'", function()
        assert.are.equal(2, (sh(VICTIMS .. " --each " .. TMP .. " " .. bad)))
      end)
    end
    it("a capture folder that does not exist stops the program with exit 2", function()
      assert.are.equal(2, (sh(VICTIMS .. " --each /nonexistent/folder --cpu 1 --wall 9 --memory 9 --output 9")))
    end)
  end)

  -- ---------------------------------------------------------------- sandbox

  -- A victim under the sandbox: status line, exit status, and the captured stdout and
  -- stderr. Time limits are generous except where the test is about the time limit, so a
  -- busy machine cannot fail these. No check asserts wall-clock time: a "timed out" or
  -- "output limit" line can only come from the sandbox killing the victim (which would
  -- otherwise sleep 100 s or run forever), and a grandchild that kept the sandbox waiting
  -- would turn "ok" into "timed out".
  -- The first run's build of the sandbox, into a scratch BUILD (the suite's own sandbox may
  -- be running): one line, or with V=1 the compiler's command line.
  it("building the sandbox says so in one line; V=1 shows the command instead", function()
    local scratch = TMP .. "/first-build"
    local make = "MAKEFLAGS= make --no-print-directory BUILD=" .. scratch .. " " .. scratch .. "/harness/sandbox"
    local status, output = sh(make)
    assert.is_truthy(status == 0 and output == "Building the sandbox the tests run in (once)...\n", output)
    wb.rm_rf(scratch)
    status, output = sh(make .. " V=1")
    assert.is_truthy(status == 0 and output:find("^%S*cc .* %-o " .. scratch:gsub("%p", "%%%0") .. "/harness/sandbox ")
      and not output:find("Building the sandbox", 1, true), output)
  end)

  describe("sandbox", function()
    local function boxed(program, flags)
      local out, err = TMP .. "/victim.stdout", TMP .. "/victim.stderr"
      -- Every limit the sandbox needs is named: the case's own, or these.
      flags = flags or "--timeout 10"
      flags = flags .. (flags:find("--memory", 1, true) and "" or " --memory 512")
        .. (flags:find("--output", 1, true) and "" or " --output 65536")
      local status, line = sh(string.format("%s %s --stdout %s --stderr %s -- %s", SANDBOX, flags, out, err, program))
      return line:gsub("%s+$", ""), status, wb.read_file(out) or "", wb.read_file(err) or ""
    end
    local function victim(mode, flags, asan)
      return boxed(VICTIMS .. (asan and "-asan" or "") .. " " .. mode, flags)
    end
    -- A victim's status line must be want (a string) or match it (a function); the sandbox's
    -- exit status, when given, must be status.
    local function case(name, mode, flags, asan, want, status)
      it(name, function()
        local line, exit_status = victim(mode, flags, asan)
        if type(want) == "function" then
          assert.is_truthy(want(line), line)
        else
          assert.are.equal(want, line)
        end
        assert.are.equal(status or exit_status, exit_status)
      end)
    end
    it("a well-behaved child is ok, exit 0; stdout and stderr are captured to the files", function()
      local line, status, out, err = victim("ok")
      assert.is_truthy(line == "ok" and status == 0, line)
      assert.are.equal("hello from stdout\nhello from stderr\n", out .. err)
    end)
    case("exit(3) is 'exit 3', sandbox exits 1", "exit3", nil, false, "exit 3", 1)
    case("a NULL dereference is 'crashed: SIGSEGV'", "segfault", nil, false, "crashed: SIGSEGV")
    case("abort() is 'crashed: SIGABRT'", "abort", nil, false, "crashed: SIGABRT")
    case("death by SIGTERM is named", "sigterm", nil, false, "crashed: SIGTERM")
    case("a stack overflow is 'crashed: SIGSEGV'", "stack-overflow", nil, false, "crashed: SIGSEGV")
    case("under ASan, a stack overflow is 'AddressSanitizer: stack-overflow'", "stack-overflow", "--timeout 5",
      true, "AddressSanitizer: stack-overflow")
    case("an endless loop times out", "loop", "--timeout 0.5", false, function(line)
      return line:match("^timed out after 0%.5 s")
    end, 1)
    case("a sleeping child times out on the wall clock", "sleep", "--timeout 0.3", false,
      "timed out after 0.3 s of wall-clock time")
    case("a grandchild holding the pipes does not keep the sandbox waiting", "grandchild", "--timeout 5", false, "ok")
    case("under --cpu, a tree asleep for --idle seconds is ended as idle", "sleep", "--cpu 5 --idle 0.5", false,
      "timed out: asleep for 0.5 s without using the CPU (waiting for what?)")
    -- On a busy machine the sandbox itself gets the CPU seldom; stopping it most of the time
    -- does the same on purpose. The victim sleeps in a full pipe meanwhile, waiting on the
    -- sandbox, which is not idleness.
    it("a tree waiting in a full pipe for a sandbox that is seldom scheduled is not idle", function()
      local out = TMP .. "/full-pipe.stdout"
      local handle = wb.start(string.format("%s --cpu 5 --idle 0.5 --memory 512 --output %d --stdout %s -- %s full-pipe"
        .. " & pid=$!; for i in 1 2 3 4 5 6 7 8; do sleep 0.05; kill -STOP $pid 2>/dev/null; sleep 0.3; kill -CONT $pid 2>/dev/null; done;"
        .. " wait $pid", SANDBOX, 4 << 20, out, VICTIMS))
      local status, line = wb.finish(handle)
      assert.is_truthy(status == 0 and line == "ok\n", line)
      assert.are.equal(3 << 20, #(wb.read_file(out) or ""))
    end)
    it("a flood of output is 'output limit: more than 1000 bytes', and at most 1000 bytes are kept", function()
      local line, status, out = victim("flood", "--timeout 5 --output 1000")
      assert.is_truthy(line == "output limit: more than 1000 bytes" and status == 1, line)
      assert.are.equal(1000, #out)
    end)
    -- The kernel's keys outlive every process: a boxed program gets EPERM (a seccomp filter).
    it("in a box (--isolate user, bwrap) the kernel's key store refuses add_key and keyctl", function()
      if sh("[ \"$(id -u)\" = 0 ]") ~= 0 then
        pending("SKIPPED: boxes need root")
        return
      end
      for _, level in ipairs({ "user", "bwrap" }) do
        local line, _, out = boxed("./victims keys", "--timeout 5 --isolate " .. level .. " --file victims="
          .. VICTIMS)
        assert.are.equal("ok", line, level .. ": " .. out)
        assert.are.equal("add_key refused, keyctl refused\n", out, level)
      end
    end)
    case("a leak under ASan is 'leaked 4242 bytes'", "leak", "--timeout 5", true, "leaked 4242 bytes")
    case("without ASan the same leak goes unnoticed ('ok')", "leak", "--timeout 5", false, "ok")
    case("a heap overflow is 'AddressSanitizer: heap-buffer-overflow'", "heap-overflow", "--timeout 5", true,
      "AddressSanitizer: heap-buffer-overflow")
    case("signed overflow is a UBSan report naming the file", "int-overflow", "--timeout 5", true, function(line)
      return line:match("^UndefinedBehaviorSanitizer: signed integer overflow.*%(victims%.c:%d+:%d+%)$")
    end)
    case("under ASan+UBSan a NULL dereference is a sanitizer report", "segfault", "--timeout 5", true, function(line)
      return line:match("Sanitizer")
    end)
    case("--memory 64 makes malloc fail (the victim exits 4)", "eat-memory", "--timeout 5 --memory 64", false,
      "exit 4")
    -- ASan's own watcher, or the sandbox's sum of the tree's resident memory (1.5 x the limit),
    -- whichever samples first.
    case("--memory 64 under ASan stops the process (hard RSS limit)", "eat-memory", "--timeout 10 --memory 64", true,
      function(line)
        return line == "AddressSanitizer: hard rss limit exhausted" or line == "exit 4"
          or line:match("^memory limit: more than 64 MB ") ~= nil
      end)
    case("--file-size stops a program writing a bigger file ('crashed: SIGXFSZ')", "big-file",
      "--timeout 5 --file-size 100000", false, "crashed: SIGXFSZ")
    case("the default file size (1 MB) stops a 2 MB file too", "big-file", "--timeout 5", false, "crashed: SIGXFSZ")
    it("a program that cannot start is 'exit 127'", function()
      local status, line = sh(SANDBOX .. " --timeout 1 --memory 64 --output 1000 -- /nonexistent/program")
      assert.is_truthy(status == 1 and line:match("^exit 127"), line)
    end)
    for _, bad in ipairs({ "--", "--timeout 0 -- true", "--timeout x -- true", "--bogus 1 -- true",
                           "--output -5 -- true", "--timeout 1", "--stdout /nonexistent/dir/f -- true",
                           "--memory 9 --output 9 -- true", "--timeout 1 --output 9 -- true",
                           "--cpu 1 --memory 9 -- true" }) do
      it("usage error exits 2: sandbox " .. bad, function()
        assert.are.equal(2, (sh(SANDBOX .. " " .. bad)))
      end)
    end
    -- --tool-out: a FIFO in the box that a tool writes its output file to; everything written
    -- there comes back, one write after another, and more than the sandbox keeps is flagged.
    it("--tool-out keeps all that is written to its FIFO, and --usage says when it was cut", function()
      local saved, usage = TMP .. "/tool.out", TMP .. "/tool.usage"
      local flags = "--timeout 10 --tool-out count.out=" .. saved .. " --usage " .. usage
      assert.are.equal("ok", (boxed("sh -c 'printf one > count.out; printf two > count.out'", flags)))
      assert.are.equal("onetwo", wb.read_file(saved))
      assert.is_falsy((wb.read_file(usage) or ""):find("tool cut", 1, true))
      assert.are.equal("ok", (boxed("sh -c 'head -c 5000000 /dev/zero > count.out'", flags)))
      assert.is_truthy((wb.read_file(usage) or ""):find("\ntool cut\n", 1, true))
      assert.is_truthy(#wb.read_file(saved) < 5000000)
    end)
    -- A report in a program's stderr, in the words of status.c (the same for fork_tests.c).
    local reports = {
      { "==7==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60 at pc 0x55\n",
        "AddressSanitizer: heap-buffer-overflow" },
      { "x\n==7==ERROR: AddressSanitizer: SEGV on unknown address 0x000 (pc 0x1)\n", "AddressSanitizer: SEGV" },
      { "==7==AddressSanitizer: hard rss limit exhausted (64Mb vs 70Mb)\n", "AddressSanitizer: hard rss limit exhausted" },
      { "==7==WARNING: AddressSanitizer failed to allocate 0x10 bytes\n", "exit 1" },
      { "/w/165/profile.c:12:9: runtime error: signed integer overflow: 1 + 2147483647\n",
        "UndefinedBehaviorSanitizer: signed integer overflow: 1 + 2147483647 (profile.c:12:9)" },
      { "==9==ERROR: LeakSanitizer: detected memory leaks\n\nDirect leak of 24 byte(s) in 1 object(s) allocated from:\n"
        .. "    #0 0x1 in malloc\n\nSUMMARY: AddressSanitizer: 24 byte(s) leaked in 1 allocation(s).\n",
        "leaked 24 bytes" },
      { "==9==ERROR: LeakSanitizer: detected memory leaks\n(cut here)", "leaked memory (LeakSanitizer)" },
      { "==1==ERROR: AddressSanitizer: attempting free on address which was not malloc()-ed: 0x6060 in thread T0\n",
        "AddressSanitizer: attempting free on address which was not malloc()-ed" },
    }
    for i, r in ipairs(reports) do
      it(string.format("report %d in stderr is '%s'", i, r[2]), function()
        local text = TMP .. "/report-" .. i
        wb.write_file(text, r[1])
        assert.are.equal(r[2], (boxed("sh -c " .. wb.quote("cat " .. wb.quote(text) .. " >&2; exit 1"))))
      end)
    end
  end)

  -- ---------------------------------------------------------------- the checker kit

  describe("kit", function()
    local function tsv(name, text)
      local path = TMP .. "/" .. name .. ".tsv"
      wb.write_file(path, text)
      return path
    end
    -- A checker of its own, built with the stubs by a run of one case.
    local CHECKER = TMP .. "/kit-build/check"
    lazy_setup(function()
      exercise_run(student_copy(TMP .. "/kit"), TMP .. "/kit-build", "TEST=parse_row.plain_row")
    end)
    it("a field the checker cannot use stops it with FILE:LINE and exit 2 (never a failing student)", function()
      local path = tsv("bad-field", "inclusive.x\tstack\tmain;run\tcases/inclusive.txt:7\n")
      local status, output = sh(CHECKER .. " --cases " .. path .. " --run inclusive.x")
      assert.is_truthy(status == 2 and output:find("cases/inclusive.txt:7: stack: expected TEXT NUMBER", 1, true), output)
    end)
    for _, bad in ipairs({ { "nothing.x\tline\ta\n", "no function of that name" },
      { "parse_row.x\tline\n", "expected CASE" }, { "parse_row.x\tline\t\\q\n", "an escape" },
      { "\tline\ta\n", "the first line names its case" }, { "parse_row.x\tline\ta\0b\n", "a NUL byte" },
      { "parse_row.a\tline\tx\nparse_row.b\tline\ty\nparse_row.a\tline\tz\n", "next to each other", 3 },
      { "parse_row.a\tline\tx\n\n", "expected CASE<TAB>KEY", 2 } }) do
      it("a bad cases file stops the checker with FILE:LINE: " .. bad[2], function()
        local path = tsv("bad-file", bad[1])
        local status, output = sh(CHECKER .. " --cases " .. path .. " --list")
        local at = path .. ":" .. (bad[3] or 1) .. ": "
        assert.is_truthy(status == 2 and output:find(at, 1, true) and output:find(bad[2], 1, true), output)
      end)
    end
    it("a cases file's last line needs no line end", function()
      local path = tsv("no-end", "parse_row.a\tline\tx\nparse_row.b\tline\t\\x01\\\\\\t\\xff")
      local _, listed = sh(CHECKER .. " --cases " .. path .. " --list")
      assert.are.equal("parse_row.a\nparse_row.b\n", listed)
    end)
    it("answers go to the results channel, the last line 'end ok'", function()
      local path = tsv("one", "parse_row.x\tline\t5  a\\tb\\n\n")
      local _, output = sh(CHECKER .. " --cases " .. path .. " --run parse_row.x --results /dev/fd/3 3>&1 >/dev/null 2>&1")
      assert.are.equal("row:1\t-1\nend\tok\n", output) -- the stubs' answer
      local _, listed = sh(CHECKER .. " --cases " .. path .. " --list")
      assert.are.equal("parse_row.x\n", listed)
    end)
    it("--pack sends every case's files through one stream and leaves no folder behind", function()
      local path = tsv("two", "parse_row.a\tline\t5  a\\tb\\n\nparse_row.b\tline\tx\n")
      local scratch = TMP .. "/pack-tmp"
      wb.mkdir_p(scratch)
      local status, output = sh("TMPDIR=" .. wb.quote(scratch) .. " " .. CHECKER .. " --cases " .. path
        .. " --pack /dev/fd/3 --cpu 2 --wall 10 --memory 512 --output 65536 3>" .. TMP .. "/two.pack")
      assert.are.equal(0, status, output)
      assert.is_truthy(output:find("0\tparse_row.a\tok\n1\tparse_row.b\tok\n", 1, true), output)
      local files = runner.unpack(wb.read_file(TMP .. "/two.pack"), { ["parse_row.a"] = true, ["parse_row.b"] = true })
      for _, name in ipairs({ "parse_row.a", "parse_row.b" }) do
        assert.are.equal("row:1\t-1\nend\tok\n", files[name].results)
        assert.is_truthy(files[name].stdout:find("[ RUN      ] " .. name, 1, true), files[name].stdout)
      end
      local _, left = sh("ls -A " .. wb.quote(scratch))
      assert.are.equal("", left)
    end)
    it("runner.unpack keeps only the names and files it asked for and stops at a bad header", function()
      local stream = "a.results\t3\nonea.secret\t2\nxxb.results\t1\nBb.stdout\t2\nB2not a header\nc.results\t1\nC"
      local files = runner.unpack(stream, { a = true, b = true, c = true })
      assert.are.same({ a = { results = "one" }, b = { results = "B", stdout = "B2" } }, files)
    end)
    -- The header is the API's only copy: the shipped stubs (and the reference) define each of
    -- its functions with its very signature.
    local function signatures(text, ending)
      local found = {}
      text = text:gsub("/%*.-%*/", " "):gsub("//[^\n]*", " "):gsub("#[^\n]*", " "):gsub("%s+", " ")
      for head, name, params in text:gmatch("([%w_][%w_ %*]-)%f[%w_]([%w_]+)%s*(%b())%s*" .. ending) do
        found[name] = (head:gsub("^%s+", "") .. name .. params):gsub(" %*", " *"):gsub("%s+", " ")
      end
      return found
    end
    for _, id in ipairs(HAVE_SOLUTIONS and chapter.ids() or {}) do
      local ch = chapter.load(id)
      it("chapter " .. id .. ": the stubs and the reference define the header's functions as declared", function()
        local declared = {}
        for _, name in ipairs(ch.headers) do
          for fn, sig in pairs(signatures(wb.read_file(ch.dir .. "/" .. name), ";")) do
            declared[fn] = sig
          end
        end
        assert.is_truthy(next(declared), "no function declared in " .. table.concat(ch.headers, ", "))
        for _, dir in ipairs({ ch.dir, ch.solution }) do
          local defined = {}
          for _, name in ipairs(ch.student_files) do
            local _, committed = sh("git show " .. wb.quote("HEAD:" .. dir .. "/" .. name) .. " 2>/dev/null")
            for fn, sig in pairs(signatures(committed ~= "" and committed or wb.read_file(dir .. "/" .. name), "{")) do
              defined[fn] = sig
            end
          end
          for fn, sig in pairs(declared) do
            assert.are.equal(sig, defined[fn], dir .. " defines " .. fn)
          end
        end
      end)
    end
    it("the public cases' answers are fresh (make expected wrote them from their case files)", function()
      for _, path in ipairs(chapter.case_files(chapter.load("165"))) do
        local found, why = answers.read(chapter.expected_path(path), { path = path, fix = "make expected" })
        assert.is_truthy(found, why)
      end
    end)
  end)

  -- ---------------------------------------------------------------- sealing

  -- Which builds the grader may run sealed (build.unsealable): the student's objects as the
  -- graded build compiles them, read as its script reads them.
  describe("which builds may be sealed", function()
    local build = require("exercises.harness.build")
    local function readelf_of(name, source)
      local c, o = TMP .. "/seal-" .. name .. ".c", TMP .. "/seal-" .. name .. ".o"
      wb.write_file(c, source)
      assert(wb.run(string.format("%s %s -c %s -o %s 2>/dev/null", build.cc, build.flavours.asan.cflags, wb.quote(c),
        wb.quote(o))))
      return wb.capture("readelf -W -S -s -r " .. wb.quote(o))
    end
    local plain = "int g[4];\nint api(int i) { return g[i & 3]; }\nstatic int helper(void) { return 1; }\n"
      .. "int other(void) { return helper(); }\n"
    local refs, api = { api = true, close_range = true, prctl = true }, { api = true }
    local function why(source)
      return build.unsealable({ symbols = readelf_of(tostring(#source), source), references = refs }, api)
    end
    it("code with globals and helpers, the sanitizers' constructor and all, may", function()
      assert.is_nil(why(plain))
    end)
    it("a constructor, a destructor or an ifunc may not, whatever its name", function()
      assert.is_truthy(why(plain .. "__attribute__((constructor)) static void c(void) { g[0] = 1; }\n"))
      assert.is_truthy(why(plain .. "__attribute__((destructor(99))) void _sub_D_00099_7(void) { g[0] = 1; }\n"))
      assert.is_truthy(why(plain .. "static int (*pick(void))(void) { return other; }\n"
        .. "int chosen(void) __attribute__((ifunc(\"pick\")));\n"))
      assert.is_truthy(why(plain .. "static void early(void) { g[1] = 2; }\n"
        .. "__attribute__((section(\".init_array\"), used)) static void (*entry)(void) = early;\n"))
    end)
    it("defining what our objects call may not; the exercise's own functions may", function()
      assert.matches("close_range", why(plain .. "int close_range(unsigned a, unsigned b, int f) { return 0; }\n"))
      assert.is_nil(why(plain .. "int prctl_like(void) { return 0; }\n"))
    end)
    -- The kit is linked into every student's build: a global of its own without a kit prefix
    -- (say vm/lib's grow) would make a student's helper of that name fail to link.
    it("the kit defines no global a student's helper could clash with", function()
      local objects = assert(build.objects({ sources = build.kit, includes = build.kit_includes }, "asan"))
      local kit_prefixes = { "^main$", "^check_", "^fork_tests_", "^seal_", "^status_", "^tsv_", "^__wrap_" }
      for name in pairs(build.defined(wb.capture("readelf -W -s " .. wb.command(objects)))) do
        assert.is_truthy(wb.matches_any(name, kit_prefixes), "the kit defines " .. name)
      end
    end)
  end)

  describe("two builds in one box (build.link_all)", function()
    local build = require("exercises.harness.build")
    local ex = chapter.load("165")
    local both = { { flavour = "asan", name = "check-asan" }, { flavour = "fast", name = "check-fast" } }
    -- The stub with `extra` after it, built both ways in a folder of its own.
    local function built(name, extra)
      local dir = TMP .. "/two-" .. name
      wb.mkdir_p(dir .. "/submission")
      wb.write_file(dir .. "/submission/profile.c", wb.read_file("exercises/165/profile.c") .. extra)
      local spec = chapter.build_spec(ex, dir .. "/build", dir .. "/submission")
      assert(build.prepare(spec))
      return build.link_all(spec, both), dir .. "/build"
    end
    it("each build gets its own log and program, and the second's error is its own", function()
      local r, dir = built("second", "#ifndef __SANITIZE_ADDRESS__\n#warning only without sanitizers\n"
        .. "#error only without sanitizers\n#endif\n")
      assert.is_true(r[1].ok)
      assert.are.equal(0, r[1].warnings)
      assert.is_truthy(wb.exists(dir .. "/check-asan"))
      assert.is_nil(wb.read_file(dir .. "/check-asan.log"):find("only without", 1, true))
      assert.is_false(r[2].ok)
      assert.are.equal(1, r[2].warnings)
      assert.matches("does not compile: .*#error only without sanitizers", r[2].error)
      assert.is_falsy(wb.exists(dir .. "/check-fast"))
    end)
    it("a first build that fails stops the second", function()
      local r = built("first", "#ifdef __SANITIZE_ADDRESS__\n#error only with sanitizers\n#endif\n")
      assert.is_false(r[1].ok)
      assert.matches("does not compile: .*#error only with sanitizers", r[1].error)
      assert.is_nil(r[2])
    end)
    it("both programs come back whole, each with its own symbols", function()
      local r, dir = built("whole", "")
      assert.is_true(r[1].ok and r[2].ok)
      assert.matches("__asan_", r[1].symbols)
      assert.is_nil(r[2].symbols:find("__asan_", 1, true))
      for _, name in ipairs({ "check-asan", "check-fast" }) do
        assert.are.equal("\127ELF", wb.read_file(dir .. "/" .. name):sub(1, 4))
        assert.is_true(wb.run(wb.quote(dir .. "/" .. name) .. " --help > /dev/null 2>&1 || [ $? -eq 2 ]"))
      end
    end)
  end)

  -- ---------------------------------------------------------------- pieces

  describe("pieces", function()
    for _, c in ipairs({ { "ok", "ok" }, { "exit 3", "exit" }, { "exit 0", "exit" }, { "crashed: SIGSEGV", "crashed" },
      { "timed out after 2 s of CPU time", "timeout" }, { "timed out after 9 s of wall-clock time", "timeout" },
      { "output limit: more than 65536 bytes", "output" }, { "memory limit: more than 512 MB", "memory" },
      { "leaked 24 bytes", "leak" }, { "AddressSanitizer: heap-buffer-overflow", "sanitizer" },
      { "UndefinedBehaviorSanitizer: load of null pointer (profile.c:3:4)", "sanitizer" },
      { "sandbox: usage", "error" } }) do
      it(string.format("kind(%q) is %s", c[1], c[2]), function()
        assert.are.equal(c[2], sandbox.kind(c[1]))
      end)
    end
    it("where() finds the first frame in profile.c, not in the checker", function()
      local asan = "    #0 0x55 in strlen ../sanitizer_common/x.inc:12\n" ..
        "    #1 0x56 in parse_row /w/exercises/165/profile.c:42\n" ..
        "    #2 0x57 in call_parse_row /w/exercises/165/tests/check.c:100\n"
      assert.are.equal("/w/exercises/165/profile.c:42 in parse_row", runner.where(asan, { "profile.c" }))
    end)
    it("stacks() tells where it happened, was freed and was allocated", function()
      local uaf = "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x1 at pc 0x2\n"
        .. "READ of size 1 at 0x1 thread T0\n    #0 0x3 in strcmp x.inc:1\n"
        .. "    #1 0x4 in by_cost /w/profile.c:94\n    #2 0x5 in main /w/check.c:9\n\n"
        .. "0x1 is located 0 bytes inside of 5-byte region [0x1,0x6)\nfreed by thread T0 here:\n"
        .. "    #0 0x5 in free x.inc:2\n    #1 0x6 in inclusive /w/profile.c:138\n\n"
        .. "previously allocated by thread T0 here:\n    #0 0x7 in malloc x.inc:3\n"
        .. "    #1 0x8 in inclusive /w/profile.c:121\n"
      assert.are.same({ { kind = "error", where = "/w/profile.c:94 in by_cost" },
        { kind = "freed", where = "/w/profile.c:138 in inclusive" },
        { kind = "allocated", where = "/w/profile.c:121 in inclusive" } }, runner.stacks(uaf, { "profile.c" }))
    end)
    it("places(): a report whose stacks are all in the checker happened outside the student's code", function()
      local segv = "==1==ERROR: AddressSanitizer: SEGV on unknown address 0x5390 (pc 0x1 bp 0x2 sp 0x3 T0)\n"
        .. "==1==The signal is caused by a READ memory access.\n"
        .. "    #0 0x7f in __interceptor_strcmp x.inc:461\n"
        .. "    #1 0x55 in call_parse_row /w/exercises/165/tests/check.c:136\n"
      local result = { kind = "sanitizer", stderr = segv, stacks = runner.stacks(segv, { "profile.c" }) }
      assert.are.same({ "It happened outside your code (in the checker, using what your code returned)." },
        feedback.places(result))
      local inside = segv:gsub("#1 0x55 in call_parse_row [^\n]*", "#1 0x55 in parse_row /w/exercises/165/profile.c:9")
      assert.are.same({ "It happened at /w/exercises/165/profile.c:9 in parse_row." }, feedback.places(
        { kind = "sanitizer", stderr = inside, stacks = runner.stacks(inside, { "profile.c" }) }))
    end)
    it("memory that keeps growing is explained with both causes, a loop and growth by one", function()
      local lines = table.concat(feedback.status_lines({}, { kind = "memory", status = "memory limit: more than 512 MB" }))
      assert.is_truthy(holds(lines, { "realloc", "doubling" }), lines)
    end)
    it("a case file's mistake names the file and the line", function()
      local path = TMP .. "/parse_row.txt"
      for _, c in ipairs({ { "case: a\nwhy: x\nline: 1\\q\n", ":3: unknown escape" },
        { "why: x\n", ":1: a case starts with" }, { "case: a\ncase: a\n", ":2: case a is already used" },
        { "case: A\n", ":1: a case id uses only" }, { "case: a\nnot a field\n", ":2: expected 'key: value'" } }) do
        wb.write_file(path, c[1])
        local ok, err = pcall(cases.read, path)
        assert.is_truthy(not ok and type(err) == "table" and err.message:find(path .. c[2], 1, true), c[1])
      end
    end)
    it("a case file's values are unescaped and KEY-file fields come one per line", function()
      local dir = wb.make_tree(TMP .. "/cases", { ["rows.rows"] = "# a comment\n5 a\\x20b\n\n6 c\n",
        ["sum_named.txt"] = "case: x\nwhy: a\\tb\nneedle: \nrow-file: rows.rows\n" })
      local c = cases.read(dir .. "/sum_named.txt")[1]
      assert.are.same({ "sum_named.x", "a\tb", "", "5 a b", "6 c", dir .. "/rows.rows:4" },
        { c.name, c.meta.why, c.fields[1][2], c.fields[2][2], c.fields[3][2], c.fields[3][3] })
    end)
    it("a quoted word survives apostrophes", function()
      assert.are.equal("fib'2 a b", select(2, sh("printf %s " .. wb.quote("fib'2 a b"))))
    end)
    local hints = exercise.read_hints("exercises/165/README.md")
    for _, func in ipairs({ "parse_row", "sum_named", "inclusive" }) do
      it("the handout has hints 1 and 2 for " .. func, function()
        assert.is_truthy(hints[func] and hints[func][1] and hints[func][2] and #hints[func][1].text > 40
          and #hints[func][2].text > 40)
      end)
    end
    it("the handout names every test that checks the order, and no other", function()
      local checked, named = {}, {}
      for _, path in ipairs(chapter.case_files(chapter.load("165"))) do
        for _, c in ipairs(cases.read(path)) do
          for _, f in ipairs(c.fields) do
            checked[#checked + 1] = (f[1] == "order" and f[2] == "checked") and c.name or nil
          end
        end
      end
      for paragraph in (wb.read_file("exercises/165/README.md") .. "\n\n"):gmatch("(.-)\n\n") do
        for name in (paragraph:find("check[s]? the order") and paragraph or ""):gmatch("`(inclusive%.[%w_]+)`") do
          named[#named + 1] = name
        end
      end
      table.sort(checked)
      table.sort(named)
      assert.is_truthy(#checked > 0, "no case has 'order: checked'")
      assert.are.same(checked, named)
    end)
    it("the edition's README quotes the next steps as a passing run prints them", function()
      local readme = HAVE_SOLUTIONS and "grader/165/student-README.md" or "README.md" -- the edition's
      local text = (wb.read_file(readme) or ""):gsub("\n   ", "\n") -- a list item's indentation
      assert.is_truthy(text:find("\n" .. exercise.next_steps(chapter.load("165")), 1, true), readme)
    end)
    it("wrap() keeps lines within the width", function()
      local longest = 0
      for l in feedback.wrap(string.rep("word ", 40), 30, "  "):gmatch("[^\n]+") do
        longest = math.max(longest, #l)
      end
      assert.is_true(longest <= 32, tostring(longest))
    end)
  end)

  -- ---------------------------------------------------------------- report

  describe("report: one case asked for by name, with the stubs", function()
    local stubs, status, output
    lazy_setup(function()
      stubs = student_copy(TMP .. "/stubs-one")
      status, output = exercise_run(stubs, TMP .. "/stubs-one-build", "TEST=parse_row.crlf_line_end")
    end)
    for _, c in ipairs({ { "is shown in full", { "✗ parse_row.crlf_line_end  (wrong result)" } },
      { "shows the rule's \\r\\n escaped, as in the input line",
        { "rule:     a line read from a Windows file ends in \\r\\n: strip both", no = { "\r" } } },
      { "... and the input, the expected and the actual values in decimal follow it",
        { 'line:     "1,600,000·(29.23%)··prog.c:mix·[/tmp/cg/prog_g]\\r\\n"',
          "expected: returns 1 (a row) with ir = 1600000", "actual:   returns -1" } },
      { "shows a hint from the handout", { "Hint 1 of 2 for parse_row" } } }) do
      it(c[1], function()
        assert.is_truthy(status ~= 0 and holds(output, c[2]), output)
      end)
    end
    it("watch mode's report starts with the progress line, names the functions not written yet, "
      .. "and exits 0", function()
      local brief_status, brief = exercise_run(stubs, TMP .. "/stubs-one-build", "EX_BRIEF=1")
      local progress = brief:find("parse_row 0/%d+ · sum_named 0/%d+ · inclusive 0/%d+\n")
      assert.is_truthy(brief_status == 0 and progress
        and brief:find("parse_row, sum_named, inclusive: not written yet?", progress, true), brief)
    end)
  end)

  -- ---------------------------------------------------------------- hints

  describe("hints on demand (make exercise-165 HINT=FUNCTION)", function()
    local src, out = TMP .. "/hints-src", TMP .. "/hints"
    local tiers = #exercise.read_hints("exercises/165/README.md").inclusive
    local function shown(output)
      return output:match("Hint (%d+) of " .. tiers .. " for inclusive") or output
    end
    it("each ask shows the next hint, up to the last, and runs no test", function()
      student_copy(src)
      local got, want = {}, {}
      for i = 1, tiers + 1 do
        local status, output = exercise_run(src, out, "HINT=inclusive")
        got[i], want[i] = status == 0 and not output:find("Running the tests", 1, true) and shown(output) or output,
          tostring(math.min(i, tiers))
      end
      assert.are.same(want, got)
    end)
    it("a run of some tests by name shows the hint asked for last, and counts for nothing", function()
      local before = wb.read_file(out .. "/hint-state")
      local _, output = exercise_run(src, out, "TEST=inclusive.worked_example")
      assert.are.equal(tostring(tiers), shown(output))
      assert.are.equal(before, wb.read_file(out .. "/hint-state"))
    end)
    it("a function without hints is refused, naming the handout and those with hints", function()
      local status, output = exercise_run(src, out, "HINT=no_such_function")
      assert.is_truthy(status ~= 0 and output:find("exercises/165/README.md has no hints for 'no_such_function'; "
        .. "it has hints for: inclusive, parse_row, sum_named", 1, true), output)
    end)
  end)

  -- ---------------------------------------------------------------- a student's mistakes

  -- Mistakes tried as a student would (the stubs with one function changed), which need no
  -- reference, so they run in a student edition too.
  describe("report: a student's mistakes", function()
    -- parse_row: a name with the \r of a CRLF line left in, for a line that has one; "not a
    -- row" for every other. sum_named: one row too far. inclusive: right costs from
    -- strtok, which writes into the const stacks.
    local mistaken = stub_functions({
      parse_row = "    row->name = NULL;\n    if (strstr(line, \"\\r\\n\") == NULL) return 0;\n"
        .. "    row->name = strdup(\"prog.c:mix [/tmp/cg/prog_g]\\r\");\n"
        .. "    if (row->name == NULL) return -1;\n"
        .. "    row->ir = 1600000; row->has_pct = true; row->pct = 29.23;\n    return 1;",
      sum_named = "    *sum = 0;\n    for (size_t i = 0; i <= count; i++) {\n"
        .. "        if (rows[i].name != NULL && strstr(rows[i].name, needle)) *sum += rows[i].ir;\n    }\n    return 0;",
      inclusive = "    *costs = malloc(count * 3 * sizeof(Cost) + 1);\n    *ncosts = 0;\n"
        .. "    for (size_t i = 0; i < count; i++) {\n"
        .. "        for (char *f = strtok((char *)stacks[i].stack, \";\"); f; f = strtok(NULL, \";\")) {\n"
        .. "            size_t k = 0;\n            while (k < *ncosts && strcmp((*costs)[k].name, f) != 0) k++;\n"
        .. "            if (k == *ncosts) { (*costs)[k].name = strdup(f); (*costs)[k].cost = 0; (*ncosts)++; }\n"
        .. "            (*costs)[k].cost += stacks[i].count;\n        }\n    }\n    return 0;" })
    local compiled_status, compiled, undeclared_status, undeclared, broken_status, broken
    local ONLY = "TEST=parse_row.crlf_line_end,parse_row.out_of_memory,sum_named.needle_fib,inclusive.siblings"
    lazy_setup(function()
      local with_define = student_copy(TMP .. "/mistakes", STUB_HEAD .. mistaken)
      compiled_status, compiled = exercise_run(with_define, TMP .. "/mistakes-build", ONLY)
      local without = student_copy(TMP .. "/undeclared", STUB_HEAD:gsub("^#define _POSIX_C_SOURCE 200809L\n", "")
        .. mistaken)
      undeclared_status, undeclared = exercise_run(without, TMP .. "/undeclared-build", ONLY)
      -- Then, in watch mode, the same folder saved with a syntax error.
      wb.write_file(with_define .. "/profile.c", STUB_HEAD .. mistaken:gsub("return 1;\n}", "return 1\n}", 1))
      broken_status, broken = exercise_run(with_define, TMP .. "/mistakes-build", "EX_BRIEF=1 " .. ONLY)
    end)
    it("strdup without _POSIX_C_SOURCE stops the build (no pointer cut to an int), and says why", function()
      assert.is_truthy(undeclared_status ~= 0 and holds(undeclared, { "Your code does not compile yet",
        "implicit declaration of function", "#define _POSIX_C_SOURCE 200809L", no = { "Running the tests" } }),
        undeclared)
    end)
    it("... and names the file where the student keeps it", function()
      assert.is_truthy(holds(undeclared, { TMP .. "/undeclared/profile.c:" }), undeclared)
    end)
    for _, c in ipairs({ { "with the stub's first line strdup is declared: it builds and the cases run",
      { "parse_row 0/2 · sum_named 0/1 · inclusive 0/1" } },
      { "a name with a character too many shows both answers and where they differ",
        { 'name = "prog.c:mix·[/tmp/cg/prog_g]\\r"', "first differ at character" } },
      { "one element past the end of the rows is a heap-buffer-overflow at the student's line",
        { "✗ sum_named.needle_fib  (memory error or undefined behaviour)", "heap-buffer-overflow",
          like = { "It happened at [^\n]*mistakes/profile%.c:%d+ in sum_named" } } } }) do
      it(c[1], function()
        assert.is_truthy(compiled_status ~= 0 and holds(compiled, c[2]), compiled)
      end)
    end
    it("right costs from code that writes into its const stacks: the report says so, and nothing else", function()
      local block = compiled:match("✗ inclusive%.siblings.-\n\n") or compiled:match("✗ inclusive%.siblings.*$")
      assert.is_truthy(block and holds(block, { "(wrong result)", "your code changed the text of stack 1",
        no = { "order", "outside your code" } }), block or compiled)
    end)
    it("watch mode, code that no longer compiles: the errors, no case run on the last good build, exit 0", function()
      assert.is_truthy(broken_status == 0 and holds(broken, { "Your code does not compile yet",
        no = { "Running the tests", "parse_row 0/2" } }) and not wb.exists(TMP .. "/mistakes-build/check"), broken)
    end)
    it("an out-of-memory case whose first call goes wrong shows that call first", function()
      local block = compiled:match("✗ parse_row%.out_of_memory.-\n\n") or ""
      assert.is_truthy(holds(block, { "expected: returns 1 (a row)", no = { "expected: with every malloc failing" } }),
        compiled)
    end)
  end)

  -- ---------------------------------------------------------------- planted faults

  if HAVE_SOLUTIONS then
    describe("planted faults", function()
      local src, status, output, quiet
      lazy_setup(function()
        src = student_copy(TMP .. "/planted", planted_code())
        status, output, quiet = planted_run(src, TMP .. "/planted-quiet", "TEST=" .. PLANTED_CASES)
      end)
      it("the run exits non-zero", function()
        assert.are_not.equal(0, status)
      end)
      it("each fault costs only its own cases, with the right verdict", function()
        local wrong = {}
        for name, want in pairs(PLANTED_VERDICTS) do
          if quiet[name] ~= want then
            wrong[#wrong + 1] = string.format("%s is %s, not %s", name, tostring(quiet[name]), want)
          end
        end
        assert.are.equal("", table.concat(wrong, "; "), output)
      end)
      for _, c in ipairs({ { "the progress line counts per function", { "parse_row 3/5 · sum_named 1/4 · inclusive 2/4" } },
        { "the crash report names the line in profile.c",
          { like = { "It happened at [^\n]*planted/profile%.c:%d+ in sum_named" } } },
        { "a crashed case still shows its input", { 'needle:   "fib"' } },
        { "a timeout says 'too slow or in an endless loop' and what the case was", { "timed out after 1 s of CPU time",
          "inclusive(stacks, count, &costs, &ncosts)", flat = { "too slow or in an endless loop" } } },
        { "exit() in the code is named as such", { "exit 3", flat = { "did your code call exit()?" } } },
        { "the leak is reported with the line that allocated", { "LeakSanitizer found memory that was never freed: "
          .. "leaked 32 bytes", like = { "The memory was allocated at [^\n]*planted/profile%.c:%d+ in parse_row" } } },
      }) do
        it(c[1], function()
          assert.is_truthy(holds(output, c[2]), output)
        end)
      end
      -- CPU-time limits, so the same verdicts on a loaded machine.
      it("with 4 busy loops running beside it, every verdict is the same", function()
        local _, busy_output, busy = wb.while_busy(4, planted_run, src, TMP .. "/planted-busy", "TEST=" .. PLANTED_CASES)
        assert.is_nil(verdict_difference(quiet, busy), busy_output)
      end)
      it("watch mode shows the progress line, then the first failure in full", function()
        local brief_status, brief = exercise_run(src, TMP .. "/planted-brief", "EX_BRIEF=1 EX_CPU=1 "
          .. "TEST=sum_named.needle_fib,sum_named.empty_needle,sum_named.no_rows,sum_named.case_sensitive")
        local progress = brief:find("sum_named 1/4\n", 1, true)
        local first = brief:find("✗ sum_named.needle_fib", 1, true)
        assert.is_truthy(brief_status == 0 and progress and first and progress < first
          and holds(brief, { no = { "✗ sum_named.empty_needle" } }), brief)
      end)
      -- A file that does not compile: the compiler's words, no crash of the harness.
      it("a build error exits non-zero and says the code does not compile", function()
        local broken = student_copy(TMP .. "/broken",
          '#include "profile.h"\nint parse_row(const char *line, Row *row) {\n    return oops;\n}\n')
        local build_status, build = exercise_run(broken, TMP .. "/broken-build")
        assert.is_truthy(build_status ~= 0 and holds(build, { "does not compile", "oops" }), build)
      end)
    end)
  else
    pending("planted: solutions/165 is not here (a student edition)")
  end

  -- ---------------------------------------------------------------- watch

  describe("watch", function()
    -- Polls a file until its text has the pattern `count` times (or a generous time passed:
    -- a hung watch must fail the check, not the suite).
    local function wait_for(path, pattern, count)
      for _ = 1, 1200 do
        local text = wb.read_file(path) or ""
        if select(2, text:gsub(pattern, "")) >= count then
          return true, text
        end
        sh("sleep 0.1")
      end
      return false, wb.read_file(path) or ""
    end
    local copy, log, pid
    lazy_setup(function()
      copy = student_copy(TMP .. "/watched")
      log = TMP .. "/watch.log"
      -- SIGINT comes back to its default (a background job starts with it ignored), and the
      -- watch gets its own process group, as a terminal's foreground job would.
      local _, out = sh(string.format("MAKEFLAGS= env --default-signal=INT setsid make --no-print-directory "
        .. "watch-165 EX_FROM_DIR=%s EX_OUT=%s TEST=parse_row.plain_row,sum_named.needle_fib,inclusive.one_stack "
        .. "> %s 2>&1 & echo $!", copy, TMP .. "/watch-build", log))
      pid = out:match("%d+")
    end)
    lazy_teardown(function()
      if pid and sh("kill -0 -" .. pid .. " 2>/dev/null") == 0 then
        sh("kill -KILL -" .. pid)
      end
    end)
    it("inotifywait is installed (make setup)", function()
      assert.are.equal(0, (sh("command -v inotifywait >/dev/null")))
    end)
    it("make watch-165 runs the cases at once, the progress line first", function()
      local ok, text = wait_for(log, "Watching [^\n]* for saves", 1)
      assert.is_truthy(ok and text:find("parse_row 0/1 · sum_named 0/1 · inclusive 0/1", 1, true), text)
    end)
    it("saving profile.c runs the cases again, with the new code", function()
      local code = wb.read_file(copy .. "/profile.c")
      wb.write_file(copy .. "/profile.c", code:gsub("(int sum_named[^{]*{.-)return %-1;",
        "%1*sum = 0; for (size_t i = 0; i < count; i++) if (strstr(rows[i].name, needle)) *sum += rows[i].ir;\n"
          .. "    return 0;", 1))
      local ok, text = wait_for(log, "Watching [^\n]* for saves", 2)
      assert.is_truthy(ok and text:find("parse_row 0/1 · sum_named 1/1 · inclusive 0/1", 1, true), text)
    end)
    it("SIGINT (Ctrl-C) ends it, inotifywait included", function()
      -- /bin/sh's kill takes a process group as -PGID (no "--").
      local running = sh("kill -0 -" .. pid .. " 2>/dev/null") == 0
      sh("kill -INT -" .. pid)
      local gone = false
      for _ = 1, 100 do
        if sh("kill -0 -" .. pid .. " 2>/dev/null") ~= 0 then
          gone = true
          break
        end
        sh("sleep 0.1")
      end
      assert.is_true(running, "not running before SIGINT: group " .. pid)
      assert.is_true(gone, "still running: group " .. pid)
    end)
  end)

  -- The setup step of the loop, as someone who cannot install: the compiler is the missing
  -- package (CC names one that does not exist), and the loop asks for nothing of the book's,
  -- the benchmarks' or the grader's.
  describe("make exercise-165's setup, without root", function()
    -- nobody must also be able to read this clone (a clone inside a private folder, such as
    -- mktemp -d makes, is not readable by other users).
    local runs_as_nobody = sh("[ \"$(id -u)\" = 0 ] && su nobody -s /bin/sh -c 'test -r Makefile' 2>/dev/null") == 0
    local function loop_packages()
      local _, out = sh("make -s --no-print-directory --eval 'print-loop: ; @echo $(SETUP_FOR_exercise)' print-loop")
      return out
    end
    it("asks only for the compiler, cmocka and Lua", function()
      local packages = loop_packages()
      assert.is_truthy(holds(packages, { "gcc", "libcmocka-dev", "lua5.4",
        no = { "pandoc", "luajit", "valgrind", "bubblewrap", "lua-busted", "lua-dkjson" } }), packages)
    end)
    -- make, run by nobody with these arguments, fails and says what `want` says (holds).
    for _, c in ipairs({ { "names what is missing, and both ways out", "CC=no-such-cc setup-exercise",
      { "needs Debian packages this machine lacks: gcc", "sudo apt-get install gcc", "ask whoever runs this machine" } },
      { "with BUDGET=1 asks for valgrind too, naming what to ask for", "SETUP_CHECK_valgrind=false exercise-165 BUDGET=1",
        { "make exercise-165 BUDGET=1 needs Debian packages this machine lacks: valgrind\n",
          "install the Debian packages: valgrind\n" } } }) do
      it(c[1], function()
        if not runs_as_nobody then
          pending("needs root, and a clone that the user nobody can read")
          return
        end
        local status, out = sh("su nobody -s /bin/sh -c 'make -s --no-print-directory " .. c[2] .. "' 2>&1")
        assert.are_not.equal(0, status)
        assert.is_truthy(holds(out, c[3]), out)
      end)
    end
  end)

  -- make exercise-165 BUDGET=...: the student's inclusive() counted against the handout's
  -- budget (exercises/harness/speed.lua), on the smaller published size but for the reference.
  describe("the speed budget", function()
    local function budget(src, size, extra)
      return exercise_run(src, TMP .. "/budget-" .. wb.basename(src), "BUDGET=" .. size .. " " .. (extra or ""))
    end
    -- The stubs' runs, which fail: { name, size, make's further words, what the output holds }.
    for _, c in ipairs({ { "without valgrind says so, and how to get it", 20000, "GRADE_VALGRIND=/nonexistent/valgrind",
      { "counts instructions with valgrind, which is not installed here", "make setup-profile installs it",
        "ask whoever runs this machine", no = { "Counting" } } },
      { "the stubs: not written yet, nothing counted", 20000, nil,
        { "inclusive() returned -1, what the shipped stub returns: not written yet?", no = { "Your inclusive()" } } },
      { "an unpublished size is refused, naming the sizes there are", 5, nil,
        { "has no budget for 5 stacks; it has one for " .. table.concat(chapter.load("165").speed.sizes, ", ") } } }) do
      it(c[1], function()
        local status, out = budget(student_copy(TMP .. "/budget-stubs"), c[2], c[3])
        assert.are_not.equal(0, status)
        assert.is_truthy(holds(out, c[4]), out)
      end)
    end
    it("a bad line of speed.txt is an error naming the file and the line", function()
      local ch = { id = "165", dir = TMP .. "/budget-table", solution = "solutions/165" }
      wb.mkdir_p(ch.dir .. "/tests/expected")
      wb.write_file(ch.dir .. "/tests/expected/speed.txt", "# a comment\nrule 4 10\nsize 20000 x\n")
      local t, why = require("exercises.harness.speed").read_table(ch)
      assert.is_truthy(not t and why == ch.dir .. "/tests/expected/speed.txt:3: not a line of the table: size 20000 x", why)
    end)
    if HAVE_SOLUTIONS then
      it("the reference, on the graded size: about 1x, within the budget", function()
        local status, out = budget(student_copy(TMP .. "/budget-reference", wb.read_file("solutions/165/profile.c")), 1)
        local ratio = tonumber(out:match("That is ([%d.]+)x the reference's count: within the budget for full marks%."))
        assert.is_truthy(status == 0 and ratio and ratio > 0.9 and ratio < 1.1
          and out:find("on " .. wb.commas(chapter.load("165").speed.lines) .. " generated stacks, the graded size,", 1, true), out)
      end)
      it("a correct but quadratic inclusive(): over budget, with the ratio", function()
        local status, out = budget(student_copy(TMP .. "/budget-slow", slow_code()), 20000)
        local ratio = tonumber(out:match("That is ([%d.]+)x the reference's count: over budget: no speed points%."))
        assert.is_truthy(status ~= 0 and ratio and ratio > 10 and not out:find("answers differ", 1, true), out)
      end)
    end
  end)

  -- ---------------------------------------------------------------- the background runs

  describe("the shipped stubs, as a student sees them first", function()
    local status, output, v, count
    lazy_setup(function()
      status, output = exercise_finish(stubs_run)
      v, count = verdicts(TMP .. "/stubs")
    end)
    it("make exercise-165 exits non-zero", function()
      assert.are_not.equal(0, status)
    end)
    it("shows no compiler command line (a beginner takes one for an error), and no next steps", function()
      assert.is_falsy(("\n" .. output):find("\n%S*cc %-"), output:sub(1, 600))
      assert.is_falsy(output:find("Next steps:", 1, true), output:sub(-600))
    end)
    it("every case ran", function()
      assert.is_truthy(total == nil or count == total, count .. " of " .. tostring(total))
    end)
    it("every case is a clean wrong result (no crash, no leak, no timeout)", function()
      local not_wrong = {}
      for name, verdict in pairs(v) do
        if verdict ~= "wrong" then
          not_wrong[#not_wrong + 1] = name .. "=" .. verdict
        end
      end
      assert.are.equal("", table.concat(not_wrong, ", "))
    end)
    it("the progress line shows 0 passed per function", function()
      assert.is_truthy(output:find("parse_row 0/%d+ · sum_named 0/%d+ · inclusive 0/%d+"), output:sub(-300))
    end)
    it("ends with the count, which explains make's Error line, and the progress line, then make's line", function()
      local lines = wb.split_lines(output)
      local n = #lines + (lines[#lines] == "" and -1 or 0)
      assert.is_truthy(lines[n - 2]:find("^%d+ of %d+ tests fail, so the exit status is 1 %(make's last line, "
        .. '"make: %*%*%* %.%.%. Error 1", says only that%)%.$')
        and lines[n - 1]:find("^parse_row 0/%d+ · sum_named 0/%d+ · inclusive 0/%d+$")
        and lines[n]:find("^make%S*: %*%*%* %[.*exercise%-165%] Error 1$"), output:sub(-400))
    end)
    it("a function whose every case got -1 is one line, not one per case", function()
      assert.is_truthy(holds(output, { "parse_row: not written yet? Every test (",
        "inclusive: not written yet? Every test (", no = { "✗ parse_row." } }), output)
    end)
    it("... which says which case to run alone", function()
      assert.is_truthy(output:find("make exercise-165 TEST=parse_row.plain_row", 1, true), output)
    end)
  end)

  if HAVE_SOLUTIONS then
    describe("student flow: the reference copied into a copy of exercises/165", function()
      local status, output, count
      lazy_setup(function()
        status, output = exercise_finish(student_run)
        count = select(2, verdicts(TMP .. "/student-build"))
      end)
      it("make exercise-165 exits 0", function()
        assert.are.equal(0, status, output:sub(-600))
      end)
      it("every case passed, each in its own process", function()
        assert.is_truthy(count == total and output:find("All " .. tostring(total) .. " tests pass.", 1, true),
          tostring(count))
      end)
      it("a function whose every test passes starts its hints again at hint 1", function()
        assert.are.equal("", wb.read_file(TMP .. "/student-build/hint-state"))
      end)
      it("after the progress line come the chapter's next steps, each command of them", function()
        local steps = require("exercises.165.chapter").next_steps
        local progress, after = output:match("All %d+ tests pass%.\n([^\n]*)\n(.*)$")
        assert.is_truthy(progress and progress:find("^parse_row (%d+)/%1 · sum_named (%d+)/%2 · inclusive (%d+)/%3$")
          and #steps > 0 and after:find("^\nNext steps:\n"), output:sub(-600))
        for _, step in ipairs(steps) do
          local text = type(step) == "table" and step[1] or step
          assert.is_truthy(after:find("\n  " .. text, 1, true) or after:find("\n" .. text, 1, true), after)
        end
      end)
    end)
  end
end)

-- ------------------------------------------------------------------ the long version

describe("the exercise harness, long #slow", function()
  if not HAVE_SOLUTIONS then
    pending("slow: solutions/165 is not here (a student edition)")
    return
  end
  lazy_teardown(clean_up)
  it("the reference passes 3 runs out of 3 with 4 busy loops beside each", function()
    local passes = 0
    for _ = 1, 3 do
      local status = wb.while_busy(4, sh, "MAKEFLAGS= make --no-print-directory exercise-165 SOLUTION=1")
      passes = passes + (status == 0 and 1 or 0)
    end
    assert.are.equal(3, passes)
  end)
  it("planted faults on every public case: the same verdicts with 4 busy loops", function()
    local src = student_copy(TMP .. "/planted-all", planted_code())
    local _, output, quiet = planted_run(src, TMP .. "/planted-all-quiet")
    local _, busy_output, busy = wb.while_busy(4, planted_run, src, TMP .. "/planted-all-busy")
    assert.is_truthy(next(quiet) ~= nil, output)
    assert.is_nil(verdict_difference(quiet, busy), output .. busy_output)
  end)
end)
