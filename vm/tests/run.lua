-- vm/tests/run.lua -- runs Drip test programs and checks their expectations.
--
--   lua5.4 vm/tests/run.lua [--label NAME] [--wrap CMD] [--result FILE] DRIP PATH...
--
-- Each PATH is a .drip file or a folder searched recursively. A test is a Drip
-- program whose comments say what must happen (the conventions of the Lox
-- suite, plus a few of our own for the instrumentation flags):
--
--   // expect: TEXT                  the next line of stdout is TEXT
--   // expect runtime error: MSG     stderr starts with MSG, the stack trace
--                                    names this line, exit 70
--   // Error at 'x': MSG             compile error "[line <this line>] Error..."
--   // [line N] Error...             compile error on line N; exit 65
--   // args: --count --folded=$FOLDED  flags placed before the file;
--                                    $FOLDED is a fresh temporary file
--   // expect stderr: TEXT           some stderr line equals TEXT, whitespace
--                                    runs compared as one blank; these lines
--                                    must appear in this order
--   // expect folded: LINE           the $FOLDED file is exactly these lines
--   // expect stdout from: FILE      stdout is exactly the bytes of FILE (a
--                                    fixture beside the test), e.g. the
--                                    disassembly a test with
--                                    "// args: --disassemble" must print
--   // expect exit: N                the exit status (when none of the above
--                                    already implies one)
--
-- Each test gets M.timeout seconds. Under --wrap (valgrind, a sanitizer
-- environment) the command is prefixed;
-- exit status 99 or a sanitizer report on stderr is a failure of its own.
-- Prints one FAIL line (and details) per failing test, then a summary line;
-- --result FILE gets "PASSED FAILED".

local wb = require("vm.lib.workbook")

local M = {}

-- Seconds one test may run (under valgrind too) before it counts as failed.
M.timeout = 120


-- The lines of text (none for nil), CRLF or LF ended.
local function lines(text)
  return wb.split_lines(((text or ""):gsub("\r\n", "\n")))
end

-- A failure message (format gets the line number, what was got and what was
-- expected) for the first line at which got and want differ, or nil.
local function first_difference(format, got, want)
  for i = 1, math.max(#got, #want) do
    if got[i] ~= want[i] then
      return string.format(format, i, got[i] or "<none>", want[i] or "<none>")
    end
  end
end

local function squeeze(text)
  return (text:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
end

-- Reads the expectations out of a test's comments.
function M.parse_test(source)
  local test = { stdout = {}, compile_errors = {}, stderr = {}, folded = nil,
                 args = "", runtime_error = nil, exit = nil }
  for line_number, line in ipairs(lines(source)) do
    local text = line:match("// expect: ?(.*)$")
    if text then
      test.stdout[#test.stdout + 1] = text
    end
    text = line:match("// expect runtime error: (.*)$")
    if text then
      test.runtime_error = { message = text, line = line_number }
    end
    local n, message = line:match("// %[line (%d+)%] (Error.*)$")
    if n then
      test.compile_errors[#test.compile_errors + 1] = string.format("[line %s] %s", n, message)
    else
      message = line:match("// (Error.*)$")
      if message then
        test.compile_errors[#test.compile_errors + 1] =
          string.format("[line %d] %s", line_number, message)
      end
    end
    text = line:match("// args: (.*)$")
    if text then test.args = text end
    text = line:match("// expect stderr: (.*)$")
    if text then test.stderr[#test.stderr + 1] = squeeze(text) end
    text = line:match("// expect folded: (.*)$")
    if text then
      test.folded = test.folded or {}
      test.folded[#test.folded + 1] = text
    end
    text = line:match("// expect exit: (%d+)")
    if text then test.exit = tonumber(text) end
    text = line:match("// expect stdout from: (%S+)")
    if text then test.stdout_from = text end
  end
  -- Unless the test names it: 65 for a compile error, 70 for a runtime error, else 0.
  test.exit = test.exit or (#test.compile_errors > 0 and 65) or (test.runtime_error and 70) or 0
  return test
end

-- Runs one test; returns a list of failure messages (empty when it passed).
function M.run_test(drip, path, wrap)
  local source = wb.read_file(path)
  if not source then return { "cannot read the test file" } end
  local test = M.parse_test(source)
  local fixture
  if test.stdout_from then
    fixture = wb.read_file((path:match("(.*/)") or "./") .. test.stdout_from)
    if not fixture then return { "cannot read the fixture " .. test.stdout_from } end
  end
  local out_path, err_path, folded_path = os.tmpname(), os.tmpname(), os.tmpname()
  os.remove(folded_path)
  local args = test.args:gsub("%$FOLDED", folded_path)
  -- coreutils timeout: a test that hangs fails instead of stalling the suite.
  local command = string.format("timeout -k 5 %d %s%s %s %s </dev/null >%s 2>%s",
    M.timeout, wrap and (wrap .. " ") or "", drip, args, wb.quote(path),
    wb.quote(out_path), wb.quote(err_path))
  local _, _, status = os.execute(command)
  local stdout_text = wb.read_file(out_path)
  local stdout, stderr = lines(stdout_text), lines(wb.read_file(err_path))
  local folded = wb.read_file(folded_path)
  os.remove(out_path); os.remove(err_path); os.remove(folded_path)

  local failures = {}
  local function fail(message) failures[#failures + 1] = message end -- nil: no failure
  if status == 124 or status == 137 then
    return { string.format("timed out after %d s", M.timeout) }
  end

  if status == 99 then fail("the checker (" .. (wrap or "") .. ") reported errors") end
  for _, line in ipairs(stderr) do
    if line:find("Sanitizer") or line:find(": runtime error:") or line:find("^==%d+==") then
      fail("checker report: " .. line)
      break
    end
  end
  if status ~= test.exit and status ~= 99 then
    fail(string.format("exit status %s, expected %d", tostring(status), test.exit))
  end

  if fixture and stdout_text ~= fixture then
    fail(first_difference("stdout differs from " .. test.stdout_from:gsub("%%", "%%%%")
      .. " at line %d: got %q, expected %q", stdout, lines(fixture))
      or (#failures == 0 and "stdout differs from " .. test.stdout_from .. " (line ends)" or nil))
  elseif not fixture then
    fail(first_difference("stdout line %d: got %q, expected %q", stdout, test.stdout))
  end

  if #test.compile_errors > 0 then
    local expected = {}
    for _, e in ipairs(test.compile_errors) do expected[e] = true end
    local seen = {}
    for _, line in ipairs(stderr) do
      if line ~= "" and not line:find("^==%d+==") then
        if expected[line] then seen[line] = true else fail("unexpected stderr: " .. line) end
      end
    end
    for _, e in ipairs(test.compile_errors) do
      if not seen[e] then fail("missing compile error: " .. e) end
    end
  end

  if test.runtime_error then
    if stderr[1] ~= test.runtime_error.message then
      fail(string.format("runtime error %q, expected %q", stderr[1] or "<none>",
        test.runtime_error.message))
    end
    local trace_line
    for i = 2, #stderr do
      trace_line = stderr[i]:match("^%[line (%d+)%]")
      if trace_line then break end
    end
    if tonumber(trace_line) ~= test.runtime_error.line then
      fail(string.format("stack trace names line %s, expected %d", tostring(trace_line),
        test.runtime_error.line))
    end
  end

  local next = 1
  for _, line in ipairs(stderr) do
    if test.stderr[next] and squeeze(line) == test.stderr[next] then next = next + 1 end
  end
  if test.stderr[next] then
    fail("stderr lacks (in order): " .. test.stderr[next])
  end

  if test.folded then
    fail(folded == nil and "no folded file was written"
      or first_difference("folded line %d: got %q, expected %q", lines(folded), test.folded))
  end
  return failures
end

-- The .drip files at path (or those whose names match pattern): path itself, or every
-- one below the folder, sorted.
local function find_tests(path, found, pattern)
  pattern = pattern or "%.drip$"
  if path:match(pattern) then
    found[#found + 1] = path
    return
  end
  for _, name in ipairs(wb.list_dir(path) or {}) do
    local below = path .. "/" .. name
    if wb.is_dir(below) or name:match(pattern) then
      find_tests(below, found, pattern)
    end
  end
end

M.find_tests = find_tests

-- The command line this runner and differential.lua share: --label, --result, the VM
-- and the paths.
function M.parser(name, description, label)
  local parser = wb.parser(name, description)
  parser:option("--label", "the name of this run in its messages", label)
  parser:option("--result", "write \"PASSED FAILED\" here")
  parser:argument("drip", "the VM to run")
  parser:argument("paths", ".drip files or folders of them"):args("+")
  return parser
end

-- Checks every item (check returns its failure messages, none when it passed): prints
-- a FAIL line and the messages for each that fails (no items at all, `what` names
-- them, count as one failure), then the summary line; with a result path, writes
-- "PASSED FAILED" there (the format `make test` sums). Returns the exit status.
function M.report(label, items, check, result_path, what)
  local passed, failed = 0, 0
  for _, item in ipairs(items) do
    local failures = check(item)
    if #failures == 0 then
      passed = passed + 1
    else
      failed = failed + 1
      print(string.format("FAIL [%s] %s", label, item))
      for _, message in ipairs(failures) do print("     " .. message) end
    end
  end
  if #items == 0 then
    print(string.format("FAIL [%s] no %s found", label, what))
    failed = failed + 1
  end
  print(string.format("[%s] %d passed, %d failed", label, passed, failed))
  if result_path then
    wb.write_file(result_path, string.format("%d %d\n", passed, failed))
  end
  return failed == 0 and 0 or 1
end

function M.main(argv)
  local parser = M.parser("run.lua", "Runs Drip test programs and checks their expectations.", "drip")
  parser:option("--wrap", "a command to run each test under (valgrind, a sanitizer environment)")
  local opts = wb.parse(parser, argv)
  local tests = {}
  for _, path in ipairs(opts.paths) do find_tests(path, tests) end
  return M.report(opts.label, tests, function(path) return M.run_test(opts.drip, path, opts.wrap) end,
    opts.result, "tests")
end

if arg and arg[0] and arg[0]:match("run%.lua$") then
  os.exit(M.main(arg))
end

return M
