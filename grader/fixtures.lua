-- fixtures.lua: a chapter's fixture folder and its expected answers.
--
-- A fixture folder (grader/CHAPTER/fixtures, or FIXTURES=dir) holds data
-- files an instructor may add to or replace freely, plus:
--   fixtures.lua   optional per-file settings (e.g. sum_named needles);
--   expected/      one NAME.expected per fixture, written by `make expected`;
--   programs/      sources the fixtures were made from (any sub-folder is skipped).
-- An expected file records the fixture's SHA-256 and its settings. When the
-- fixture or its settings change, the answers are stale and the grader refuses
-- to use them, naming the file and the command that fixes it.
--
-- Expected file format (text, so a regenerated answer shows up in `git diff`):
--   # comment lines
--   sha256 HEX
--   settings TEXT
--   KEY<TAB>RESULT      one line per item, in the checker's order

local wb = require("vm.lib.workbook")

local M = {}

M.manifest_name = "fixtures.lua"

local skipped = { ["fixtures.lua"] = true, ["README.md"] = true, ["README"] = true }

-- The folder used for chapter `chapter`.
function M.folder(chapter)
  local dir = os.getenv("FIXTURES")
  if dir and dir ~= "" then
    return (dir:gsub("/+$", ""))
  end
  return "grader/" .. chapter .. "/fixtures"
end

-- The folders of answers the student's code must not read besides the repository's: the
-- FIXTURES folder when it is elsewhere (an instructor's hidden fixtures). A list, for
-- sandbox.choose's `private`.
function M.private_folders()
  local dir = os.getenv("FIXTURES")
  local real = dir and dir ~= "" and wb.realpath(dir)
  return { real or nil }
end

-- The fixtures in dir: { name, path, kind }, sorted by name. kind_of(name)
-- is the chapter's classifier. Returns nil plus a message when dir is absent.
function M.list(dir, kind_of)
  local names = wb.list_dir(dir)
  if not names then
    return nil, "fixture folder " .. dir .. " does not exist"
  end
  local list = {}
  for _, name in ipairs(names) do
    local path = dir .. "/" .. name
    if not skipped[name] and not name:match("^%.") and not name:match("~$") and not wb.is_dir(path) then
      list[#list + 1] = { name = name, path = path, kind = kind_of(name) }
    end
  end
  return list
end

-- The folder's fixtures.lua as a table (empty when there is none).
function M.manifest(dir)
  local path = dir .. "/" .. M.manifest_name
  if not wb.exists(path) then
    return {}
  end
  local value, err = wb.load_data(path)
  if type(value) ~= "table" then
    return nil, path .. ": " .. tostring(err or "must return a table")
  end
  return value
end

function M.expected_path(fixture)
  return wb.dirname(fixture.path) .. "/expected/" .. fixture.name .. ".expected"
end

-- Writes a fixture's expected answers.
function M.write_expected(fixture, settings, items, made_by)
  local out = {
    "# Expected answers for " .. fixture.name .. ", written by `make expected` from " .. made_by .. ".",
    "# Do not edit: change the fixture (or fixtures.lua) and run `make expected` again.",
    "sha256 " .. wb.sha256(fixture.path),
    "settings " .. wb.escape(settings),
  }
  for _, item in ipairs(items) do
    out[#out + 1] = item.key .. "\t" .. item.result
  end
  wb.mkdir_p(wb.dirname(M.expected_path(fixture)))
  wb.write_file(M.expected_path(fixture), table.concat(out, "\n") .. "\n")
end

-- Parses "KEY<TAB>RESULT" lines into an ordered item list. The checker's
-- closing "end" line is not an item: it sets items.finished.
function M.parse_items(text)
  local items = {}
  for line in text:gmatch("[^\n]+") do
    local key, result = line:match("^([^\t]*)\t(.*)$")
    if key == "end" then
      items.finished = true
    elseif key then
      items[#items + 1] = { key = key, result = result }
    end
  end
  return items
end

-- A fixture's expected items, or nil plus a message naming the fixture, what
-- is wrong and the command to run. sha256: the fixture's hash, if known.
function M.load_expected(fixture, settings, command, sha256)
  local path = M.expected_path(fixture)
  local text = wb.read_file(path)
  local fix = "run `" .. command .. "`"
  if not text then
    return nil, string.format("%s has no expected answers (%s is missing); %s", fixture.path, path, fix)
  end
  local hash = text:match("\nsha256 (%x+)\n") or text:match("^sha256 (%x+)\n")
  if hash ~= (sha256 or wb.sha256(fixture.path)) then
    return nil, string.format("%s changed since its expected answers were made (%s is stale); %s",
      fixture.path, path, fix)
  end
  local recorded = text:match("\nsettings ([^\n]*)\n")
  if recorded ~= wb.escape(settings) then
    return nil, string.format("the settings of %s in %s/%s changed (%s is stale); %s", fixture.name,
      wb.dirname(fixture.path), M.manifest_name, path, fix)
  end
  local items = {}
  for line in text:gmatch("[^\n]+") do
    if not line:match("^#") and not line:match("^sha256 ") and not line:match("^settings ") then
      local key, result = line:match("^([^\t]*)\t(.*)$")
      if not key then
        return nil, path .. ": malformed line \"" .. wb.shorten(line, 60) .. "\"; " .. fix
      end
      items[#items + 1] = { key = key, result = result }
    end
  end
  return items
end

return M
