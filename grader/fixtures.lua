-- fixtures.lua: a chapter's fixture folder and its expected answers.
--
-- A fixture folder (grader/CHAPTER/fixtures, or FIXTURES=dir) holds data
-- files an instructor may add to or replace freely, plus:
--   fixtures.lua   optional per-file settings (e.g. sum_named needles);
--   expected/      one NAME.expected per fixture, written by `make expected`;
--   programs/      sources the fixtures were made from (any sub-folder is skipped).
-- An expected file (exercises/harness/answers.lua has the format) records the
-- fixture's SHA-256 and its settings. When the fixture or its settings change, the
-- answers are stale and the grader refuses to use them, naming the file and the
-- command that fixes it.

local wb = require("vm.lib.workbook")
local answers = require("exercises.harness.answers")

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

-- The folders of answers the student's code must not read: the repository, and the
-- FIXTURES folder when it is elsewhere (an instructor's hidden fixtures). A list, for
-- sandbox.choose's `private`.
function M.private_folders()
  local dir = os.getenv("FIXTURES")
  return { wb.realpath("."), dir and dir ~= "" and wb.realpath(dir) or nil }
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
  answers.write(M.expected_path(fixture), { path = fixture.path, made_by = made_by, settings = settings,
    cases = { { items = items } } })
end

-- A fixture's expected items, or nil plus a message naming the fixture, what
-- is wrong and the command to run. sha256: the fixture's hash, if known.
function M.load_expected(fixture, settings, command, sha256)
  local found, why = answers.read(M.expected_path(fixture), { path = fixture.path, sha256 = sha256,
    settings = settings, fix = "run `" .. command .. "`" })
  return found and found[""], why
end

return M
