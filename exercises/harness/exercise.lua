-- exercise.lua: the student's run behind `make exercise-N` and `make watch-N`.
--
--   lua5.4 exercises/harness/exercise.lua --chapter N [--from DIR] [--only PREFIX,...]
--       [--brief] [--jobs N] [--details N] [--out DIR] [--cpu SECONDS] [--build-only] [--hint FUNCTION]
--       [--budget STACKS]
--
-- Builds chapter N's checker with the files of DIR (default exercises/N: the student's; the
-- instructor may name solutions/N) exactly as the grader does (exercises/harness/build.lua),
-- runs every public case in its own forked child (runner.lua), compares the answers with the
-- reference's kept in exercises/N/tests/expected/ (compare.lua), and explains the failures
-- (feedback.lua): the rule, the call and its input with blanks made visible, expected and
-- actual in the chapter's words, what a crash or a timeout means, where a sanitizer says it
-- happened, and the hint to read next. Hints come from the handout: a heading such as
-- "#### FUNCTION, hint 1: ..." and the text under it. The first three runs that fail a
-- function show its hint 1, the next three hint 2, and so on; a run of one case (--only) uses
-- up no hint, nor does a function whose every answer is the stub's, and a function whose
-- every case passes starts again at hint 1 (counted in OUT/hint-state). --hint FUNCTION runs
-- nothing: it shows the function's next hint, which the failing runs then go on from. A
-- function whose every failing answer is the shipped stub's is one line: "not written yet?".
-- The report ends with the count of failing tests and the progress line (FUNCTION
-- PASSED/CASES for each function, e.g. group_digits 9/12), after which only the next steps
-- come, when every case of the student's code passed (the chapter's next_steps, if it has
-- them). --brief (watch mode) starts with the progress line, shows only the first failure in
-- full, then the compiler's warnings, and exits 0. Otherwise the exit status is 0 when every
-- case passed, 1 when one failed, 2 when the cases could not run. --budget STACKS (1: the graded
-- size) runs no case: it counts the instructions of the chapter's speed input with the build
-- without sanitizers, against the budget the handout publishes (speed.lua).

local wb = require("vm.lib.workbook")
local chapter = require("exercises.harness.chapter")
local build = require("exercises.harness.build")
local cases = require("exercises.harness.cases")
local answers = require("exercises.harness.answers")
local runner = require("exercises.harness.runner")
local compare = require("exercises.harness.compare")
local feedback = require("exercises.harness.feedback")
local sandbox = require("exercises.harness.sandbox")
local speed = require("exercises.harness.speed")

local M = {}

-- A run that exits non-zero under make ends with make's own line, "make: *** [...] Error 1",
-- which a beginner reads as a broken build; the line before the progress line says what it means.
local MAKE_SAYS = os.getenv("MAKELEVEL") and ' (make\'s last line, "make: *** ... Error 1", says only that)' or ""

-- What a run that could not test says of its exit status (nothing in watch mode, which exits 0).
local function exit_note(opts)
  return opts.brief and "" or (" The exit status is 1" .. MAKE_SAYS .. ".")
end

local function parse_args(argv)
  local parser = wb.parser("exercise.lua", "Builds an exercise, runs its public cases and explains the failures.")
  parser:option("--chapter", "the chapter"):count(1)
  parser:option("--from", "the folder of the code under test (default exercises/N)")
  parser:option("--only", "the cases whose name starts with one of these (comma-separated)")
  parser:flag("--brief", "watch mode's report")
  parser:option("--jobs", "cases at once", tostring(wb.nproc())):convert(wb.to_integer)
  parser:option("--details", "failures shown in full per function", "2"):convert(wb.to_integer)
  parser:option("--out", "where the build and the answers go (default build/exercise/N)")
  parser:option("--cpu", "CPU seconds per case (default: the chapter's limit)"):convert(tonumber)
  parser:option("--hint", "show the next hint of this function, and run nothing")
  parser:option("--budget", "count the speed input of this many stacks (1: the graded size)"):convert(wb.to_integer)
  parser:flag("--build-only", "build the checker into OUT/check and stop (what dripprof --with asks)")
  return wb.parse(parser, argv)
end

-- ------------------------------------------------------------------ hints

-- Reads "#### FUNCTION, hint N: TITLE" sections of the handout:
-- hints[func][n] = { title = ..., text = ... }.
function M.read_hints(path)
  local hints, current = {}, nil
  for _, line in ipairs(wb.split_lines(path and wb.read_file(path) or "")) do
    local func, n, title = line:match("^#+%s+([%w_]+), hint (%d+):?%s*(.*)$")
    if func then
      hints[func] = hints[func] or {}
      current = { title = title, text = "" }
      hints[func][tonumber(n)] = current
    elseif line:match("^#") then
      current = nil
    elseif current then
      current.text = current.text .. line .. "\n"
    end
  end
  for _, tiers in pairs(hints) do
    for _, hint in pairs(tiers) do
      hint.text = hint.text:gsub("^%s+", ""):gsub("%s+$", "")
    end
  end
  return hints
end

-- The keys of t, sorted (the state file's functions, the handout's hinted ones).
local function sorted_keys(t)
  local keys = {}
  for key in pairs(t) do
    keys[#keys + 1] = key
  end
  table.sort(keys)
  return keys
end

-- The state file remembers, per function, how many runs in a row it has failed.
local function read_state(path)
  local state = {}
  for func, runs in (wb.read_file(path) or ""):gmatch("([%w_]+) (%d+)") do
    state[func] = tonumber(runs)
  end
  return state
end

local function write_state(path, state)
  local lines = {}
  for i, func in ipairs(sorted_keys(state)) do
    lines[i] = func .. " " .. state[func] .. "\n"
  end
  wb.write_file(path, table.concat(lines))
end

-- ------------------------------------------------------------------ building

-- The checker built with the code under test, or nil after saying why not (the compiler's
-- own words, after a line that says what they mean).
-- flavour: build.lua's (default "asan"); another's program is OUT/check-FLAVOUR.
local function build_checker(ch, opts, out, flavour)
  flavour = flavour or "asan"
  local spec = chapter.build_spec(ch, out .. "/build", opts.from, opts.from == ch.solution)
  local program = out .. "/check" .. (flavour == "asan" and "" or "-" .. flavour)
  os.remove(program) -- the last good build must never answer for code that no longer compiles
  local ok, why = build.prepare(spec)
  local r = ok and build.link(spec, flavour, wb.basename(program))
    or { ok = false, error = why, log = why, warnings = 0 }
  if r.ours then
    wb.fail(r.error)
  end
  -- The compiler names the file as it saw it, in its build folder: name it where it is.
  local log = (r.log or ""):gsub("%f[%w]([%w_%-]+%.[ch]):(%d+)", function(file, line)
    return (wb.exists(opts.from .. "/" .. file) and (opts.from .. "/" .. file) or file) .. ":" .. line
  end)
  wb.write_file(out .. "/build.log", log)
  if r.ok then
    wb.copy(r.program, program)
    return program, log
  end
  if r.refused then
    io.write("\n", r.refused, "\n")
    return nil
  end
  if r.error and r.error:match("^the compiler did not finish") then
    -- Not the compiler's verdict on the code: the sandbox stopped the build (a limit).
    io.write("\nThe build was stopped before it finished (", r.error:gsub("^the compiler did not finish: ", ""),
      "), so no test could run.", exit_note(opts), "\n")
    return nil
  end
  io.write("\nYour code does not compile yet, so no test could run. The compiler says:\n\n",
    (log:gsub("[^\n]+", "    %0")), "\nFix the first error first: later ones are often caused by it."
    .. exit_note(opts) .. "\n")
  if log:match("implicit declaration of function [^%w]*str[n]?dup") then
    io.write("strdup and strndup are POSIX, not C11: <string.h> declares them only when the file\n"
      .. "starts with the stub's first line, #define _POSIX_C_SOURCE 200809L, above every #include.\n")
  end
  return nil
end

-- The public cases, each with the reference's answers (c.expected). Raises when they are
-- missing or stale, naming the file and what to do.
local function load_cases(ch)
  local list = {}
  local fix = answers.fix(ch)
  for _, path in ipairs(chapter.case_files(ch)) do
    local expected = wb.must(answers.read(chapter.expected_path(path), { path = path, fix = fix }))
    for _, c in ipairs(cases.read(path)) do
      c.expected = expected[c.name]
      if not c.expected then
        wb.fail(c.origin .. ": case " .. c.name .. " has no expected answers; " .. fix)
      end
      list[#list + 1] = c
    end
  end
  return list
end

-- ------------------------------------------------------------------ verdicts

-- A result's verdict: "passed", "wrong" (it ended well, with other answers), or how it ended;
-- result.case is its case c.
local function judge(c, result)
  result.case, result.comparison = c, compare.items(c.expected, result.items)
  result.verdict = result.kind ~= "ok" and result.kind or (result.comparison.first and "wrong" or "passed")
  return result
end

-- Judged results grouped by function, in the order of the cases: funcs (names) and
-- counts[func] = { passed, total, failing = { {case, result} } }.
local function group(results)
  local funcs, counts = {}, {}
  for _, r in ipairs(results) do
    if not counts[r.func] then
      funcs[#funcs + 1] = r.func
      counts[r.func] = { passed = 0, total = 0, failing = {} }
    end
    local count = counts[r.func]
    count.total = count.total + 1
    if r.verdict == "passed" then
      count.passed = count.passed + 1
    else
      count.failing[#count.failing + 1] = { case = r.case, result = r }
    end
  end
  return funcs, counts
end

-- True when every case of the function failed, each first with the shipped stub's answer:
-- most likely not written yet, and one line says so (unless cases were asked for by name:
-- then they are shown).
local function not_written(ch, opts, count)
  if count.passed > 0 or opts.only or not ch.stub then
    return false
  end
  for _, f in ipairs(count.failing) do
    local first = f.result.comparison.first
    local actual = first and first.actual or ""
    if f.result.verdict ~= "wrong" or not (actual == ch.stub or actual:sub(1, #ch.stub + 1) == ch.stub .. " ") then
      return false
    end
  end
  return true
end

-- One line for a failing case: the rule it checks, and how it ended unless it merely got a
-- wrong answer, or one right but for writing into its const input.
local function one_line(f)
  local rule, r = wb.escape(f.case.meta.why or ""), f.result
  if r.verdict == "wrong" then
    local first = r.comparison.first
    if first.key:match("^changed:") and not first.expected then
      return string.format("%s (your code changed the %s)", rule, first.key:sub(9))
    end
    return rule
  end
  return rule == "" and r.status or string.format("%s (%s)", rule, r.status)
end

-- ------------------------------------------------------------------ the report

local function progress_line(funcs, counts)
  local parts = {}
  for _, func in ipairs(funcs) do
    parts[#parts + 1] = string.format("%s %d/%d", func, counts[func].passed, counts[func].total)
  end
  return table.concat(parts, " · ")
end

local function see_one(ch, name)
  return string.format("make exercise-%s TEST=%s", ch.id, name)
end

-- A function's failing runs in a row that show one hint before the next one is shown.
local RUNS_PER_HINT = 3

local function tier_of(runs, tiers)
  return math.min(1 + (runs - 1) // RUNS_PER_HINT, #tiers)
end

-- The hint to show for a function that failed this run (state counts its failing runs).
local function write_hint(ch, hints, state, func)
  local tiers = hints[func] or {}
  local runs = state[func] or 1
  local tier = tier_of(runs, tiers)
  local hint = tiers[tier]
  if hint then
    io.write(string.format("\n  Hint %d of %d for %s (%s/%s, \"%s, hint %d\"):\n", tier, #tiers, func, ch.dir,
      ch.handout or "README.md", func, tier))
    io.write((hint.text:gsub("[^\n]+", "    %0")), "\n")
    if tier < #tiers then
      local wait = RUNS_PER_HINT * tier - runs + 1
      io.write(string.format("    (Still stuck? Hint %d shows in %d failing run%s from now; make exercise-%s HINT=%s "
        .. "shows it at once.)\n", tier + 1, wait, wait == 1 and "" or "s", ch.id, func))
    end
  end
end

-- make exercise-N HINT=FUNCTION: the hint after the one its failing runs last showed (hint 1
-- when none was), which from then on is the one they show.
local function ask_hint(ch, hints, state_path, func)
  local tiers = hints[func]
  if not tiers then
    wb.fail(string.format("%s/%s has no hints for '%s'; it has hints for: %s", ch.dir,
      ch.handout or "README.md", func, table.concat(sorted_keys(hints), ", ")))
  end
  local state = read_state(state_path)
  local tier = state[func] and math.min(tier_of(state[func], tiers) + 1, #tiers) or 1
  state[func] = RUNS_PER_HINT * (tier - 1) + 1
  write_state(state_path, state)
  write_hint(ch, hints, state, func)
  return 0
end

local function write_failure(ch, f)
  local r = f.result
  io.write(string.format("\n✗ %s  (%s)\n", r.name, feedback.LABEL[r.verdict] or r.verdict))
  io.write(table.concat(feedback.case_lines(ch, f.case, r, r.comparison), "\n"), "\n")
  local said = feedback.printed(r.stdout, 10)
  if #said > 0 then
    io.write("  Your code printed:\n", table.concat(said, "\n"), "\n")
  end
end

-- The full report of one function with failing cases.
local function write_function(ch, opts, hints, state, func, count)
  io.write("\n", string.rep("=", 78), "\n")
  if not_written(ch, opts, count) then
    io.write(string.format("%s: not written yet? Every test (%d) got %s, what the shipped stub "
      .. "returns.\n  Start with the handout's section on %s, then run its first test alone:\n    %s\n",
      func, count.total, ch.stub, func, see_one(ch, count.failing[1].result.name)))
    return
  end
  io.write(string.format("%s: %d of %d tests fail\n", func, #count.failing, count.total))
  for i = 1, math.min(opts.details, #count.failing) do
    write_failure(ch, count.failing[i])
  end
  if #count.failing > opts.details then
    io.write(string.format("\n  The other %d failing tests of %s, each with the rule it checks:\n",
      #count.failing - opts.details, func))
    for i = opts.details + 1, #count.failing do
      io.write(string.format("  ✗ %s: %s\n", count.failing[i].result.name, one_line(count.failing[i])))
    end
    io.write("  See one in full: ", see_one(ch, count.failing[opts.details + 1].result.name), "\n")
  end
  write_hint(ch, hints, state, func)
end

local function write_warnings(log)
  if log and log:match("warning:") then
    io.write("\nThe compiler warns (warnings often point at real bugs):\n", (log:gsub("[^\n]+", "    %0")))
  end
end

-- The chapter's next steps (its next_steps: commands with what each does, and sentences),
-- once the student's code passes every public case. Not after a run of some cases by name
-- (the others may fail) nor after the reference's run (there is nothing of the student's to
-- profile or hand in). The words line up in a column after the short commands (of fewer than
-- LONG characters); a longer command has its words on the next line.
-- (M.next_steps is the text, which the edition's README quotes.)
function M.next_steps(ch)
  local LONG, column, out = 30, 0, { "Next steps:" }
  for _, step in ipairs(ch.next_steps or {}) do
    if type(step) == "table" and #step[1] < LONG then
      column = math.max(column, #step[1] + 2)
    end
  end
  for _, step in ipairs(ch.next_steps or {}) do
    if type(step) == "table" then
      local command, what = step[1], step[2]
      if #command < LONG then
        out[#out + 1] = "  " .. command .. string.rep(" ", column - #command) .. what
      else
        out[#out + 1] = "  " .. command .. "\n  " .. string.rep(" ", column) .. what
      end
    else
      out[#out + 1] = step
    end
  end
  return table.concat(out, "\n") .. "\n"
end

local function write_next_steps(ch, opts)
  if ch.next_steps and not opts.only and opts.from ~= ch.solution then
    io.write("\n", M.next_steps(ch))
  end
end

-- Watch mode: the progress line first, then the first failure in full, then warnings.
local function write_brief(ch, opts, hints, state, funcs, counts, failed, total)
  io.write(progress_line(funcs, counts), "\n")
  if failed == 0 then
    io.write(string.format("All %d tests pass.\n", total))
    write_next_steps(ch, opts)
  else
    io.write(string.format("%d of %d tests fail.\n", failed, total))
    local stubs, first = {}, nil
    for _, func in ipairs(funcs) do
      local count = counts[func]
      if not_written(ch, opts, count) then
        stubs[#stubs + 1] = func
      elseif #count.failing > 0 and not first then
        first = func
      end
    end
    if #stubs > 0 then
      io.write(table.concat(stubs, ", "), ": not written yet? (every test got ", ch.stub,
        ", what the shipped stubs return)\n")
    end
    if first then
      io.write("The first failure:\n")
      write_failure(ch, counts[first].failing[1])
      write_hint(ch, hints, state, first)
    end
    io.write("\n(make exercise-", ch.id, " shows every failure.)\n")
  end
end

local function write_tsv(path, results)
  local lines = {}
  for i, r in ipairs(results) do
    lines[i] = r.name .. "\t" .. r.verdict .. "\t" .. r.status .. "\n"
  end
  wb.write_file(path, table.concat(lines))
end

-- The cases of list run by the checker program, each in its own forked child (runner.run_each,
-- in OUT/cases): the results, or nil and why the checker could not run.
local function run_cases(ch, program, out, list, jobs, on_result)
  local workdir = wb.realpath(out) .. "/cases"
  wb.rm_rf(workdir)
  wb.mkdir_p(workdir)
  cases.write_tsv(out .. "/cases.tsv", list)
  return runner.run_each({ checker = program, cases = wb.realpath(out .. "/cases.tsv"), workdir = workdir,
    limits = ch.limits, jobs = jobs, sources = ch.student_files, on_result = on_result })
end

-- Every case run and judged: the results and the build's log, or nil when the build failed
-- (it said why). Raises when the cases could not run.
function M.run(ch, opts, out)
  local list = load_cases(ch)
  if opts.only then
    local kept = {}
    for _, c in ipairs(list) do
      for prefix in opts.only:gmatch("[^,]+") do
        if c.name:sub(1, #prefix) == prefix then
          kept[#kept + 1] = c
          break
        end
      end
    end
    list = kept
  end
  local program, log = build_checker(ch, opts, out)
  if not program then
    return nil
  end
  local by_name = {}
  for _, c in ipairs(list) do
    by_name[c.name] = c
  end
  -- One character per finished case, so that a slow run visibly makes progress (not in watch
  -- mode, whose report starts with the progress line).
  local marks = { passed = ".", wrong = "F", crashed = "C", timeout = "T", sanitizer = "S", leak = "L", output = "O",
    memory = "M", exit = "E" }
  local done = 0
  local function show(...)
    if not opts.brief then
      io.write(...)
      io.stdout:flush()
    end
  end
  show("Running the tests: ")
  local results, problem = run_cases(ch, program, out, list, opts.jobs, function(r)
    judge(by_name[r.name], r)
    done = done + 1
    show(marks[r.verdict] or "X", done % 60 == 0 and "\n                   " or "")
  end)
  show("\n")
  if not results then
    wb.fail("could not run the cases: " .. problem)
  end
  return results, log
end

-- `make expected`, for the public cases: the reference's answers, from the same build and
-- run as the student's, into tests/expected/. Raises when the reference fails a case.
function M.write_expected(ch)
  local out = "build/exercise/" .. ch.id .. "-expected"
  wb.rm_rf(out)
  wb.mkdir_p(out)
  sandbox.use("none") -- only the reference runs here, and it is ours
  local program = build_checker(ch, { from = ch.solution }, out)
  if not program then
    wb.fail("the reference " .. ch.solution .. " does not build")
  end
  local written = {}
  for _, path in ipairs(chapter.case_files(ch)) do
    local list = cases.read(path)
    local results, problem = run_cases(ch, program, out, list, wb.nproc())
    if not results then
      wb.fail("could not run the reference on " .. path .. ": " .. problem)
    end
    local answered = {}
    for i, r in ipairs(results) do
      if r.kind ~= "ok" then
        wb.fail(string.format("%s: the reference failed case %s: %s", list[i].origin, r.name, r.status))
      end
      answered[i] = { name = r.name, items = r.items }
    end
    answers.write(chapter.expected_path(path), { path = path, made_by = ch.solution, cases = answered })
    written[#written + 1] = { path = chapter.expected_path(path), cases = #answered }
  end
  return written
end

-- make exercise-N BUDGET=STACKS: the student's build without sanitizers, counted (speed.lua).
local function budget(ch, opts, out)
  if not ch.speed then
    wb.fail("exercise " .. ch.id .. " has no speed budget")
  end
  if not speed.have_valgrind() then
    io.write(string.format("The speed budget counts instructions with valgrind, which is not installed here.\n"
      .. "  make setup-profile installs it (as root, or with sudo); otherwise ask whoever runs this machine to\n"
      .. "  install the Debian package valgrind. make exercise-%s runs the tests without it.\n", ch.id))
    return 2
  end
  local program = build_checker(ch, opts, out, "fast")
  return program and speed.budget(ch, program, out, opts.budget) or 1
end

function M.main(argv)
  local opts = parse_args(argv)
  local ch = chapter.load(opts.chapter)
  opts.from = (opts.from or ch.dir):gsub("/+$", "")
  if opts.cpu then
    ch.limits = setmetatable({ cpu = opts.cpu }, { __index = ch.limits })
  end
  local out = opts.out or ("build/exercise/" .. ch.id .. (opts.from == ch.solution and "-solution" or ""))
  wb.mkdir_p(out)
  sandbox.use("none") -- the student's own code, on the student's own machine
  if opts.build_only then
    return build_checker(ch, opts, out) and 0 or 1
  end
  if opts.budget then
    return budget(ch, opts, out)
  end
  local hints = M.read_hints(ch.dir .. "/" .. (ch.handout or "README.md"))
  local state_path = out .. "/hint-state"
  if opts.hint then
    return ask_hint(ch, hints, state_path, opts.hint)
  end
  local results, log = M.run(ch, opts, out)
  if not results then
    return opts.brief and 0 or 1 -- the build said why
  end
  if #results == 0 then
    io.write("No test matches '", tostring(opts.only), "' (names look like FUNCTION.ID: see exercises/", ch.id, "/tests).\n")
    return 2
  end
  write_tsv(out .. "/results.tsv", results)
  local funcs, counts = group(results)
  local state = read_state(state_path)
  local failed = 0
  for _, func in ipairs(funcs) do
    local count = counts[func]
    failed = failed + #count.failing
    -- A run of some cases by name counts for nothing: it shows the hint the last full run did.
    if #count.failing == 0 and not opts.only then
      state[func] = nil
    elseif #count.failing > 0 and not opts.only and not not_written(ch, opts, count) then
      state[func] = (state[func] or 0) + 1 -- a stub's answer is no attempt: no hint used up
    end
  end
  if not opts.only then
    write_state(state_path, state)
  end
  if opts.brief then
    write_brief(ch, opts, hints, state, funcs, counts, failed, #results)
    write_warnings(log)
    return 0 -- watch mode goes on either way
  end
  write_warnings(log)
  io.write("(. passed, F wrong result, C crashed, T timed out, S sanitizer report, L leak, O too much output, "
    .. "M too much memory, E exited)\n")
  io.write(string.format("Ran %d test%s of %s, each in its own process (time limit %s s of CPU time).\n",
    #results, #results == 1 and "" or "s", opts.from, ch.limits.cpu))
  for _, func in ipairs(funcs) do
    if #counts[func].failing > 0 then
      write_function(ch, opts, hints, state, func, counts[func])
    end
  end
  io.write("\n", string.rep("=", 78), "\n")
  if failed == 0 then
    io.write(#results == 1 and "The test passes.\n" or string.format("All %d tests pass.\n", #results))
  else
    io.write(string.format("%d of %d tests fail, so the exit status is 1%s.\n", failed, #results, MAKE_SAYS))
  end
  io.write(progress_line(funcs, counts), "\n")
  if failed > 0 then
    return 1
  end
  write_next_steps(ch, opts)
  return 0
end

if arg and arg[0] and arg[0]:match("exercise%.lua$") then
  wb.exit_with("make exercise", M.main, arg)
end
return M
