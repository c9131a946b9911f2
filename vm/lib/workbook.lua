-- workbook.lua: the one Lua helper module of the whole workbook: shell quoting and
-- commands, files and folders, temporary folders, the escape that Lua and our C tools
-- share, command-line parsing, and a few text helpers.
--
-- Every Lua script of the workbook (the VM's tests, the chapter tools, the exercise
-- harness, the grader) requires it as `local wb = require("vm.lib.workbook")`; the Makefile's
-- LUA_PATH finds it, and no script edits package.path. It lives in vm/lib/ because vm/
-- is the layer every other part stands on and ships in every edition: the grader may
-- depend on exercises/ and vm/, exercises/ and chapters/ on vm/, never the reverse.
--
-- Folders go through LuaFileSystem (Debian's lua-filesystem; lua-posix has no Lua 5.4
-- build in Debian 12), so making, listing and removing them starts no process. What
-- coreutils does better stays a command, every word quoted here: cp (modes), mktemp
-- (a private folder created atomically), sha256sum, realpath, nproc.
--
-- Errors: functions that can fail for reasons outside the caller's control return nil
-- plus a message; misuse raises. A script's own problem is raised with M.fail (or M.must),
-- and M.exit_with reports it.

local lfs = require("lfs")
local argparse = require("argparse")

local M = {}

-- ------------------------------------------------------------------ commands

-- Quotes s for /bin/sh: 'it'\''s' style, safe for any byte but NUL.
function M.quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

-- Joins a list of words into one quoted command line.
function M.command(words)
  local out = {}
  for i, w in ipairs(words) do
    out[i] = M.quote(w)
  end
  return table.concat(out, " ")
end

-- Runs a shell command; returns true when it exited 0, plus the exit code (128 + N for
-- a death by signal N, as the shell says it).
function M.run(cmd)
  local ok, how, code = os.execute(cmd)
  if how == "signal" then
    return false, 128 + code
  end
  return ok == true, code
end

-- Runs a shell command and returns its stdout (stderr is left alone), plus whether it
-- exited 0 and its exit code.
function M.capture(cmd)
  local pipe = assert(io.popen(cmd, "r"))
  local text = pipe:read("a")
  local ok, _, code = pipe:close()
  return text, ok == true, code
end

-- Runs a shell command with stdout and stderr going to two files of its own; returns
-- the exit code, stdout and stderr. dir holds the two files.
function M.run_captured(cmd, dir)
  local out, err = dir .. "/cmd.stdout", dir .. "/cmd.stderr"
  local _, code = M.run(cmd .. " > " .. M.quote(out) .. " 2> " .. M.quote(err))
  return code, M.read_file(out) or "", M.read_file(err) or ""
end

-- Starts a shell command with stdout and stderr on one pipe; finish(handle) waits and
-- returns its exit code and output. Several started commands run at the same time.
function M.start(cmd)
  return assert(io.popen("( " .. cmd .. " ) 2>&1", "r"))
end

function M.finish(pipe)
  local output = pipe:read("a")
  local _, how, code = pipe:close()
  return how == "signal" and 128 + code or code, output
end

-- Runs fn(...) with n busy loops beside it (shells spinning at full speed, as other people's
-- work on a shared machine would); the loops stop even when fn fails.
function M.while_busy(n, fn, ...)
  local pids = M.capture("for i in $(seq " .. n .. "); do (while :; do :; done) >/dev/null 2>&1 & "
    .. "echo $!; done"):gsub("%s+", " ")
  local results = table.pack(pcall(fn, ...))
  M.run("kill " .. pids .. " 2>/dev/null")
  if not results[1] then
    error(results[2], 0)
  end
  return table.unpack(results, 2, results.n)
end

-- Wall-clock seconds from some fixed start, for durations: the machine's uptime, to the
-- hundredth /proc/uptime gives (no process to start, unlike date), else os.time's whole seconds.
function M.wall_clock()
  return tonumber((M.read_file("/proc/uptime") or ""):match("^[%d.]+")) or os.time()
end

-- The median of a list of numbers (nil for none).
function M.median(values)
  if #values == 0 then
    return nil
  end
  local sorted = { table.unpack(values) }
  table.sort(sorted)
  local middle = (#sorted + 1) // 2
  return #sorted % 2 == 1 and sorted[middle] or (sorted[middle] + sorted[middle + 1]) / 2
end

-- Number of processors for parallel jobs (at least 1).
function M.nproc()
  local text = M.capture("nproc 2>/dev/null")
  return tonumber(text:match("%d+")) or 1
end

-- This process's id (Linux: /proc/self is the reader itself).
local pid
function M.pid()
  pid = pid or tonumber((M.read_file("/proc/self/stat") or ""):match("^%d+")) or os.time()
  return pid
end

-- True when running as root.
function M.is_root()
  return (M.read_file("/proc/self/status") or ""):match("\nUid:%s+(%d+)") == "0"
end

-- ------------------------------------------------------------------ files

function M.read_file(path)
  local f, err = io.open(path, "rb")
  if not f then
    return nil, err
  end
  local text = f:read("a")
  f:close()
  return text
end

-- Temporary names must not draw from math.random: the grader's seeded inputs come from
-- that one stream. The process id and a counter make them unique.
local temp_count = 0

-- Writes a whole file atomically (a temporary file beside it, then rename), so a
-- parallel reader sees the old content or the new, never half of it.
function M.write_file(path, text)
  temp_count = temp_count + 1
  local tmp = string.format("%s.tmp%d.%d", path, M.pid(), temp_count)
  local f = assert(io.open(tmp, "wb"))
  assert(f:write(text))
  assert(f:close())
  assert(os.rename(tmp, path))
end

function M.exists(path)
  return lfs.attributes(path, "mode") ~= nil
end

function M.is_dir(path)
  return lfs.attributes(path, "mode") == "directory"
end

function M.mkdir_p(path)
  local so_far = path:sub(1, 1) == "/" and "" or "."
  for part in path:gmatch("[^/]+") do
    so_far = so_far .. "/" .. part
    if not M.is_dir(so_far) then
      local ok, err = lfs.mkdir(so_far)
      assert(ok or M.is_dir(so_far), "cannot create directory " .. path .. ": " .. tostring(err))
    end
  end
end

-- Removes path and everything below it; a symbolic link is removed, never followed.
function M.rm_rf(path)
  assert(path ~= "" and path ~= "/" and path ~= ".", "refusing to remove " .. path)
  local mode = lfs.symlinkattributes(path, "mode")
  if mode == "directory" then
    for _, name in ipairs(M.list_dir(path)) do
      M.rm_rf(path .. "/" .. name)
    end
  end
  if mode then
    assert(os.remove(path))
  end
end

-- Moves the folder private to dir whole (a cache entry made privately, then put in place);
-- when dir is there already (another process made the same one first), removes private.
function M.move_into_place(private, dir)
  if not M.run("mv -T " .. M.quote(private) .. " " .. M.quote(dir) .. " 2>/dev/null") then
    M.rm_rf(private)
  end
end

-- Makes dir afresh (what was there is removed) with files in it: a path below dir -> its
-- text, or -> true for an empty folder. Returns dir. For tests' inputs.
function M.make_tree(dir, files)
  M.rm_rf(dir)
  M.mkdir_p(dir)
  for path, text in pairs(files) do
    local full = dir .. "/" .. path
    M.mkdir_p(text == true and full or M.dirname(full))
    if text ~= true then
      M.write_file(full, text)
    end
  end
  return dir
end

-- Sorted names in a directory (no "." or ".."), or nil when it is not one.
function M.list_dir(path)
  if not M.is_dir(path) then
    return nil
  end
  local names = {}
  for name in lfs.dir(path) do
    if name ~= "." and name ~= ".." then
      names[#names + 1] = name
    end
  end
  table.sort(names)
  return names
end

-- cp: keeps the mode bits (an executable stays one).
function M.copy(src, dst)
  return M.run("cp " .. M.quote(src) .. " " .. M.quote(dst))
end

-- A fresh private folder (mode 0700) parent/TAG.XXXXXX, created atomically by mktemp.
function M.temp_dir(parent, tag)
  M.mkdir_p(parent)
  local text = M.capture("mktemp -d " .. M.quote(parent .. "/" .. tag .. ".XXXXXX"))
  local dir = text:match("[^\n]+")
  assert(dir, "cannot create a temporary folder in " .. parent)
  return dir
end

function M.basename(path)
  return (path:gsub("/+$", ""):match("([^/]+)$")) or path
end

function M.dirname(path)
  return path:match("^(.*)/[^/]*$") or "."
end

-- The absolute, symlink-free form of an existing path.
function M.realpath(path)
  local text = M.capture("realpath -- " .. M.quote(path) .. " 2>/dev/null")
  return text:match("[^\n]+")
end

-- SHA-256 of a file's bytes as lowercase hex, or nil when unreadable.
function M.sha256(path)
  local text, ok = M.capture("(sha256sum < " .. M.quote(path) .. ") 2>/dev/null")
  if not ok then
    return nil
  end
  return text:match("^(%x+)")
end

-- SHA-256 of a string, through a temporary file (sha256sum reads files).
function M.sha256_text(text)
  local path = os.tmpname()
  M.write_file(path, text)
  local hash = M.sha256(path)
  os.remove(path)
  return hash
end

-- SHA-256 of several files in one process: { [path] = hex or nil }.
function M.sha256_many(paths)
  local out = {}
  if #paths == 0 then
    return out
  end
  local text = M.capture("sha256sum -- " .. M.command(paths) .. " 2>/dev/null")
  local hashes = {}
  for hex in text:gmatch("(%x+)  [^\n]*\n") do
    hashes[#hashes + 1] = hex
  end
  for k, p in ipairs(paths) do
    -- A name with a newline or backslash makes sha256sum escape its line: ask one by one.
    out[p] = (#hashes == #paths) and hashes[k] or M.sha256(p)
  end
  return out
end

-- The SHA-256 that names a cache entry by what it is made from: the text of `lines`, then one
-- line "PATH HASH" per file of `paths` ("missing" for one that is not there), joined by
-- newlines. Any change to either gives another name.
function M.content_hash(lines, paths)
  local hashes, text = M.sha256_many(paths), table.move(lines, 1, #lines, 1, {})
  for _, path in ipairs(paths) do
    text[#text + 1] = path .. " " .. (hashes[path] or "missing")
  end
  return M.sha256_text(table.concat(text, "\n"))
end

-- Reads a Lua data file (a rubric or a manifest) in an empty environment, so it can only
-- build tables. Returns the value, or nil plus a message.
function M.load_data(path)
  local text, err = M.read_file(path)
  if not text then
    return nil, err
  end
  local chunk, perr = load(text, "@" .. path, "t", {})
  if not chunk then
    return nil, perr
  end
  local ok, value = pcall(chunk)
  if not ok then
    return nil, value
  end
  return value
end

-- Plain data (strings, numbers, booleans, tables of them, nil in a list) as the text of a Lua
-- data file that load_data reads back equal: for the grader's own caches. A function, a
-- userdata or a table inside itself (a cycle) is an error.
function M.serialize(value)
  local out, open = {}, {}
  local function put(v)
    if type(v) ~= "table" then
      out[#out + 1] = string.format("%q", v)
      return
    end
    assert(not open[v], "serialize: a table inside itself")
    open[v] = true
    out[#out + 1] = "{"
    local n = #v
    for i = 1, n do
      put(v[i])
      out[#out + 1] = ","
    end
    for k, x in pairs(v) do
      if not (math.type(k) == "integer" and k >= 1 and k <= n) then
        out[#out + 1] = "["
        put(k)
        out[#out + 1] = "]="
        put(x)
        out[#out + 1] = ","
      end
    end
    out[#out + 1] = "}"
    open[v] = nil
  end
  put(value)
  return "return " .. table.concat(out) .. "\n"
end

-- ------------------------------------------------------------------ text

-- The line list of a text, without line ends ("a\nb\n" -> {"a", "b"}). keep_ends = true
-- keeps each "\n" so callers see lines exactly as read.
function M.split_lines(text, keep_ends)
  local lines = {}
  local pattern = keep_ends and "([^\n]*\n?)" or "([^\n]*)\n?"
  for line in text:gmatch(pattern) do
    if line ~= "" or not keep_ends then
      lines[#lines + 1] = line
    end
  end
  if not keep_ends and lines[#lines] == "" then
    lines[#lines] = nil
  end
  return lines
end

-- Whether s matches one of the Lua patterns of the list.
function M.matches_any(s, patterns)
  for _, pattern in ipairs(patterns) do
    if s:match(pattern) then
      return true
    end
  end
  return false
end

-- The escape our C tools and the grader share (dripprof stacks/rows, the grader's
-- checker): backslash, TAB, CR, LF and bytes outside 0x20..0x7e become \\ \t \r \n \xHH.
-- One line stays one line, one field one field, and invisible differences (a trailing
-- "\r", a TAB) become visible.
local escapes = { ["\\"] = "\\\\", ["\t"] = "\\t", ["\n"] = "\\n", ["\r"] = "\\r" }

function M.escape(s)
  if not s:find("[%c\\\128-\255]") then
    return s -- most text: nothing to escape
  end
  return (s:gsub("[%c\\\128-\255]", function(c)
    return escapes[c] or string.format("\\x%02x", c:byte())
  end))
end

local unescapes = { ["\\"] = "\\", t = "\t", n = "\n", r = "\r" }

-- Undoes escape() in one left-to-right pass (gsub's matches never overlap), so an escaped
-- backslash followed by "x41" stays a backslash and "x41". A backslash before anything else
-- is kept as it is.
function M.unescape(s)
  if not s:find("\\", 1, true) then
    return s -- most text: nothing to undo
  end
  return (s:gsub("\\(.)(%x?%x?)", function(c, hex)
    if c == "x" and #hex == 2 then
      return string.char(tonumber(hex, 16))
    end
    return (unescapes[c] or ("\\" .. c)) .. hex
  end))
end

-- Shortens s for a report line, marking what was cut.
function M.shorten(s, limit)
  limit = limit or 160
  if #s <= limit then
    return s
  end
  return s:sub(1, limit) .. string.format("... (%d more bytes)", #s - limit)
end

-- A whole number with thousands separators, as the workbook's C tools print them
-- (vm/lib/commas.c): "20186274402" or 20186274402 -> "20,186,274,402", -5 -> "-5". Text, for
-- counts past 2^53; nil for anything but a whole number.
function M.commas(value)
  if type(value) == "number" then
    value = string.format("%.0f", value)
  end
  local sign, digits = tostring(value):match("^(%-?)(%d+)$")
  if not digits then
    return nil
  end
  sign = digits:match("^0+$") and "" or sign -- a value that rounds to 0 has no sign
  return sign .. (digits:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", ""))
end

-- A number for people to read: 5 -> "5", 2.5 -> "2.5", 1/3 -> "0.33"; nil (no number: a
-- table's empty cell) -> "".
function M.format_number(x)
  local s = x and string.format("%.2f", x):gsub("0+$", ""):gsub("%.$", "") or ""
  return s
end

-- ------------------------------------------------------------------ command lines

-- Runs a script's main(...) and exits with what it returns (an exit status; nil is 0). An
-- error it raises is the script's failure to run at all: "PREFIX: message" on stderr (the
-- .message of an error table, else the error), exit status 2.
function M.exit_with(prefix, main, ...)
  local ok, result = pcall(main, ...)
  if not ok then
    io.stderr:write(prefix, ": ", type(result) == "table" and tostring(result.message) or tostring(result), "\n")
    os.exit(2)
  end
  os.exit(math.tointeger(result) or 0)
end

-- Raises message as a problem the script reports and stops on: an error table, so that
-- exit_with (or a caller's pcall) has the message itself, with no position before it.
function M.fail(message)
  error({ message = message }, 0)
end

-- Returns value when it is true, else fails with why. For a call's results (a value, or nil
-- and a message): must(f()) fails with f's message.
function M.must(value, why)
  return value or M.fail(why)
end

-- For a busted spec with a scratch folder: returns the function for its teardown, which
-- removes dir when every test passed and otherwise keeps it for a look, saying where it
-- is. busted is required only here, by specs.
function M.test_scratch(dir)
  local failed = false
  require("busted").subscribe({ "test", "end" }, function(_, _, status)
    failed = failed or (status ~= "success" and status ~= "pending")
    return nil, true
  end)
  return function()
    if failed then
      print("# (the files of this run are in " .. dir .. ")")
    else
      M.rm_rf(dir)
    end
  end
end

-- A command-line parser (lua-argparse) for a script: name, what it does, and an epilog.
function M.parser(name, description, epilog)
  return argparse(name, description, epilog)
end

-- An option's text as an integer, or nil (argparse's :convert() then names the option).
function M.to_integer(text)
  return math.tointeger(tonumber(text))
end

-- Parses argv with parser; on a usage error prints "NAME: message" and the usage line to
-- stderr and exits 2 (argparse alone would exit 1, which our scripts use for failures).
function M.parse(parser, argv)
  local ok, result = parser:pparse(argv)
  if not ok then
    io.stderr:write(parser._name, ": ", result, "\n", parser:get_usage(), "\n")
    os.exit(2)
  end
  return result
end

return M
