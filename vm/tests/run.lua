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

package.path = (arg and arg[0] and arg[0]:match("(.*/)") or "./") .. "?.lua;" .. package.path
local support = require("support")

local M = {}

-- Seconds one test may run (under valgrind too) before it counts as failed.
M.timeout = 120

local readFile, shellQuote = support.readFile, support.shellQuote

local function lines(text)
  local result = {}
  if text == nil or text == "" then return result end
  for line in (text:gsub("\r\n", "\n") .. (text:sub(-1) == "\n" and "" or "\n")):gmatch("(.-)\n") do
    result[#result + 1] = line
  end
  return result
end

local function squeeze(text)
  return (text:gsub("%s+", " "):gsub("^ ", ""):gsub(" $", ""))
end

-- Reads the expectations out of a test's comments.
function M.parseTest(source)
  local test = { stdout = {}, compileErrors = {}, stderr = {}, folded = nil,
                 args = "", runtimeError = nil, exit = nil }
  local lineNumber = 0
  for _, line in ipairs(lines(source)) do
    lineNumber = lineNumber + 1
    local text = line:match("// expect: ?(.*)$")
    if text then
      test.stdout[#test.stdout + 1] = text
    end
    text = line:match("// expect runtime error: (.*)$")
    if text then
      test.runtimeError = { message = text, line = lineNumber }
    end
    local n, message = line:match("// %[line (%d+)%] (Error.*)$")
    if n then
      test.compileErrors[#test.compileErrors + 1] = string.format("[line %s] %s", n, message)
    else
      message = line:match("// (Error.*)$")
      if message then
        test.compileErrors[#test.compileErrors + 1] =
          string.format("[line %d] %s", lineNumber, message)
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
    if text then test.stdoutFrom = text end
  end
  if test.exit == nil then
    if #test.compileErrors > 0 then
      test.exit = 65
    elseif test.runtimeError then
      test.exit = 70
    else
      test.exit = 0
    end
  end
  return test
end

-- Runs one test; returns a list of failure messages (empty when it passed).
function M.runTest(drip, path, wrap)
  local source = readFile(path)
  if not source then return { "cannot read the test file" } end
  local test = M.parseTest(source)
  local fixture
  if test.stdoutFrom then
    fixture = readFile((path:match("(.*/)") or "./") .. test.stdoutFrom)
    if not fixture then return { "cannot read the fixture " .. test.stdoutFrom } end
  end
  local outPath, errPath, foldedPath = os.tmpname(), os.tmpname(), os.tmpname()
  os.remove(foldedPath)
  local args = test.args:gsub("%$FOLDED", foldedPath)
  -- coreutils timeout: a test that hangs fails instead of stalling the suite.
  local command = string.format("timeout -k 5 %d %s%s %s %s </dev/null >%s 2>%s",
    M.timeout, wrap and (wrap .. " ") or "", drip, args, shellQuote(path),
    shellQuote(outPath), shellQuote(errPath))
  local _, _, status = os.execute(command)
  local stdoutText = readFile(outPath)
  local stdout, stderr = lines(stdoutText), lines(readFile(errPath))
  local folded = readFile(foldedPath)
  os.remove(outPath); os.remove(errPath); os.remove(foldedPath)

  local failures = {}
  local function fail(message) failures[#failures + 1] = message end
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

  if fixture and stdoutText ~= fixture then
    local want = lines(fixture)
    for i = 1, math.max(#stdout, #want) do
      if stdout[i] ~= want[i] then
        fail(string.format("stdout differs from %s at line %d: got %q, expected %q",
          test.stdoutFrom, i, stdout[i] or "<none>", want[i] or "<none>"))
        break
      end
    end
    if #failures == 0 then fail("stdout differs from " .. test.stdoutFrom .. " (line ends)") end
  end

  for i = 1, fixture and 0 or math.max(#stdout, #test.stdout) do
    if stdout[i] ~= test.stdout[i] then
      fail(string.format("stdout line %d: got %q, expected %q", i,
        stdout[i] or "<none>", test.stdout[i] or "<none>"))
      break
    end
  end

  if #test.compileErrors > 0 then
    local expected = {}
    for _, e in ipairs(test.compileErrors) do expected[e] = true end
    local seen = {}
    for _, line in ipairs(stderr) do
      if line ~= "" and not line:find("^==%d+==") then
        if expected[line] then seen[line] = true else fail("unexpected stderr: " .. line) end
      end
    end
    for _, e in ipairs(test.compileErrors) do
      if not seen[e] then fail("missing compile error: " .. e) end
    end
  end

  if test.runtimeError then
    if stderr[1] ~= test.runtimeError.message then
      fail(string.format("runtime error %q, expected %q", stderr[1] or "<none>",
        test.runtimeError.message))
    end
    local traceLine
    for i = 2, #stderr do
      traceLine = stderr[i]:match("^%[line (%d+)%]")
      if traceLine then break end
    end
    if tonumber(traceLine) ~= test.runtimeError.line then
      fail(string.format("stack trace names line %s, expected %d", tostring(traceLine),
        test.runtimeError.line))
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
    if folded == nil then
      fail("no folded file was written")
    else
      local got = lines(folded)
      for i = 1, math.max(#got, #test.folded) do
        if got[i] ~= test.folded[i] then
          fail(string.format("folded line %d: got %q, expected %q", i, got[i] or "<none>",
            test.folded[i] or "<none>"))
          break
        end
      end
    end
  end
  return failures
end

local function findTests(path, found)
  if path:match("%.drip$") then
    found[#found + 1] = path
    return
  end
  local listing = io.popen("find " .. shellQuote(path) .. " -name '*.drip' -type f | LC_ALL=C sort")
  for file in listing:lines() do found[#found + 1] = file end
  listing:close()
end

function M.main(argv)
  local label, wrap, resultPath = "drip", nil, nil
  local i = 1
  while argv[i] and argv[i]:match("^%-%-") do
    if argv[i] == "--label" then label = argv[i + 1]
    elseif argv[i] == "--wrap" then wrap = argv[i + 1]
    elseif argv[i] == "--result" then resultPath = argv[i + 1]
    else io.stderr:write("run.lua: unknown option " .. argv[i] .. "\n"); return 2 end
    i = i + 2
  end
  local drip = argv[i]
  if not drip or not argv[i + 1] then
    io.stderr:write("usage: run.lua [--label NAME] [--wrap CMD] [--result FILE] DRIP PATH...\n")
    return 2
  end
  local tests = {}
  for j = i + 1, #argv do findTests(argv[j], tests) end
  local passed, failed = 0, 0
  for _, path in ipairs(tests) do
    local failures = M.runTest(drip, path, wrap)
    if #failures == 0 then
      passed = passed + 1
    else
      failed = failed + 1
      print(string.format("FAIL [%s] %s", label, path))
      for _, message in ipairs(failures) do print("     " .. message) end
    end
  end
  if #tests == 0 then
    print(string.format("FAIL [%s] no tests found", label))
    failed = failed + 1
  end
  return support.finish(label, passed, failed, resultPath)
end

if arg and arg[0] and arg[0]:match("run%.lua$") then
  os.exit(M.main(arg))
end

return M
