-- capture.lua: chapter 165's measurements of our VM, and the data the chapter quotes.
--
--   lua5.4 chapters/165/capture.lua profile DRIP DRIPPROF OUT CHECKER   (make profile-165)
--   lua5.4 chapters/165/capture.lua data DRIP DRIPPROF OUT CHECKER      (make chapter-data-165)
--
-- CHECKER is chapter 165's checker, built with the exercise's functions (the reference's in
-- the instructor's workbook, the student's in the student edition), which `dripprof top`,
-- `files` and `rows` ask for them (--with).
--
-- profile redoes the chapter's profile in OUT (build/profile/). make passes FIB_N (default
-- 35), CC, VM_SOURCES, VM_CFLAGS_NODEBUG (the VM's flags without -g) and DRIP_OUTLINE (the
-- build that sends every CALL through callValue) in the environment.
--   1. fib.drip with fib(FIB_N) and zoo.drip (its loop scaled as fib's calls) under
--      callgrind with DRIP (-O2 -g);
--   2. callgrind_annotate tables: self, --inclusive=yes, --tree=calling;
--   3. the line-table experiment: the VM built twice more from one snapshot of its
--      sources, -O2 without debug information and -O2 -g1 (line tables only), both run on
--      fib; the -g1 profile annotated per source line and split by file;
--   4. folded stacks and flame graphs of C functions (dripprof fold, flame) and of Drip
--      functions (drip --folded=PATH);
--   5. the chapter's checks, into OUT/summary-165.txt (`key = value` lines), printed at
--      the end; the run fails when one fails.
-- The book's VM had a call routine whose calls could be checked against fib's calls + 2
-- (the two clock() calls). Ours makes a closure call inside its CALL opcode, so the VM's
-- counters make that check (CALL opcodes = fib's calls + clock's), callgrind confirms the
-- two calls of clockNative, and the DRIP_OUTLINE build makes the book's own check.
--
-- data copies what the chapter quotes from a FIB_N=35 profile in OUT into data/ beside
-- this script, and measures what a profile does not record: normal-run times, a second
-- profile of zoo (the count is steady), the real names behind callgrind's "(below main)",
-- the machine. Tables are trimmed to their top rows, paths made relative to the repository.
--
-- Folded stacks and callgrind_annotate rows are read by dripprof, the workbook's one reader
-- of each (`dripprof stacks`, `dripprof rows`: tab-separated records, so a frame or label
-- with blanks, such as "(below main)", stays one field); this script only picks records.
local wb = require("vm.lib.workbook")
local dripprof = require("vm.lib.dripprof")

local step, DRIP, DRIPPROF, OUT, CHECKER = ...
if not (step == "profile" or step == "data") or not CHECKER then
  io.stderr:write("usage: lua5.4 chapters/165/capture.lua profile|data DRIP DRIPPROF OUT CHECKER\n")
  os.exit(2)
end
local q, DATA, SUMMARY = wb.quote, wb.dirname(arg[0]) .. "/data", OUT .. "/summary-165.txt"
dripprof.program = function() return DRIPPROF end
io.stdout:setvbuf("line") -- our lines between those of the tools we run

-- Every command line runs under bash, as the programs measured for the committed data
-- were: bash adds `_` to a program's environment and raises SHLVL, and the loader's and
-- the C library's start-up run more instructions for a larger environment.
local function bash(line)
  return wb.run("bash -c " .. q(line))
end

local function must(line, why)
  return bash(line) or wb.fail(why)
end

-- The stdout of a command line (its stderr passes through).
local function output(line)
  local text, ok = wb.capture("bash -c " .. q(line))
  return ok and text or wb.fail("failed: " .. line)
end

local function cmd(...)
  return wb.command({ ... })
end

local function read(path)
  return wb.read_file(path) or wb.fail("cannot read " .. path)
end

local function lines(path)
  return wb.split_lines(read(path))
end

local function write(path, list)
  wb.write_file(path, #list > 0 and table.concat(list, "\n") .. "\n" or "")
end

-- Every run of `dripprof top`, `dripprof files` and `dripprof rows` asks the checker for
-- the exercise's functions. A checker that did not build (the student's code does not
-- compile) is dripprof's "not ready", exit 3, with this message.
local function no_checker(command)
  return "dripprof " .. command .. ": there is no checker " .. CHECKER
    .. " (the exercise's code does not build: make exercise-165 says why)"
end

-- `dripprof top` or `files` (args) with the checker into path. Exit 3 (an exercise
-- function is not written yet, or there is no checker) leaves the table out, with
-- dripprof's message shown once a command, and names it in missing; any other failure
-- stops.
local scratch, told, missing = nil, {}, {}
local function table_into(path, args)
  local status, text, err = 3, "", no_checker(args[1]) .. "\n"
  if wb.exists(CHECKER) then
    scratch = scratch or wb.temp_dir(OUT, "capture")
    local words = { DRIPPROF, args[1], "--with", CHECKER, table.unpack(args, 2) }
    status, text, err = wb.run_captured("bash -c " .. q(cmd(table.unpack(words))), scratch)
  end
  io.stderr:write(status == 3 and told[args[1]] and "" or err)
  if status == 3 then
    told[args[1]], missing[#missing + 1] = true, wb.basename(path)
    return os.remove(path)
  end
  wb.write_file(path, text)
  return status == 0 or wb.fail("dripprof " .. table.concat(args, " ") .. " failed")
end

-- The rows of a callgrind_annotate table (dripprof.rows: { line, count, pct, label, file,
-- func, object }). Every table read here is made with --auto=no, so its rows are the
-- PROGRAM TOTALS row and the function table's, in that order.
local function table_rows(path)
  return wb.exists(CHECKER) and dripprof.rows(path, CHECKER) or wb.fail(no_checker("rows"))
end

-- The sum of the counts of folded stacks, or of a callgrind.out's stacks.
local function stacks_sum(path)
  local sum = 0
  for _, s in ipairs(dripprof.stacks(path)) do
    sum = sum + s.count
  end
  return sum
end

local function totals_of(callgrind_out)
  return tonumber(("\n" .. read(callgrind_out)):match("\ntotals: *(%d+)") or wb.fail("no totals: in " .. callgrind_out))
end

local function calls_of(callgrind_out, fn)
  return tonumber(output(cmd(DRIPPROF, "calls", callgrind_out, fn)):match("^%s*(%d+)"))
end

local function annotate(options, callgrind_out, path)
  must("callgrind_annotate " .. options .. " " .. q(callgrind_out) .. " > " .. q(path),
    "callgrind_annotate failed on " .. callgrind_out)
end

-- runPlain's instructions in a profile: all its rows of the function table (one per source
-- file once there are line tables), added up.
local function runplain_rows(callgrind_out)
  scratch = scratch or wb.temp_dir(OUT, "capture")
  local table_path, sum = scratch .. "/annotate.txt", 0
  annotate("--auto=no --threshold=100", callgrind_out, table_path)
  for i, r in ipairs(table_rows(table_path)) do
    sum = sum + (i > 1 and r.func == "runPlain" and tonumber(r.count) or 0)
  end
  return sum
end

local function ratio(a, b)
  return b == 0 and "n/a" or string.format("%.2f", a / b)
end

-- The (n + 1)-th Fibonacci number: the number of leaves of fib(n)'s call tree.
local function fib_leaves(n)
  local a, b = 0, 1
  for _ = 0, n do
    a, b = b, a + b
  end
  return a
end

local function env(name, default)
  local value = os.getenv(name) or ""
  return value ~= "" and value or default
end

-- ---- make profile-165 ----------------------------------------------------------------

local function profile()
  local fib_n, cc = env("FIB_N", "35"), env("CC", "cc")
  wb.mkdir_p(OUT)
  for _, tool in ipairs({ "valgrind", "callgrind_annotate" }) do
    must("command -v " .. tool .. " >/dev/null", tool .. " is not installed (make setup installs valgrind)")
  end
  must("test -x " .. q(DRIP), "no VM at " .. DRIP)
  must("test -x " .. q(DRIPPROF), "no profiler at " .. DRIPPROF)
  local n = fib_n:match("^%d+$") and tonumber(fib_n) or wb.fail("FIB_N must be a number, not '" .. fib_n .. "'")
  if n > 40 then
    wb.fail("FIB_N=" .. fib_n .. " would take hours under callgrind; use 40 or less")
  end
  local summary, failed = {}, 0
  wb.write_file(SUMMARY, "")
  local function put(key, value)
    summary[#summary + 1] = key .. " = " .. tostring(value)
  end
  local function check(key, actual, expected)
    actual, expected = tostring(actual), tostring(expected)
    put("check_" .. key, actual == expected and "ok (" .. actual .. ")" or "FAILED (got " .. actual .. ", expected " ..
      expected .. ")")
    failed = failed + (actual == expected and 0 or 1)
  end
  local function callgrind(name, ...)
    local words = table.concat({ ... }, " ")
    print("profile-165: valgrind --tool=callgrind " .. words .. " (this is the slow part)")
    must(cmd("valgrind", "--tool=callgrind", "--callgrind-out-file=" .. OUT .. "/callgrind.out." .. name, ...) ..
      " > " .. q(OUT .. "/" .. name .. ".stdout") .. " 2> " .. q(OUT .. "/" .. name .. ".valgrind.log"),
      "callgrind failed on " .. words .. ": see " .. OUT .. "/" .. name .. ".valgrind.log")
  end

  -- 1. the programs under callgrind; fib(n) for another n changes with its self-check
  local fib, source, found = OUT .. "/fib.drip", read("vm/bench/fib.drip"), 1
  if n ~= 35 then
    source, found = source:gsub("fib%(35%) == 9227465", "fib(" .. n .. ") == " .. fib_leaves(n - 1))
  end
  wb.write_file(fib, found > 0 and source or wb.fail("could not make fib(" .. n .. ") from vm/bench/fib.drip"))
  -- zoo.drip's loop runs until its sum reaches a goal: scaled as fib(n)'s calls, so a quick
  -- profile is quick in both programs (and FIB_N=35 profiles zoo.drip as it is)
  local zoo, loops = read("vm/bench/zoo.drip"):gsub("while %(sum < (%d+)%)", function(goal)
    return "while (sum < " .. tonumber(goal) * fib_leaves(n) // fib_leaves(35) .. ")"
  end)
  wb.write_file(OUT .. "/zoo.drip", loops == 1 and zoo
    or wb.fail("could not scale the loop of vm/bench/zoo.drip (one 'while (sum < N)')"))
  put("fib_n", fib_n)
  callgrind("fib", DRIP, fib)
  callgrind("zoo", DRIP, OUT .. "/zoo.drip")
  must(cmd("grep", "-qx", "true", OUT .. "/fib.stdout"), "fib.drip did not print true under callgrind")

  -- 2. callgrind_annotate tables (--threshold=100: every function, clockNative too)
  for _, name in ipairs({ "fib", "zoo" }) do
    local cg, base = OUT .. "/callgrind.out." .. name, OUT .. "/annotate-" .. name
    annotate("--auto=no --threshold=100", cg, base .. "-self.txt")
    annotate("--auto=no --inclusive=yes", cg, base .. "-inclusive.txt")
    annotate("--auto=no --tree=calling --threshold=100", cg, base .. "-tree.txt")
    table_into(OUT .. "/top-" .. name .. ".txt", { "top", cg })
  end

  -- 3. the line-table experiment: both builds compile one snapshot of the sources, so an
  -- edit made while this runs cannot make them differ in anything but debug information
  local sources, src, headers, seen = env("VM_SOURCES", ""), OUT .. "/src", {}, {}
  if sources ~= "" then
    for file in sources:gmatch("%S+") do
      local h = wb.dirname(file) .. "/*.h"
      headers[#headers + 1] = not seen[h] and h or nil
      seen[h] = true
    end
    table.sort(headers)
    wb.rm_rf(src)
    wb.mkdir_p(src)
    must("cp " .. sources .. " " .. table.concat(headers, " ") .. " " .. q(src) .. "/", "could not copy the VM sources")
    for _, build in ipairs({ { "nodebug", "" }, { "g1", " -g1" } }) do
      local exe = OUT .. "/drip-" .. build[1]
      must(cc .. " " .. env("VM_CFLAGS_NODEBUG", "-O2") .. build[2] .. " -o " .. q(exe) .. " " .. q(src) .. "/*.c",
        "could not build " .. exe)
      callgrind("fib-" .. build[1], exe, fib)
    end
    local ir_nodebug, ir_g1 = totals_of(OUT .. "/callgrind.out.fib-nodebug"), totals_of(OUT .. "/callgrind.out.fib-g1")
    put("ir_fib_nodebug", ir_nodebug)
    put("ir_fib_line_tables", ir_g1)
    put("line_tables_difference", ir_g1 - ir_nodebug)
    put("line_tables_difference_percent", string.format("%.6f", 100 * (ir_g1 - ir_nodebug) / ir_nodebug))
    local cg, base = OUT .. "/callgrind.out.fib-g1", OUT .. "/annotate-fib-g1"
    annotate("--auto=no --threshold=100", cg, base .. "-functions.txt")
    annotate("--auto=yes --threshold=100 2>/dev/null", cg, base .. "-lines.txt")
    -- split by file: code inlined from a header is charged to the header
    table_into(base .. "-files.txt", { "files", base .. "-functions.txt" })
  else
    print("profile-165: VM_SOURCES not given: the line-table experiment is skipped")
  end

  -- 4. folded stacks and flame graphs
  for _, name in ipairs({ "fib", "zoo" }) do
    local cg, base = OUT .. "/callgrind.out." .. name, OUT .. "/" .. name .. "-c"
    if not bash(cmd(DRIPPROF, "fold", "--stats", cg) .. " > " .. q(base .. ".folded") .. " 2> " ..
        q(base .. ".fold-stats.txt")) then
      wb.fail("dripprof fold failed on " .. cg .. ": " .. table.concat(lines(base .. ".fold-stats.txt"), "\n"))
    end
    must(cmd(DRIPPROF, "flame", "--title", name .. ".drip, C functions of the VM (callgrind)", "--countname", "Ir",
      base .. ".folded") .. " > " .. q(base .. ".svg"), "dripprof flame failed")
    local stats = table.concat(lines(base .. ".fold-stats.txt"), "\n")
    put("ir_" .. name .. "_total", totals_of(cg))
    put("ir_" .. name .. "_folded_sum", stacks_sum(base .. ".folded"))
    put("ir_" .. name .. "_fold", stats:match("; (approximate stacks)") or stats:match("; (exact stacks)") or "")
  end
  local instrumented = wb.capture("bash -c " .. q(q(DRIP) .. " --help 2>&1")):find("--count", 1, true) ~= nil
  for _, name in ipairs(instrumented and { "fib", "zoo" } or {}) do
    local program, base = OUT .. "/" .. name .. ".drip", OUT .. "/" .. name
    must(cmd(DRIP, "--count", "--profile", "--folded=" .. base .. "-drip.folded", program) .. " > " ..
      q(base .. "-instrumented.stdout") .. " 2> " .. q(base .. "-counts.txt"),
      "drip --count --profile failed on " .. program .. ": see " .. base .. "-counts.txt")
    must(cmd(DRIPPROF, "flame", "--title", name .. ".drip, Drip functions (drip --folded)", "--countname",
      "bytecodes", base .. "-drip.folded") .. " > " .. q(base .. "-drip.svg"),
      "dripprof flame failed on " .. base .. "-drip.folded")
    table_into(OUT .. "/top-" .. name .. "-drip.txt", { "top", "--countname", "bytecodes", base .. "-drip.folded" })
  end
  if not instrumented then
    print("profile-165: " .. DRIP .. " has no --count/--profile/--folded yet: the VM's own counts are skipped")
  end

  -- 5. the chapter's checks. A number out of drip's reports in path: an opcode's count, in
  -- column 2 of the first row that is name and a count (--count); or, given after = PROFILE,
  -- a column of a row after the --profile header that ends in name (1 calls, 2 self).
  local PROFILE = "-- drip --profile"
  local function report_number(path, name, column, after)
    local on = not after
    for _, line in ipairs(lines(path)) do
      local f = {}
      for field in line:gmatch("%S+") do
        f[#f + 1] = field
      end
      if on and f[after and #f or 1] == name and (f[after and 1 or 2] or ""):match("^[%d,]+$") then
        return tonumber((f[column]:gsub(",", "")))
      end
      on = on or line:find(after, 1, true) ~= nil
    end
    wb.fail("no row for " .. name .. " in " .. path)
  end
  -- fib(n): F(n+1) calls with n < 2 (leaves, 7 bytecodes), F(n+1) - 1 others (17)
  local leaves = fib_leaves(n)
  local ir_fib, ir_zoo = totals_of(OUT .. "/callgrind.out.fib"), totals_of(OUT .. "/callgrind.out.zoo")
  put("fib_calls_expected", 2 * leaves - 1)
  put("fib_bytecodes_expected", 7 * leaves + 17 * (leaves - 1))
  check("fib_folded_sum_equals_totals", stacks_sum(OUT .. "/fib-c.folded"), ir_fib)
  local clock_calls_cg = calls_of(OUT .. "/callgrind.out.fib", "clockNative")
  put("callgrind_clockNative_calls", clock_calls_cg)
  local counts, fib_calls, clock_calls = OUT .. "/fib-counts.txt", nil, nil
  if instrumented then
    local fib_self, call_ops, total_ops = report_number(counts, "fib", 2, PROFILE), report_number(counts, "CALL", 2),
        report_number(counts, "total", 2)
    fib_calls, clock_calls = report_number(counts, "fib", 1, PROFILE), report_number(counts, "clock", 1, PROFILE)
    put("fib_calls", fib_calls)
    put("fib_bytecodes", fib_self)
    put("clock_calls", clock_calls)
    put("call_opcodes", call_ops)
    put("bytecodes_total", total_ops)
    put("get_global_opcodes", report_number(counts, "GET_GLOBAL", 2))
    check("fib_calls", fib_calls, 2 * leaves - 1)
    check("fib_bytecodes_7_leaf_17_inner", fib_self, 7 * leaves + 17 * (leaves - 1))
    check("call_opcodes_equal_fib_calls_plus_clock_calls", call_ops, fib_calls + clock_calls)
    check("callgrind_sees_the_two_clock_calls", clock_calls_cg, clock_calls)
    check("drip_folded_sum_equals_bytecodes", stacks_sum(OUT .. "/fib-drip.folded"), total_ops)
    put("instructions_per_bytecode", ratio(ir_fib, total_ops))
    local zoo_ops = report_number(OUT .. "/zoo-counts.txt", "total", 2)
    put("zoo_bytecodes_total", zoo_ops)
    put("zoo_instructions_per_bytecode", ratio(ir_zoo, zoo_ops))
  end
  -- The book's own check: its VM's call routine ran once per Drip call, and callgrind
  -- counted fib's calls + 2 calls of it. The DRIP_OUTLINE build sends every CALL through
  -- callValue, so the same check can be made, and its total shows what that call costs.
  local outline = env("DRIP_OUTLINE", "")
  if outline ~= "" and bash("test -x " .. q(outline)) and instrumented then
    callgrind("fib-outline", outline, fib)
    local outline_calls = calls_of(OUT .. "/callgrind.out.fib-outline", "callValue")
    put("callgrind_outline_callValue_calls", outline_calls)
    put("ir_fib_outline", totals_of(OUT .. "/callgrind.out.fib-outline"))
    check("outline_callValue_calls_equal_fib_calls_plus_2", outline_calls, fib_calls + clock_calls)
  else
    print("profile-165: no DRIP_OUTLINE build given: the call-routine check is skipped")
  end

  -- Instructions per global lookup. The lookup is inlined into the bytecode loop, so no
  -- function's cost measures it. Instead: three loops that differ only in their body (no
  -- read, four reads of a global, four of a local); the difference in Ir divided by the
  -- number of reads is the cost of one read (its opcode, the POP of the expression
  -- statement and the dispatch of both).
  local reads, ir = 20000, {}
  for _, kind in ipairs({ { "none", "" }, { "global", "g; g; g; g;" }, { "local", "l; l; l; l;" } }) do
    local program, cg = OUT .. "/reads-" .. kind[1] .. ".drip", OUT .. "/callgrind.out.reads-" .. kind[1]
    wb.write_file(program, ("var g = 1;\n{\n  var l = 1;\n  var i = 0;\n  while (i < %d) {\n    %s\n" ..
      "    i = i + 1;\n  }\n}\n"):format(reads, kind[2]))
    must(cmd("valgrind", "--tool=callgrind", "--callgrind-out-file=" .. cg, DRIP, program) .. " > /dev/null 2>> " ..
      q(OUT .. "/reads.valgrind.log"), "callgrind failed on " .. program)
    ir[kind[1]] = totals_of(cg)
  end
  put("instructions_per_global_read", ratio(ir.global - ir.none, 4 * reads))
  put("instructions_per_local_read", ratio(ir["local"] - ir.none, 4 * reads))
  put("instructions_per_global_lookup", ratio(ir.global - ir["local"], 4 * reads))
  put("checks_failed", failed)
  write(SUMMARY, summary)

  local report = { "", "profile-165: results in " .. OUT .. " (summary: " .. SUMMARY .. ")",
    "  " .. table.concat(summary, "\n  "), "",
    "  tables:       " .. OUT .. "/annotate-{fib,zoo}-{self,inclusive,tree}.txt, top-{fib,zoo}.txt" }
  report[#report + 1] = instrumented and "  Drip tables:  " .. OUT ..
      "/top-{fib,zoo}-drip.txt (bytecodes, inclusive once per stack)" or nil
  report[#report + 1] = wb.exists(OUT .. "/annotate-fib-g1-files.txt") and "  line tables:  " .. OUT ..
      "/annotate-fib-g1-{files,lines}.txt" or nil
  report[#report + 1] = "  flame graphs: " .. OUT .. "/{fib,zoo}-c.svg" ..
      (instrumented and " " .. OUT .. "/{fib,zoo}-drip.svg" or "")
  report[#report + 1] = #missing > 0 and "  left out:     " .. table.concat(missing, " ") ..
      " (dripprof needs your exercise's functions: make exercise-165, then make)" or nil
  print(table.concat(report, "\n"))
  return failed == 0 or wb.fail(failed .. " check(s) FAILED")
end

-- ---- make chapter-data-165 -------------------------------------------------------------

local function data()
  local summary, values = wb.read_file(SUMMARY) or wb.fail("no " .. SUMMARY .. ": run 'make profile-165' first"), {}
  for key, value in summary:gmatch("([^\n]-) = ([^\n]*)") do
    values[key] = value
  end
  if values.fib_n ~= "35" then
    wb.fail("the profile was not made with FIB_N=35")
  elseif values.checks_failed ~= "0" then
    wb.fail("the profile's checks failed")
  end
  wb.mkdir_p(DATA)
  local root = output("pwd"):gsub("\n$", "") .. "/"
  -- A line with its paths as a reader of the repository sees them.
  local function trimmed(line)
    return (line:gsub(root:gsub("%p", "%%%0"), ""):gsub("build/profile/src/", "vm/src/"))
  end
  -- The PROGRAM TOTALS row, a blank line and the first rows of a callgrind_annotate function
  -- table, as they stand in the file (alignment kept).
  local function table_top(path, rows)
    local wanted, out = {}, {}
    for i, r in ipairs(table_rows(path)) do
      wanted[r.line] = i <= rows + 1 and i or nil
    end
    for number, line in ipairs(lines(path)) do
      out[#out + 1] = wanted[number] and trimmed(line) or nil
      out[#out + 1] = wanted[number] == 1 and "" or nil
    end
    return out
  end

  -- the profile's numbers
  local profile = { "# Copied from " .. SUMMARY .. " by chapters/165/capture.lua." }
  for _, line in ipairs(wb.split_lines(summary)) do
    profile[#profile + 1] = not line:match("^check") and line or nil
  end
  local calls = tonumber(values.fib_calls)
  profile[#profile + 1] = "fib_calls_leaf = " .. (calls + 1) // 2
  profile[#profile + 1] = "fib_calls_inner = " .. (calls - 1) // 2
  write(DATA .. "/profile.txt", profile)
  write(DATA .. "/fib-self.out", table_top(OUT .. "/annotate-fib-self.txt", 5))
  -- Inclusive: the VM's own rows (the rows above them are the loader's and libc's start-up).
  local inclusive = {}
  for _, line in ipairs(table_top(OUT .. "/annotate-fib-inclusive.txt", 100)) do
    local keep = line == "" or line:find("PROGRAM TOTALS", 1, true) or line:find("vm/src/", 1, true)
    inclusive[#inclusive + 1] = keep and #inclusive < 11 and line or nil
  end
  write(DATA .. "/fib-inclusive.out", inclusive)
  -- The rows of that table the chapter explains. A function's row without an object is
  -- callgrind_annotate's sum over the calls INTO it (call records name the file with its
  -- full path, so the key differs); the row with the object is built from the function's
  -- own records, and holds only the lines of its own file (inlined code from other files
  -- has rows of its own).
  local own, called, inlined = {}, {}, 0
  for i, r in ipairs(table_rows(OUT .. "/annotate-fib-inclusive.txt")) do
    local fn, count = r.func, r.count
    if i > 1 and r.pct and (fn == "main" or fn == "interpret" or fn == "runPlain") then
      if r.object ~= "" then
        own[fn] = count
      elseif r.file:sub(1, #root) == root then
        called[fn] = count
      elseif fn == "runPlain" then
        inlined = inlined + tonumber(count)
      end
    end
  end
  local rows = { "runPlain_inlined_rows = " .. inlined }
  for fn, count in pairs(own) do
    rows[#rows + 1] = fn .. "_own = " .. count
    rows[#rows + 1] = fn .. "_called = " .. (called[fn] or "")
  end
  table.sort(rows)
  table.insert(rows, 1, "# Rows of " .. OUT .. "/annotate-fib-inclusive.txt (callgrind_annotate --inclusive=yes).")
  write(DATA .. "/inclusive.txt", rows)
  local files = {}
  for i, line in ipairs(lines(OUT .. "/annotate-fib-g1-files.txt")) do
    files[i] = i <= 6 and trimmed(line) or nil
  end
  write(DATA .. "/fib-files.out", files)
  write(DATA .. "/line_tables.txt", { "# runPlain's instructions (all its rows) in the -O2 and -O2 -g1 profiles of fib.",
    "runPlain_nodebug = " .. runplain_rows(OUT .. "/callgrind.out.fib-nodebug"),
    "runPlain_line_tables = " .. runplain_rows(OUT .. "/callgrind.out.fib-g1") })

  -- The busiest source lines of the -g1 profile: count, then file:line and the text. Call
  -- sites (`=> ...`) and the `events annotated` footer are not source lines.
  local busiest, file, number = {}, nil, 0
  for _, line in ipairs(lines(OUT .. "/annotate-fib-g1-lines.txt")) do
    local source, first = line:match("^%-%- Auto%-annotated source: (%S+)"), line:match("^%-%- line (%d+) ")
    local head, text = line:match("^( *[%d,]+ %( *[%d.]+%%%)  )(.*)$")
    if source or first then
      file, number = source and source:match("[^/]*$") or file, first and tonumber(first) or number
    elseif file and head and not text:match("^ *=> ") and not text:match("^events annotated") then
      busiest[#busiest + 1] = { count = tonumber((head:match("[%d,]+"):gsub(",", ""))),
        text = head:match("^%s*(.-)%s*$") .. "  " .. file .. ":" .. number .. "  " .. text:match("^[ \t]*(.*)$") }
      number = number + 1
    elseif file and line:match("^ *%. ") then
      number = number + 1
    end
  end
  -- by count, the largest first; a tie by the line (sort -k1,1nr)
  table.sort(busiest, function(a, b)
    return a.count > b.count or a.count == b.count and a.text < b.text
  end)
  local top = {}
  for i = 1, math.min(6, #busiest) do
    top[i] = busiest[i].text
  end
  write(DATA .. "/fib-lines.out", top)

  -- drip --count, less the opcodes that never ran, and drip --profile
  local count_rows, profile_rows, on, profiling = {}, {}, false, false
  for _, line in ipairs(lines(OUT .. "/fib-counts.txt")) do
    local starts, total = not on and line:find("drip --count", 1, true), line:match("^total")
    count_rows[#count_rows + 1] = (starts or on and (total or not line:match(" 0 +0%.00%%$"))) and line or nil
    on = (on or starts) and not (on and total)
    profiling = profiling or line:find("drip --profile", 1, true) ~= nil
    profile_rows[#profile_rows + 1] = profiling and line or nil
  end
  write(DATA .. "/fib-count.out", count_rows)
  write(DATA .. "/fib-profile.out", profile_rows)

  -- The flame graphs' data (make chapters draws them; their sentences are computed from
  -- these files when the chapter is rendered), the outlined-call build's for the
  -- differential flame graph against fib-c.
  must(cmd("cp", OUT .. "/fib-c.folded", OUT .. "/fib-drip.folded", DATA .. "/"), "cannot copy the folded stacks")
  local outline = OUT .. "/callgrind.out.fib-outline"
  if not wb.exists(outline) then
    wb.fail("no " .. outline .. ": profile-165 needs its DRIP_OUTLINE build")
  end
  must(cmd(DRIPPROF, "fold", outline) .. " > " .. q(DATA .. "/fib-outline-c.folded"), "dripprof fold failed on " .. outline)

  -- What callgrind calls "(below main)", and the loader's nameless entry. Valgrind renames
  -- the functions below main unless --show-below-main=yes: one tiny run with it shows
  -- which they are. The first frame of every stack is the dynamic loader's entry point,
  -- which has no symbol: callgrind names it by its address, the "Entry point address" of
  -- the loader's ELF header.
  local empty, names = output("mktemp --suffix=.drip"):gsub("\n$", ""), output("mktemp"):gsub("\n$", "")
  must(cmd("valgrind", "--tool=callgrind", "--show-below-main=yes", "--callgrind-out-file=" .. names, DRIP, empty) ..
    " >/dev/null 2>&1", "valgrind --show-below-main=yes failed")
  local below
  for _, s in ipairs(dripprof.stacks(names)) do
    below = below or #s.frames > 1 and s.frames[#s.frames] == "main" and s.frames or nil
  end
  os.remove(empty)
  os.remove(names)
  local loader = output("readelf -l " .. q(DRIP)):match("Requesting program interpreter: ([^\n]*)%]")
  if not below or not loader then
    wb.fail("could not find the frames below main or the loader")
  end
  local frames = { "# The frames below main, by their own names (callgrind --show-below-main=yes).",
    "stack = " .. table.concat(below, ";") }
  for i = 1, #below - 1 do
    frames[#frames + 1] = "frame_" .. i .. " = " .. below[i]
  end
  frames[#frames + 1] = "loader = " .. loader
  frames[#frames + 1] = "loader_entry = " .. output("readelf -h " .. q(loader)):match("Entry point address: *([^\n]*)")
  write(DATA .. "/below.txt", frames)

  -- the same profile twice: profile-165's run of zoo, and one more, given the program by
  -- another path
  local second = output("mktemp"):gsub("\n$", "")
  must(cmd("valgrind", "--tool=callgrind", "--callgrind-out-file=" .. second, DRIP, "vm/bench/zoo.drip") ..
    " >/dev/null 2>&1", "valgrind failed on zoo.drip")
  write(DATA .. "/repeat.txt", { "# Two callgrind runs of zoo.drip: profile-165's and one more by " ..
    "chapters/165/capture.lua.", "ir_zoo_first = " .. values.ir_zoo_total, "ir_zoo_second = " .. stacks_sum(second),
    "runPlain_zoo_first = " .. runplain_rows(OUT .. "/callgrind.out.zoo"), "runPlain_zoo_second = " .. runplain_rows(second) })
  os.remove(second)

  -- time: the best of three normal runs (fib.drip prints its seconds last), and the run
  -- under callgrind
  local runs, last = {}, "([^\n]*)\n*$"
  for i = 1, 3 do
    runs[i] = tonumber(output(cmd(DRIP, "vm/bench/fib.drip")):match(last))
  end
  table.sort(runs)
  local under = tonumber(read(OUT .. "/fib.stdout"):match(last))
  write(DATA .. "/timing.txt", { "# Seconds printed by fib.drip itself: three normal runs, and the run under callgrind.",
    ("fib_seconds = %.2f"):format(runs[1]), ("fib_seconds_slowest = %.2f"):format(runs[3]),
    ("fib_seconds_callgrind = %.1f"):format(under), ("callgrind_slowdown = %.1f"):format(under / runs[1]) })

  local cpu = ("\n" .. output("lscpu 2>/dev/null || true")):match("\nModel name: *([^\n]*)")
  write(DATA .. "/machine.txt", { "# The machine behind the numbers.",
    "description = Debian " .. (wb.read_file("/etc/debian_version") or "?"):gsub("\n$", "") .. ", " ..
      (cpu or "unknown CPU") .. ", " .. wb.nproc() .. " cores",
    "compiler = " .. output(env("CC", "cc") .. " --version"):match("[^\n]*"),
    "valgrind = " .. output("valgrind --version"):match("[^\n]*") })
  print("chapter-data-165: wrote " .. DATA .. "/; now run 'make chapters' (text and figures) and reread the chapter")
end

local ok, err = pcall(step == "profile" and profile or data)
if scratch then
  wb.rm_rf(scratch)
end
if not ok then
  io.stderr:write(step == "profile" and "profile-165: " or "chapter-data-165: ",
    type(err) == "table" and err.message or tostring(err), "\n")
  os.exit(1)
end
