-- chapter.lua: the command line of the chapter engine, over one chapter folder (folder.lua).
--
--   lua5.4 chapter.lua update DIR OUTDIR
--        render DIR's text and figures afresh into OUTDIR, then copy each one that
--        differs over the committed file (make chapters)
--   lua5.4 chapter.lua check DIR OUTDIR -- CC FLAGS...
--        the same into OUTDIR, compared with the committed files; then build and run every
--        C listing of the committed text. Prints `ok`/`FAIL` per check and a last line
--        `P F` (passed, failed) for the test suite (make test-chapters).
-- (make runs it, with LUA_PATH set; folded stacks are read and drawn by build/dripprof.)
local wb = require("vm.lib.workbook")
local folder = require("chapters.tools.folder")
local listings = require("chapters.tools.listings")

-- What chapter ch is made of: its text, then its figures, each { fresh = a path in outdir,
-- committed = its path in the folder, make = function(path), ok = ..., stale = ... }.
local function products(ch, outdir)
  wb.mkdir_p(outdir .. "/figures")
  local list = { { fresh = outdir .. "/" .. wb.basename(ch.markdown), committed = ch.markdown,
    make = function(path) wb.write_file(path, folder.render(ch)) end,
    ok = "matches its template and data", stale = "does not match its template and data: run `make chapters` and reread it" } }
  for _, f in ipairs(ch.figures) do
    list[#list + 1] = { fresh = outdir .. "/figures/" .. f.name .. ".svg",
      committed = ch.dir .. "/figures/" .. f.name .. ".svg",
      make = function(path) folder.draw(ch, f, path) end,
      ok = "is drawn from its data", stale = "differs from what its data draws: run 'make chapters'" }
  end
  return list
end

local function update(ch, outdir)
  for _, p in ipairs(products(ch, outdir)) do
    p.make(p.fresh)
    if wb.read_file(p.fresh) ~= wb.read_file(p.committed) then
      assert(wb.copy(p.fresh, p.committed), "cannot write " .. p.committed)
      print("chapters: wrote " .. p.committed)
    end
  end
end

-- Builds and runs every C listing of the committed text; verdict(ok, message) for each.
local function run_listings(md, workdir, compiler, verdict)
  wb.mkdir_p(workdir)
  for i, l in ipairs(listings.extract(assert(wb.read_file(md)))) do
    local exe = string.format("%s/listing%d", workdir, i)
    wb.write_file(exe .. ".c", l.code)
    local diag, built = wb.capture(wb.command(compiler) .. " " .. wb.command({ "-o", exe, exe .. ".c" }) .. " 2>&1")
    local out, ran = "", false
    if built then
      out, ran = wb.capture(wb.quote(exe) .. " 2>&1")
    end
    local problem = not built and "does not compile:\n" .. diag
        or not ran and "exits with an error; it printed:\n" .. out
        or l.output and out ~= l.output and "prints something else.\n--- the chapter says:\n" .. l.output ..
        "--- it printed:\n" .. out
    verdict(not problem, string.format("%s:%d listing %d", md, l.line, i) .. (problem and " " .. problem or ""))
  end
end

local function check(ch, outdir, compiler)
  local passed, failed = 0, 0
  local function verdict(ok, message)
    print((ok and "ok   " or "FAIL ") .. message)
    passed, failed = passed + (ok and 1 or 0), failed + (ok and 0 or 1)
  end
  for _, p in ipairs(products(ch, outdir)) do
    local made, err = pcall(p.make, p.fresh)
    if not made then
      verdict(false, p.committed .. " cannot be made: " .. tostring(err))
    else
      local same = wb.read_file(p.fresh) == wb.read_file(p.committed)
      verdict(same, p.committed .. " " .. (same and p.ok or p.stale))
    end
  end
  run_listings(ch.markdown, outdir .. "/listings", compiler, verdict)
  return passed, failed
end

local parser = wb.parser("chapter.lua", "Renders and checks a chapter folder.")
parser:command_target("command")
local update_command = parser:command("update", "render DIR into OUTDIR, copy what changed over the committed files")
update_command:argument("dir")
update_command:argument("outdir")
local check_command = parser:command("check", "compare DIR's committed text and figures with its data; run its listings")
check_command:argument("dir")
check_command:argument("outdir")
check_command:argument("compiler", "the compiler and its flags, after --"):args("+")
local args = wb.parse(parser, arg)

local ok, err = pcall(function()
  local ch = folder.open(args.dir)
  if args.command == "update" then
    update(ch, args.outdir)
  else
    local passed, failed = check(ch, args.outdir, args.compiler)
    print(passed .. " " .. failed)
  end
end)
if not ok then
  io.stderr:write("chapter: " .. tostring(err) .. "\n")
  os.exit(1)
end
