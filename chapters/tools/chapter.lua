-- chapter.lua: the command line for building and checking chapters.
--
--   lua5.4 chapter.lua render TEMPLATE OUTPUT DATA...  fill TEMPLATE, write OUTPUT
--   lua5.4 chapter.lua stale TEMPLATE MARKDOWN DATA... exit 1 if MARKDOWN differs
--   lua5.4 chapter.lua listings MARKDOWN WORKDIR -- CC FLAGS...
--        build and run every C listing; prints `ok`/`FAIL` per listing and a
--        last line `P F` (passed, failed) for the test suite.
-- (make runs it, with LUA_PATH set; folded stacks are read by build/dripprof.)
-- A data file's keys are prefixed with its base name: profile.txt gives
-- `profile.KEY`. Folded-stack files (NAME.folded) and included tables
-- (NAME.out) are data too: the template's expressions reach them through
-- stacks.lua's and tables.lua's functions, by their base name with '-'
-- made '_' (fib-drip.folded is fib_drip, fib-lines.out is fib_lines).
local wb = require("vm.lib.workbook")
local render = require("chapters.tools.render")
local listings = require("chapters.tools.listings")
local stacks = require("chapters.tools.stacks")
local tables = require("chapters.tools.tables")

local function slurp(path)
  local text, err = wb.read_file(path)
  if not text then
    io.stderr:write("chapter: cannot read " .. path .. ": " .. err .. "\n")
    os.exit(2)
  end
  return text
end

-- The functions a template's expressions may call: stacks.lua's over the
-- folded-stack files, tables.lua's over the included tables.
local function functions_for(folded, included)
  local all = stacks.functions(folded)
  for name, fn in pairs(tables.functions(included)) do
    all[name] = fn
  end
  return all
end

local function rendered(template, data_files)
  local data, folded, included = render.load_files(data_files)
  local dir = template:match("^(.*)/[^/]*$") or "."
  return render.render(slurp(template), data, template, dir, functions_for(folded, included))
end

-- compiler: the command words (compiler and flags).
local function run_listings(md, workdir, compiler)
  local ok_count, failed = 0, 0
  wb.mkdir_p(workdir)
  for i, l in ipairs(listings.extract(slurp(md))) do
    local src = string.format("%s/listing%d.c", workdir, i)
    local exe = string.format("%s/listing%d", workdir, i)
    wb.write_file(src, l.code)
    local label = string.format("%s:%d listing %d", md, l.line, i)
    local words = { table.unpack(compiler) }
    table.move({ "-o", exe, src }, 1, 3, #words + 1, words)
    local diag, built = wb.capture(wb.command(words) .. " 2>&1")
    local problem
    if not built then
      problem = "does not compile:\n" .. diag
    else
      local out, ran = wb.capture(wb.quote(exe) .. " 2>&1")
      if not ran then
        problem = "exits with an error; it printed:\n" .. out
      elseif l.output and out ~= l.output then
        problem = "prints something else.\n--- the chapter says:\n" .. l.output ..
             "--- it printed:\n" .. out
      end
    end
    if problem then
      failed = failed + 1
      print("FAIL " .. label .. " " .. problem)
    else
      ok_count = ok_count + 1
      print("ok   " .. label)
    end
  end
  return ok_count, failed
end

local parser = wb.parser("chapter.lua", "Builds and checks the chapters.")
parser:command_target("command")
local render_command = parser:command("render", "fill TEMPLATE with DATA, write OUTPUT")
render_command:argument("template")
render_command:argument("output")
render_command:argument("data"):args("*")
local stale_command = parser:command("stale", "exit 1 if MARKDOWN is not what TEMPLATE and DATA render")
stale_command:argument("template")
stale_command:argument("markdown")
stale_command:argument("data"):args("*")
local listings_command = parser:command("listings", "build and run every C listing of MARKDOWN")
listings_command:argument("markdown")
listings_command:argument("workdir")
listings_command:argument("compiler", "the compiler and its flags, after --"):args("+")
local args = wb.parse(parser, arg)

local ok, err = pcall(function()
  if args.command == "render" then
    wb.write_file(args.output, rendered(args.template, args.data))
  elseif args.command == "stale" then
    if rendered(args.template, args.data) ~= slurp(args.markdown) then
      print(args.markdown .. " does not match its template and data: run `make chapters` and reread it")
      os.exit(1)
    end
  else
    local passed, failed = run_listings(args.markdown, args.workdir, args.compiler)
    print(passed .. " " .. failed)
  end
end)
if not ok then
  io.stderr:write("chapter: " .. tostring(err) .. "\n")
  os.exit(1)
end
