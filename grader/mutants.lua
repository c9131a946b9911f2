-- mutants.lua: a chapter's known-wrong implementations, made from its reference.
--
-- grader/N/mutants/mutants.lua lists them. Each mutant carries its fault as literal text
-- edits of the chapter's reference (solutions/N/<the student's file>):
--
--   { fault = "NAME", what = "...", edits = { { from = "text of the reference", to = "faulty text" } }, ... }
--
-- and its source is the reference with those edits made, each `from` found by plain (not
-- pattern) search. Every `from` must occur exactly once in the reference: one the reference
-- no longer holds (it was changed) or holds twice (the edit would be ambiguous) is refused,
-- with a message naming mutants.lua and the mutant, so a change to the reference can never
-- turn a mutant silently into the reference, nor move its fault somewhere else.
-- verify.lua grades the sources; attacks.lua builds attacks on them (an attack's `mutant`).

local wb = require("vm.lib.workbook")

local M = {}

local function refuse(list_path, fault, why)
  wb.fail(string.format("%s: mutant %s: %s", list_path, tostring(fault), why))
end

-- Occurrences of needle in text, by plain search (overlapping ones count: "aa" in "aaa" is 2).
local function occurrences(text, needle)
  local n, at = 0, 1
  while true do
    local i = text:find(needle, at, true)
    if not i then
      return n
    end
    n, at = n + 1, i + 1
  end
end

-- The reference text with one mutant's edits made; list_path and reference_path name the
-- files in messages. Every edit is located in the reference itself, so the edits of one
-- mutant are independent of their order; two that overlap are refused.
function M.apply(reference, mutant, list_path, reference_path)
  local edits = mutant.edits
  if type(edits) ~= "table" or #edits == 0 then
    refuse(list_path, mutant.fault, "no edits (edits = { { from = ..., to = ... } })")
  end
  local spans = {}
  for k, e in ipairs(edits) do
    if type(e.from) ~= "string" or e.from == "" or type(e.to) ~= "string" then
      refuse(list_path, mutant.fault, string.format("edit %d needs a non-empty `from` and a `to` (strings)", k))
    end
    if e.from == e.to then
      refuse(list_path, mutant.fault, string.format("edit %d changes nothing (`to` is its `from`)", k))
    end
    local n = occurrences(reference, e.from)
    if n ~= 1 then
      refuse(list_path, mutant.fault, string.format("edit %d: its `from` text occurs %d times in %s, not once: %q",
        k, n, reference_path, wb.shorten(e.from, 80)))
    end
    local first = reference:find(e.from, 1, true)
    spans[#spans + 1] = { first = first, last = first + #e.from - 1, to = e.to, k = k }
  end
  table.sort(spans, function(a, b)
    return a.first < b.first
  end)
  local parts, at = {}, 1
  for i, span in ipairs(spans) do
    if i > 1 and span.first <= spans[i - 1].last then
      refuse(list_path, mutant.fault, string.format("edits %d and %d change overlapping text", spans[i - 1].k, span.k))
    end
    parts[#parts + 1] = reference:sub(at, span.first - 1)
    parts[#parts + 1] = span.to
    at = span.last + 1
  end
  parts[#parts + 1] = reference:sub(at)
  return table.concat(parts)
end

-- The mutants listed at list_path, each with `source`: the reference at reference_path with
-- its edits made. Raises { message } when a file is unreadable or an edit is refused.
function M.load(list_path, reference_path)
  local list, err = wb.load_data(list_path)
  if type(list) ~= "table" then
    wb.fail(list_path .. ": cannot load the mutants: " .. tostring(err))
  end
  local reference = wb.read_file(reference_path)
  if not reference then
    wb.fail(list_path .. ": the reference " .. reference_path .. " is unreadable")
  end
  local seen = {}
  for _, m in ipairs(list) do
    if type(m.fault) ~= "string" or not m.fault:match("^[%w_]+$") or seen[m.fault] then
      refuse(list_path, m.fault, "`fault` must be a name of letters, digits and _, unique in the list")
    end
    seen[m.fault] = true
    m.source = M.apply(reference, m, list_path, reference_path)
  end
  return list
end

-- A loaded chapter's mutants (engine.load_chapter's table).
function M.of(chapter)
  local ex = chapter.exercise
  return M.load("grader/" .. chapter.id .. "/mutants/mutants.lua", ex.solution .. "/" .. ex.student_files[1])
end

-- The mutant named fault, or an error naming the list.
function M.named(chapter, mutants, fault)
  for _, m in ipairs(mutants) do
    if m.fault == fault then
      return m
    end
  end
  wb.fail(string.format("grader/%s/mutants/mutants.lua: no mutant %s", chapter.id, tostring(fault)))
end

return M
