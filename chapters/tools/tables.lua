-- tables.lua: numbers read from the tables a chapter shows.
--
-- A chapter includes tool output verbatim (callgrind_annotate rows, drip
-- --count), from files NAME.out in its data folder, and its sentences
-- sometimes rest on one row of them ("the CALL line ran 21 instructions per
-- call", "the rows for table.h and value.h"). These functions let a
-- template's expressions read those rows, so the words stay computed from
-- the same file the reader sees:
--
--   table_count(T, text)   the count of the one line of T that contains
--                          text: its first field that is a whole number
--                          (digits, commas allowed: 74,651,757)
--   table_rows(T, text)    how many lines of T contain text
--
-- T names a file given to the chapter tool: fib-lines.out is fib_lines.
-- text is matched as plain text, not a pattern. A line that matches no
-- row, or several where one is wanted, is an error that names the file, so
-- a table that changed under a sentence stops the rendering.
local wb = require("vm.lib.workbook")
local render = require("chapters.tools.render")

local M = {}

-- The first whitespace-separated field of line that is a whole number.
local function first_count(line)
  for field in line:gmatch("%S+") do
    if field:match("^%d[%d,]*$") then
      return tonumber((field:gsub(",", "")))
    end
  end
end

-- Returns the functions for a template's expressions (render.lua), over the files in paths
-- (name -> path).
function M.functions(paths)
  local lines_of = render.named_files(paths, "table", function(path)
    local text, err = wb.read_file(path)
    return { path = path, lines = wb.split_lines(text or error("cannot read table " .. path .. " (" .. err .. ")", 0)) }
  end)

  local function matching(name, text)
    local t, found = lines_of(name), {}
    for _, line in ipairs(t.lines) do
      if line:find(tostring(text), 1, true) then
        found[#found + 1] = line
      end
    end
    return t, found
  end

  local T = {}

  function T.table_rows(name, text)
    local _, found = matching(name, text)
    return #found
  end

  function T.table_count(name, text)
    local t, found = matching(name, text)
    if #found ~= 1 then
      error(string.format("table_count: %d lines of %s contain '%s', not one", #found, t.path,
        tostring(text)), 0)
    end
    return first_count(found[1])
      or error("table_count: the line of " .. t.path .. " that contains '" .. tostring(text) .. "' has no count", 0)
  end

  return T
end

return M
