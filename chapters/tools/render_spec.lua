-- render_spec.lua: tests of the chapter engine's renderer (render.lua, its expressions,
-- stacks.lua, tables.lua), its folder reader (folder.lua) and the listing extractor; a
-- busted spec, run by test-chapters from the repository root (stacks.lua reads folded
-- stacks through build/dripprof). Each chapter's own tests are in its folder.
local wb = require("vm.lib.workbook")
local render = require("chapters.tools.render")
local folder = require("chapters.tools.folder")
local stacks = require("chapters.tools.stacks")
local tables = require("chapters.tools.tables")
local listings = require("chapters.tools.listings")
local dripprof = require("vm.lib.dripprof")

local function expect_eq(actual, expected)
  assert.are.equal(expected, actual)
end

local function expect_error(fn, fragment)
  local ok, err = pcall(fn)
  if ok then
    error("expected an error mentioning " .. fragment, 2)
  end
  if not tostring(err):find(fragment, 1, true) then
    error(string.format("error %q does not mention %q", tostring(err), fragment), 2)
  end
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

  local data = { ["p.calls"] = "29860703", ["p.ir"] = "6000000000", ["p.ops"] = "358328431",
    ["p.small"] = "999", ["p.name"] = "fib", ["p.ratio"] = "13.38", ["p.neg"] = "-7" }

  local function r(text, functions, files)
    return render.render(text, data, "t", ".", functions, files)
  end

  -- ---- placeholders, as before ------------------------------------------------
  it("plain value", function()
    expect_eq(r("f is {{p.name}}."), "f is fib.\n")
  end)
  it("a key's value is used as written", function()
    expect_eq(r("{{p.ratio}}"), "13.38\n")
  end)
  it("commas", function()
    expect_eq(r("{{p.calls|commas}} {{p.small|commas}}"), "29,860,703 999\n")
  end)
  it("ratio with a format", function()
    expect_eq(r("{{p.ir/p.ops|%.1f}}"), "16.7\n")
  end)
  it("a negative difference keeps its sign", function()
    expect_eq(r("{{p.small-p.calls|commas}}"), "-29,859,704\n")
  end)
  it("unknown key names file and line", function()
    expect_error(function() render.render("a\n{{p.nope}}", data, "ch.md.in", ".") end,
      "ch.md.in:2: unknown key 'p.nope'")
  end)
  it("a computed value needs a format", function()
    expect_error(function() r("{{p.ir/p.ops}}") end, "needs a format")
  end)
  it("commas rounds a computed value", function()
    expect_eq(r("{{p.ir/p.small|commas}}"), "6,006,006\n")
  end)
  it("commas refuses a word", function()
    expect_error(function() r("{{p.name|commas}}") end, "commas needs a number")
  end)
  it("data file errors name file and line", function()
    local path = temp_file("a = 1\n\nnot a pair\n")
    expect_error(function() render.load_data({}, path, "x.") end, path .. ":3:")
    os.remove(path)
  end)

  -- ---- expressions (Lua's, in an environment of the data and the functions) --------
  local function ev(text, functions, files)
    return render.evaluate(text, render.environment(data, functions, files))
  end
  it("precedence and parentheses", function()
    expect_eq(ev("1 + 2 * 3"), 7)
    expect_eq(ev("(1 + 2) * 3"), 9)
    expect_eq(ev("10 - 4 - 3"), 3)
    expect_eq(ev("-2 * -3"), 6)
    expect_eq(ev("1e6 / 4"), 250000)
    expect_eq(ev("0x10 + 1"), 17)
    expect_eq(ev("abs(p.neg) + max(1, 2) - min(3, 4)"), 6)
  end)
  it("keys in expressions", function()
    expect_eq(ev("(p.ir - p.ops) / p.calls > 188"), true)
    expect_eq(ev("(p.ir - p.ops) / p.calls > 189"), false)
    expect_eq(ev("p.neg < 0 and p.small == 999"), true)
    expect_eq(ev("p.neg > 0 or p.small ~= 999"), false)
  end)
  it("unknown names and keys are errors", function()
    expect_error(function() ev("p.nope + 1") end, "unknown key 'p.nope'")
    expect_error(function() ev("q.calls") end, "unknown name 'q'")
    expect_error(function() ev("nope(1)") end, "unknown name 'nope'")
    expect_error(function() ev("os.exit(1)") end, "unknown name 'os'")
  end)
  it("division by zero is an error, also inside a function and a claim", function()
    expect_error(function() ev("p.ir / (p.small - 999)") end, "division by zero")
    expect_error(function() ev("0 / (p.small - 999)") end, "division by zero")
    expect_error(function() ev("round(p.ir / 0) == 1") end, "division by zero")
    expect_error(function() r("{{check: abs(p.ir / (p.small - 999)) > 0}}") end, "t:1: division by zero")
  end)
  it("a word key is text: arithmetic refuses it, == compares it", function()
    expect_error(function() ev("p.name + 1") end, "attempt to add a 'string' with a 'number'")
    expect_eq(ev('p.name == "fib"'), true)
    expect_eq(ev('p.name ~= "fib"'), false)
  end)
  it("a value that reads as a number is one, hex too; tonumber reads text", function()
    local hex = { ["b.entry"] = "0x1ab70", ["b.frame"] = "0x000000000001ab70" }
    expect_eq(render.evaluate("b.entry == 0x1ab70 and b.frame == b.entry", render.environment(hex)), true)
    expect_eq(ev('tonumber("0x000000000001ab70") == 0x1ab70'), true)
    expect_eq(ev('"12" == 12'), false)
  end)
  it("junk in an expression", function()
    expect_error(function() ev("p.ir $ 2") end, "cannot read 'p.ir $ 2': <eof> expected near '$'")
    expect_error(function() ev("(p.ir") end, "cannot read '(p.ir'")
    expect_error(function() ev("p.ir p.ops") end, "cannot read 'p.ir p.ops'")
    expect_error(function() ev("p.ir; x = 1") end, "cannot read")
  end)
  it("function calls take file names, text and numbers", function()
    local seen
    local f = { pair = function(a, b, c) seen = { a, b, c }; return c * 2 end }
    expect_eq(ev('pair(file, "(below main)", 1 + 2)', f, { { file = "path/of/file" } }), 6)
    expect_eq(seen[1], "file")
    expect_eq(seen[2], "(below main)")
    expect_error(function() ev("pair(other, 1, 2)", f, { { file = "x" } }) end, "unknown name 'other'")
  end)
  it("a data file, a file for functions and a function may not share a name", function()
    expect_error(function() render.environment(data, { p = function() end }) end,
      "two data files or functions are called 'p'")
    expect_error(function() render.environment(data, {}, { { p = "p.folded" } }) end, "called 'p'")
  end)

  -- ---- filters ----------------------------------------------------------------
  it("sign chooses a word", function()
    expect_eq(r("{{p.neg|sign:fewer/as many/more}} {{p.small|sign:a/b/c}} {{p.small-999|sign:a/b/c}}"),
      "fewer c b\n")
  end)
  it("abs then commas", function()
    expect_eq(r("{{p.neg|abs|commas}} {{p.small-p.calls|abs|commas}}"), "7 29,859,704\n")
  end)
  it("about only when rounding", function()
    expect_eq(r("{{p.ir/p.calls|about:%.0f}}"), "about 201\n")
    expect_eq(r("{{p.small/3|about:%.0f}}"), "333\n")
  end)
  it("choose follows a comparison", function()
    expect_eq(r("{{p.small < 1000|choose:less/more}} than"), "less than\n")
    expect_eq(r("{{p.small > 1000|choose:less/more}}"), "more\n")
    expect_error(function() r("{{p.small|choose:a/b}}") end, "choose needs a comparison")
    expect_error(function() r("{{p.small < 1}}") end, "choose:YES/NO")
  end)
  it("times in words", function()
    expect_eq(r("{{4/2|times}}, {{9/3|times}}, {{3/2|times}}, {{10/7|times}}"),
      "twice, three times, 1.5 times, about 1.4 times\n")
  end)
  it("ordinals", function()
    expect_eq(r("{{1|ordinal}} {{2|ordinal}} {{3|ordinal}} {{11|ordinal}} {{12|ordinal}} {{20|ordinal}} {{21|ordinal}} {{113|ordinal}}"),
      "1st 2nd 3rd 11th 12th 20th 21st 113th\n")
  end)
  it("sign wants three words", function()
    expect_error(function() r("{{p.neg|sign:fewer/more}}") end, "wants 3 words")
  end)
  it("unknown filter", function()
    expect_error(function() r("{{p.small|loud}}") end, "unknown filter 'loud'")
  end)

  -- ---- claims -------------------------------------------------------------------
  it("a claim that holds renders nothing", function()
    expect_eq(r("less than a thousand.{{check: p.small < 1000}}"), "less than a thousand.\n")
  end)
  it("a line of checks only disappears", function()
    expect_eq(r("a\n{{check: p.small < 1000}} {{check: p.neg < 0}}\nb"), "a\nb\n")
  end)
  it("a broken claim stops the rendering and shows both sides", function()
    expect_error(function() render.render("x\n{{check: p.small * 2 < 1000}}", data, "ch.md.in", ".") end,
      "ch.md.in:2: the data no longer supports this claim: p.small * 2 < 1000 (p.small * 2 is 1998, 1000 is 1000)")
  end)
  it("a check must compare", function()
    expect_error(function() r("{{check: p.small + 1}}") end, "a check needs a comparison")
  end)

  -- ---- folded stacks ----------------------------------------------------------
  local before = temp_file("script 18\nscript;fib 7\nscript;fib;fib 10\nscript;fib;fib;fib 3\n" ..
    "main;run 5\n")
  local after = temp_file("script 18\nscript;fib 7\nscript;fib;fib 10\nscript;fib;fib;fib 3\n" ..
    "main;run 2\nmain;run;call 9\n")
  local F = stacks.functions({ b = before, a = after })
  it("totals and depths", function()
    expect_eq(F.stacks_total("b"), 43)
    expect_eq(F.deepest("b"), 4)
    expect_eq(F.deepest("b", "fib"), 3)
  end)
  it("level widths count the frame's own levels, not the frames below it", function()
    expect_eq(F.level_width("b", "fib", 1), 20)
    expect_eq(F.level_width("b", "fib", 2), 13)
    expect_eq(F.level_width("b", "fib", 3), 3)
    expect_eq(F.level_width("b", "fib", 4), 0)
    expect_eq(F.level_width("b", "script", 1), 38)
  end)
  it("self and inclusive counts", function()
    expect_eq(F.self_count("b", "fib"), 20)
    expect_eq(F.inclusive_count("b", "fib"), 20)
    expect_eq(F.inclusive_count("b", "script"), 38)
    expect_eq(F.self_count("a", "run"), 2)
  end)
  it("path counts need the frames next to each other, in order", function()
    expect_eq(F.path_count("a", "main;run;call"), 9)
    expect_eq(F.path_count("a", "main;run"), 11)
    expect_eq(F.path_count("b", "fib;fib"), 13) -- each line once, however often it matches
    expect_eq(F.path_count("a", "main;call"), 0)
    expect_eq(F.path_count("a", "run;main"), 0)
  end)
  it("the heaviest line", function()
    expect_eq(F.heaviest("b"), "script 18")
    expect_eq(F.heaviest_frame("b", 1), "script")
    expect_eq(F.heaviest_depth("a"), 1)
    expect_error(function() F.heaviest_frame("b", 2) end, "has no frame 2")
  end)
  it("growth between two files", function()
    expect_eq(F.growth("b", "a", 1), "call")
    expect_eq(F.self_change("b", "a", "call"), 9)
    expect_eq(F.self_change("b", "a", "run"), -3)
    expect_eq(F.growth("b", "a", 2), "fib") -- ties (no change) by name
  end)
  it("stack functions inside a template", function()
    local files = { { b = before, a = after } }
    expect_eq(r('{{100 * level_width(b, "fib", 2) / stacks_total(b)|%.1f}} % at the {{2|ordinal}} level',
      F, files), "30.2 % at the 2nd level\n")
    expect_eq(r("`{{growth(b, a, 1)}}`", F, files), "`call`\n")
  end)
  it("unknown folded file", function()
    expect_error(function() F.stacks_total("zz") end, "no folded stacks called 'zz'")
  end)
  it("a bad folded line names file and line", function()
    local bad = temp_file("a;b 1\nno count here\n")
    expect_error(function() stacks.functions({ x = bad }).stacks_total("x") end, bad .. ":2:")
    os.remove(bad)
  end)

  it("round tells a whole quotient from a fraction", function()
    expect_eq(ev("12 / 4 == round(12 / 4)"), true)
    expect_eq(ev("13 / 4 == round(13 / 4)"), false)
    expect_eq(ev("round(2.5) + round(-0.4)"), 3)
  end)

  it("contains is a plain-text test usable in a check", function()
    local env = render.environment({ ["b.f"] = "__libc_start_main@@GLIBC_2.34" })
    expect_eq(render.evaluate('contains(b.f, "@@")', env), true)
    expect_eq(render.evaluate('contains(b.f, ".*")', env), false)
    expect_eq(r('x{{check: contains(p.name, "fi") and p.calls > 1}}'), "x\n")
  end)

  -- ---- included tables ----------------------------------------------------------
  local counts = temp_file("opcode                      count    share\n" ..
    "GET_LOCAL              74,651,757   20.83%\nCALL                   29,860,705    8.33%\n" ..
    "CLOSURE                         1    0.00%\n")
  local rows = temp_file("4,464,175,322 (93.14%)  vm/src/run.h:runPlain [build/drip]\n" ..
    "  268,746,354 ( 5.61%)  vm/src/table.h:runPlain\n  no count here\n")
  local Tb = tables.functions({ c = counts, r = rows })
  it("a table's count is the first whole number on the one matching line", function()
    expect_eq(Tb.table_count("c", "GET_LOCAL"), 74651757)
    expect_eq(Tb.table_count("r", "table.h:runPlain"), 268746354)
    expect_eq(Tb.table_count("c", "CLOSURE"), 1)
  end)
  it("table rows are counted by the text they contain", function()
    expect_eq(Tb.table_rows("r", ":runPlain"), 2)
    expect_eq(Tb.table_rows("r", "value.h"), 0)
    expect_eq(Tb.table_rows("c", "("), 0) -- plain text, not a pattern
  end)
  it("a table line that is missing, repeated or without a count is an error", function()
    expect_error(function() Tb.table_count("c", "RETURN") end, "0 lines of " .. counts)
    expect_error(function() Tb.table_count("r", "runPlain") end, "2 lines of " .. rows)
    expect_error(function() Tb.table_count("r", "no count") end, "has no count")
    expect_error(function() Tb.table_rows("zz", "x") end, "no table called 'zz'")
  end)
  it("table functions inside a template", function()
    expect_eq(render.render('{{table_count(c, "GET_LOCAL") / table_count(c, "CALL")|%.1f}}', data, "t", ".", Tb,
      { { c = counts } }), "2.5\n")
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
    expect_eq(#folder.open(dir).figures, 0)
    wb.write_file(dir .. "/u.md.in", "")
    expect_error(function() folder.open(dir) end, "needs one template NAME.md.in, not 2")
    wb.rm_rf(dir)
  end)

  -- ---- listings -----------------------------------------------------------------
  it("listings pair code with output", function()
    local md = "text\n```c\nint main(void){return 0;}\n```\n```output\nhi\n```\n```c fragment\nx\n```\n"
    local l = listings.extract(md)
    expect_eq(#l, 1)
    expect_eq(l[1].line, 2)
    expect_eq(l[1].output, "hi\n")
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
    expect_eq(#list, 1)
    expect_eq(list[1].count, 5)
    expect_eq(list[1].frames[2], "f\tg")
    assert.is_false(bad_ok)
    expect_eq(bad_err, "bad:3: broken")
  end)

end)
