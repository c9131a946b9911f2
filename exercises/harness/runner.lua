-- runner.lua: run a cmocka test binary one test per process, under the sandbox.
--
-- The binary must understand `--list` (print test names) and `--run NAME` (run one test,
-- exit 0 if it passed), as exercises/*/tests drivers do. Each test runs as
--
--     sandbox --timeout T --memory M --output B --stdout F --stderr F -- BINARY ARGS --run NAME
--
-- so a crash, abort, stack overflow or endless loop costs only that test. The sandbox's
-- one-line status and the captured streams become a result table:
--
--     { name = "parse_row.plain_row", func = "parse_row", verdict = "failed",
--       status = "exit 1", stdout = "...", stderr = "...", where = "profile.c:42 in parse_row" }
--
-- verdict is one of: passed, failed (an assertion said no), crashed (a signal), timeout,
-- sanitizer (AddressSanitizer / UBSan report), leak, output (printed too much), exit
-- (exited with another status: exit() in the code under test?), error (could not run).
-- This module is shared by `make exercise-N` (run_exercise.lua) and the grader.
local M = {}

-- Quotes one word for /bin/sh.
function M.quote(word)
  return "'" .. tostring(word):gsub("'", "'\\''") .. "'"
end

local function command_line(words)
  local quoted = {}
  for i, word in ipairs(words) do
    quoted[i] = M.quote(word)
  end
  return table.concat(quoted, " ")
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then
    return ""
  end
  local text = f:read("a")
  f:close()
  return text
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
  return command_line(words)
end

-- Starts one command under the sandbox and returns a handle for finish(); the command
-- runs while the caller starts others (that is how run_all runs several tests at once).
-- opts: sandbox, timeout, memory, output, workdir (for the capture files), tag (file name).
function M.start(opts, argv)
  local out = opts.workdir .. "/" .. opts.tag .. ".stdout"
  local err = opts.workdir .. "/" .. opts.tag .. ".stderr"
  local command = M.sandbox_command({ sandbox = opts.sandbox, timeout = opts.timeout or 2,
                                      memory = opts.memory or 512, output = opts.output or 65536,
                                      stdout = out, stderr = err }, argv)
  return { pipe = io.popen(command .. " 2>&1", "r"), out = out, err = err }
end

-- Waits for a started command; returns the status line and the captured streams.
function M.finish(handle)
  local status = handle.pipe:read("a") or ""
  handle.pipe:close()
  status = status:gsub("%s+$", "")
  return status, read_file(handle.out), read_file(handle.err)
end

-- Runs one command under the sandbox; returns the status line and the captured streams.
function M.sandboxed(opts, argv)
  return M.finish(M.start(opts, argv))
end

-- Where in the code under test a sanitizer report points: the first stack frame in a
-- file whose name ends with one of opts.sources (e.g. {"profile.c"}).
function M.where(stderr, sources)
  for line in stderr:gmatch("[^\n]+") do
    local func, file, lineno = line:match("#%d+ 0x%x+ in (%S+) (%S+):(%d+)")
    if func then
      for _, source in ipairs(sources or {}) do
        if file == source or file:sub(-#source - 1) == "/" .. source then
          return string.format("%s:%s in %s", file, lineno, func)
        end
      end
    end
  end
  return nil
end

-- Turns the sandbox status into a verdict (see the top of the file).
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

-- Lists the tests of a binary. opts as for run_test; returns a list of names, or nil and
-- an explanation.
function M.list_tests(opts)
  local argv = { opts.binary }
  for _, arg in ipairs(opts.args or {}) do
    argv[#argv + 1] = arg
  end
  argv[#argv + 1] = "--list"
  local list_opts = setmetatable({ tag = "list" }, { __index = opts })
  local status, stdout, stderr = M.sandboxed(list_opts, argv)
  if status ~= "ok" then
    return nil, string.format("%s --list: %s\n%s", opts.binary, status, stderr)
  end
  local names = {}
  for name in stdout:gmatch("[^\n]+") do
    names[#names + 1] = name
  end
  return names
end

local function test_argv(opts, name)
  local argv = { opts.binary }
  for _, arg in ipairs(opts.args or {}) do
    argv[#argv + 1] = arg
  end
  argv[#argv + 1] = "--run"
  argv[#argv + 1] = name
  return argv
end

local function start_test(opts, name)
  return M.start(setmetatable({ tag = name }, { __index = opts }), test_argv(opts, name))
end

local function finish_test(opts, name, handle)
  local status, stdout, stderr = M.finish(handle)
  return {
    name = name,
    func = name:match("^([^.]+)") or name,
    status = status,
    verdict = M.classify(status, stdout, stderr),
    stdout = stdout,
    stderr = stderr,
    where = M.where(stderr, opts.sources),
  }
end

-- Runs one test in its own sandboxed process; returns its result table.
function M.run_test(opts, name)
  return finish_test(opts, name, start_test(opts, name))
end

-- Runs every test (or those whose name starts with opts.only), opts.jobs at a time
-- (default 4), calling opts.on_result(result) as each one ends, in list order;
-- returns the results in list order, or nil and an explanation when the tests cannot
-- even be listed.
function M.run_all(opts)
  local names, problem = M.list_tests(opts)
  if not names then
    return nil, problem
  end
  local chosen = {}
  for _, name in ipairs(names) do
    if not opts.only or name:sub(1, #opts.only) == opts.only then
      chosen[#chosen + 1] = name
    end
  end
  local jobs = math.max(1, tonumber(opts.jobs) or 4)
  local results, running = {}, {}
  for i, name in ipairs(chosen) do
    running[i] = start_test(opts, name)
    local oldest = i - jobs + 1
    if oldest >= 1 then
      results[oldest] = finish_test(opts, chosen[oldest], running[oldest])
      running[oldest] = nil
      if opts.on_result then
        opts.on_result(results[oldest])
      end
    end
  end
  for i = math.max(1, #chosen - jobs + 1), #chosen do
    if running[i] then
      results[i] = finish_test(opts, chosen[i], running[i])
      if opts.on_result then
        opts.on_result(results[i])
      end
    end
  end
  return results
end

return M
