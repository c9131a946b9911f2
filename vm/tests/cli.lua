-- vm/tests/cli.lua -- checks the drip command line itself: flags, exit
-- codes, messages for files that cannot be read or written, the REPL.
--
--   lua5.4 vm/tests/cli.lua [--result FILE] DRIP
--
-- Each case runs one shell command and checks its exit status, that
-- stdout/stderr contain given text, and optionally that stdout is empty
-- (quiet = true) or what a function says about the files it left (check).

package.path = (arg and arg[0] and arg[0]:match("(.*/)") or "./") .. "?.lua;" .. package.path
local support = require("support")

local M = {}

local shellQuote = support.shellQuote

local function readAll(path)
  return support.readFile(path) or ""
end

local function run(command)
  local out, err = os.tmpname(), os.tmpname()
  local _, _, status = os.execute(string.format("%s >%s 2>%s", command, out, err))
  local stdout, stderr = readAll(out), readAll(err)
  os.remove(out); os.remove(err)
  return status, stdout, stderr
end

local function cases(drip)
  local dir = os.tmpname()
  os.remove(dir)
  os.execute("mkdir -p " .. shellQuote(dir))
  local function write(name, text)
    local file = assert(io.open(dir .. "/" .. name, "wb"))
    file:write(text)
    file:close()
    return shellQuote(dir .. "/" .. name)
  end
  local hello = write("hello.drip", 'print "hello";\n')
  local fib = write("fib.drip", "fun fib(n) { if (n < 2) return n; return fib(n - 2) + fib(n - 1); }\nprint fib(10);\n")
  local empty = write("empty.drip", "")
  local binary = write("binary.drip", "print 1;\0\255\254 garbage")
  local failing = write("failing.drip", "print 1;\nprint nil + 1;\n")
  local overflow = write("overflow.drip", "fun down(n) { return down(n + 1); }\ndown(0);\n")
  local folded = dir .. "/overflow.folded"
  local d = shellQuote(drip)
  return dir, {
    { "--help exits 0 with usage", d .. " --help", 0, "Usage: drip", nil },
    { "--version", d .. " --version", 0, "drip ", nil },
    { "unknown flag is a usage error", d .. " --frobnicate " .. hello, 64, nil, "unknown option '--frobnicate'" },
    { "two files are a usage error", d .. " " .. hello .. " " .. hello, 64, nil, "Usage: drip" },
    { "missing file exits 74", d .. " " .. shellQuote(dir .. "/nope.drip"), 74, nil, "Could not open file" },
    { "directory exits 74", d .. " " .. shellQuote(dir), 74, nil, "Could not read file" },
    { "runs a file", d .. " " .. hello, 0, "hello\n", nil },
    { "empty file runs", d .. " " .. empty, 0, nil, nil },
    { "binary junk is a compile error", d .. " " .. binary, 65, nil, "Unexpected character." },
    { "REPL reads stdin", "printf 'var a = 20;\\nprint a + 22;\\n' | " .. d, 0, "42", nil },
    { "REPL survives errors", "printf 'print nope;\\nprint 1 +;\\nprint \"still here\";\\n' | " .. d, 0, "still here", "Undefined variable 'nope'." },
    { "--folded needs a path", d .. " --folded= " .. hello, 64, nil, "--folded" },
    { "--count needs a file", d .. " --count", 64, nil, "needs a FILE" },
    { "unwritable folded file exits 74 before running", d .. " --folded=" .. shellQuote(dir .. "/no/such/dir/out") .. " " .. hello, 74, nil, "could not write folded stacks", quiet = true },
    { "output to a full device exits 74", "(" .. d .. " " .. hello .. " >/dev/full)", 74, nil, "could not write the output (stdout): No space left on device" },
    { "disassembly to a full device exits 74", "(" .. d .. " --disassemble " .. fib .. " >/dev/full)", 74, nil, "could not write the output" },
    { "--count to a full stderr exits 74", "(" .. d .. " --count " .. fib .. " 2>/dev/full)", 74, "55\n", nil },
    { "--profile to a full stderr exits 74", "(" .. d .. " --profile " .. fib .. " 2>/dev/full)", 74, "55\n", nil },
    { "--folded of a stack overflow is cut at 256 frames", d .. " --folded=" .. shellQuote(folded) .. " " .. overflow, 70, nil,
      "call chains deeper than 256 frames were cut",
      check = function()
        local text = support.readFile(folded) or ""
        local lines, deepest, cut = 0, 0, 0
        for line in text:gmatch("[^\n]+") do
          lines = lines + 1
          local _, semicolons = line:gsub(";", "")
          deepest = math.max(deepest, semicolons + 1)
          if line:find(";(deeper frames cut) ", 1, true) then cut = cut + 1 end
        end
        if lines ~= 257 or deepest ~= 257 or cut ~= 1 or #text > 1000000 then
          return string.format("folded file: %d lines, %d frames deep, %d cut lines, %d bytes",
            lines, deepest, cut, #text)
        end
      end },
    { "--count reports after output", d .. " --count " .. fib, 0, "55\n", "total" },
    { "--profile names fib", d .. " --profile " .. fib, 0, "55\n", "2,119 ( 99.62%)            2,119" },
    { "--count still reports after a runtime error", d .. " --count --profile " .. failing, 70, "1\n", "total" },
    { "--disassemble shows bytecode", d .. " --disassemble " .. fib, 0, "GET_GLOBAL", nil },
    { "compile error exits 65", "printf 'print ;' > " .. shellQuote(dir .. "/bad.drip") .. " && " .. d .. " " .. shellQuote(dir .. "/bad.drip"), 65, nil, "[line 1] Error at ';': Expect expression." },
  }
end

function M.main(argv)
  local resultPath
  local i = 1
  if argv[i] == "--result" then resultPath = argv[i + 1]; i = i + 2 end
  local drip = argv[i]
  if not drip then
    io.stderr:write("usage: cli.lua [--result FILE] DRIP\n")
    return 2
  end
  local dir, list = cases(drip)
  local passed, failed = 0, 0
  for _, case in ipairs(list) do
    local name, command, wantStatus, wantOut, wantErr = table.unpack(case)
    local status, stdout, stderr = run(command)
    local problem
    if status ~= wantStatus then
      problem = string.format("exit %s, expected %d", tostring(status), wantStatus)
    elseif wantOut and not stdout:find(wantOut, 1, true) then
      problem = string.format("stdout lacks %q: %q", wantOut, stdout:sub(1, 200))
    elseif case.quiet and stdout ~= "" then
      problem = string.format("stdout should be empty: %q", stdout:sub(1, 200))
    elseif wantErr and not stderr:find(wantErr, 1, true) then
      problem = string.format("stderr lacks %q: %q", wantErr, stderr:sub(1, 200))
    elseif case.check then
      problem = case.check()
    end
    if problem then
      failed = failed + 1
      print(string.format("FAIL [cli] %s: %s", name, problem))
    else
      passed = passed + 1
    end
  end
  os.execute("rm -rf " .. shellQuote(dir))
  return support.finish("cli", passed, failed, resultPath)
end

os.exit(M.main(arg))
