-- cases.lua: the cases a checker runs, as people write them and as the checker reads them.
--
-- People write case files (a chapter's public tests, exercises/N/tests/FUNCTION.txt): blocks
-- that start with "case: ID", then "key: value" lines; "#" lines and blank lines are skipped.
-- A value is escaped in the workbook's one dialect (vm/lib/workbook.lua: \\ \t \n \r \xHH), so
-- a trailing blank is written \x20 and a line end \n. The file's name is the function the
-- cases call; a case is FUNCTION.ID. A field KEY-file: PATH stands for one field KEY per line of
-- PATH (beside the case file; "#" lines and blank lines skipped, each line unescaped), so long
-- inputs live in files of their own. The keys why, from and hint say what a case is about; the
-- report shows them and the checker never sees them.
--
-- The grader builds its cases in code (the same tables). Either way write_tsv turns them into
-- the checker's cases file (exercises/harness/checker.h): CASE<TAB>KEY<TAB>VALUE<TAB>ORIGIN.
--
-- A case: { name = "group_digits.zero", func = "group_digits", id = "zero",
--           origin = "FILE:LINE", meta = { why = ..., from = ..., hint = ... },
--           fields = { { key, value, origin }, ... } }

local wb = require("vm.lib.workbook")

local M = {}

M.META = { why = true, from = true, hint = true }

local KNOWN_ESCAPES = { ["\\"] = true, t = true, n = true, r = true }

local function fail(origin, why)
  wb.fail(origin .. ": " .. why)
end

-- A value unescaped (wb.unescape). Its escapes are the dialect's; anything else is a mistake in
-- the file, which raises with origin. The escapes are read left to right as wb.unescape reads
-- them.
local function unescaped(value, origin)
  for escape, hex in value:gmatch("\\(.?)(%x?%x?)") do
    if not (KNOWN_ESCAPES[escape] or (escape == "x" and #hex == 2)) then
      fail(origin, "unknown escape \\" .. escape .. " (the escapes are \\\\ \\t \\n \\r \\xHH)")
    end
  end
  return wb.unescape(value)
end

-- The fields KEY-file: PATH stands for.
local function file_fields(key, path, origin)
  local text = wb.read_file(path)
  if not text then
    fail(origin, "cannot read " .. path)
  end
  local fields = {}
  for number, line in ipairs(wb.split_lines(text)) do
    if line ~= "" and not line:match("^#") then
      local where = path .. ":" .. number
      fields[#fields + 1] = { key, unescaped(line, where), where }
    end
  end
  return fields
end

-- The cases of one case file, in file order. Raises with FILE:LINE on a mistake.
function M.read(path)
  local text = wb.read_file(path)
  if not text then
    wb.fail("cannot read " .. path)
  end
  local func = wb.basename(path):gsub("%.[^.]*$", "")
  local list, seen, current = {}, {}, nil
  for number, line in ipairs(wb.split_lines(text)) do
    local origin = path .. ":" .. number
    if line ~= "" and not line:match("^#") then
      local key, value = line:match("^([%w_-]+):(.*)$")
      if not key then
        fail(origin, "expected 'key: value'")
      end
      value = unescaped(value:gsub("^ ", ""), origin)
      if key == "case" then
        if not value:match("^[a-z0-9_]+$") then
          fail(origin, "a case id uses only a-z, 0-9 and _")
        elseif seen[value] then
          fail(origin, "case " .. value .. " is already used in this file (line " .. seen[value] .. ")")
        end
        seen[value] = number
        current = { name = func .. "." .. value, func = func, id = value, origin = origin, meta = {}, fields = {} }
        list[#list + 1] = current
      elseif not current then
        fail(origin, "a case starts with 'case: ID'")
      elseif M.META[key] then
        current.meta[key] = value:gsub("^%s+", "")
      elseif key:match("%-file$") then
        for _, field in ipairs(file_fields(key:gsub("%-file$", ""), wb.dirname(path) .. "/" .. value, origin)) do
          current.fields[#current.fields + 1] = field
        end
      else
        current.fields[#current.fields + 1] = { key, value, origin }
      end
    end
  end
  return list
end

-- The checker's cases file for a list of cases. The case is named on its first line only
-- (an empty CASE is the line above's), and an origin only when there is one: the speed
-- check's case has hundreds of thousands of fields.
function M.write_tsv(path, list)
  local out = {}
  for _, c in ipairs(list) do
    local name = wb.escape(c.name)
    for _, f in ipairs(c.fields) do
      local origin = f[3] or c.origin
      local line = name .. "\t" .. wb.escape(f[1]) .. "\t" .. wb.escape(f[2])
      out[#out + 1] = origin and (line .. "\t" .. wb.escape(origin)) or line
      name = ""
    end
    if #c.fields == 0 then -- a case without fields still has to reach the checker
      out[#out + 1] = table.concat({ name, "case", wb.escape(c.id or ""), wb.escape(c.origin or "") }, "\t")
    end
  end
  wb.write_file(path, table.concat(out, "\n") .. (#out > 0 and "\n" or ""))
end

-- One cases file of several that write_tsv wrote, one case each: files holds { path, name }
-- pairs, and each case is renamed NAME. Only the first field of each file changes (the name
-- is written on its first line only), so nothing is escaped twice.
function M.join_tsv(path, files)
  local parts = {}
  for i, f in ipairs(files) do
    local text = assert(wb.read_file(f[1]), f[1])
    parts[i] = wb.escape(f[2]) .. text:sub(text:find("\t", 1, true) or #text + 1)
  end
  wb.write_file(path, table.concat(parts))
end

return M
