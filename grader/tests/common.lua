-- common.lua: what the grader's specs (grader_spec.lua, toy_spec.lua) both need: the isolation
-- levels this machine offers, and fixture folders.

local wb = require("vm.lib.workbook")
local sandbox = require("exercises.harness.sandbox")

local M = {}

-- The isolation levels the attack suite can run at on this machine, best first, and why not
-- the others (level -> reason).
function M.levels()
  local usable, why_not = {}, {}
  for _, level in ipairs({ "bwrap", "user" }) do
    local ok, why = pcall(sandbox.use, level)
    local probe = ok and select(2, pcall(sandbox.run, setmetatable({ isolation = level, argv = { "true" } },
      { __index = sandbox.PROBE })))
    if type(probe) == "table" and probe.ok then
      usable[#usable + 1] = level
    else
      why_not[level] = tostring(type(probe) == "table" and (probe.status or probe.message) or why)
    end
  end
  sandbox.use("none")
  return usable, why_not
end

-- A fixture folder dir with some of chapter 165's committed fixtures (in the workbook at
-- root) and their answers. Returns dir.
function M.fixture_subset(root, dir, names)
  local from = root .. "/grader/165/fixtures/"
  local files = { ["fixtures.lua"] = wb.read_file(from .. "fixtures.lua") }
  for _, name in ipairs(names) do
    files[name] = wb.read_file(from .. name)
    files["expected/" .. name .. ".expected"] = wb.read_file(from .. "expected/" .. name .. ".expected")
  end
  return wb.make_tree(dir, files)
end

return M
