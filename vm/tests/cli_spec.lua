-- vm/tests/cli_spec.lua -- the drip command line itself: flags, exit codes, messages for
-- files that cannot be read or written, the REPL. A busted spec (test-vm runs it):
--
--   DRIP=build/drip busted vm/tests/cli_spec.lua
--
-- Each case runs one shell command and checks its exit status, that stdout/stderr contain
-- given text, and optionally that stdout is empty (quiet = true) or what a function says
-- about the files it left (check).

local wb = require("vm.lib.workbook")

local quote = wb.quote

local function cases(drip)
  local dir = wb.temp_dir(os.getenv("TMPDIR") or "/tmp", "drip-cli")
  local function write(name, text)
    wb.write_file(dir .. "/" .. name, text)
    return quote(dir .. "/" .. name)
  end
  local hello = write("hello.drip", 'print "hello";\n')
  local fib = write("fib.drip", "fun fib(n) { if (n < 2) return n; return fib(n - 2) + fib(n - 1); }\nprint fib(10);\n")
  local empty = write("empty.drip", "")
  local binary = write("binary.drip", "print 1;\0\255\254 garbage")
  local failing = write("failing.drip", "print 1;\nprint nil + 1;\n")
  local overflow = write("overflow.drip", "fun down(n) { return down(n + 1); }\ndown(0);\n")
  local folded = dir .. "/overflow.folded"
  -- A class whose first instance numbers 1,000 field names (five functions of 200: a
  -- chunk holds 256 constants), then 100,000 instances that each set two of them. Each
  -- instance must cost what its own fields need: numbered slots for every name made
  -- them 8 KB each (788 MB in all), which the address-space limit below refuses.
  local wide = { "class C {}", "var first = C();" }
  for from = 0, 800, 200 do
    wide[#wide + 1] = "fun set" .. from .. "(o) {"
    for i = from, from + 199 do
      wide[#wide + 1] = "  o.f" .. i .. " = true;"
    end
    wide[#wide + 1] = "}\nset" .. from .. "(first);"
  end
  wide[#wide + 1] = "var head = nil;\nfor (var i = 0; i < 100000; i = i + 1) {\n"
    .. "  var c = C(); c.next = head; c.f999 = i; c.f70 = 1; head = c;\n}\n"
    .. "var sum = 0;\nfor (var p = head; p != nil; p = p.next) sum = sum + p.f999 + p.f70;\nprint sum;"
  local many_names = write("many_names.drip", table.concat(wide, "\n") .. "\n")
  local d = quote(drip)
  return dir, {
    { "--help exits 0 with usage", d .. " --help", 0, "Usage: drip", nil },
    { "--version", d .. " --version", 0, "drip ", nil },
    { "unknown flag is a usage error", d .. " --frobnicate " .. hello, 64, nil, "unknown option '--frobnicate'" },
    { "two files are a usage error", d .. " " .. hello .. " " .. hello, 64, nil, "Usage: drip" },
    { "missing file exits 74", d .. " " .. quote(dir .. "/nope.drip"), 74, nil, "Could not open file" },
    { "directory exits 74", d .. " " .. quote(dir), 74, nil, "Could not read file" },
    { "runs a file", d .. " " .. hello, 0, "hello\n", nil },
    { "empty file runs", d .. " " .. empty, 0, nil, nil },
    { "binary junk is a compile error", d .. " " .. binary, 65, nil, "Unexpected character." },
    { "REPL reads stdin", "printf 'var a = 20;\\nprint a + 22;\\n' | " .. d, 0, "42", nil },
    { "REPL survives errors", "printf 'print nope;\\nprint 1 +;\\nprint \"still here\";\\n' | " .. d, 0, "still here", "Undefined variable 'nope'." },
    { "--folded needs a path", d .. " --folded= " .. hello, 64, nil, "--folded" },
    { "--count needs a file", d .. " --count", 64, nil, "needs a FILE" },
    { "a folded file on a full disk says why", d .. " --folded=/dev/full " .. hello, 74, "hello\n",
      'could not write folded stacks to "/dev/full": No space left on device.' },
    { "unwritable folded file exits 74 before running", d .. " --folded=" .. quote(dir .. "/no/such/dir/out") .. " " .. hello, 74, nil, "could not write folded stacks", quiet = true },
    { "output to a full device exits 74", "(" .. d .. " " .. hello .. " >/dev/full)", 74, nil, "could not write the output (stdout): No space left on device" },
    { "disassembly to a full device exits 74", "(" .. d .. " --disassemble " .. fib .. " >/dev/full)", 74, nil, "could not write the output" },
    { "--count to a full stderr exits 74", "(" .. d .. " --count " .. fib .. " 2>/dev/full)", 74, "55\n", nil },
    { "--profile to a full stderr exits 74", "(" .. d .. " --profile " .. fib .. " 2>/dev/full)", 74, "55\n", nil },
    { "--folded of a stack overflow is cut at 256 frames", d .. " --folded=" .. quote(folded) .. " " .. overflow, 70, nil,
      "call chains deeper than 256 frames were cut",
      check = function()
        local text = wb.read_file(folded) or ""
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
    { "instances of a class with 1,000 field names stay small (256 MB of address space)",
      "ulimit -v 262144 && " .. d .. " " .. many_names, 0, "5.00005e+09\n", nil },
    { "compile error exits 65", "printf 'print ;' > " .. quote(dir .. "/bad.drip") .. " && " .. d .. " " .. quote(dir .. "/bad.drip"), 65, nil, "[line 1] Error at ';': Expect expression." },
  }
end

describe("drip's command line", function()
  local drip = os.getenv("DRIP") or "build/drip"
  local dir, list = cases(drip)
  lazy_teardown(function()
    wb.rm_rf(dir)
  end)
  for _, case in ipairs(list) do
    local name, command, want_status, want_out, want_err = table.unpack(case)
    it(name, function()
      local status, stdout, stderr = wb.run_captured(command, dir)
      assert.are.equal(want_status, status, "exit status; stderr: " .. stderr:sub(1, 200))
      if want_out then
        assert.is_truthy(stdout:find(want_out, 1, true), string.format("stdout lacks %q: %q", want_out,
          stdout:sub(1, 200)))
      end
      if case.quiet then
        assert.are.equal("", stdout, "stdout should be empty")
      end
      if want_err then
        assert.is_truthy(stderr:find(want_err, 1, true), string.format("stderr lacks %q: %q", want_err,
          stderr:sub(1, 200)))
      end
      if case.check then
        assert.is_nil(case.check())
      end
    end)
  end
end)
