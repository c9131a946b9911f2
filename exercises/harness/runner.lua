-- runner.lua: run a test driver's tests, each in its own forked child, and read how each
-- one ended.
--
-- The driver (exercises/*/tests, linked with fork_tests.c) starts once under the
-- sandbox and forks one child per test, with the test's own CPU, memory and output limits:
--
--     sandbox --timeout T ... -- BINARY ARGS --each DIR --cpu C ... --status-fd 3   3>&1
--
-- It writes "INDEX<TAB>NAME<TAB>FATE" to fd 3 as each test ends, and the test's stdout,
-- stderr (and, when it ended badly, a description of the test) to DIR/NAME.*. The
-- sandbox's own status line comes last. Each test becomes a result table:
--
--     { name = "parse_row.plain_row", func = "parse_row", verdict = "failed",
--       status = "exit 1", stdout = "...", stderr = "...", describe = "...",
--       where = "profile.c:42 in parse_row", stacks = { { kind = "error", where = ... } } }
--
-- status is worded like the sandbox's line (the first sanitizer report in stderr wins
-- over the bare exit status, as in sandbox.c). verdict is one of: passed, failed (an
-- assertion said no), crashed (a signal), timeout, sanitizer (AddressSanitizer / UBSan
-- report), leak, output (printed too much), memory (used too much), exit (exited with
-- another status: exit() in the code under test?), error (could not run).
--
-- sandbox_command, classify and where are shared with the grader, which runs its checks
-- one process each under the same sandbox.
local wb = require("vm.lib.workbook")

local M = {}

local function read_file(path)
  return wb.read_file(path) or ""
end

-- The shell command that runs argv under the sandbox. opts: sandbox (its path), and the
-- sandbox's options timeout, memory, output, file_size, procs, stdout, stderr (each left
-- out when nil, so the sandbox's default applies), plus opts.extra, a list of further
-- option words (the grader's --cpu, --isolate, --file, ...). The grader builds its checks'
-- command lines here too.
function M.sandbox_command(opts, argv)
  local words = { opts.sandbox }
  local function option(name, value)
    if value ~= nil then
      words[#words + 1] = name
      words[#words + 1] = tostring(value)
    end
  end
  option("--timeout", opts.timeout)
  option("--memory", opts.memory)
  option("--output", opts.output)
  option("--file-size", opts.file_size)
  option("--procs", opts.procs)
  option("--stdout", opts.stdout)
  option("--stderr", opts.stderr)
  for _, word in ipairs(opts.extra or {}) do
    words[#words + 1] = word
  end
  words[#words + 1] = "--"
  for _, word in ipairs(argv) do
    words[#words + 1] = word
  end
  return wb.command(words)
end

-- "file:line in function" when a stack trace line is in one of sources, else nil.
local function frame_in(line, sources)
  local func, file, lineno = line:match("#%d+ 0x%x+ in (%S+) (%S+):(%d+)")
  if func then
    for _, source in ipairs(sources or {}) do
      if file == source or file:sub(-#source - 1) == "/" .. source then
        return string.format("%s:%s in %s", file, lineno, func)
      end
    end
  end
  return nil
end

-- Where in the code under test a sanitizer report points: the first stack frame in a
-- file whose name ends with one of opts.sources (e.g. {"profile.c"}).
function M.where(stderr, sources)
  for line in stderr:gmatch("[^\n]+") do
    local where = frame_in(line, sources)
    if where then
      return where
    end
  end
  return nil
end

-- Every stack trace of a sanitizer report with the first frame in sources: a list of
-- { kind = "error" | "allocated" | "freed", where = "file:line in function" }. A report
-- has the error's own stack first, then maybe where the memory was allocated and freed
-- (a leak report has only "allocated from").
function M.stacks(stderr, sources)
  local list, kind, current, previous = {}, nil, nil, ""
  for line in (stderr .. "\n"):gmatch("([^\n]*)\n") do
    if line:match("^%s*#0 ") then
      kind = (previous:find("freed", 1, true) and "freed")
        or (previous:find("allocated", 1, true) and "allocated") or "error"
      current = { kind = kind }
      list[#list + 1] = current
    end
    if current and line:match("^%s*#%d+ ") then
      current.where = current.where or frame_in(line, sources)
    elseif not line:match("^%s*$") then
      current = nil
    end
    previous = line
  end
  local found = {}
  for _, stack in ipairs(list) do
    if stack.where then
      found[#found + 1] = stack
    end
  end
  return found
end

-- Turns a status line into a verdict (see the top of the file).
function M.classify(status, stdout, stderr)
  if status == "ok" then
    return "passed"
  elseif status == "exit 1" and stderr:find("\nFAILED ", 1, true) then
    return "failed"
  elseif status:match("^crashed") then
    return "crashed"
  elseif status:match("^timed out") then
    return "timeout"
  elseif status:match("^output limit") then
    return "output"
  elseif status:match("^memory limit") then
    return "memory"
  elseif status:match("^leaked") then
    return "leak"
  elseif status:match("Sanitizer") then
    return "sanitizer"
  elseif (stdout .. stderr):find("Test failed with exception", 1, true) then
    return "crashed" -- cmocka caught the signal itself
  elseif status:match("^exit %d+$") then
    return "exit"
  end
  return "error"
end

-- ------------------------------------------------------------------ sanitizer reports

-- "==42==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x..." or
-- "==42==AddressSanitizer: hard rss limit exhausted (256Mb vs 281Mb)" ->
-- "AddressSanitizer: heap-buffer-overflow". WARNING lines are not reports.
local function sanitizer_error(line)
  local report = line:match("ERROR: (%a+Sanitizer: .*)") or line:match("^==%d+==(%a+Sanitizer: .*)")
  if not report then
    return nil
  end
  for _, cut in ipairs({ " on address 0x", " on unknown address", " on 0x", ": 0x", " at pc", " (",
                         " in thread" }) do
    local at = report:find(cut, 1, true)
    if at then
      report = report:sub(1, at - 1)
    end
  end
  return report
end

-- "/src/x.c:3:7: runtime error: signed integer overflow: ..." ->
-- "UndefinedBehaviorSanitizer: signed integer overflow: ... (x.c:3:7)".
local function ubsan_error(line)
  local place, message = line:match("^(.-): runtime error: (.*)$")
  if not place then
    return nil
  end
  return string.format("UndefinedBehaviorSanitizer: %s (%s)", message:sub(1, 159),
    (place:match("[^/]*$")):sub(1, 100))
end

-- The first sanitizer report in stderr, in the sandbox's words, or nil. A leak report is
-- summarised by its SUMMARY line ("leaked 24 bytes").
function M.sanitizer_report(stderr)
  local leaks = false
  for line in stderr:gmatch("[^\n]+") do
    if leaks then
      local bytes = line:match("SUMMARY: %a+Sanitizer: (%d+) byte%(s%) leaked")
      if bytes then
        return "leaked " .. bytes .. " bytes"
      end
    elseif line:find("ERROR: LeakSanitizer: detected memory leaks", 1, true) then
      leaks = true
    else
      local report = sanitizer_error(line) or ubsan_error(line)
      if report then
        return report
      end
    end
  end
  return leaks and "leaked memory (LeakSanitizer)" or nil
end

-- The status line of a test from its child's fate and its stderr: a kill for time or
-- memory first, then the first sanitizer report (which may itself have run into the output
-- limit), then how the child ended.
function M.status(fate, stderr)
  if fate:match("^timed out") or fate:match("^memory limit") or fate:match("^error") then
    return fate
  end
  return M.sanitizer_report(stderr) or fate
end

-- ------------------------------------------------------------------ running the tests

-- The result table of one test, from its fate and the files its child left in workdir.
function M.result(opts, name, fate)
  local base = opts.workdir .. "/" .. name
  local stdout, stderr = read_file(base .. ".stdout"), read_file(base .. ".stderr")
  local status = M.status(fate, stderr)
  return {
    name = name,
    func = name:match("^([^.]+)") or name,
    status = status,
    verdict = M.classify(status, stdout, stderr),
    stdout = stdout,
    stderr = stderr,
    describe = read_file(base .. ".describe"),
    where = M.where(stderr, opts.sources),
    stacks = M.stacks(stderr, opts.sources),
  }
end

-- Runs every test (or those whose name starts with opts.only). opts: sandbox, binary,
-- args (for the binary, before ours), workdir (must exist), timeout (CPU seconds per test),
-- wall (backstop per test, seconds), memory (MB per test), output (bytes per stream),
-- jobs (children at a time), sources (for where), on_result (called as each test ends).
-- Returns the results in the driver's order, or nil and an explanation when the driver
-- could not run its tests.
function M.run_all(opts)
  local argv = { opts.binary }
  for _, arg in ipairs(opts.args or {}) do
    argv[#argv + 1] = arg
  end
  local function add(...)
    for _, word in ipairs({ ... }) do
      argv[#argv + 1] = tostring(word)
    end
  end
  add("--each", opts.workdir, "--cpu", opts.timeout or 2, "--wall", opts.wall or 60,
    "--memory", opts.memory or 512, "--output", opts.output or 65536, "--jobs", opts.jobs or 1,
    "--status-fd", 3)
  if opts.only then
    add("--only", opts.only)
  end
  -- The driver itself only forks and waits; its limits are wide. Its fd 3 is our pipe.
  local command = M.sandbox_command({ sandbox = opts.sandbox, timeout = opts.total_timeout or 3600,
    memory = opts.memory or 512, output = 1048576, procs = 4096,
    stdout = opts.workdir .. "/driver.stdout", stderr = opts.workdir .. "/driver.stderr" }, argv)
  local pipe = io.popen(command .. " 3>&1", "r")
  local by_index, order, driver_status = {}, {}, ""
  for line in pipe:lines() do
    local index, name, fate = line:match("^(%d+)\t([^\t]+)\t(.*)$")
    if index then
      local result = M.result(opts, name, fate)
      by_index[tonumber(index)] = result
      order[#order + 1] = tonumber(index)
      if opts.on_result then
        opts.on_result(result)
      end
    else
      driver_status = line
    end
  end
  pipe:close()
  if driver_status ~= "ok" then
    return nil, string.format("%s: %s\n%s", opts.binary, driver_status,
      read_file(opts.workdir .. "/driver.stderr"))
  end
  table.sort(order)
  local results = {}
  for i, index in ipairs(order) do
    results[i] = by_index[index]
  end
  return results
end

return M
