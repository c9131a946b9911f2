-- test_render.lua: tests of the chapter template renderer and the listing
-- extractor. Prints one line per case and a last line "PASSED FAILED".
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local render = require("render")
local listings = require("listings")

local passed, failed = 0, 0
local function case(name, fn)
    local ok, err = pcall(fn)
    if ok then
        passed = passed + 1
    else
        failed = failed + 1
        print("FAIL render: " .. name .. ": " .. tostring(err))
    end
end

local function expect_eq(actual, expected)
    if actual ~= expected then
        error(string.format("expected %q, got %q", expected, actual), 2)
    end
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

local data = {["p.calls"] = "29860703", ["p.ir"] = "6000000000", ["p.ops"] = "358328431",
              ["p.small"] = "999", ["p.name"] = "fib"}

case("plain value", function()
    expect_eq(render.render("f is {{p.name}}.", data, "t", "."), "f is fib.\n")
end)
case("commas", function()
    expect_eq(render.render("{{p.calls|commas}} {{p.small|commas}}", data, "t", "."),
              "29,860,703 999\n")
end)
case("ratio with a format", function()
    expect_eq(render.render("{{p.ir/p.ops|%.1f}}", data, "t", "."), "16.7\n")
end)
case("a negative difference keeps its sign", function()
    expect_eq(render.render("{{p.small-p.calls|commas}}", data, "t", "."), "-29,859,704\n")
end)
case("difference with commas", function()
    expect_eq(render.render("{{p.calls-p.small|commas}}", data, "t", "."), "29,859,704\n")
end)
case("unknown key names file and line", function()
    expect_error(function() render.render("a\n{{p.nope}}", data, "ch.md.in", ".") end,
                 "ch.md.in:2: unknown key 'p.nope'")
end)
case("a computed value needs a format", function()
    expect_error(function() render.render("{{p.ir/p.ops}}", data, "t", ".") end, "needs a format")
end)
case("commas rounds a computed value", function()
    expect_eq(render.render("{{p.ir/p.small|commas}}", data, "t", "."), "6,006,006\n")
end)
case("commas refuses a word", function()
    expect_error(function() render.render("{{p.name|commas}}", data, "t", ".") end,
                 "needs a whole number")
end)
case("data file errors name file and line", function()
    local path = os.tmpname()
    local f = assert(io.open(path, "w"))
    f:write("a = 1\n\nnot a pair\n")
    f:close()
    expect_error(function() render.load_data({}, path, "x.") end, path .. ":3:")
    os.remove(path)
end)
case("listings pair code with output", function()
    local md = "text\n```c\nint main(void){return 0;}\n```\n```output\nhi\n```\n```c fragment\nx\n```\n"
    local l = listings.extract(md)
    expect_eq(#l, 1)
    expect_eq(l[1].line, 2)
    expect_eq(l[1].output, "hi\n")
end)
case("an unclosed block is an error", function()
    expect_error(function() listings.extract("```c\nint x;\n") end, "never closed")
end)
case("output with no listing is an error", function()
    expect_error(function() listings.extract("```output\n1\n```\n") end, "no C listing")
end)

print(passed .. " " .. failed)
