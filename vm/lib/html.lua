-- html.lua: the workbook's one HTML escape. It has no dependency, so that pandoc's own Lua
-- (the book's filters) can load it as well as lua5.4 (the grader's dashboard).
local M = {}

local ENTITIES = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }

-- Text as HTML, for element content and quoted attribute values alike: the five characters
-- HTML gives a meaning made entities.
function M.escape(text)
  return (tostring(text):gsub("[&<>\"']", ENTITIES))
end

return M
