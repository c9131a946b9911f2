-- report.lua: one grading result, written for people and for Gradescope.
--
-- The text report puts one line per check (points, status, what was
-- checked) and, under a check that lost points, the first difference as
-- input / expected / actual, so a student can reproduce it. The JSON follows
-- Gradescope's results.json (score, execution_time, output, tests[] with
-- score, max_score, status, name, number, output, tags, visibility); PrairieLearn's is made
-- from the same list of checks (M.checks); both are encoded by lua-dkjson.

local wb = require("vm.lib.workbook")
local feedback = require("exercises.harness.feedback")
local json = require("dkjson")

local M = {}

-- How much of one piece of text the student controls (a key, an answer, a folder name, a
-- build error) the grader quotes: M.QUOTE bytes; a line of program output or of compiler
-- warnings, M.LINE. Every such piece is cut (wb.shorten) before it is stored, in every
-- format (report.txt, results.json, and batch.lua's scores.csv), because each format keeps
-- its own copy: one 7 MB key in three checks made an 88 MB report, a 220 MB results.json
-- and a grader at 1.3 GB. Cut first, then escaped: escaping 7 MB would cost 28 MB first.
M.QUOTE, M.LINE = 400, 200

-- Text the student's code controls (its output, its compiler messages, a sanitizer message
-- it printed) with control characters made visible: an escape sequence must not rewrite
-- the instructor's terminal when the report is printed. Bytes past 0x7f too: the C1 controls
-- (CSI, OSC) also come as U+009B, U+009D in UTF-8 and as raw 0x9B, 0x9D, and terminals obey them.
-- Each such byte is \xHH as in wb.escape, but this is a guard, not that escape: keys and answers
-- arrive escaped already (exercises/harness/checker.h), and a backslash escaped again would show
-- the student's \n as \\n; a TAB (in a compiler's line, say) shows as four blanks.
local function visible(text)
  return (tostring(text):gsub("[%z\1-\31\127-\255]", function(c)
    return c == "\t" and "    " or string.format("\\x%02x", c:byte())
  end))
end

-- The student's text, cut to M.QUOTE bytes and made visible.
local function quote(text)
  return visible(wb.shorten(tostring(text), M.QUOTE))
end

-- What the checked code answered when only trivial answers were right in it.
local TRIVIAL_NOTE = "answers that code doing nothing would also give count only as far as %s gets real "
  .. "answers right elsewhere (%d%% here)"

-- One line saying how a check went. "passed" only with full points: a status never
-- contradicts the score next to it.
local function verdict(check)
  if check.skipped then
    return check.skipped
  end
  local status = quote(check.status or "")
  local full = (check.score or 0) >= (check.points or 0) - 1e-9
  if check.kind == "speed" or check.class == "build" or check.class == "wrong" then
    return status
  end
  local note = ""
  if (check.matched_trivial or 0) > 0 and (check.trivial_weight or 1) < 1 then
    note = "; " .. string.format(TRIVIAL_NOTE, check.func, math.floor((check.trivial_weight or 0) * 100))
  end
  if check.class == "ok" and check.matched == check.total then
    return full and "passed" or ("all " .. check.total .. " answers match" .. note)
  end
  if check.class == "ok" then
    return string.format("wrong answers: %d of %d right%s", check.matched, check.total, note)
  end
  if check.total and check.total > 0 then
    return string.format("%s (%d of %d answers right)", status, check.matched or 0, check.total)
  end
  return status
end

-- The lines explaining a lost point: the first difference (its answers in the student's own
-- run's words: feedback.said), and hints.
local function details(check, ex)
  local out = {}
  local first = check.first
  if first and check.score < check.points then
    local input = check.describe and check.describe(first.key) or nil
    -- The key and the answer come from the results channel, which the student's code can
    -- write to itself: as much its text as its output is.
    out[#out + 1] = "first difference at " .. quote(first.key) .. ":"
    if input then -- built from the key: a needle, say, the student's text too
      out[#out + 1] = "  input:    " .. quote(input)
    end
    out[#out + 1] = "  expected: " .. quote(feedback.said(ex, check.func, first.key, first.expected, true))
    out[#out + 1] = "  actual:   " .. quote(feedback.said(ex, check.func, first.key, first.actual, check.class == "ok"))
      .. (first.twice and feedback.TWICE or "")
  end
  if check.where then
    out[#out + 1] = "in your code: " .. quote(check.where) -- from a stack trace it may print
  end
  if check.class == "leak" then
    out[#out + 1] = "memory leaked: answers keep half their credit; free what you malloc"
  end
  if check.output and check.output ~= "" and check.class ~= "ok" then
    out[#out + 1] = "program output (first lines):"
    local n = 0
    for line in check.output:gmatch("[^\n]+") do
      n = n + 1
      if n > 8 then
        out[#out + 1] = "  ..."
        break
      end
      out[#out + 1] = "  " .. visible(wb.shorten(line, M.LINE))
    end
  end
  return out
end

-- The checks of a result as the platforms list them: name, score, max (0 for a skipped
-- check), passed, outcome (passed, skipped, wrong answers, or the run's kind: crash, timeout,
-- sanitizer, leak, slow, ...), verdict and details (lines). Every results file is made from this list.
function M.checks(result)
  local list = {}
  for i, check in ipairs(result.checks) do
    local passed = (check.skipped or check.score >= check.points) and true or false
    list[i] = { name = check.title, score = check.score, max = check.skipped and 0 or check.points, passed = passed,
      outcome = check.skipped and "skipped" or passed and "passed" or check.class == "ok" and "wrong answers"
        or tostring(check.class), verdict = verdict(check), details = details(check, result.exercise),
      tags = { check.func, check.group } }
  end
  return list
end

-- The report as text.
function M.text(result)
  local out = {}
  local function say(fmt, ...)
    out[#out + 1] = string.format(fmt, ...)
  end
  say("Chapter %s: %s", result.chapter, result.title)
  say("submission: %s", quote(result.submission)) -- in a batch, folders the student named
  say("seed: %d%s (repeat this run with SEED=%d)", result.seed,
    result.pool and string.format(", one of the seed pool's %d", result.pool) or "", result.seed)
  say("fixtures: %s (%d files)", result.fixtures_dir or "?", #result.fixtures)
  say("isolation: %s", result.isolation or "?")
  if result.build.ok then
    say("build: ok%s", result.build.warnings > 0 and string.format(" with %d warning(s):", result.build.warnings) or "")
    if result.build.warnings > 0 then
      for line in result.build.log:gmatch("[^\n]+") do
        if line:match("warning:") then
          say("  %s", visible(wb.shorten(line, M.LINE)))
        end
      end
    end
  elseif result.build.refused then
    say("build: %s", quote(result.build.error))
  else
    say("build: FAILED: %s", quote(result.build.error or "?"))
  end
  say("")
  for _, check in ipairs(result.checks) do
    say("%6s/%-5s %s", wb.format_number(check.score), wb.format_number(check.skipped and 0 or check.points), check.title)
    say("             %s", verdict(check))
    for _, line in ipairs(details(check, result.exercise)) do
      say("             %s", line)
    end
  end
  say("")
  say("score: %s / %s", wb.format_number(result.score), wb.format_number(result.max_score))
  return table.concat(out, "\n") .. "\n"
end

-- The Gradescope results table.
function M.gradescope(result, text)
  local tests = {}
  for i, c in ipairs(M.checks(result)) do
    tests[i] = {
      name = c.name,
      number = string.format("%s.%d", result.chapter, i),
      score = c.score,
      max_score = c.max,
      status = c.passed and "passed" or "failed",
      output = table.concat({ c.verdict, table.unpack(c.details) }, "\n"),
      output_format = "text",
      tags = c.tags,
      visibility = "visible",
      extra_data = { outcome = c.outcome },
    }
  end
  local results = M.results(result.score, text, tests)
  results.execution_time = result.execution_time
  results.extra_data = {
    seed = result.seed,
    seed_pool = result.pool,
    submission = wb.shorten(tostring(result.submission), M.QUOTE),
    max_score = result.max_score,
    fixtures = result.fixtures,
    build_ok = result.build.ok,
    -- Why it did not build, for a batch's scores.csv: cut here, escaped there (batch.lua's
    -- csv_field, in the workbook's dialect), so the CSV holds it escaped once, not twice.
    build_error = not result.build.ok and wb.shorten(tostring(result.build.error or "?"), M.QUOTE) or nil,
    isolation = result.isolation,
  }
  return results
end

-- PrairieLearn's external-grader results (its docs, "Grading results"): score from 0 to 1,
-- gradable (false when the code did not build: PrairieLearn then neither awards points nor
-- counts the attempt, and shows format_errors), message, output, tests with points,
-- max_points, message (the verdict) and output (the details). points and max_points at the
-- top too (PrairieLearn keeps fields it does not know), so the points need no division back.
function M.prairielearn(result, text)
  local tests = {}
  for i, c in ipairs(M.checks(result)) do
    tests[i] = { name = c.name, points = c.score, max_points = c.max, message = c.verdict,
      output = table.concat(c.details, "\n") }
  end
  local max = result.max_score
  return { gradable = result.build.ok, score = max > 0 and math.min(1, result.score / max) or 0,
    points = result.score, max_points = max, output = text,
    message = string.format("%s of %s points", wb.format_number(result.score), wb.format_number(max)),
    format_errors = not result.build.ok and quote(result.build.error or "?") or nil, tests = tests }
end

-- The fields of every results.json: the score, the text Gradescope shows, the tests.
function M.results(score, text, tests)
  return { score = score, output = text, output_format = "text", visibility = "visible",
    stdout_visibility = "visible", tests = tests }
end

-- The points of a results.json table per family (a test's tags[2]): got[family],
-- max[family], and the families in report order.
function M.families(results)
  local got, max, order = {}, {}, {}
  for _, t in ipairs(results.tests or {}) do
    local g = t.tags and t.tags[2] or t.name
    if not got[g] then
      order[#order + 1] = g
    end
    got[g] = (got[g] or 0) + t.score
    max[g] = (max[g] or 0) + t.max_score
  end
  return got, max, order
end

-- The value a JSON file holds; nil when the file is missing or not JSON (dkjson's decode).
function M.read_json(path)
  local text = wb.read_file(path)
  return text and json.decode(text)
end

function M.write_json(path, value)
  wb.mkdir_p(wb.dirname(path))
  wb.write_file(path, json.encode(value, { indent = true }) .. "\n")
end

return M
