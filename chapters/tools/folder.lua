-- folder.lua: a chapter folder, chapters/N/, as the chapter engine reads it.
--
-- The engine knows no chapter: what a chapter has is in its folder, under these names.
--
--   NAME.md.in         the template (exactly one); NAME.md beside it is its rendering
--   data/              what the text quotes: `key = value` files (*.txt), folded stacks
--                      (*.folded) and tables the text includes (*.out); render.lua says how
--                      a template reaches each
--   settings.lua       Lua data, read in an empty environment: { figures = { FIGURE, ... } },
--                      FIGURE = { name =, title =, countname =, folded = } or, for a
--                      differential figure, { name =, title =, countname =, before =, after = }
--                      (base names of files in data/)
--   figures/NAME.svg   each figure, as dripprof draws it from data/
--   listings/          programs the text includes, built and run by the tests
--   chapter_spec.lua   the chapter's own tests (busted), when it has some
--   capture.lua        makes data/ from real runs: `capture.lua profile|data DRIP DRIPPROF
--                      PROFILE_DIR` (make profile-N, make chapter-data-N)
local wb = require("vm.lib.workbook")
local dripprof = require("vm.lib.dripprof")
local render = require("chapters.tools.render")
local stacks = require("chapters.tools.stacks")
local tables = require("chapters.tools.tables")

local M = {}
local fail = render.fail

local function check_figure(f, i, path)
  local where = path .. ": figure " .. i
  for _, key in ipairs({ "name", "title", "countname" }) do
    if type(f[key]) ~= "string" then
      fail(where, "needs " .. key .. " (text)")
    end
  end
  if not f.folded == not (f.before and f.after) then
    fail(where .. " (" .. f.name .. ")", "needs folded, or before and after (a differential figure)")
  end
end

-- The chapter in folder dir: { dir, template, markdown, figures, data, folded, tables }
-- (render.load_files gives the last three).
function M.open(dir)
  dir = dir:gsub("/+$", "")
  local templates, files = {}, {}
  for _, name in ipairs(wb.list_dir(dir) or fail(dir, "is not a folder")) do
    templates[#templates + 1] = name:match("%.md%.in$") and dir .. "/" .. name or nil
  end
  if #templates ~= 1 then
    fail(dir, "needs one template NAME.md.in, not " .. #templates)
  end
  local path, settings = dir .. "/settings.lua", { figures = {} }
  if wb.exists(path) then
    local err
    settings, err = wb.load_data(path)
    if err then
      error(err, 0) -- it names the file, and the line when there is one
    elseif type(settings) ~= "table" or type(settings.figures or {}) ~= "table" then
      fail(path, "does not return { figures = {...} }")
    end
  end
  for i, f in ipairs(settings.figures or {}) do
    check_figure(f, i, path)
  end
  for _, name in ipairs(wb.list_dir(dir .. "/data") or {}) do
    if name:match("%.txt$") or name:match("%.folded$") or name:match("%.out$") then
      files[#files + 1] = dir .. "/data/" .. name
    end
  end
  local ch = { dir = dir, template = templates[1], figures = settings.figures or {} }
  ch.markdown = ch.template:gsub("%.in$", "")
  ch.data, ch.folded, ch.tables = render.load_files(files)
  return ch
end

-- The functions a chapter's expressions may call: stacks.lua's over its folded stacks and
-- tables.lua's over its tables (name -> path each, as render.load_files gives them).
function M.functions(folded, tabled)
  local functions = stacks.functions(folded)
  for name, fn in pairs(tables.functions(tabled)) do
    functions[name] = fn
  end
  return functions
end

-- The text of chapter ch, rendered from its template and data.
function M.render(ch)
  local text, err = wb.read_file(ch.template)
  if not text then
    fail(ch.template, "cannot read the template (" .. err .. ")")
  end
  return render.render(text, ch.data, ch.template, ch.dir, M.functions(ch.folded, ch.tables), { ch.folded, ch.tables })
end

-- Draws figure f of chapter ch into path (a differential figure's stacks go to path.folded).
function M.draw(ch, f, path)
  local data, input = ch.dir .. "/data/", nil
  if f.folded then
    input = data .. f.folded .. ".folded"
  else
    input = path .. ".folded"
    local diff = { dripprof.program(), "diff", data .. f.before .. ".folded", data .. f.after .. ".folded" }
    if not wb.run(wb.command(diff) .. " > " .. wb.quote(input)) then
      fail(path, "dripprof diff failed")
    end
  end
  local flame = { dripprof.program(), "flame", "--title", f.title, "--countname", f.countname, input }
  if not wb.run(wb.command(flame) .. " > " .. wb.quote(path)) then
    fail(path, "dripprof flame failed on " .. input)
  end
end

return M
