-- verify.lua: `make verify-fixtures` proves a fixture set separates right from wrong.
--
--   lua5.4 grader/verify.lua [--out OUT] [--seed N] [--speed-lines N] [--no-speed]
--
-- For every chapter it grades, as one batch: the reference solution (must
-- score full marks), the shipped stubs (must score zero) and every mutant in
-- grader/NNN/mutants/mutants.lua (the reference with the mutant's text edits
-- made, grader/mutants.lua; each must lose points in the families it names,
-- keep full marks in the families it says it keeps, and show its status, e.g.
-- a crash). A mutant whose edits no longer fit the reference stops the run
-- before anything is graded.
-- Run it after changing fixtures (FIXTURES=dir works too). Exit status 0 when
-- every expectation holds, 1 when one fails (each is listed), 2 when it could
-- not run. The grader's tests call M.verify with the speed check switched off
-- for all mutants but the slow ones, to stay fast.

local wb = require("vm.lib.workbook")
local engine = require("grader.engine")
local batch = require("grader.batch")
local mutants = require("grader.mutants")
local report = require("grader.report")

local M = {}

-- Lays out one folder per candidate; returns the candidate list.
local function lay_out(chapter, id, subs, with_slow_only)
  local ex = chapter.exercise
  local file = ex.student_files[1]
  local list = {}
  local function add(name, source_text, expect)
    wb.mkdir_p(subs .. "/" .. name)
    wb.write_file(subs .. "/" .. name .. "/" .. file, source_text)
    expect.name = name
    list[#list + 1] = expect
  end
  if not with_slow_only then
    add(id .. "-reference", assert(wb.read_file(ex.solution .. "/" .. file)), { full = true })
    local stub = wb.read_file(ex.dir .. "/" .. file)
    if stub then
      add(id .. "-stubs", stub, { zero = true })
    end
  end
  if not wb.exists("grader/" .. id .. "/mutants/mutants.lua") then
    return list
  end
  for _, m in ipairs(mutants.of(chapter)) do
    if (with_slow_only == nil) or (with_slow_only == (m.slow == true)) then
      add(id .. "-mutant-" .. m.fault:lower(), m.source, { mutant = m })
    end
  end
  return list
end

-- Checks one candidate's result; returns a list of problems and a summary.
local function judge(c, result)
  local problems = {}
  if type(result) ~= "table" or result.score == nil then
    return { c.name .. ": was not graded" }, "not graded"
  end
  local max_total = result.extra_data and result.extra_data.max_score or 0
  local got, max = report.families(result)
  local statuses = {}
  for _, t in ipairs(result.tests or {}) do
    statuses[#statuses + 1] = t.output or ""
  end
  statuses = table.concat(statuses, "\n")
  local summary = string.format("%s / %s", wb.format_number(result.score), wb.format_number(max_total))
  if c.full and result.score < max_total - 1e-9 then
    problems[#problems + 1] = c.name .. ": the reference must score full marks, got " .. summary
  end
  if c.zero and result.score > 1e-9 then
    problems[#problems + 1] = c.name .. ": the stubs must score zero, got " .. summary
  end
  local m = c.mutant
  if m then
    if result.score >= max_total - 1e-9 then
      problems[#problems + 1] = string.format("%s (%s): not caught, full marks", c.name, m.what)
    end
    for _, g in ipairs(m.loses) do
      if max[g] and max[g] > 0 and (got[g] or 0) >= max[g] - 1e-9 then
        problems[#problems + 1] = string.format("%s (%s): lost nothing in %s", c.name, m.what, g)
      end
    end
    for _, g in ipairs(m.keeps or {}) do
      if max[g] and (got[g] or 0) < max[g] - 1e-9 then
        problems[#problems + 1] = string.format("%s (%s): should keep full marks in %s, got %s of %s", c.name,
          m.what, g, wb.format_number(got[g] or 0), wb.format_number(max[g]))
      end
    end
    if m.status and not statuses:match(m.status) then
      problems[#problems + 1] = string.format("%s (%s): no check reports \"%s\"", c.name, m.what, m.status)
    end
  end
  return problems, summary
end

-- Runs a batch (cmd, its output on stdout), keeping its output in `log` and passing its
-- progress lines (one per graded candidate) to say. True when it succeeded.
local function follow_batch(cmd, log, say)
  local pipe = assert(io.popen(cmd))
  local kept = {}
  for line in pipe:lines() do
    kept[#kept + 1] = line
    if batch.is_progress_line(line) then
      say(line)
    end
  end
  local ok = pipe:close()
  wb.write_file(log, table.concat(kept, "\n") .. "\n")
  return ok
end

-- Grades the candidates and checks every expectation. opts: out, seed,
-- speed_lines, no_speed (bool: speed off except for slow mutants), fixtures
-- (a fixture folder instead of the default), say (called with each progress line).
-- Returns problems (list), lines (a readable summary).
function M.verify(opts)
  local problems, lines = {}, {}
  local say = opts.say or function() end
  for _, id in ipairs(engine.chosen(opts.chapter)) do
    local chapter = engine.load_chapter(id)
    local runs = opts.no_speed and { { slow = false, speed = false }, { slow = true, speed = true } }
      or { { speed = true } }
    for _, run in ipairs(runs) do
      local subs = opts.out .. "/submissions"
      wb.rm_rf(subs)
      local candidates = lay_out(chapter, id, subs, run.slow)
      if #candidates > 0 then
        local prefix = (run.speed and "" or "GRADE_NO_SPEED=1 ")
          .. (opts.fixtures and ("FIXTURES=" .. wb.quote(opts.fixtures) .. " ") or "")
        -- batch.lua spawns grade.lua processes; the variables reach them through the environment.
        local out = opts.out .. "/graded" .. (run.slow and "-slow" or "")
        local cmd = string.format("%s%s grader/batch.lua %s --chapter %s --skip-reference --out %s --seed %d %s 2>&1",
          prefix, os.getenv("LUA") or "lua5.4", wb.quote(subs), id, wb.quote(out), opts.seed,
          opts.speed_lines and ("--speed-lines " .. opts.speed_lines) or "")
        say(string.format("chapter %s: grading %d candidates (%s)", id, #candidates,
          run.slow and "the slow mutants, with the speed check" or (run.speed and "with the speed check"
            or "without the speed check")))
        if not follow_batch(cmd, opts.out .. "/batch.log", say) then
          wb.fail("grading the candidates failed:\n" .. (wb.read_file(opts.out .. "/batch.log") or ""))
        end
        for _, c in ipairs(candidates) do
          local result = report.read_json(out .. "/" .. c.name .. "/results.json")
          local p, summary = judge(c, result)
          local what = c.mutant and c.mutant.what or (c.full and "reference solution" or "shipped stubs")
          lines[#lines + 1] = string.format("%-4s %-36s %-14s %s", #p == 0 and "ok" or "FAIL", c.name, summary, what)
          for _, x in ipairs(p) do
            problems[#problems + 1] = x
          end
        end
      end
    end
  end
  return problems, lines
end

local function main(argv)
  local parser = wb.parser("verify.lua", "Checks the fixtures separate right from wrong (make verify-fixtures).")
  parser:option("--out", "where the graded candidates go", engine.root .. "/verify")
  parser:option("--seed", "the seed of the randomised checks (default: SEED, else a fresh one)")
    :convert(wb.to_integer)
  parser:option("--speed-lines", "stacks in the speed input"):convert(wb.to_integer)
  parser:flag("--no-speed", "the speed check for the slow mutants only")
  parser:option("--chapter", "this chapter only (default: CHAPTER, else every chapter)")
  local opts = engine.seed_and_lines(wb.parse(parser, argv))
  print("verify-fixtures: seed " .. opts.seed .. " (SEED=" .. opts.seed .. " repeats it)")
  opts.say = function(line)
    print("verify-fixtures: " .. line)
    io.stdout:flush()
  end
  local problems, lines = M.verify(opts)
  print(table.concat(lines, "\n"))
  if #problems > 0 then
    print("\nverify-fixtures: " .. #problems .. " problem(s):")
    for _, p in ipairs(problems) do
      print("  " .. p)
    end
    return 1
  end
  print("\nverify-fixtures: the fixtures separate right from wrong")
  return 0
end

if arg and arg[0] and arg[0]:match("grader/verify%.lua$") then
  wb.exit_with("make verify-fixtures: could not run", main, arg)
end

return M
