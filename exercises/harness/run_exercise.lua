-- run_exercise.lua: the student's test run behind `make exercise-N` and `make watch-N`.
--
--   lua5.4 exercises/harness/run_exercise.lua --sandbox PATH --binary PATH [--handout README.md]
--       [--sources profile.c,...] [--state FILE] [--timeout CPU-SEC] [--wall SEC] [--jobs N]
--       [--only PREFIX] [--details N] [--chapter N] [--title TEXT] [--workdir DIR]
--       [--tsv FILE] [--brief yes] [--build-log FILE] [-- ARGS FOR THE BINARY]
--
-- Runs each test in its own forked child (runner.lua), then explains the failures the
-- way a beginner can act on: the function, the input (blanks made visible), expected
-- and actual values in decimal, what a crash or a timeout means, where a sanitizer says
-- it happened, and the hint to read next. Hints come from the handout: a heading such as
-- "#### parse_row, hint 1: ..." and the text under it. The first three runs that fail a
-- function show its hint 1, the next three hint 2, and so on (counted in --state). A
-- function whose every test got -1 (what the shipped stubs return) is one line: "not
-- written yet?". The full report ends with a progress line (parse_row 9/12 · sum_named
-- 3/3 · inclusive 0/6); --brief (watch mode) starts with it and shows only the first
-- failure in full, then the compiler's warnings from --build-log. Exits 0 only when
-- every test passed. --tsv writes "name<TAB>verdict<TAB>status" lines.
local wb = require("vm.lib.workbook")
local runner = require("exercises.harness.runner")

local M = {}

-- ------------------------------------------------------------------ arguments

local function parse_args(argv)
  local parser = wb.parser("run_exercise.lua", "Runs an exercise's tests and explains the failures.")
  parser:option("--sandbox", "build/harness/sandbox"):count(1)
  parser:option("--binary", "the test driver, linked with the code under test"):count(1)
  parser:option("--handout", "the README.md the hints come from")
  parser:option("--sources", "the code under test, comma-separated (profile.c,...)", "")
    :convert(function(text)
      local list = {}
      for source in text:gmatch("[^,]+") do
        list[#list + 1] = source
      end
      return list
    end)
  parser:option("--state", "where the failing runs per function are counted")
  parser:option("--timeout", "CPU seconds per test", "2"):convert(tonumber)
  parser:option("--wall", "wall-clock seconds per test, a backstop", "60"):convert(tonumber)
  parser:option("--jobs", "tests at once", "1"):convert(wb.to_integer)
  parser:option("--only", "the tests whose name starts so")
  parser:option("--details", "failures shown in full per function", "2"):convert(wb.to_integer)
  parser:option("--chapter", "the chapter, for the commands the report suggests")
  parser:option("--title", "what the report calls the run", "the exercise")
  parser:option("--workdir", "where each test's output goes (default: beside the binary)")
  parser:option("--tsv", "write name<TAB>verdict<TAB>status lines here")
  parser:option("--brief", "yes: watch mode's report")
  parser:option("--build-log", "the compiler's warnings, for --brief")
  parser:argument("args", "arguments for the binary, after --"):args("*")
  local opts = wb.parse(parser, argv)
  opts.workdir = opts.workdir or wb.dirname(opts.binary) .. "/results"
  return opts
end

-- ------------------------------------------------------------------ hints

-- Reads "#### FUNCTION, hint N: TITLE" sections of the handout:
-- hints[func][n] = { title = ..., text = ... }.
function M.read_hints(path)
  local hints = {}
  local text = path and wb.read_file(path)
  if not text then
    return hints
  end
  local current
  for _, line in ipairs(wb.split_lines(text)) do
    local func, n, title = line:match("^#+%s+([%w_]+), hint (%d+):?%s*(.*)$")
    if func then
      hints[func] = hints[func] or {}
      current = { title = title, lines = {} }
      hints[func][tonumber(n)] = current
    elseif line:match("^#") then
      current = nil
    elseif current then
      current.lines[#current.lines + 1] = line
    end
  end
  for _, tiers in pairs(hints) do
    for _, hint in pairs(tiers) do
      hint.text = table.concat(hint.lines, "\n"):gsub("^%s+", ""):gsub("%s+$", "")
      hint.lines = nil
    end
  end
  return hints
end

-- The state file remembers, per function, how many runs in a row it has failed.
local function read_state(path)
  local state = {}
  for func, runs in (path and wb.read_file(path) or ""):gmatch("([%w_]+) (%d+)") do
    state[func] = tonumber(runs)
  end
  return state
end

local function write_state(path, state)
  if not path then
    return
  end
  local funcs, lines = {}, {}
  for func in pairs(state) do
    funcs[#funcs + 1] = func
  end
  table.sort(funcs)
  for i, func in ipairs(funcs) do
    lines[i] = func .. " " .. state[func] .. "\n"
  end
  wb.write_file(path, table.concat(lines))
end

-- ------------------------------------------------------------------ explaining results

local explanations = {
  crashed = "Your code crashed (%s) before the test could check anything.",
  timeout = "The test did not finish: %s. Your code is too slow or in an endless loop. "
    .. "Check that every loop moves on (advances its pointer or index) on every path, and "
    .. "that the big tests do not search a long list for every name.",
  sanitizer = "A sanitizer stopped the test: %s.",
  leak = "LeakSanitizer found memory that was never freed: %s. Free what you malloc "
    .. "unless you hand it to the caller (the caller frees Row.name and the Cost array "
    .. "with its names).",
  output = "The test printed too much (%s): a printf left in a loop?",
  memory = "The test used too much memory (%s): a loop that keeps allocating?",
  exit = "The test process ended with %s instead of returning from your function: "
    .. "did your code call exit()? Return an error value (-1) instead.",
  error = "The test could not be run: %s.",
}

local signal_meaning = {
  SIGSEGV = "segmentation fault: it read or wrote memory it does not own, e.g. through a "
    .. "NULL pointer or past the end of a string",
  SIGABRT = "abort: a failed assert(), or the C library found the heap damaged (double free?)",
  SIGFPE = "arithmetic error: a division by zero?",
  SIGBUS = "bus error: a bad pointer",
  SIGILL = "illegal instruction: undefined behaviour, or falling off the end of a function",
}

local sanitizer_meaning = {
  ["heap-buffer-overflow"] = "you read or wrote past the end of a malloc'd block "
    .. "(room for the terminating '\\0'?)",
  ["stack-overflow"] = "the stack ran out: recursion that goes too deep",
  ["SEGV"] = "a bad pointer: NULL, or memory that was never yours",
  ["heap-use-after-free"] = "you used memory after free()ing it",
  ["double-free"] = "you free()d the same block twice",
  ["stack-buffer-overflow"] = "you went past the end of a local variable or array (the "
    .. "caller's too: a Row * points to one Row, not to an array)",
  ["global-buffer-overflow"] = "you went past the end of a global array or string literal",
  ["stack-use-after-return"] = "you used a pointer to a local variable after its function "
    .. "returned",
  ["attempting free on address which was not malloc()-ed"] = "something was free()d that "
    .. "malloc did not return. The caller frees every name you hand out (row->name, each "
    .. "Cost name): each must be a malloc'd copy, not a pointer into the input or a static "
    .. "or local buffer",
  ["attempting double-free"] = "you free()d the same block twice",
  ["use-of-uninitialized-value"] = "a value was used before anything was stored in it",
  ["load of value"] = "a variable (often a bool) was read before anything was stored in it",
  ["null pointer"] = "a NULL pointer was used: check pointers that may be NULL before "
    .. "using them (a NULL input the contract allows, or what malloc returned)",
}

-- Wraps text at blanks into lines of at most width characters, each starting with prefix.
function M.wrap(text, width, prefix)
  local lines, line = {}, ""
  for word in text:gmatch("%S+") do
    if #line > 0 and #line + 1 + #word > width then
      lines[#lines + 1] = prefix .. line
      line = word
    else
      line = #line > 0 and (line .. " " .. word) or word
    end
  end
  lines[#lines + 1] = prefix .. line
  return table.concat(lines, "\n")
end

local verdict_label = {
  failed = "wrong result",
  crashed = "crashed",
  timeout = "timed out",
  sanitizer = "memory error or undefined behaviour",
  leak = "memory leak",
  output = "too much output",
  memory = "too much memory",
  exit = "exited",
  error = "could not run",
}

local function indent(text, prefix)
  return (text:gsub("[^\n]+", function(line) return prefix .. line end))
end

-- The driver's own explanation: a "FAILED name" or "TEST name" line and the indented
-- lines under it (sanitizer reports and cmocka's status lines around it are left out).
local function driver_block(stderr)
  local lines, inside = {}, false
  for line in stderr:gmatch("[^\n]*") do
    if line:match("^FAILED ") or line:match("^TEST ") then
      inside = true
      lines[#lines + 1] = line
    elseif inside and line:match("^  ") then
      lines[#lines + 1] = line
    elseif inside and line ~= "" then
      inside = false
    end
  end
  return table.concat(lines, "\n")
end

-- A path below the current folder, shortened to start there.
local function relative(path)
  local cwd = os.getenv("PWD")
  if cwd and path:sub(1, #cwd + 1) == cwd .. "/" then
    return path:sub(#cwd + 2)
  end
  return path
end

-- The lines of the code under test that a sanitizer report names: where it happened,
-- and where the memory involved was allocated and freed.
local function places(result)
  local lines, seen_error, said = {}, false, {}
  for _, stack in ipairs(result.stacks or {}) do
    local where = relative(stack.where)
    if said[stack.kind .. where] then
      where = nil -- the same place again (several leaks from one line)
    end
    said[stack.kind .. (where or "")] = true
    if not where then
      goto next_stack
    elseif stack.kind == "error" and not seen_error then
      lines[#lines + 1] = "It happened at " .. where .. "."
      seen_error = true
    elseif stack.kind == "allocated" then
      lines[#lines + 1] = (result.verdict == "leak" and "The memory was allocated at "
        or "The memory involved was allocated at ") .. where .. "."
    elseif stack.kind == "freed" then
      lines[#lines + 1] = "It was freed at " .. where .. "."
    end
    ::next_stack::
  end
  -- A report whose stacks never pass through the code under test (a SEGV in the test's
  -- strcmp on a name pointer that was never set) still happened outside it.
  local outside = #lines == 0 and result.verdict == "sanitizer"
    and ("\n" .. (result.stderr or "")):find("\n%s*#0 ") ~= nil
  if (#lines > 0 and not seen_error and result.verdict ~= "leak") or outside then
    table.insert(lines, 1, "It happened outside your code (in the test, using what your code returned).")
  end
  return lines
end
M.places = places

local function explain(result)
  local lines = {}
  local template = explanations[result.verdict]
  if template then
    local detail = result.status
    local signal = result.status:match("crashed: (%S+)")
    if signal and signal_meaning[signal] then
      detail = signal .. ", " .. signal_meaning[signal]
    end
    for kind, meaning in pairs(sanitizer_meaning) do
      if result.status:find(kind, 1, true) then
        detail = result.status .. ": " .. meaning
      end
    end
    lines[#lines + 1] = M.wrap(string.format(template, detail), 78, "  ")
    if result.verdict == "exit" or result.verdict == "error" then
      -- No sanitizer or test message to go by: show what the process said last.
      local said = {}
      for line in result.stderr:gmatch("[^\n]+") do
        if not line:match("^%[") then
          said[#said + 1] = line
        end
      end
      if #said > 0 then
        lines[#lines + 1] = "  Its last words on stderr:"
        for i = math.max(1, #said - 4), #said do
          lines[#lines + 1] = "    " .. said[i]
        end
      end
    end
    for _, line in ipairs(places(result)) do
      lines[#lines + 1] = "  " .. line
    end
    local failure = driver_block(result.stderr)
    if failure ~= "" then
      -- The test got to check the result (and, say, leaked too): show what it found.
      lines[#lines + 1] = "  The test also says:"
      lines[#lines + 1] = indent(failure:gsub("^%s*FAILED [^\n]*\n?", ""), "  ")
    else
      -- A crash leaves no message of the test's own: the driver described the test.
      local block = driver_block(result.describe or ""):gsub("^%s*TEST [^\n]*\n?", "")
      if block ~= "" then
        lines[#lines + 1] = "  The test was:"
        lines[#lines + 1] = indent(block, "  ")
      end
    end
  else
    lines[#lines + 1] = driver_block(result.stderr):gsub("^%s*FAILED [^\n]*\n?", "")
  end
  return table.concat(lines, "\n")
end

-- ------------------------------------------------------------------ the report

local function progress_line(funcs, counts)
  local parts = {}
  for _, func in ipairs(funcs) do
    parts[#parts + 1] = string.format("%s %d/%d", func, counts[func].passed, counts[func].total)
  end
  return table.concat(parts, " · ")
end

-- Results grouped by function, in the order of the tests: funcs (names) and counts[func]
-- = { passed, total, failing = {results} }.
local function group(results)
  local funcs, counts = {}, {}
  for _, r in ipairs(results) do
    if not counts[r.func] then
      funcs[#funcs + 1] = r.func
      counts[r.func] = { passed = 0, total = 0, failing = {} }
    end
    local c = counts[r.func]
    c.total = c.total + 1
    if r.verdict == "passed" then
      c.passed = c.passed + 1
    else
      c.failing[#c.failing + 1] = r
    end
  end
  return funcs, counts
end

-- True when every test of the function failed by getting -1, what the shipped stubs
-- return: the function is most likely not written yet, and one line says so (unless the
-- student asked for some tests by name: then they are shown).
local function all_stub_answers(opts, c)
  if c.passed > 0 or opts.only then
    return false
  end
  for _, r in ipairs(c.failing) do
    if r.verdict ~= "failed" or not driver_block(r.stderr):find("\n  actual:%s+returns %-1 ") then
      return false
    end
  end
  return true
end

-- One line for a failing test: the rule it checks, and how it ended unless it merely
-- got a wrong result -- or a right one from code that wrote into its const input, which
-- the rule would not explain.
local function one_line(r)
  local block = driver_block(r.stderr)
  local rule = block:match("\n  rule:%s+([^\n]*)")
    or driver_block(r.describe or ""):match("\n  rule:%s+([^\n]*)") or ""
  if r.verdict == "failed" and rule ~= "" then
    local changed = block:match("\n  but:%s+your code changed the ([^,\n]*)")
    return changed and string.format("%s (your code changed the %s)", rule, changed) or rule
  end
  return rule == "" and r.status or string.format("%s (%s)", rule, r.status)
end
M.one_line = one_line

-- The hint to show for a function that failed this run (state counts its failing runs).
local function write_hint(opts, hints, state, func)
  local tiers = hints[func] or {}
  -- Hint 1 for the first three failing runs, then the next hint every three runs.
  local tier = math.min(1 + ((state[func] or 1) - 1) // 3, #tiers)
  local hint = tiers[tier]
  if hint then
    io.write(string.format("\n  Hint %d of %d for %s (%s, \"%s, hint %d\"):\n", tier, #tiers,
      func, opts.handout, func, tier))
    io.write(indent(hint.text, "    "), "\n")
    if tier < #tiers then
      io.write("    (Still stuck after a few more runs? Then you will see hint ", tier + 1,
        ", or read it now in the handout.)\n")
    end
  end
end

-- What the code under test printed on stdout (cmocka's own lines left out), at most
-- `most` lines: a student's debugging printf.
local function printed(stdout, most)
  local lines, total = {}, 0
  for line in stdout:gmatch("[^\n]+") do
    if not line:match("^%[") then
      total = total + 1
      if total <= most then
        lines[#lines + 1] = "    " .. line
      end
    end
  end
  if total > most then
    lines[#lines + 1] = string.format("    ... (%d lines in all)", total)
  end
  return table.concat(lines, "\n")
end

local function write_failure(r)
  io.write(string.format("\n✗ %s  (%s)\n", r.name, verdict_label[r.verdict] or r.verdict))
  io.write(explain(r), "\n")
  local said = printed(r.stdout, 10)
  if said ~= "" then
    io.write("  Your code printed:\n", said, "\n")
  end
end

local function see_one(opts, name)
  return string.format("make exercise-%s TEST=%s", opts.chapter or "N", name)
end

-- The full report of one function with failing tests.
local function write_function(opts, hints, state, func, c)
  io.write("\n", string.rep("=", 78), "\n")
  if all_stub_answers(opts, c) then
    io.write(string.format("%s: not written yet? Every test (%d) got -1, what the shipped stub "
      .. "returns.\n  Start with the handout's section on %s, then run its first test alone:\n"
      .. "    %s\n",
      func, c.total, func, see_one(opts, c.failing[1].name)))
    return
  end
  io.write(string.format("%s: %d of %d tests fail\n", func, #c.failing, c.total))
  for i = 1, math.min(opts.details, #c.failing) do
    write_failure(c.failing[i])
  end
  if #c.failing > opts.details then
    io.write(string.format("\n  The other %d failing tests of %s, each with the rule it checks:\n",
      #c.failing - opts.details, func))
    for i = opts.details + 1, #c.failing do
      io.write(string.format("  ✗ %s: %s\n", c.failing[i].name, one_line(c.failing[i])))
    end
    io.write("  See one in full: ", see_one(opts, c.failing[opts.details + 1].name), "\n")
  end
  write_hint(opts, hints, state, func)
end

-- Watch mode: the progress line first, then the first failure in full, then warnings.
local function write_brief(opts, hints, state, funcs, counts, failed_total, total)
  if os.execute("test -t 1") then
    io.write("\27[H\27[2J") -- a terminal: clear it, so the progress line is on top
  end
  io.write(progress_line(funcs, counts), "\n")
  if failed_total == 0 then
    io.write(string.format("All %d tests pass.\n", total))
  else
    io.write(string.format("%d of %d tests fail.\n", failed_total, total))
    local stubs, first = {}, nil
    for _, func in ipairs(funcs) do
      local c = counts[func]
      if all_stub_answers(opts, c) then
        stubs[#stubs + 1] = func
      elseif #c.failing > 0 and not first then
        first = func
      end
    end
    if #stubs > 0 then
      io.write(table.concat(stubs, ", "), ": not written yet? (every test got -1, what the "
        .. "shipped stubs return)\n")
    end
    if first then
      io.write("The first failure:\n")
      write_failure(counts[first].failing[1])
      write_hint(opts, hints, state, first)
    end
    io.write("\n(make exercise-", opts.chapter or "N", " shows every failure.)\n")
  end
  local warnings = opts.build_log and wb.read_file(opts.build_log)
  if warnings then
    if warnings:match("%S") then
      io.write("\nThe compiler warns (warnings often point at real bugs):\n", indent(warnings, "    "))
    end
  end
end

local function write_tsv(path, results)
  local lines = {}
  for i, r in ipairs(results) do
    lines[i] = r.name .. "\t" .. r.verdict .. "\t" .. r.status .. "\n"
  end
  wb.write_file(path, table.concat(lines))
end

function M.main(argv)
  local opts = parse_args(argv)
  wb.mkdir_p(opts.workdir)
  -- One character per finished test, so that a slow run (endless loops cost the whole
  -- time limit each) visibly makes progress: . passed, F failed, C crashed, T timed out,
  -- S sanitizer, L leak, O output, M memory, E exit(), X anything else.
  local marks = { passed = ".", failed = "F", crashed = "C", timeout = "T", sanitizer = "S",
                  leak = "L", output = "O", memory = "M", exit = "E" }
  local done = 0
  io.write("Running the tests: ")
  io.stdout:flush()
  opts.on_result = function(result)
    done = done + 1
    io.write(marks[result.verdict] or "X", done % 60 == 0 and "\n                   " or "")
    io.stdout:flush()
  end
  local results, problem = runner.run_all(opts)
  io.write("\n")
  if not results then
    io.write("Could not run the tests: ", problem, "\n")
    return 2
  end
  if #results == 0 then
    io.write("No test matches '", tostring(opts.only), "' (names look like parse_row.plain_row).\n")
    return 2
  end
  if opts.tsv then
    write_tsv(opts.tsv, results)
  end

  local funcs, counts = group(results)
  local hints = M.read_hints(opts.handout)
  local state = read_state(opts.state)
  local failed_total = 0
  for _, func in ipairs(funcs) do
    local c = counts[func]
    failed_total = failed_total + #c.failing
    if #c.failing == 0 then
      state[func] = nil
    elseif not all_stub_answers(opts, c) then
      state[func] = (state[func] or 0) + 1 -- a stub's -1 is no attempt: no hint tier used up
    end
  end
  if not opts.only then
    write_state(opts.state, state)
  end

  if opts.brief then
    write_brief(opts, hints, state, funcs, counts, failed_total, #results)
    return 0 -- watch mode goes on either way
  end
  io.write("(. passed, F wrong result, C crashed, T timed out, S sanitizer report, L leak, "
    .. "O too much output, M too much memory, E exited)\n")
  io.write(string.format("Ran %d test%s of %s, each in its own process (time limit %s s of CPU "
    .. "time).\n", #results, #results == 1 and "" or "s", opts.title, opts.timeout))
  for _, func in ipairs(funcs) do
    if #counts[func].failing > 0 then
      write_function(opts, hints, state, func, counts[func])
    end
  end
  io.write("\n", string.rep("=", 78), "\n")
  io.write(progress_line(funcs, counts), "\n")
  if failed_total == 0 then
    io.write(#results == 1 and "The test passes.\n" or string.format("All %d tests pass.\n", #results))
    return 0
  end
  io.write(string.format("%d of %d tests fail.\n", failed_total, #results))
  return 1
end

if arg and arg[0] and arg[0]:match("run_exercise%.lua$") then
  os.exit(M.main(arg))
end
return M
