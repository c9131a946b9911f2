-- dripprof.lua: folded stacks and callgrind_annotate rows, read through build/dripprof.
--
-- The workbook has one reader of each format, in C (vm/prof/folded.c; vm/prof/annotate.c
-- with a chapter's parse_row, which `dripprof rows --with CHECKER` asks that chapter's
-- checker for). Lua code that needs stacks or rows (the chapter's sentences, the grader's
-- seeded variants) asks `dripprof stacks` and `dripprof rows` for them as tab-separated
-- records, with frames and labels escaped as workbook.escape does, and only splits and
-- unescapes here. A file dripprof refuses raises its message, which names the file and
-- the line.

local wb = require("vm.lib.workbook")

local M = {}

-- The dripprof to run: DRIPPROF from the environment, else the one `make` builds.
function M.program()
  local path = os.getenv("DRIPPROF")
  return (path and path ~= "") and path or "build/dripprof"
end

-- The records of `dripprof WORDS...`, one list of fields (unescaped) per line.
local function records(words)
  -- Only stdout holds records: a note on stderr (a leak in the checker's function, say) is
  -- passed on to our own stderr, or, when dripprof fails, is the error.
  local command = wb.command({ M.program(), table.unpack(words) })
  local err_path = os.tmpname()
  local text, ok = wb.capture(command .. " 2> " .. wb.quote(err_path))
  local err = wb.read_file(err_path) or ""
  os.remove(err_path)
  if not ok then
    local why = err:match("([^\n]+)\n?$") or ("`" .. table.concat(words, " ") .. "` failed")
    error(why:gsub("^dripprof: ", ""), 0)
  end
  io.stderr:write(err)
  local list, plain = {}, not text:find("\\", 1, true) -- plain: nothing to unescape
  for line in text:gmatch("[^\n]+") do
    local fields = {}
    for field in (line .. "\t"):gmatch("([^\t]*)\t") do
      fields[#fields + 1] = plain and field or wb.unescape(field)
    end
    list[#list + 1] = fields
  end
  return list
end

-- The stacks of a folded file (or callgrind.out), in file order:
-- { { count = 5, count_text = "5", frames = { "main", "fib" } }, ... } (count an integer, a
-- float past 2^63; count_text the digits as written).
local function stack(f)
  return { count = tonumber(f[1]), count_text = f[1], frames = { table.unpack(f, 2) } }
end

-- Every row of callgrind_annotate output, as the parse_row of checker reads them:
-- { { line = 21, count = "20186274402", pct = "100.00" or nil, label = "PROGRAM TOTALS",
--     file = ..., func = ..., object = ... }, ... }. count stays text (it may pass 2^63).
local function row(f)
  return { line = tonumber(f[1]), count = f[2], pct = f[3] ~= "" and f[3] or nil, label = f[4], file = f[5],
    func = f[6], object = f[7] }
end

-- The records of `dripprof WORDS...`, each made a table by make.
local function read(words, make)
  local list = {}
  for i, fields in ipairs(records(words)) do
    list[i] = make(fields)
  end
  return list
end

function M.stacks(path)
  return read({ "stacks", path }, stack)
end

-- checker: the chapter's checker program that runs parse_row (`dripprof rows --with`).
function M.rows(path, checker)
  assert(checker, "dripprof.rows needs the checker that runs parse_row")
  return read({ "rows", "--with", checker, path }, row)
end

return M
