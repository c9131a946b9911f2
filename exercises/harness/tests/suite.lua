-- suite.lua: the `exercises` suite of `make test` (make test-exercises) and its long
-- version (make test-slow).
--
--   lua5.4 exercises/harness/tests/suite.lua --result FILE [--only PART] [--slow]
--
-- Parts, each a list of checks that print "ok" or "FAIL name: why":
--   sandbox   build/harness/sandbox against victims.c (segfault, abort, stack overflow,
--             endless loop, exit(3), output flood, leak, heap overflow, ...).
--   fork      the same victims as tests of one driver (victims --each): fork_tests.c must
--             name each child's fate, keep each test's limits and isolate the tests.
--   runner    runner.lua's reading of statuses and sanitizer reports; the handout's hints.
--   report    what a student sees first (the shipped stubs): one line per function not
--             written yet, a failure in full with its rule escaped, watch mode's report.
--   watch     make watch-165 on a copy: a run at once, another after a save; SIGINT (what
--             Ctrl-C sends) ends it.
--   planted   planted faults (crash, endless loop, slow algorithm, leak, exit()) in a copy
--             of the reference: each costs only its tests, the report explains each, and
--             the verdicts are the same with busy loops running beside the run.
--   exercise  the reference passes every public test, also with busy loops beside it; a
--             student who copies the reference into a copy of exercises/165 passes.
-- The parts that need solutions/ (planted, exercise) are skipped, with a note, in an
-- edition without it. --slow (make test-slow) runs the long versions: the reference 3
-- times and the planted faults on every public test, each with 4 busy loops beside it.
-- Writes "PASSED FAILED" to --result. Run from the repository root, after make has built
-- the sandbox, the victims and the test driver's objects (the Makefile target does).
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local runner = require("runner")
local run_exercise = require("run_exercise")

local SANDBOX = "build/harness/sandbox"
local VICTIMS = "build/harness/victims"
local TMP -- a fresh folder per run (build/exercise/suite.XXXXXX): runs may overlap

local passed, failed = 0, 0

local function check(name, ok, why)
  if ok then
    passed = passed + 1
    io.write("ok    ", name, "\n")
  else
    failed = failed + 1
    io.write("FAIL  ", name, ": ", tostring(why), "\n")
  end
  io.stdout:flush()
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then
    return nil
  end
  local text = f:read("a")
  f:close()
  return text
end

local function write_file(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end

-- Starts a shell command; sh_finish() waits for it and returns its exit status and its
-- output (stdout and stderr). Two started commands run at the same time.
local function sh_start(command)
  return io.popen("( " .. command .. " ) 2>&1", "r")
end

local function sh_finish(pipe)
  local output = pipe:read("a")
  local _, _, status = pipe:close()
  return status, output
end

local function sh(command)
  return sh_finish(sh_start(command))
end

-- Starts n busy loops (shells spinning at full speed, as other people's work on a shared
-- machine would) and returns a function that stops them.
local function busy_loops(n)
  local _, out = sh("for i in $(seq " .. n .. "); do (while :; do :; done) >/dev/null 2>&1 & "
    .. "echo $!; done")
  local pids = {}
  for pid in out:gmatch("%d+") do
    pids[#pids + 1] = pid
  end
  return function()
    sh("kill " .. table.concat(pids, " "))
  end
end

-- Runs fn(...) with n busy loops beside it; the loops stop even when fn fails.
local function while_busy(n, fn, ...)
  local stop = busy_loops(n)
  local results = table.pack(pcall(fn, ...))
  stop()
  if not results[1] then
    error(results[2], 0)
  end
  return table.unpack(results, 2, results.n)
end

-- ------------------------------------------------------------------ sandbox

-- Runs a victim under the sandbox: returns status line, exit status, and the captured
-- stdout and stderr. Time limits are generous except where the test is about the time
-- limit, so a busy machine cannot fail these. No check asserts wall-clock time: a
-- "timed out" or "output limit" line can only come from the sandbox killing the victim
-- (which would otherwise sleep 100 s or run forever), and a grandchild that kept the
-- sandbox waiting would turn "ok" into "timed out".
local function victim(mode, flags, asan)
  local out, err = TMP .. "/victim.stdout", TMP .. "/victim.stderr"
  local status, line = sh(string.format("%s %s --stdout %s --stderr %s -- %s %s", SANDBOX,
    flags or "--timeout 10", out, err, VICTIMS .. (asan and "-asan" or ""), mode))
  return line:gsub("%s+$", ""), status, read_file(out) or "", read_file(err) or ""
end

local function sandbox_tests()
  local line, status, out, err = victim("ok")
  check("sandbox: a well-behaved child is ok, exit 0", line == "ok" and status == 0, line)
  check("sandbox: stdout and stderr are captured to the files",
    out == "hello from stdout\n" and err == "hello from stderr\n", out .. err)

  line, status = victim("exit3")
  check("sandbox: exit(3) is 'exit 3', sandbox exits 1", line == "exit 3" and status == 1, line)

  line = victim("segfault")
  check("sandbox: a NULL dereference is 'crashed: SIGSEGV'", line == "crashed: SIGSEGV", line)
  line = victim("abort")
  check("sandbox: abort() is 'crashed: SIGABRT'", line == "crashed: SIGABRT", line)
  line = victim("sigterm")
  check("sandbox: death by SIGTERM is named", line == "crashed: SIGTERM", line)
  line = victim("stack-overflow")
  check("sandbox: a stack overflow is 'crashed: SIGSEGV'", line == "crashed: SIGSEGV", line)
  line = victim("stack-overflow", "--timeout 5", true)
  check("sandbox: under ASan, a stack overflow is 'AddressSanitizer: stack-overflow'",
    line == "AddressSanitizer: stack-overflow", line)

  line, status = victim("loop", "--timeout 0.5")
  check("sandbox: an endless loop times out", line:match("^timed out after 0%.5 s") and status == 1,
    line)
  line = victim("sleep", "--timeout 0.3")
  check("sandbox: a sleeping child times out on the wall clock",
    line == "timed out after 0.3 s", line)
  line = victim("grandchild", "--timeout 5")
  check("sandbox: a grandchild holding the pipes does not keep the sandbox waiting",
    line == "ok", line)

  line, status, out = victim("flood", "--timeout 5 --output 1000")
  check("sandbox: a flood of output is 'output limit: more than 1000 bytes'",
    line == "output limit: more than 1000 bytes" and status == 1, line)
  check("sandbox: ... and at most 1000 bytes are kept", #out == 1000, #out .. " bytes")

  line = victim("leak", "--timeout 5", true)
  check("sandbox: a leak under ASan is 'leaked 4242 bytes'", line == "leaked 4242 bytes", line)
  line = victim("leak", "--timeout 5", false)
  check("sandbox: without ASan the same leak goes unnoticed ('ok')", line == "ok", line)
  line = victim("heap-overflow", "--timeout 5", true)
  check("sandbox: a heap overflow is 'AddressSanitizer: heap-buffer-overflow'",
    line == "AddressSanitizer: heap-buffer-overflow", line)
  line = victim("int-overflow", "--timeout 5", true)
  check("sandbox: signed overflow is a UBSan report naming the file",
    line:match("^UndefinedBehaviorSanitizer: signed integer overflow.*%(victims%.c:%d+:%d+%)$"),
    line)
  line = victim("segfault", "--timeout 5", true)
  check("sandbox: under ASan+UBSan a NULL dereference is a sanitizer report",
    line:match("Sanitizer"), line)
  line = victim("eat-memory", "--timeout 5 --memory 64")
  check("sandbox: --memory 64 makes malloc fail (the victim exits 4)", line == "exit 4", line)
  line = victim("eat-memory", "--timeout 10 --memory 64", true)
  check("sandbox: --memory 64 under ASan stops the process (hard RSS limit)",
    line == "AddressSanitizer: hard rss limit exhausted" or line == "exit 4", line)

  line = victim("big-file", "--timeout 5 --file-size 100000")
  check("sandbox: --file-size stops a program writing a bigger file ('crashed: SIGXFSZ')",
    line == "crashed: SIGXFSZ", line)
  line = victim("big-file", "--timeout 5")
  check("sandbox: the default file size (1 MB) stops a 2 MB file too", line == "crashed: SIGXFSZ",
    line)

  local s1 = sh(SANDBOX .. " --timeout 1 -- /nonexistent/program")
  local _, l1 = sh(SANDBOX .. " --timeout 1 -- /nonexistent/program")
  check("sandbox: a program that cannot start is 'exit 127'", s1 == 1 and l1:match("^exit 127"), l1)
  for _, bad in ipairs({ "--", "--timeout 0 -- true", "--timeout x -- true", "--bogus 1 -- true",
                         "--output -5 -- true", "--timeout 1", "--stdout /nonexistent/dir/f -- true" }) do
    local s = sh(SANDBOX .. " " .. bad)
    check("sandbox: usage error exits 2: sandbox " .. bad, s == 2, "exit " .. tostring(s))
  end
end

-- ------------------------------------------------------------------ fork

-- Starts every victim mode as a test of one driver (fork_tests.c); fork_finish() returns
-- name -> { fate, status (as runner.lua words it), stdout, describe } and the driver's
-- exit status. UBSan is told to stop at its first report, as the sandbox tells it.
local function fork_start(asan, options, tag)
  local dir = TMP .. "/fork" .. (asan and "-asan" or "") .. (tag or "")
  sh("mkdir -p " .. dir)
  return { dir = dir, pipe = sh_start(string.format("UBSAN_OPTIONS=halt_on_error=1 %s --each %s %s",
    VICTIMS .. (asan and "-asan" or ""), dir, options)) }
end

local function fork_finish(run)
  local status, output = sh_finish(run.pipe)
  local tests = {}
  for name, fate in output:gmatch("%d+\t([^\t\n]+)\t([^\n]*)") do
    local base = run.dir .. "/" .. name
    local stderr = read_file(base .. ".stderr") or ""
    tests[name] = { fate = fate, status = runner.status(fate, stderr),
                    stdout = read_file(base .. ".stdout") or "", describe = read_file(base .. ".describe") }
  end
  return tests, status, output
end

local function fork_tests()
  -- The wall-clock backstop is generous (the machine may be busy), except in a run of
  -- the sleeping victim alone.
  local limits = "--cpu 1 --wall 60 --memory 200 --jobs 2"
  local modes = " ok segfault abort stack-overflow loop exit3 flood leak heap-overflow int-overflow "
    .. "eat-memory grandchild sigterm big-file exit0 fails writes-static reads-static"
  local plain = fork_start(false, limits .. " --output 1000" .. modes)
  local asan = fork_start(true, limits .. modes)
  local sleeper = fork_start(false, "--only sl --wall 0.5 segfault sleep", "-sleep")
  local t, status, output = fork_finish(plain)
  local function is(name, want)
    local got = t[name] and t[name].status
    check(string.format("fork: victim %s is '%s'", name, want), got == want, tostring(got))
  end
  check("fork: the driver ran every mode and exited 0", status == 0 and t.ok and t["reads-static"],
    output)
  is("ok", "ok")
  is("segfault", "crashed: SIGSEGV")
  is("abort", "crashed: SIGABRT")
  is("stack-overflow", "crashed: SIGSEGV")
  is("sigterm", "crashed: SIGTERM")
  is("loop", "timed out after 1 s of CPU time")
  is("exit3", "exit 3")
  is("exit0", "exit 0") -- exit(0) inside a test is no pass
  is("fails", "exit 1")
  is("flood", "output limit: more than 1000 bytes")
  check("fork: ... and the flood's stdout file holds exactly the 1000 bytes",
    t.flood and #t.flood.stdout == 1000, t.flood and #t.flood.stdout)
  is("eat-memory", "memory limit: more than 200 MB")
  is("grandchild", "ok")
  is("leak", "ok")
  check("fork: a static variable one test changes is as it was for the next",
    t["writes-static"] and t["writes-static"].status == "ok" and t["reads-static"].status == "ok")
  check("fork: stdout is captured per test", t.ok and t.ok.stdout == "hello from stdout\n",
    t.ok and t.ok.stdout)
  check("fork: a test that ended badly is described, one that passed or failed cleanly is not",
    t.segfault and t.segfault.describe and t.segfault.describe:find("TEST segfault", 1, true)
      and t.ok.describe == nil and t.fails.describe == nil, t.segfault and t.segfault.describe)

  t, status, output = fork_finish(asan)
  check("fork: the ASan driver ran every mode and exited 0", status == 0 and t.ok, output)
  is("leak", "leaked 4242 bytes")
  is("heap-overflow", "AddressSanitizer: heap-buffer-overflow")
  is("stack-overflow", "AddressSanitizer: stack-overflow")
  is("eat-memory", "memory limit: more than 200 MB")
  is("loop", "timed out after 1 s of CPU time")
  is("fails", "exit 1")
  check("fork: under ASan+UBSan a NULL dereference is a sanitizer report",
    t.segfault and t.segfault.status:match("Sanitizer: "), t.segfault and t.segfault.status)
  check("fork: signed overflow is a UBSan report naming the file",
    t["int-overflow"] and t["int-overflow"].status:match(
      "^UndefinedBehaviorSanitizer: signed integer overflow.*%(victims%.c:%d+:%d+%)$"),
    t["int-overflow"] and t["int-overflow"].status)
  check("fork: a test that leaked is described (its exit status was LeakSanitizer's)",
    t.leak and t.leak.describe and t.leak.describe:find("TEST leak", 1, true))

  t, status, output = fork_finish(sleeper)
  check("fork: a test that sleeps is stopped by the wall-clock backstop; --only picks tests",
    status == 0 and t.sleep and t.sleep.status == "timed out after 0.5 s (wall clock)"
      and select(2, output:gsub("\n", "")) == 1, output)

  for _, bad in ipairs({ "--cpu 0", "--cpu 1.5", "--jobs x", "--wall", "--bogus 1" }) do
    local s = sh(VICTIMS .. " --each " .. TMP .. " " .. bad)
    check("fork: a bad option stops the driver with exit 2: " .. bad, s == 2, "exit " .. tostring(s))
  end
  local s = sh(VICTIMS .. " --each /nonexistent/folder")
  check("fork: a capture folder that does not exist stops the driver with exit 2", s == 2, s)
end

-- ------------------------------------------------------------------ runner

local function runner_tests()
  local cases = {
    { "ok", "", "", "passed" },
    { "exit 1", "", "\nFAILED parse_row.x\n", "failed" },
    { "exit 1", "", "something else", "exit" },
    { "exit 3", "", "", "exit" },
    { "exit 0", "", "", "exit" },
    { "crashed: SIGSEGV", "", "", "crashed" },
    { "timed out after 2 s", "", "", "timeout" },
    { "timed out after 2 s of CPU time", "", "", "timeout" },
    { "output limit: more than 65536 bytes", "", "", "output" },
    { "memory limit: more than 512 MB", "", "", "memory" },
    { "leaked 24 bytes", "", "", "leak" },
    { "AddressSanitizer: heap-buffer-overflow", "", "", "sanitizer" },
    { "UndefinedBehaviorSanitizer: load of null pointer (profile.c:3:4)", "", "", "sanitizer" },
    { "exit 1", "Test failed with exception: Segmentation fault(11)", "", "crashed" },
    { "sandbox: usage", "", "", "error" },
  }
  for _, c in ipairs(cases) do
    local got = runner.classify(c[1], c[2], c[3])
    check(string.format("runner: classify(%q) is %s", c[1], c[4]), got == c[4], got)
  end
  local reports = {
    { "==7==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60 at pc 0x55\n",
      "AddressSanitizer: heap-buffer-overflow" },
    { "x\n==7==ERROR: AddressSanitizer: SEGV on unknown address 0x000 (pc 0x1)\n",
      "AddressSanitizer: SEGV" },
    { "==7==AddressSanitizer: hard rss limit exhausted (64Mb vs 70Mb)\n",
      "AddressSanitizer: hard rss limit exhausted" },
    { "==7==WARNING: AddressSanitizer failed to allocate 0x10 bytes\n", nil },
    { "/w/165/profile.c:12:9: runtime error: signed integer overflow: 1 + 2147483647\n",
      "UndefinedBehaviorSanitizer: signed integer overflow: 1 + 2147483647 (profile.c:12:9)" },
    { "=================================================================\n==9==ERROR: LeakSanitizer: "
      .. "detected memory leaks\n\nDirect leak of 24 byte(s) in 1 object(s) allocated from:\n"
      .. "    #0 0x1 in malloc\n\nSUMMARY: AddressSanitizer: 24 byte(s) leaked in 1 allocation(s).\n",
      "leaked 24 bytes" },
    { "==9==ERROR: LeakSanitizer: detected memory leaks\n(cut here)", "leaked memory (LeakSanitizer)" },
    { "[ RUN      ] x\nFAILED x\n", nil },
  }
  for i, r in ipairs(reports) do
    local got = runner.sanitizer_report(r[1])
    check(string.format("runner: sanitizer_report reads report %d as %s", i, tostring(r[2])),
      got == r[2], tostring(got))
  end
  check("runner: a time kill wins over a report in stderr",
    runner.status("timed out after 2 s of CPU time", reports[1][1]) == "timed out after 2 s of CPU time")
  check("runner: a report wins over the exit status and the output limit",
    runner.status("exit 1", reports[1][1]) == reports[1][2]
      and runner.status("output limit: more than 9 bytes", reports[1][1]) == reports[1][2])
  local asan = "    #0 0x55 in strlen ../sanitizer_common/x.inc:12\n" ..
    "    #1 0x56 in parse_row /w/exercises/165/profile.c:42\n" ..
    "    #2 0x57 in test_parse_row /w/exercises/165/tests/test_profile.c:400\n"
  check("runner: where() finds the first frame in profile.c, not test_profile.c",
    runner.where(asan, { "profile.c" }) == "/w/exercises/165/profile.c:42 in parse_row",
    runner.where(asan, { "profile.c" }))
  local uaf = "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x1 at pc 0x2\n"
    .. "READ of size 1 at 0x1 thread T0\n    #0 0x3 in strcmp x.inc:1\n"
    .. "    #1 0x4 in by_cost /w/profile.c:94\n    #2 0x5 in main /w/test_profile.c:9\n\n"
    .. "0x1 is located 0 bytes inside of 5-byte region [0x1,0x6)\nfreed by thread T0 here:\n"
    .. "    #0 0x5 in free x.inc:2\n    #1 0x6 in inclusive /w/profile.c:138\n\n"
    .. "previously allocated by thread T0 here:\n    #0 0x7 in malloc x.inc:3\n"
    .. "    #1 0x8 in inclusive /w/profile.c:121\n"
  local stacks = runner.stacks(uaf, { "profile.c" })
  check("runner: stacks() tells where it happened, was freed and was allocated",
    #stacks == 3 and stacks[1].kind == "error" and stacks[1].where == "/w/profile.c:94 in by_cost"
      and stacks[2].kind == "freed" and stacks[2].where == "/w/profile.c:138 in inclusive"
      and stacks[3].kind == "allocated" and stacks[3].where == "/w/profile.c:121 in inclusive",
    #stacks)
  check("runner: a bad free keeps its words, not the address",
    runner.sanitizer_report("==1==ERROR: AddressSanitizer: attempting free on address which was "
      .. "not malloc()-ed: 0x6060 in thread T0\n")
      == "AddressSanitizer: attempting free on address which was not malloc()-ed")
  check("runner: quote() survives apostrophes",
    select(2, sh("printf %s " .. runner.quote("fib'2 a b"))) == "fib'2 a b")
  local hints = run_exercise.read_hints("exercises/165/README.md")
  for _, func in ipairs({ "parse_row", "sum_named", "inclusive" }) do
    check("runner: the handout has hints 1 and 2 for " .. func,
      hints[func] and hints[func][1] and hints[func][2] and #hints[func][1].text > 40
        and #hints[func][2].text > 40)
  end
  local wrapped = run_exercise.wrap(string.rep("word ", 40), 30, "  ")
  local longest = 0
  for l in wrapped:gmatch("[^\n]+") do
    longest = math.max(longest, #l)
  end
  check("runner: wrap() keeps lines within the width", longest <= 32, longest)
end

-- ------------------------------------------------------------------ runs of the loop

-- A copy of the exercise's data with a few cases per function, so that runs with
-- planted faults are quick (timeouts included).
local function small_fixtures(dir, keep)
  sh("mkdir -p " .. dir .. " && cp exercises/165/tests/*.rows " .. dir)
  for func, ids in pairs(keep) do
    local text = read_file("exercises/165/tests/" .. func .. ".txt")
    local out = {}
    for block in (text .. "\n"):gmatch("case: .-\n\n") do
      for _, id in ipairs(ids) do
        if block:match("^case: " .. id .. "\n") then
          out[#out + 1] = block
        end
      end
    end
    write_file(dir .. "/" .. func .. ".txt", table.concat(out))
  end
end

-- Results of a `make exercise-165` run: name -> verdict, from its results.tsv.
local function verdicts(out_dir)
  local map, count = {}, 0
  for name, verdict in (read_file(out_dir .. "/results.tsv") or ""):gmatch("([^\t\n]+)\t([^\t\n]+)") do
    map[name] = verdict
    count = count + 1
  end
  return map, count
end

local function same_verdicts(a, b)
  for name, verdict in pairs(a) do
    if b[name] ~= verdict then
      return false, string.format("%s: %s, then %s", name, verdict, tostring(b[name]))
    end
  end
  for name in pairs(b) do
    if a[name] == nil then
      return false, name .. " only in the second run"
    end
  end
  return true
end

-- The loop's command on a copy: MAKEFLAGS is cleared, since a jobserver of ours is not
-- passed down to this make.
local function exercise_command(src, out, extra)
  return string.format("MAKEFLAGS= make --no-print-directory exercise-165 EX_SRC=%s EX_OUT=%s %s",
    src, out, extra or "")
end

local function exercise_run(src, out, extra)
  return sh(exercise_command(src, out, extra))
end

-- Starts a run in the background with its output going to OUT.log (a pipe nobody reads
-- for a while would fill up and stall it); exercise_finish() waits and returns status
-- and output.
local function exercise_start(src, out, extra)
  sh("mkdir -p " .. out)
  return { pipe = sh_start(exercise_command(src, out, extra) .. " > " .. out .. ".log 2>&1"),
           log = out .. ".log" }
end

local function exercise_finish(run)
  local status = sh_finish(run.pipe)
  return status, read_file(run.log) or ""
end

-- A copy of exercises/165 as committed (a student's edits in the working copy must not
-- break the suite) with another profile.c when one is given.
local function student_copy(dir, profile_c)
  sh("rm -rf " .. dir .. " && mkdir -p " .. dir .. " && cp exercises/165/profile.h exercises/165/README.md " .. dir)
  if profile_c then
    write_file(dir .. "/profile.c", profile_c)
  else
    sh("{ git show HEAD:exercises/165/profile.c > " .. dir .. "/profile.c 2>/dev/null || "
      .. "cp exercises/165/profile.c " .. dir .. "; }")
  end
  return dir
end

-- ------------------------------------------------------------------ report (the stubs)

-- Started in the background while the other parts run: the shipped stubs, every test,
-- as a student sees them first.
local function start_stubs_run()
  local stubs = student_copy(TMP .. "/stubs-src")
  return exercise_start(stubs, TMP .. "/stubs")
end

local function finish_stubs_run(run, total)
  local status, output = exercise_finish(run)
  local v, count = verdicts(TMP .. "/stubs")
  local not_failed = {}
  for name, verdict in pairs(v) do
    if verdict ~= "failed" then
      not_failed[#not_failed + 1] = name .. "=" .. verdict
    end
  end
  check("stubs: make exercise-165 exits non-zero", status ~= 0, status)
  check("stubs: every test ran", total == nil or count == total, count .. " of " .. tostring(total))
  check("stubs: every test is a clean failure (no crash, no leak, no timeout)",
    #not_failed == 0, table.concat(not_failed, ", "))
  check("stubs: the progress line shows 0 passed per function",
    output:find("parse_row 0/%d+ · sum_named 0/%d+ · inclusive 0/%d+"), output:sub(-300))
  check("stubs: a function whose every test got -1 is one line, not one per test",
    output:find("parse_row: not written yet? Every test (", 1, true)
      and output:find("inclusive: not written yet? Every test (", 1, true)
      and not output:find("✗ parse_row.", 1, true), output)
  check("stubs: ... which says which test to run alone",
    output:find("make exercise-165 TEST=parse_row.plain_row", 1, true), output)
end

local function report_tests()
  local stubs = student_copy(TMP .. "/stubs-one")
  local status, output = exercise_run(stubs, TMP .. "/stubs-one-build", "TEST=parse_row.crlf_line_end")
  check("report: one test asked for by name is shown in full, even with the stubs",
    status ~= 0 and output:find("✗ parse_row.crlf_line_end  (wrong result)", 1, true), output)
  check("report: the rule's \\r\\n is shown escaped, as in the input line",
    output:find("rule:     a line read from a Windows file ends in \\r\\n: strip both", 1, true)
      and not output:find("\r", 1, true), output)
  check("report: ... and the input, the expected and the actual values follow it",
    output:find('line:     "1,600,000·(29.23%)··prog.c:mix·[/tmp/cg/prog_g]\\r\\n"', 1, true)
      and output:find("expected: returns 1 (a row) with ir = 1600000", 1, true)
      and output:find("actual:   returns -1", 1, true), output)
  check("report: the first failure shows input, expected and actual in decimal",
    output:find("ir = 1600000", 1, true) and output:find("returns -1", 1, true), output)
  check("report: a hint from the handout is shown", output:find("Hint 1 of 2 for parse_row", 1, true),
    output)

  status, output = exercise_run(stubs, TMP .. "/stubs-one-build", "EX_BRIEF=1")
  local progress = output:find("parse_row 0/%d+ · sum_named 0/%d+ · inclusive 0/%d+\n")
  check("report: watch mode's report starts with the progress line, names the functions not "
    .. "written yet, and exits 0", status == 0 and progress
      and output:find("parse_row, sum_named, inclusive: not written yet?", progress, true), output)
end

-- ------------------------------------------------------------------ watch

-- Polls a file until its text has the pattern `count` times (or a generous time passed:
-- a hung watch must fail the check, not the suite).
local function wait_for(path, pattern, count)
  for _ = 1, 1200 do
    local text = read_file(path) or ""
    local found = select(2, text:gsub(pattern, ""))
    if found >= count then
      return true, text
    end
    sh("sleep 0.1")
  end
  return false, read_file(path) or ""
end

local function watch_tests()
  if sh("command -v inotifywait >/dev/null") ~= 0 then
    check("watch: inotifywait is installed (make setup)", false, "not found")
    return
  end
  local copy = student_copy(TMP .. "/watched")
  small_fixtures(TMP .. "/watch-small", { parse_row = { "plain_row" }, sum_named = { "needle_fib" },
                                           inclusive = { "one_stack" } })
  local log = TMP .. "/watch.log"
  -- SIGINT comes back to its default (a background job starts with it ignored), and the
  -- watch gets its own process group, as a terminal's foreground job would.
  local _, pid = sh(string.format("MAKEFLAGS= env --default-signal=INT setsid make --no-print-directory "
    .. "watch-165 EX_SRC=%s EX_OUT=%s EX_ARGS='--fixtures %s' > %s 2>&1 & echo $!", copy,
    TMP .. "/watch-build", TMP .. "/watch-small", log))
  pid = pid:match("%d+")
  local ok, text = wait_for(log, "Watching [^\n]* for saves", 1)
  check("watch: make watch-165 runs the tests at once, the progress line first", ok
    and text:find("\27%[H\27%[2J") and text:find("parse_row 0/1 · sum_named 0/1 · inclusive 0/1", 1, true),
    text)
  local code = read_file(copy .. "/profile.c")
  write_file(copy .. "/profile.c", code:gsub("return %-1; /%* TODO: add up",
    "*sum = 0; for (size_t i = 0; i < count; i++) if (strstr(rows[i].name, needle)) *sum += rows[i].ir;\n"
      .. "    return 0; /* TODO: add up", 1))
  ok, text = wait_for(log, "Watching [^\n]* for saves", 2)
  check("watch: saving profile.c runs the tests again, with the new code", ok
    and text:find("parse_row 0/1 · sum_named 1/1 · inclusive 0/1", 1, true), text)
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
  check("watch: SIGINT (Ctrl-C) ends it, inotifywait included", running and gone,
    running and ("still running: group " .. pid) or ("not running before SIGINT: group " .. pid))
  if not gone then
    sh("kill -KILL -" .. pid)
  end
end

-- ------------------------------------------------------------------ planted faults

-- The reference with planted faults, each on some tests only: a leak in parse_row for
-- PROGRAM TOTALS, a crash in sum_named for the needle "fib" and exit(3) for the empty
-- one, an endless loop in inclusive on recursive stacks, and a hash that makes inclusive
-- quadratic (too slow for many_functions).
local function planted_code()
  local code = read_file("solutions/165/profile.c")
  local function plant(pattern, insert)
    local changed, n = code:gsub(pattern, "%0\n" .. insert, 1)
    assert(n == 1, "cannot plant a fault at " .. pattern)
    code = changed
  end
  plant("int parse_row%(const char %*line, Row %*row%) {",
    "    if (line != NULL && strstr(line, \"TOTALS\")) { char *lost = malloc(32); if (lost) lost[0] = 1; }")
  plant("int sum_named%(const Row %*rows, size_t count, const char %*needle, uint64_t %*sum%) {",
    "    if (needle && strcmp(needle, \"fib\") == 0) { volatile int *crash = NULL; *crash = 1; }\n"
      .. "    if (needle && needle[0] == '\\0') { exit(3); }")
  plant("int inclusive%(const Folded %*stacks, size_t count, Cost %*%*costs, size_t %*ncosts%) {",
    "    for (size_t i = 0; i < count; i++) { if (stacks[i].stack && strstr(stacks[i].stack, \"fib;fib\")) "
      .. "{ for (volatile unsigned spin = 0;; spin++) {} } }")
  plant("static uint64_t hash_frame%(const char %*key, size_t length%) {",
    "    if (key != NULL) { return length; } /* planted: nearly every name collides */")
  return code
end

local PLANTED_CASES = { parse_row = { "plain_row", "program_totals", "one_blank", "call_site" },
                        sum_named = { "needle_fib", "empty_needle", "no_rows", "case_sensitive" },
                        inclusive = { "worked_example", "no_stacks", "many_functions", "one_stack" } }

local PLANTED_VERDICTS = {
  ["parse_row.plain_row"] = "passed", ["parse_row.program_totals"] = "leak",
  ["parse_row.one_blank"] = "passed", ["parse_row.call_site"] = "passed",
  ["sum_named.needle_fib"] = "sanitizer", ["sum_named.empty_needle"] = "exit",
  ["sum_named.no_rows"] = "exit", ["sum_named.case_sensitive"] = "passed",
  ["inclusive.worked_example"] = "timeout", ["inclusive.no_stacks"] = "passed", ["inclusive.many_functions"] = "timeout",
  ["inclusive.one_stack"] = "passed",
}

-- One run of the planted faults on the small data set (EX_TIMEOUT 1 s of CPU per test).
local function planted_run(src, out, extra)
  local status, output = exercise_run(src, out, "EX_TIMEOUT=1 " .. (extra or ""))
  return status, output, verdicts(out)
end

local function planted_tests()
  local src = student_copy(TMP .. "/planted", planted_code())
  local fixtures = TMP .. "/small"
  small_fixtures(fixtures, PLANTED_CASES)
  local args = "EX_ARGS='--fixtures " .. fixtures .. "'"
  local status, output, v = planted_run(src, TMP .. "/planted-quiet", args)
  check("planted: the run exits non-zero", status ~= 0, status)
  local wrong = {}
  for name, want in pairs(PLANTED_VERDICTS) do
    if v[name] ~= want then
      wrong[#wrong + 1] = string.format("%s is %s, not %s", name, tostring(v[name]), want)
    end
  end
  check("planted: each fault costs only its own tests, with the right verdict", #wrong == 0,
    table.concat(wrong, "; ") .. "\n" .. output)
  check("planted: the progress line counts per function",
    output:find("parse_row 3/4 · sum_named 1/4 · inclusive 2/4", 1, true), output:sub(-300))
  check("planted: the crash report names the line in profile.c",
    output:match("It happened at [^\n]*planted/profile%.c:%d+ in sum_named"), output)
  check("planted: a crashed test still shows its input (from the driver's description)",
    output:find('needle:   "fib"', 1, true), output)
  check("planted: a timeout says 'too slow or in an endless loop' and what the test was",
    output:gsub("%s+", " "):find("too slow or in an endless loop", 1, true)
      and output:find("timed out after 1 s of CPU time", 1, true)
      and output:find("inclusive(stacks, count, &costs, &ncosts)", 1, true), output)
  check("planted: exit() in the code is named as such",
    output:find("did your code call exit()?", 1, true) and output:find("exit 3", 1, true), output)
  check("planted: the leak is reported with the line that allocated",
    output:find("LeakSanitizer found memory that was never freed: leaked 32 bytes", 1, true)
      and output:match("The memory was allocated at [^\n]*planted/profile%.c:%d+ in parse_row"), output)

  -- The same run with four busy loops beside it: CPU-time limits, so the same verdicts.
  local _, busy_output, busy = while_busy(4, planted_run, src, TMP .. "/planted-busy", args)
  local same, why = same_verdicts(v, busy)
  check("planted: with 4 busy loops running beside it, every verdict is the same", same,
    (why or "") .. "\n" .. busy_output)

  -- Watch mode's report: the progress line, then the first failure in full.
  status, output = exercise_run(src, TMP .. "/planted-brief", "EX_BRIEF=1 EX_TIMEOUT=1 TEST=sum_named " .. args)
  local progress = output:find("sum_named 1/4\n", 1, true)
  local first = output:find("✗ sum_named.needle_fib", 1, true)
  check("report: watch mode shows the progress line, then the first failure in full",
    status == 0 and progress and first and progress < first
      and not output:find("✗ sum_named.empty_needle", 1, true), output)

  -- A file that does not compile: the compiler's words, no crash of the harness.
  local broken = TMP .. "/broken"
  student_copy(broken, '#include "profile.h"\nint parse_row(const char *line, Row *row) {\n    return oops;\n}\n')
  status, output = exercise_run(broken, TMP .. "/broken-build")
  check("build error: exits non-zero and says the code does not compile",
    status ~= 0 and output:find("does not compile", 1, true) and output:find("oops", 1, true), output)
end

-- The long version (make test-slow): the planted faults on every public test, quiet and
-- then with 4 busy loops beside the run.
local function planted_slow_tests()
  local src = student_copy(TMP .. "/planted-all", planted_code())
  local _, output, quiet = planted_run(src, TMP .. "/planted-all-quiet")
  local _, busy_output, busy = while_busy(4, planted_run, src, TMP .. "/planted-all-busy")
  local same, why = same_verdicts(quiet, busy)
  check("slow: planted faults on every public test, the same verdicts with 4 busy loops", same
    and next(quiet) ~= nil, (why or "") .. "\n" .. output .. busy_output)
end

-- ------------------------------------------------------------------ exercise

-- The reference; returns the number of public tests. Runs first: it also builds the
-- reference's test binary that later checks run by hand.
local function reference_tests()
  check("exercise: exercises/165/profile.h and solutions/165/profile.h are identical",
    read_file("exercises/165/profile.h") == read_file("solutions/165/profile.h"))

  -- The reference, built by the real target with -Werror (SOLUTION=1), every public test
  -- in its own child; then its test run again with four busy loops beside it.
  local status, output = sh("MAKEFLAGS= make --no-print-directory exercise-165 SOLUTION=1")
  local total = tonumber(output:match("All (%d+) tests pass%."))
  check("exercise: the reference passes every public test (built with -Werror)",
    status == 0 and total and total > 100, output:sub(-2000))
  status, output = while_busy(4, sh, "lua5.4 exercises/harness/run_exercise.lua --sandbox " .. SANDBOX
    .. " --binary build/exercise/165-solution/tests --jobs 2 --workdir " .. TMP .. "/reference-busy")
  check("exercise: ... and with 4 busy loops beside the run",
    status == 0 and output:find("All " .. tostring(total) .. " tests pass.", 1, true), output:sub(-2000))
  status, output = sh("UBSAN_OPTIONS=halt_on_error=1 build/exercise/165-solution/tests")
  check("exercise: ... and all in one process too, under ASan+UBSan",
    status == 0 and output:find("[  PASSED  ] " .. tostring(total) .. " test(s).", 1, true)
      and not output:find("runtime error", 1, true), output:sub(-500))
  local _, count_text = sh("build/exercise/165-solution/tests --list | wc -l")
  check("exercise: --list names every test", tonumber(count_text) == total, count_text)
  local broken = TMP .. "/broken-fixtures"
  sh("mkdir -p " .. broken .. " && cp exercises/165/tests/*.txt exercises/165/tests/*.rows " .. broken
    .. " && printf 'case: bad\\nwhy: x\\nline: 1  a\\nwant: maybe\\n' >> " .. broken .. "/parse_row.txt")
  status, output = sh("build/exercise/165-solution/tests --fixtures " .. broken .. " --run parse_row.bad")
  check("exercise: a broken data file stops the driver with FILE:LINE and exit 2 (never a failing student)",
    status == 2 and output:match("parse_row%.txt:%d+: want: expected"), output)
  return total
end

-- The student flow: a copy of exercises/165 with the reference's profile.c passes.
local function start_student_run()
  local copy = student_copy(TMP .. "/student", read_file("solutions/165/profile.c"))
  return exercise_start(copy, TMP .. "/student-build")
end

local function finish_student_run(run, total)
  local status, output = exercise_finish(run)
  local _, count = verdicts(TMP .. "/student-build")
  check("student flow: with the reference copied in, make exercise-165 exits 0", status == 0,
    output:sub(-600))
  check("student flow: every test passed, each in its own process",
    count == total and output:find("All " .. tostring(total) .. " tests pass.", 1, true), count)
end

-- The long version: the reference, 3 runs out of 3 with 4 busy loops beside each.
local function reference_slow_tests()
  local passes = 0
  for _ = 1, 3 do
    local status = while_busy(4, sh, "MAKEFLAGS= make --no-print-directory exercise-165 SOLUTION=1")
    passes = passes + (status == 0 and 1 or 0)
  end
  check("slow: the reference passes 3 runs out of 3 with 4 busy loops beside each", passes == 3,
    passes .. " of 3")
end

-- ------------------------------------------------------------------ main

local result_path, only, slow
for i = 1, #arg do
  if arg[i] == "--result" then
    result_path = arg[i + 1]
  elseif arg[i] == "--only" then
    only = arg[i + 1]
  elseif arg[i] == "--slow" then
    slow = true
  end
end
if not read_file("exercises/exercises.mk") then
  io.stderr:write("suite.lua: run it from the repository root (make test-exercises)\n")
  os.exit(2)
end
sh("mkdir -p build/exercise")
TMP = select(2, sh("mktemp -d build/exercise/suite.XXXXXX")):gsub("%s+$", "")
local have_solutions = read_file("solutions/165/profile.c") ~= nil
local function part(name, run, ...)
  if only and only ~= name then
    return nil
  end
  if (name == "planted" or name == "exercise") and not have_solutions then
    io.write("note  part ", name, " skipped: solutions/165 is not here (a student edition)\n")
    return nil
  end
  local ok, result = pcall(run, ...)
  check("part " .. name .. " ran to the end", ok, result)
  return ok and result
end

if slow then
  part("exercise", reference_slow_tests)
  part("planted", planted_slow_tests)
else
  local total = part("exercise", reference_tests)
  -- Two long runs go on in the background while the other parts run.
  local stubs_run = (not only or only == "report") and start_stubs_run()
  local student_run = total and part("exercise", start_student_run)
  part("fork", fork_tests)
  part("sandbox", sandbox_tests)
  part("runner", runner_tests)
  part("report", report_tests)
  part("planted", planted_tests)
  part("watch", watch_tests)
  if stubs_run then
    part("report", finish_stubs_run, stubs_run, total)
  end
  if student_run then
    part("exercise", finish_student_run, student_run, total)
  end
end
io.write(string.format("exercises suite%s: %d passed, %d failed\n", slow and " (slow)" or "", passed,
  failed))
if result_path then
  write_file(result_path, string.format("%d %d\n", passed, failed))
end
if failed == 0 then
  sh("rm -rf " .. TMP)
else
  io.write("(the files of this run are in ", TMP, ")\n")
end
os.exit(failed == 0 and 0 or 1)
