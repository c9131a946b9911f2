-- run_cases.lua: runs dripprof as its users do, case by case, from data files.
--
--   lua5.4 vm/prof/tests/run_cases.lua DRIPPROF RESULT FILE...
--
-- Run from the workbook's root. Each FILE (vm/prof/tests/cases/*.txt) holds cases: blocks
-- that start with "case: NAME", then "key: value" lines; "#" lines and blank lines are
-- skipped. TEXT values are unescaped as the workbook escapes (vm/lib/workbook.lua: \\ \t \n \r
-- \xHH), so a line end is \n and a trailing blank \x20; shell commands are taken as written.
-- In every value $S (the case's own scratch folder, made empty), $DATA (vm/prof/tests/data),
-- $FAKE (the fake checker) and $ROOT (the workbook's root, absolute) stand for themselves.
-- Commands run through sh with `dripprof` on the PATH: DRIPPROF, the binary under test.
--
--   file: NAME TEXT      writes $S/NAME (TEXT may be empty)
--   env: VAR=VALUE       in dripprof's environment
--   answers: PATH        what the fake checker answers (FAKE_ANSWERS, made absolute: the
--                        checker runs in a folder of its own)
--   run: COMMAND         the shell command to run (`dripprof fold $DATA/fib.callgrind.out`)
--   status: N            its exit status (0 when not given)
--   stdout: TEXT         stdout contains TEXT; stdout-lacks: TEXT, it does not
--   stdout-count: N TEXT TEXT occurs N times
--   stdout-is: TEXT      stdout is exactly TEXT; stdout-file: PATH, the bytes of PATH;
--                        stdout-as: COMMAND, what the shell command COMMAND prints
--   xml: well-formed     stdout is well-formed XML to xmllint (or: broken, it is not)
--   stderr...            the same checks of stderr
--
-- A case passes when every check holds. Prints a FAIL block per failing case and a summary
-- line, and writes "PASSED FAILED" to RESULT. A line that is not one of the above stops the
-- run (no RESULT: test_prof.sh counts that as a failure).

local wb = require("vm.lib.workbook")

local dripprof, result_path = arg[1], arg[2]
local ROOT = wb.realpath(".")
local SCRATCH = "build/prof-tests/cases"
-- The folder that puts DRIPPROF on the PATH as `dripprof` (a link: the sandbox is found
-- beside the binary it points to).
local BIN = ROOT .. "/build/prof-tests/bin"

local function expand(text, case)
  local vars = { S = case.dir, DATA = "vm/prof/tests/data", FAKE = "vm/prof/tests/fake_checker.sh", ROOT = ROOT }
  return (text:gsub("%$(%u+)", function(name) return vars[name] end))
end

-- The keys a case may have, and whether their value is TEXT (unescaped).
local KEYS = { file = true, env = false, answers = false, run = false, status = false, xml = false }
for _, stream in ipairs({ "stdout", "stderr" }) do
  for check, text in pairs({ [""] = true, ["-lacks"] = true, ["-count"] = true, ["-is"] = true,
    ["-file"] = false, ["-as"] = false }) do
    KEYS[stream .. check] = text
  end
end

-- What the values of some keys must look like (a mistake in a file stops the run).
local SHAPES = { case = "^[%w_.-]+$", file = "^%S", env = "^%u[%w_]*=", status = "^%d+$",
  xml = "^well%-formed$", ["stdout-count"] = "^%d+ .", ["stderr-count"] = "^%d+ ." }

local names = {}

local function read_cases(path)
  local cases, case = {}, nil
  for number, line in ipairs(wb.split_lines(assert(wb.read_file(path)))) do
    local where = path .. ":" .. number
    local key, value = line:match("^([%w-]+): ?(.*)$")
    local shape = SHAPES[key] and not (key == "xml" and value == "broken")
    if line:match("^#") or line:match("^%s*$") then
      -- a comment or a blank line
    elseif not (key == "case" or case and KEYS[key] ~= nil) or shape and not value:match(SHAPES[key]) then
      error(where .. ": not a line of a case: " .. line, 0)
    elseif key == "case" then
      assert(not names[value], where .. ": a second case " .. value)
      names[value] = true
      case = { name = value, where = where, dir = SCRATCH .. "/" .. value, checks = {} }
      cases[#cases + 1] = case
    else
      case.runs = (case.runs or 0) + (key == "run" and 1 or 0)
      case.checks[#case.checks + 1] = { key = key, value = value, where = where }
    end
  end
  for _, c in ipairs(cases) do
    assert(c.runs == 1, c.where .. ": a case has one run: line")
  end
  return cases
end

local function count(text, part)
  local n, at = 0, 1
  while true do
    local found = text:find(part, at, true)
    if not found then return n end
    n, at = n + 1, found + 1
  end
end

-- The failures of one case, as a list of messages.
local function run_case(case)
  wb.rm_rf(case.dir)
  wb.mkdir_p(case.dir)
  local env, run, status = {}, nil, 0
  local failures = {}
  for _, c in ipairs(case.checks) do
    local value = expand(c.value, case)
    if c.key == "file" then
      local name, text = value:match("^(%S+) ?(.*)$")
      wb.write_file(case.dir .. "/" .. name, wb.unescape(text))
    elseif c.key == "env" or c.key == "answers" then
      local var, v = value:match("^(%u[%w_]*)=(.*)$")
      if c.key == "answers" then
        var, v = "FAKE_ANSWERS", wb.realpath(value) or error(c.where .. ": no file " .. value, 0)
      end
      env[#env + 1] = "export " .. var .. "=" .. wb.quote(v) .. "; "
    elseif c.key == "run" then
      run = value
    elseif c.key == "status" then
      status = tonumber(value)
    end
  end
  local prefix = "export PATH=" .. wb.quote(BIN) .. ":\"$PATH\"; " .. table.concat(env)
  local code, out, err = wb.run_captured("(" .. prefix .. run .. "\n)", case.dir)
  local streams = { stdout = out, stderr = err }
  local function fail(c, why)
    failures[#failures + 1] = c.where .. ": " .. why
  end
  if code ~= status then
    failures[#failures + 1] = string.format("%s: exit %s, not %d; stderr: %s", case.where, code, status,
      wb.shorten(wb.escape(streams.stderr), 600))
  end
  for _, c in ipairs(case.checks) do
    local stream, check = c.key:match("^(std%a+)(.*)$")
    local value = expand(c.value, case)
    local text = KEYS[c.key] and wb.unescape(value) or value
    local got = streams[stream]
    local shown = stream and wb.shorten(wb.escape(got or ""), 600)
    if check == "" and not got:find(text, 1, true) then
      fail(c, stream .. " lacks \"" .. wb.escape(text) .. "\": " .. shown)
    elseif check == "-lacks" and got:find(text, 1, true) then
      fail(c, stream .. " holds \"" .. wb.escape(text) .. "\": " .. shown)
    elseif check == "-count" then
      local n, part = text:match("^(%d+) (.*)$")
      if count(got, part) ~= tonumber(n) then
        fail(c, string.format("%s holds \"%s\" %d times, not %s", stream, wb.escape(part), count(got, part), n))
      end
    elseif check == "-is" or check == "-file" or check == "-as" then
      local want = check == "-is" and text or check == "-file" and wb.read_file(text)
        or wb.capture("(" .. prefix .. text .. "\n)")
      if got ~= want then
        fail(c, stream .. " is " .. shown .. "\n  not " .. wb.shorten(wb.escape(want or "(no file)"), 600))
      end
    elseif c.key == "xml" then
      local ok = wb.run("xmllint --huge --noout " .. wb.quote(case.dir .. "/cmd.stdout") .. " 2>/dev/null")
      if ok ~= (value == "well-formed") then
        fail(c, "stdout is " .. (ok and "well-formed" or "not well-formed") .. " XML (xmllint --huge)")
      end
    end
  end
  return failures
end

wb.rm_rf(BIN)
wb.mkdir_p(BIN)
assert(wb.run("ln -s " .. wb.quote(wb.realpath(dripprof)) .. " " .. wb.quote(BIN .. "/dripprof")))
local passed, failed = 0, 0
for i = 3, #arg do
  for _, case in ipairs(read_cases(arg[i])) do
    local failures = run_case(case)
    if #failures == 0 then
      passed = passed + 1
    else
      failed = failed + 1
      print("FAIL [prof cases] " .. case.name)
      for _, message in ipairs(failures) do print("     " .. message) end
    end
  end
end
print(string.format("[prof cases] %d passed, %d failed", passed, failed))
wb.write_file(result_path, string.format("%d %d\n", passed, failed))
os.exit(failed == 0 and 0 or 1)
