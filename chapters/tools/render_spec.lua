-- render_spec.lua: tests of the chapter engine's renderer (render.lua, its expressions,
-- stacks.lua, tables.lua), its folder reader (folder.lua) and the listing extractor; a
-- busted spec, run by test-chapters from the repository root (stacks.lua reads folded
-- stacks through build/dripprof). Each chapter's own tests are in its folder.
--
-- The renderer's cases are data, in cases/render.txt (its head says how a case is
-- written), over the files of cases/data/; this file is their one driver, and holds the
-- tests that need code of their own.
local wb = require("vm.lib.workbook")
local render = require("chapters.tools.render")
local folder = require("chapters.tools.folder")
local listings = require("chapters.tools.listings")
local dripprof = require("vm.lib.dripprof")

local CASES = "chapters/tools/cases/render.txt"
local DATA = "chapters/tools/cases/data"

-- Fails (its message starting with where, when given) unless fn raises an error whose
-- message contains fragment.
local function expect_error(fn, fragment, where)
  local ok, err = pcall(fn)
  local at = where and where .. ": " or ""
  if ok then
    error(at .. "expected an error mentioning " .. fragment, 2)
  end
  if not tostring(err):find(fragment, 1, true) then
    error(string.format("%serror %q does not mention %q", at, tostring(err), fragment), 2)
  end
end

-- The cases of path: { { name =, checks = { { line =, render = or eval =, want = "text",
-- "value" or "error", expected = }, ... } }, ... }, values unescaped and $DATA filled in
-- as cases/render.txt says. A line that fits no case stops the spec, naming it.
local function read_cases(path)
  local cases, check = {}, nil
  local function fix(text, escaped)
    text = text:gsub("%$DATA", DATA)
    return escaped and wb.unescape(text) or text
  end
  for n, line in ipairs(wb.split_lines(assert(wb.read_file(path)))) do
    local key, value = line:match("^(%a+): ?(.*)$")
    local waiting = check and not check.want -- the last check has no text:, value: or error: yet
    if key == "case" and not waiting then
      cases[#cases + 1] = { name = value, checks = {} }
    elseif (key == "render" or key == "eval") and cases[1] and not waiting then
      check = { line = n, [key] = fix(value, key == "render") }
      table.insert(cases[#cases].checks, check)
    elseif waiting and (key == (check.render and "text" or "value") or key == "error") then
      check.want, check.expected = key, fix(value, key ~= "value")
    elseif line ~= "" and not line:match("^#") then
      error(path .. ":" .. n .. ": not a case's next line: " .. line, 0)
    end
  end
  assert(not check or check.want, path .. ": the last check has no text:, value: or error:")
  return cases
end

-- The files of DATA, loaded as a chapter's are (folder.lua), and the functions over them.
local paths = {}
for _, name in ipairs(assert(wb.list_dir(DATA))) do
  paths[#paths + 1] = DATA .. "/" .. name
end
local data, folded, tabled = render.load_files(paths)
local functions = folder.functions(folded, tabled)

-- Runs one check of a case; a failed assertion names its line in CASES.
local function run(check)
  local where = CASES .. ":" .. check.line
  local function result()
    if check.render then
      return render.render(check.render, data, "ch.md.in", DATA, functions, { folded, tabled })
    end
    return render.evaluate(check.eval, render.environment(data, functions, { folded, tabled }))
  end
  if check.want == "error" then
    return expect_error(result, check.expected, where)
  end
  local ok, got = pcall(result)
  assert(ok, where .. ": " .. tostring(got))
  local expected = check.expected
  if check.want == "value" then
    expected = assert(load("return " .. expected, "=" .. where, "t", {}))()
  end
  assert.are.equal(expected, got, where)
end

-- Temporary files made while the cases are collected; removed once they have run.
local made = {}
local function temp_file(text)
  local path = os.tmpname()
  wb.write_file(path, text)
  made[#made + 1] = path
  return path
end

describe("the chapter tools", function()
  lazy_teardown(function()
    for _, path in ipairs(made) do
      os.remove(path)
    end
  end)

  for _, case in ipairs(read_cases(CASES)) do
    it(case.name, function()
      for _, check in ipairs(case.checks) do
        run(check)
      end
    end)
  end

  local function ev(text, functions, files)
    return render.evaluate(text, render.environment(data, functions, files))
  end

  it("data file errors name file and line", function()
    local path = temp_file("a = 1\n\nnot a pair\n")
    expect_error(function() render.load_data({}, path, "x.") end, path .. ":3:")
    os.remove(path)
  end)
  it("function calls take file names, text and numbers", function()
    local seen
    local f = { pair = function(a, b, c) seen = { a, b, c }; return c * 2 end }
    assert.are.equal(6, ev('pair(file, "(below main)", 1 + 2)', f, { { file = "path/of/file" } }))
    assert.are.equal("file", seen[1])
    assert.are.equal("(below main)", seen[2])
    expect_error(function() ev("pair(other, 1, 2)", f, { { file = "x" } }) end, "unknown name 'other'")
  end)
  it("a data file, a file for functions and a function may not share a name", function()
    expect_error(function() render.environment(data, { p = function() end }) end,
      "two data files or functions are called 'p'")
    expect_error(function() render.environment(data, {}, { { p = "p.folded" } }) end, "called 'p'")
  end)

  -- ---- chapter folders ----------------------------------------------------------
  it("a chapter folder's template and settings are checked, naming the file (and line)", function()
    local dir = wb.temp_dir("build/chapters", "folder")
    local settings = dir .. "/settings.lua"
    wb.write_file(dir .. "/t.md.in", "# T\n")
    wb.write_file(settings, 'return { figures = { { name = "f", title = "t", folded = "f" } } }\n')
    expect_error(function() folder.open(dir) end, settings .. ": figure 1: needs countname")
    wb.write_file(settings, 'return { figures = { { name = "f", title = "t", countname = "Ir" } } }\n')
    expect_error(function() folder.open(dir) end, "needs folded, or before and after")
    wb.write_file(settings, "return { figures = {\n ,, } }\n")
    expect_error(function() folder.open(dir) end, settings .. ":2:")
    os.remove(settings)
    assert.are.equal(0, #folder.open(dir).figures)
    wb.write_file(dir .. "/u.md.in", "")
    expect_error(function() folder.open(dir) end, "needs one template NAME.md.in, not 2")
    wb.rm_rf(dir)
  end)

  -- ---- listings -----------------------------------------------------------------
  it("listings pair code with output", function()
    local md = "text\n```c\nint main(void){return 0;}\n```\n```output\nhi\n```\n```c fragment\nx\n```\n"
    local l = listings.extract(md)
    assert.are.equal(1, #l)
    assert.are.equal(2, l[1].line)
    assert.are.equal("hi\n", l[1].output)
  end)
  it("an unclosed block is an error", function()
    expect_error(function() listings.extract("```c\nint x;\n") end, "never closed")
  end)
  it("output with no listing is an error", function()
    expect_error(function() listings.extract("```output\n1\n```\n") end, "no C listing")
  end)

  -- ---- vm/lib/dripprof.lua (the reader of dripprof's records) ----------------------
  -- A stand-in for build/dripprof that prints one record on stdout and a note on stderr,
  -- as a dripprof older than its profile.c does: the note must not be read as a record.
  it("dripprof records come from stdout only; a failure's message from stderr", function()
    local fake = temp_file("#!/bin/sh\necho 'dripprof: note: (render_spec: a note passed on to stderr, as designed)' >&2\n"
      .. "[ \"$2\" = bad ] && { echo 'dripprof: bad:3: broken' >&2; exit 1; }\n"
      .. "printf '5\\tmain\\tf\\\\tg\\n'\n")
    assert.is_true(wb.run("chmod +x " .. wb.quote(fake)))
    local real = dripprof.program
    dripprof.program = function() return fake end
    local ok, list = pcall(dripprof.stacks, "any")
    local bad_ok, bad_err = pcall(dripprof.stacks, "bad")
    dripprof.program = real
    assert.is_true(ok, list)
    assert.are.equal(1, #list)
    assert.are.equal(5, list[1].count)
    assert.are.equal("f\tg", list[1].frames[2])
    assert.is_false(bad_ok)
    assert.are.equal("bad:3: broken", bad_err)
  end)

end)
