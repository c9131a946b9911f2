-- dashboard.lua: a batch's dashboard, OUT/index.html (batch.lua writes it after scores.csv):
-- the score histogram, each check's pass rate, the mix of check outcomes, the most common
-- first differences, the similarity table, and a link to every submission's report.
--
-- One static page, no script: it reads the same with scripts disabled, and the plot is an
-- inline SVG drawn here (bars of BINS equal ranges of the maximum score). Names, keys and
-- messages are the students' text: cut to report.QUOTE bytes, escaped (wb.escape), then
-- HTML entities; a link to a report percent-encodes the folder's name.

local wb = require("vm.lib.workbook")
local report = require("grader.report")
local html = require("vm.lib.html")

local M = {}

local BINS = 10
-- Text (student or not) as HTML: cut, escaped, entities.
function M.html(text)
  return html.escape(wb.escape(wb.shorten(tostring(text), report.QUOTE)))
end

local function url(name)
  return (name:gsub("[^%w%-%._~]", function(c)
    return string.format("%%%02X", c:byte())
  end))
end

-- The histogram of the graded scores as an SVG: BINS bars over 0..max, the last one closed.
function M.histogram(scores, max)
  local counts, top = {}, 1
  for i = 1, BINS do
    counts[i] = 0
  end
  for _, s in ipairs(scores) do
    local bin = max > 0 and math.min(BINS, math.floor(s / max * BINS) + 1) or 1
    counts[bin] = counts[bin] + 1
    top = math.max(top, counts[bin])
  end
  local w, h, bar = 40 * BINS + 40, 220, 36
  local out = { string.format('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img" '
    .. 'aria-label="score histogram">', w, h + 56) }
  for i, n in ipairs(counts) do
    local height = math.floor(n / top * h + 0.5)
    local x = 20 + (i - 1) * 40
    out[#out + 1] = string.format('<rect class="bar" data-count="%d" x="%d" y="%d" width="%d" height="%d" fill="#4a7">'
      .. "<title>%d submissions from %s to %s points</title></rect>", n, x, 20 + h - height, bar, height, n,
      wb.format_number(max * (i - 1) / BINS), wb.format_number(max * i / BINS))
    out[#out + 1] = string.format('<text x="%d" y="%d" font-size="11" text-anchor="middle">%d</text>', x + bar // 2,
      h + 34, (i - 1) * 100 // BINS)
    if n > 0 then
      out[#out + 1] = string.format('<text x="%d" y="%d" font-size="11" text-anchor="middle">%d</text>', x + bar // 2,
        16 + h - height, n)
    end
  end
  out[#out + 1] = string.format('<text x="%d" y="%d" font-size="11" text-anchor="middle">%% of the maximum score</text>',
    w // 2, h + 50)
  return table.concat(out) .. "</svg>"
end

local function table_html(class, head, rows)
  local out = { '<table class="' .. class .. '"><tr>' }
  for _, h in ipairs(head) do
    out[#out + 1] = "<th>" .. h .. "</th>"
  end
  out[#out + 1] = "</tr>"
  for _, row in ipairs(rows) do
    out[#out + 1] = "<tr><td>" .. table.concat(row, "</td><td>") .. "</td></tr>"
  end
  return table.concat(out) .. "</table>"
end

-- Writes OUT/index.html. stats: rows (batch.summarise's), checks (in report order: name,
-- passed, total), outcomes (outcome -> count), differences (list of { check, key, n }), similarity
-- (the table's lines, or nil), chapter.
function M.write(out, stats)
  local scores, subs = {}, {}
  local max = 0
  for _, row in ipairs(stats.rows) do
    if row.score then
      scores[#scores + 1] = row.score
      max = math.max(max, row.max or 0)
    end
    local link = row.score and string.format('<a href="%s/%s/report.txt">report</a>', url(row.name), stats.chapter)
      or (wb.exists(out .. "/" .. row.name .. ".err") and string.format('<a href="%s.err">why</a>', url(row.name)) or "")
    subs[#subs + 1] = { '<span class="name">' .. M.html(row.name) .. "</span>",
      '<span class="score">' .. wb.format_number(row.score) .. "</span>",
      wb.format_number(row.max), link, M.html(row.error or "") }
  end
  local checks = {}
  for _, c in ipairs(stats.checks) do
    checks[#checks + 1] = { M.html(c.name), string.format("%d of %d", c.passed, c.total),
      string.format("%.0f %%", c.total > 0 and 100 * c.passed / c.total or 0) }
  end
  local outcomes = {}
  for _, o in ipairs(stats.outcomes) do
    outcomes[#outcomes + 1] = { M.html(o.name), tostring(o.n) }
  end
  local diffs = {}
  for i, d in ipairs(stats.differences) do
    if i > 15 then
      break
    end
    diffs[#diffs + 1] = { tostring(d.n), M.html(d.check), M.html(d.key) }
  end
  local page = {
    '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>batch: chapter ' .. M.html(stats.chapter)
      .. "</title>",
    "<style>body{font-family:sans-serif;max-width:70em;margin:1em auto}table{border-collapse:collapse;margin:.5em 0}"
      .. "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}</style></head><body>",
    string.format("<h1>Chapter %s: %d submissions, %d graded</h1>", M.html(stats.chapter), #stats.rows, #scores),
    '<p>Files: <a href="scores.csv">scores.csv</a>, <a href="grades.csv">grades.csv</a> (for an LMS), '
      .. '<a href="failures.txt">failures.txt</a>' .. (wb.exists(out .. "/similarity/similarity.txt")
      and ', <a href="similarity/similarity.txt">similarity.txt</a>' or "") .. ".</p>",
    "<h2>Scores</h2>" .. M.histogram(scores, max),
    "<h2>Checks: pass rate among the submissions that built</h2>" .. table_html("checks", { "check", "passed", "rate" }, checks),
    "<h2>Outcomes of the checks</h2>" .. table_html("outcomes", { "outcome", "checks" }, outcomes),
    "<h2>Most common first differences</h2>" .. table_html("differences", { "submissions", "check", "at" }, diffs),
  }
  if stats.similarity then
    local pre = {}
    for _, line in ipairs(stats.similarity) do
      pre[#pre + 1] = M.html(line)
    end
    page[#page + 1] = "<h2>Code similarity</h2><pre>" .. table.concat(pre, "\n") .. "</pre>"
  end
  page[#page + 1] = "<h2>Submissions</h2>" .. table_html("submissions", { "submission", "score", "max", "report", "error" }, subs)
  page[#page + 1] = "</body></html>\n"
  wb.write_file(out .. "/index.html", table.concat(page, "\n"))
end

return M
