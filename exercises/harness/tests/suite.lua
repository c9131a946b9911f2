-- suite.lua: the `exercises` suite of `make test` (make test-exercises).
--
--   lua5.4 exercises/harness/tests/suite.lua --result FILE [--only sandbox|runner|exercise]
--
-- Three parts, each a list of checks that print "ok" or "FAIL name: why":
--   sandbox   build/harness/sandbox against victims.c (segfault, abort, stack overflow,
--             endless loop, exit(3), output flood, leak, heap overflow, ...): each must be
--             named right, and quickly (short timeouts).
--   runner    runner.lua's classification, hints and wrapping; then a planted broken
--             implementation in a temporary copy of the exercise: its crashes and loops
--             must cost only their own tests.
--   exercise  the reference passes every public test (built with -Werror and the
--             sanitizers); the shipped stubs fail every test cleanly, one process each;
--             a student who copies the reference into a copy of exercises/165 passes.
-- Writes "PASSED FAILED" to --result. Run from the repository root, after `make` has
-- built the sandbox and the victims (the Makefile target does).
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
  check("sandbox: an endless loop is 'timed out after 0.5 s'",
    line == "timed out after 0.5 s" and status == 1, line)
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

-- ------------------------------------------------------------------ runner

local function runner_tests()
  local cases = {
    { "ok", "", "", "passed" },
    { "exit 1", "", "\nFAILED parse_row.x\n", "failed" },
    { "exit 1", "", "something else", "exit" },
    { "exit 3", "", "", "exit" },
    { "crashed: SIGSEGV", "", "", "crashed" },
    { "timed out after 2 s", "", "", "timeout" },
    { "output limit: more than 65536 bytes", "", "", "output" },
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
  local asan = "    #0 0x55 in strlen ../sanitizer_common/x.inc:12\n" ..
    "    #1 0x56 in parse_row /w/exercises/165/profile.c:42\n" ..
    "    #2 0x57 in test_parse_row /w/exercises/165/tests/test_profile.c:400\n"
  check("runner: where() finds the first frame in profile.c, not test_profile.c",
    runner.where(asan, { "profile.c" }) == "/w/exercises/165/profile.c:42 in parse_row",
    runner.where(asan, { "profile.c" }))
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

-- A copy of the exercise with a few cases per function, so that the planted tests are
-- quick (timeouts included).
local function small_fixtures(dir)
  sh("mkdir -p " .. dir .. " && cp exercises/165/tests/*.rows " .. dir)
  local keep = { parse_row = { "plain_row", "program_totals", "one_blank", "call_site" },
                 sum_named = { "needle_fib", "empty_needle", "no_rows" },
                 inclusive = { "worked_example", "recursion_counts_once", "no_stacks" } }
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

local function exercise_command(src, out, extra)
  return string.format("make --no-print-directory exercise-165 EX_SRC=%s EX_OUT=%s %s", src, out,
    extra or "")
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

local function planted_tests()
  -- The reference, except: sum_named dereferences NULL, and inclusive never returns when
  -- a stack is recursive. parse_row is left intact and must pass.
  local src = TMP .. "/planted"
  sh("rm -rf " .. src .. " && mkdir -p " .. src .. " && cp solutions/165/profile.h " .. src)
  local code = read_file("solutions/165/profile.c")
  code = code:gsub("int sum_named%(const Row %*rows, size_t count, const char %*needle, uint64_t %*sum%) {",
    "%0\n    if (count < 1000) { volatile int *crash = NULL; *crash = 1; }", 1)
  code = code:gsub("int inclusive%(const Folded %*stacks, size_t count, Cost %*%*costs, size_t %*ncosts%) {",
    "%0\n    for (size_t i = 0; i < count; i++) { if (strstr(stacks[i].stack, \"fib;fib\")) { for (volatile unsigned spin = 0;; spin++) {} } }", 1)
  write_file(src .. "/profile.c", code)
  small_fixtures(TMP .. "/small")
  local out = TMP .. "/planted-build"
  local status, output = exercise_run(src, out, "EX_TIMEOUT=4 EX_ARGS='--fixtures " .. TMP .. "/small'")
  local v, count = verdicts(out)
  check("planted: the run exits non-zero", status ~= 0, status)
  check("planted: all 10 tests ran and were reported", count == 10, count .. " results")
  check("planted: parse_row still passes all its tests",
    v["parse_row.plain_row"] == "passed" and v["parse_row.program_totals"] == "passed"
      and v["parse_row.one_blank"] == "passed" and v["parse_row.call_site"] == "passed", output)
  check("planted: every sum_named test is reported as a crash, none hides another",
    (v["sum_named.needle_fib"] == "sanitizer" or v["sum_named.needle_fib"] == "crashed")
      and v["sum_named.no_rows"] == v["sum_named.needle_fib"]
      and v["sum_named.empty_needle"] == v["sum_named.needle_fib"], tostring(v["sum_named.needle_fib"]))
  check("planted: the endless loop costs only the recursive inclusive tests",
    v["inclusive.worked_example"] == "timeout" and v["inclusive.recursion_counts_once"] == "timeout"
      and v["inclusive.no_stacks"] == "passed",
    tostring(v["inclusive.worked_example"]) .. " " .. tostring(v["inclusive.no_stacks"]))
  check("planted: the progress line counts per function",
    output:find("parse_row 4/4 · sum_named 0/3 · inclusive 1/3", 1, true), output:sub(-300))
  check("planted: the crash report names the line in profile.c",
    output:match("It happened at [^\n]*planted/profile%.c:%d+ in sum_named"), output)
  check("planted: a crashed test still shows its input (via --describe)",
    output:find('needle:   "fib"', 1, true) or output:find('needle:   ""', 1, true), output)

  -- A file that does not compile: the compiler's words, no crash of the harness.
  local broken = TMP .. "/broken"
  sh("rm -rf " .. broken .. " && mkdir -p " .. broken .. " && cp exercises/165/profile.h " .. broken)
  write_file(broken .. "/profile.c", '#include "profile.h"\nint parse_row(const char *line, Row *row) {\n    return oops;\n}\n')
  status, output = exercise_run(broken, TMP .. "/broken-build")
  check("build error: exits non-zero and says the code does not compile",
    status ~= 0 and output:find("does not compile", 1, true) and output:find("oops", 1, true), output)
end

-- ------------------------------------------------------------------ exercise

-- The reference; returns the number of public tests. Runs first: it also builds the test
-- driver's objects that the other runs link (they must not race to build them).
local function reference_tests()
  check("exercise: exercises/165/profile.h and solutions/165/profile.h are identical",
    read_file("exercises/165/profile.h") == read_file("solutions/165/profile.h"))

  -- The reference, built by the real target with -Werror (SOLUTION=1), then every test
  -- in one process (quick); the per-process loop is exercised by the student flow below.
  local status, output = sh("make --no-print-directory exercise-165 SOLUTION=1 TEST=inclusive.sorted")
  check("exercise: make exercise-165 SOLUTION=1 builds the reference with -Werror and runs",
    status == 0, output)
  status, output = sh("UBSAN_OPTIONS=halt_on_error=1 build/exercise/165-solution/tests")
  local total = tonumber(output:match("%[==========%] (%d+) test%(s%) run"))
  check("exercise: the reference passes every public test under ASan+UBSan",
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

-- The two long runs, started together in the background while the other parts run: the
-- shipped stubs, one process per test, as a student sees them first; and the student
-- flow, a copy of exercises/165 with the reference's profile.c.
local function start_long_runs()
  local copy = TMP .. "/student"
  sh("rm -rf " .. copy .. " && mkdir -p " .. copy .. " && cp exercises/165/profile.h exercises/165/README.md "
    .. copy .. " && cp solutions/165/profile.c " .. copy)
  -- The stubs as committed: a student's edits in the working copy must not break this.
  local stubs = TMP .. "/stubs-src"
  sh("mkdir -p " .. stubs .. " && cp exercises/165/profile.h " .. stubs .. " && "
    .. "{ git show HEAD:exercises/165/profile.c > " .. stubs .. "/profile.c 2>/dev/null || "
    .. "cp exercises/165/profile.c " .. stubs .. "; }")
  -- No test here loops, so a generous time limit keeps a busy machine from failing them.
  return { stubs = exercise_start(stubs, TMP .. "/stubs", "EX_TIMEOUT=10"),
           student = exercise_start(copy, TMP .. "/student-build", "EX_TIMEOUT=10") }
end

local function finish_long_runs(runs, total)
  local out = TMP .. "/stubs"
  local status, output = exercise_finish(runs.stubs)
  local v, count = verdicts(out)
  local not_failed = {}
  for name, verdict in pairs(v) do
    if verdict ~= "failed" then
      not_failed[#not_failed + 1] = name .. "=" .. verdict
    end
  end
  check("stubs: make exercise-165 exits non-zero", status ~= 0, status)
  check("stubs: every test ran", count == total, count .. " of " .. tostring(total))
  check("stubs: every test is a clean failure (no crash, no leak, no timeout)",
    #not_failed == 0, table.concat(not_failed, ", "))
  check("stubs: the progress line shows 0 passed per function",
    output:find("parse_row 0/%d+ · sum_named 0/%d+ · inclusive 0/%d+"), output:sub(-300))
  check("stubs: the first failure shows input, expected and actual in decimal",
    output:find('line:     "3,400,013·(62.11%)··prog.c:hot_loop', 1, true)
      and output:find("ir = 3400013", 1, true) and output:find("returns -1", 1, true), output:sub(1, 800))
  check("stubs: a hint from the handout is shown", output:find("Hint 1 of 2 for parse_row", 1, true))

  out = TMP .. "/student-build"
  status, output = exercise_finish(runs.student)
  v, count = verdicts(out)
  check("student flow: with the reference copied in, make exercise-165 exits 0", status == 0,
    output:sub(-600))
  check("student flow: every test passed, each in its own process",
    count == total and output:find("All " .. tostring(total) .. " tests pass.", 1, true), count)
end

-- ------------------------------------------------------------------ main

local result_path, only
for i = 1, #arg do
  if arg[i] == "--result" then
    result_path = arg[i + 1]
  elseif arg[i] == "--only" then
    only = arg[i + 1]
  end
end
if not read_file("exercises/exercises.mk") then
  io.stderr:write("suite.lua: run it from the repository root (make test-exercises)\n")
  os.exit(2)
end
sh("mkdir -p build/exercise")
TMP = select(2, sh("mktemp -d build/exercise/suite.XXXXXX")):gsub("%s+$", "")
local function part(name, run, ...)
  if not only or only == name then
    local ok, result = pcall(run, ...)
    check("part " .. name .. " ran to the end", ok, result)
    return ok and result
  end
end
-- The exercise part and the planted tests start from the reference, which the student
-- edition (make student-edition) does not have: there they are skipped, and said so.
local have_reference = read_file("solutions/165/profile.c") ~= nil
local total = have_reference and part("exercise", reference_tests)
local runs = total and part("exercise", start_long_runs)
part("sandbox", sandbox_tests)
part("runner", runner_tests)
if have_reference then
  part("runner", planted_tests)
else
  io.write("skip  the exercise part and the planted tests: they need solutions/165 ",
    "(this is the student edition; make exercise-165 tests your code)\n")
end
if runs then
  part("exercise", finish_long_runs, runs, total)
end
io.write(string.format("exercises suite: %d passed, %d failed\n", passed, failed))
if result_path then
  write_file(result_path, string.format("%d %d\n", passed, failed))
end
if failed == 0 then
  sh("rm -rf " .. TMP)
else
  io.write("(the files of this run are in ", TMP, ")\n")
end
os.exit(failed == 0 and 0 or 1)
