-- chapter.lua: the command line for building and checking chapters.
--
--   lua5.4 chapter.lua render TEMPLATE OUTPUT DATA...  fill TEMPLATE, write OUTPUT
--   lua5.4 chapter.lua stale TEMPLATE MARKDOWN DATA... exit 1 if MARKDOWN differs
--   lua5.4 chapter.lua listings MARKDOWN WORKDIR CC FLAGS...
--        build and run every C listing; prints `ok`/`FAIL` per listing and a
--        last line `P F` (passed, failed) for the test suite.
-- A data file's keys are prefixed with its base name: profile.txt gives
-- `profile.KEY`. Folded-stack files (NAME.folded) and included tables
-- (NAME.out) are data too: the template's expressions reach them through
-- stacks.lua's and tables.lua's functions, by their base name with '-'
-- made '_' (fib-drip.folded is fib_drip, fib-lines.out is fib_lines).
local here = arg[0]:match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local render = require("render")
local listings = require("listings")
local stacks = require("stacks")
local tables = require("tables")

local function slurp(path)
  local f, err = io.open(path, "rb")
  if not f then
    io.stderr:write("chapter: cannot read " .. path .. ": " .. err .. "\n")
    os.exit(2)
  end
  local s = f:read("a")
  f:close()
  return s
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

local function shell_quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

local function run_listings(md, workdir, cc, flags)
  local ok_count, failed = 0, 0
  for i, l in ipairs(listings.extract(slurp(md))) do
    local src = string.format("%s/listing%d.c", workdir, i)
    local exe = string.format("%s/listing%d", workdir, i)
    local f = assert(io.open(src, "w"))
    f:write(l.code)
    f:close()
    local label = string.format("%s:%d listing %d", md, l.line, i)
    local build = table.concat({cc, flags, "-o", shell_quote(exe), shell_quote(src), "2>&1"}, " ")
    local p = io.popen(build)
    local diag = p:read("a")
    local built = p:close()
    local problem
    if not built then
      problem = "does not compile:\n" .. diag
    else
      p = io.popen(shell_quote(exe) .. " 2>&1")
      local out = p:read("a")
      local ran = p:close()
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

local cmd = arg[1]
local ok, err = pcall(function()
  if cmd == "render" and #arg >= 3 then
    local out = rendered(arg[2], {table.unpack(arg, 4)})
    local f = assert(io.open(arg[3], "w"))
    f:write(out)
    f:close()
  elseif cmd == "stale" and #arg >= 3 then
    if rendered(arg[2], {table.unpack(arg, 4)}) ~= slurp(arg[3]) then
      print(arg[3] .. " does not match its template and data: run `make chapters` and reread it")
      os.exit(1)
    end
  elseif cmd == "listings" and #arg >= 4 then
    local passed, failed = run_listings(arg[2], arg[3], arg[4], table.concat(arg, " ", 5))
    print(passed .. " " .. failed)
  else
    io.stderr:write("usage: see the comment at the top of chapters/tools/chapter.lua\n")
    os.exit(2)
  end
end)
if not ok then
  io.stderr:write("chapter: " .. tostring(err) .. "\n")
  os.exit(1)
end
