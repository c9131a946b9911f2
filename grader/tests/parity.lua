-- parity.lua: does the student's run report wrong exactly what the grader marks wrong, on the
-- same inputs? grader_spec.lua's "parity" block asks it of every candidate its verify-fixtures
-- block graded (the reference, the stubs, every mutant).
--
-- The two worlds share the checker and the comparison (exercises/harness/compare.lua) but run
-- differently. The grader runs one sandboxed process per check (engine.lua, runner.start and
-- finish); what a graded run leaves is read back: every check's case (gen/case-N.tsv), the
-- answers of its process (runs/check-N.out) and how it ended (its line in results.json). The
-- student's run forks one child per case inside one sandbox (runner.run_each, as exercise.lua
-- runs it, with the chapter's limits); here it runs every check's case of a candidate at once,
-- each case renamed FUNCTION.check_N so their answers keep apart, with the program the grader
-- built from the candidate (one build for both worlds: exercises/harness/build.lua).
--
-- Each world compares with the reference's answers as it made them itself: the grader's are the
-- reference candidate's own graded answers (it scores full marks, so they are exactly what the
-- grader compared with: verify-fixtures checks that), the student's run's come from the
-- reference's program run the student's way, as `make expected` makes them. An item is
-- reported wrong when compare.items lists its key as a difference; a case that did not end
-- well adds the item "(run) KIND" (crashed, timeout, sanitizer, leak, ...), so a leak or a
-- crash reported in one world only is a difference too.

local wb = require("vm.lib.workbook")
local report = require("grader.report")
local answers = require("exercises.harness.answers")
local compare = require("exercises.harness.compare")
local runner = require("exercises.harness.runner")
local sandbox = require("exercises.harness.sandbox")

local M = {}

-- How a check ended, from the first line of its output in results.json (report.lua's verdict):
-- "passed", "all N answers match...", "wrong answers: ..." for a run that ended well, else the
-- run's status line, perhaps followed by " (M of N answers right)".
function M.verdict_kind(line)
  if line:match("^passed$") or line:match("^all %d+ answers match") or line:match("^wrong answers: ") then
    return "ok"
  end
  local status = line:gsub(" %(%d+ of %d+ answers right%)$", "")
  if status == runner.STOPPED_EARLY then
    return "exit"
  end
  return sandbox.kind(status)
end

-- A graded candidate (OUT/NAME of a batch, for chapter id): { [N] = { tsv, items, kind, title } }
-- for every check whose process ran (the speed check, when it ran, is not one of them).
function M.graded(dir, id)
  local result = report.read_json(dir .. "/results.json")
  if type(result) ~= "table" or type(result.tests) ~= "table" then
    return nil, dir .. "/results.json is missing or unreadable"
  end
  local checks = {}
  for _, t in ipairs(result.tests) do
    local n = tonumber(tostring(t.number):match("^" .. id .. "%.(%d+)$"))
    local out = n and wb.read_file(string.format("%s/%s/runs/check-%d.out", dir, id, n))
    if out then
      checks[n] = { tsv = string.format("%s/%s/gen/case-%d.tsv", dir, id, n), items = answers.parse(out),
        kind = M.verdict_kind(t.output:match("^[^\n]*")), title = t.name }
    end
  end
  return checks
end

-- The numbers of a graded candidate's checks, in order.
function M.numbers(checks)
  local list = {}
  for n in pairs(checks) do
    list[#list + 1] = n
  end
  table.sort(list)
  return list
end

-- Every check's case in one cases file, the case of check N renamed FUNCTION.check_N; returns
-- the old name of each new one.
local function combined_cases(checks, path)
  local parts, names = {}, {}
  for _, n in ipairs(M.numbers(checks)) do
    local text = assert(wb.read_file(checks[n].tsv), checks[n].tsv)
    local name, rest = text:match("^([^\t\n]*)(\t.*)$")
    assert(name and name:match("^[%w_]+%.[%w_]+$"), checks[n].tsv .. " does not start with a case name")
    local renamed = name .. "_" .. n
    names[renamed] = n
    parts[#parts + 1] = renamed .. rest
  end
  wb.write_file(path, table.concat(parts))
  return names
end

-- The student's way: program (a checker built with the candidate) on every check's case, each
-- in its own forked child under one sandbox. Returns { [N] = { items, kind } }, or raises.
function M.run_student(program, checks, workdir, limits, sources)
  wb.rm_rf(workdir)
  wb.mkdir_p(workdir .. "/cases")
  local cases = workdir .. "/cases.tsv"
  local names = combined_cases(checks, cases)
  local results, problem = runner.run_each({ checker = wb.realpath(program), cases = wb.realpath(cases),
    workdir = wb.realpath(workdir .. "/cases"), limits = limits, jobs = wb.nproc(), sources = sources })
  if not results then
    error("the student's run could not run: " .. problem, 0)
  end
  local by_check = {}
  for _, r in ipairs(results) do
    by_check[assert(names[r.name], r.name)] = { items = r.items, kind = r.kind }
  end
  return by_check
end

-- The items reported wrong: the keys compare.items finds different, and "(run) KIND" for a run
-- that did not end well. A set (key -> true).
function M.wrong(expected, run)
  local set = {}
  for _, d in ipairs(compare.items(expected, run.items).differences) do
    set[d.key] = true
  end
  if run.kind ~= "ok" then
    set["(run) " .. run.kind] = true
  end
  return set
end

local function only_in(a, b)
  local list = {}
  for key in pairs(a) do
    if not b[key] then
      list[#list + 1] = key
    end
  end
  table.sort(list)
  return list
end

-- The checks where the two worlds disagree, as lines naming the items each reports alone (at
-- most `most` keys each), and how many items were reported wrong in all (by both). grader and
-- student: a candidate's runs in each world; grader_ref and student_ref: the reference's.
function M.disagreements(grader, student, grader_ref, student_ref, most)
  local lines, wrong = {}, 0
  for _, n in ipairs(M.numbers(grader)) do
    local g = M.wrong(grader_ref[n].items, grader[n])
    local s = student[n] and M.wrong(student_ref[n].items, student[n]) or { ["(run) not run"] = true }
    local only_g, only_s = only_in(g, s), only_in(s, g)
    for _ in pairs(g) do
      wrong = wrong + 1
    end
    if #only_g > 0 or #only_s > 0 then
      local function some(list)
        local shown = { table.unpack(list, 1, math.min(#list, most or 5)) }
        return #list == 0 and "nothing" or (table.concat(shown, ", ") .. (#list > #shown and ", ..." or ""))
      end
      lines[#lines + 1] = string.format("check %d (%s): only the grader marks %d wrong: %s; only the student's run "
        .. "reports %d: %s", n, grader[n].title, #only_g, some(only_g), #only_s, some(only_s))
    end
  end
  return lines, wrong
end

return M
