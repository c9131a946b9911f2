-- vm/tests/differential.lua -- the plain loop against the counting loop, program by program.
--
--   lua5.4 vm/tests/differential.lua [--label NAME] [--result FILE] [--scratch DIR] DRIP PATH...
--
-- DRIP runs a program in one of two copies of its bytecode loop (vm/src/run.h): the plain
-- one, over code into which a load-time pass has written superinstructions
-- (vm/src/fuse.h), and the counting one behind --count, over the compiler's code as it is.
-- The two must behave alike. For every .drip or .lox file at the PATHs (files, or folders
-- searched recursively) this runs `DRIP FILE` and `DRIP --count FILE` and requires the same stdout,
-- the same exit status, and the same stderr once the --count report is cut off (it starts
-- at its header line, after everything the program wrote). Any program will do, whatever its
-- expectations say: a test that expects an error must give the same error in both loops.
--
-- clock() would give other times in the two runs, so a program that names it runs with
-- clock defined as a Drip function that counts its calls (1, 2, 3, ...: a loop that runs
-- until some time has passed still ends), written at the start of its first line, so that
-- line numbers stay as they were.
--
-- Prints a FAIL line with the first difference for each program that differs, then
-- "[NAME] N passed, N failed"; --result FILE gets "PASSED FAILED".
local wb = require("vm.lib.workbook")
local runner = require("vm.tests.run")

local M = {}

M.timeout = 120
local REPORT_HEADER = "-- drip --count: bytecodes executed, by opcode --\n"
local CLOCK = "var __clock = 0; fun clock() { __clock = __clock + 1; return __clock; } "

-- stderr without the --count report.
local function without_report(stderr)
  local at = stderr:find(REPORT_HEADER, 1, true)
  return at and stderr:sub(1, at - 1) or stderr
end

local function run(drip, flags, program, scratch)
  local command = string.format("timeout -k 5 %d %s %s %s </dev/null", M.timeout, wb.quote(drip), flags,
    wb.quote(program))
  local status, stdout, stderr = wb.run_captured(command, scratch)
  return { status = status, stdout = stdout, stderr = stderr }
end

-- The first line at which a and b differ, as a message.
local function first_difference(what, a, b)
  local la, lb = wb.split_lines(a), wb.split_lines(b)
  for i = 1, math.max(#la, #lb) do
    if la[i] ~= lb[i] then
      return string.format("%s line %d: plain %q, counting %q", what, i, wb.shorten(la[i] or "<none>", 120),
        wb.shorten(lb[i] or "<none>", 120))
    end
  end
  return what .. " differs"
end

-- The differences between the two runs of program (an empty list when there are none).
function M.compare(drip, program, scratch)
  local source = wb.read_file(program)
  if source == nil then
    return { "cannot read " .. program }
  end
  local path = program
  if source:find("clock", 1, true) then
    path = scratch .. "/" .. wb.basename(program)
    wb.write_file(path, CLOCK .. source)
  end
  local plain = run(drip, "", path, scratch)
  local counting = run(drip, "--count", path, scratch)
  counting.stderr = without_report(counting.stderr)
  local problems = {}
  if plain.status == 124 or counting.status == 124 then
    problems[#problems + 1] = string.format("timed out after %d s", M.timeout)
  end
  if plain.status ~= counting.status then
    problems[#problems + 1] = string.format("exit status: plain %d, counting %d", plain.status, counting.status)
  end
  for _, stream in ipairs({ "stdout", "stderr" }) do
    if plain[stream] ~= counting[stream] then
      problems[#problems + 1] = first_difference(stream, plain[stream], counting[stream])
    end
  end
  return problems
end

function M.main(argv)
  local parser = runner.parser("differential.lua",
    "Runs Drip programs in the plain and the counting loop and compares.", "differential")
  parser:option("--scratch", "a folder for the runs' files", os.getenv("TMPDIR") or "/tmp")
  local opts = wb.parse(parser, argv)
  local programs = {}
  for _, path in ipairs(opts.paths) do
    runner.find_tests(path, programs, "%.drip$")
    runner.find_tests(path, programs, "%.lox$")
  end
  local scratch = wb.temp_dir(opts.scratch, "differential")
  local status = runner.report(opts.label, programs,
    function(program) return M.compare(opts.drip, program, scratch) end, opts.result, "programs")
  wb.rm_rf(scratch)
  return status
end

if arg and arg[0] and arg[0]:match("differential%.lua$") then
  os.exit(M.main(arg))
end

return M
