-- answers.lua: answers as a checker writes them, and the files that keep the reference's.
--
-- A checker writes KEY<TAB>ANSWER lines (escaped: exercises/harness/checker.h) and a last line
-- end<TAB>ok. parse() reads them into an ordered item list, { key = ..., result = ... },
-- both kept escaped: answers are compared byte for byte, and shown escaped.
--
-- An answers file keeps the reference's answers for one input file (a chapter's case file,
-- a grader fixture), written by `make expected`, as text, so a changed answer shows in
-- `git diff`:
--   # comment lines
--   sha256 HEX          of the input file: a changed input makes the answers stale
--   settings TEXT       (optional) what else the answers depend on, escaped
--   case NAME           the answers below are that case's (a fixture has no case lines)
--   KEY<TAB>RESULT      one line per item, in the checker's order

local wb = require("vm.lib.workbook")

local M = {}

-- The items of a checker's answers; items.finished when its closing line came.
function M.parse(text)
  local items = {}
  for line in text:gmatch("[^\n]+") do
    local key, result = line:match("^([^\t]*)\t(.*)$")
    if key == "end" and result == "ok" then
      items.finished = true
    elseif key then
      items[#items + 1] = { key = key, result = result }
    end
  end
  return items
end

-- What fixes a missing or stale file of chapter ch's tests/expected/: in the instructor's
-- workbook make expected, in the student's edition the file as shipped.
function M.fix(ch)
  return wb.exists(ch.solution) and ("run `make expected CHAPTER=" .. ch.id .. "`")
    or "the file should be as your instructor shipped it (git checkout restores it)"
end

-- Items as a checker writes them, KEY<TAB>RESULT lines (parse reads them back).
function M.text(items)
  local lines = {}
  for i, item in ipairs(items) do
    lines[i] = item.key .. "\t" .. item.result .. "\n"
  end
  return table.concat(lines)
end

-- Writes an answers file. what: { path (the input), made_by, settings (or nil), cases =
-- { { name = NAME or nil, items = {...} }, ... } }.
function M.write(path, what)
  local out = {
    "# The answers of " .. what.made_by .. " for " .. what.path .. ", written by `make expected`.",
    "# Do not edit: change the input and run `make expected` again.",
    "sha256 " .. wb.sha256(what.path),
  }
  if what.settings then
    out[#out + 1] = "settings " .. wb.escape(what.settings)
  end
  for _, c in ipairs(what.cases) do
    if c.name then
      out[#out + 1] = "case " .. c.name
    end
    for _, item in ipairs(c.items) do
      out[#out + 1] = item.key .. "\t" .. item.result
    end
  end
  wb.mkdir_p(wb.dirname(path))
  wb.write_file(path, table.concat(out, "\n") .. "\n")
end

-- The answers of an answers file: { [NAME] = items } (a file without case lines has its
-- items under ""), or nil plus a message naming the file, what is wrong and what fixes it.
-- want: { path (the input), sha256 (or nil: computed), settings (or nil), fix (words) }.
function M.read(path, want)
  local text = wb.read_file(path)
  if not text then
    return nil, string.format("%s has no expected answers (%s is missing); %s", want.path, path, want.fix)
  end
  if text:match("\nsha256 (%x+)\n") ~= (want.sha256 or wb.sha256(want.path)) then
    return nil, string.format("%s changed since its expected answers were made (%s is stale); %s",
      want.path, path, want.fix)
  end
  if (text:match("\nsettings ([^\n]*)\n") or "") ~= wb.escape(want.settings or "") then
    return nil, string.format("the settings of %s changed (%s is stale); %s", want.path, path, want.fix)
  end
  local cases, current = { [""] = {} }, nil
  current = cases[""]
  local number = 0
  for line in text:gmatch("([^\n]*)\n") do
    number = number + 1
    local name = line:match("^case (.+)$")
    if name then
      current = {}
      cases[name] = current
    elseif not (line:match("^#") or line:match("^sha256 ") or line:match("^settings ") or line == "") then
      local key, result = line:match("^([^\t]*)\t(.*)$")
      if not key then
        return nil, string.format("%s:%d: not KEY<TAB>RESULT; %s", path, number, want.fix)
      end
      current[#current + 1] = { key = key, result = result }
    end
  end
  return cases
end

return M
