-- util.lua: the grader's small toolbox (files, processes, escaping).
--
-- Lua 5.4 has no directory API and the workbook depends on nothing beyond
-- lua5.4 and lua-dkjson, so directory work goes through coreutils (mkdir -p,
-- rm -rf, cp, ls, sha256sum) with every argument shell-quoted. Everything the
-- grader does to the file system passes through here, which keeps the quoting
-- in one place.
--
-- Errors: functions that can fail for reasons outside the grader's control
-- return nil plus a message; programming errors raise.

local M = {}

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

-- Runs a shell command; returns true when it exited 0, plus the exit code.
function M.run(cmd)
  local ok, how, code = os.execute(cmd)
  if how == "signal" then
    return false, 128 + code
  end
  return ok == true, code
end

-- Runs a shell command and returns its stdout (stderr is left alone), plus ok.
function M.capture(cmd)
  local pipe = assert(io.popen(cmd, "r"))
  local text = pipe:read("a")
  local ok = pipe:close()
  return text, ok == true
end

function M.read_file(path)
  local f, err = io.open(path, "rb")
  if not f then
    return nil, err
  end
  local text = f:read("a")
  f:close()
  return text
end

-- Writes a whole file atomically (a temporary file beside it, then rename),
-- so a parallel reader sees the old content or the new, never half of it.
function M.write_file(path, text)
  local tmp = string.format("%s.tmp%s%d", path, tostring({}):match("0x(%x+)") or "", math.random(1, 1 << 30))
  local f = assert(io.open(tmp, "wb"))
  assert(f:write(text))
  assert(f:close())
  assert(os.rename(tmp, path))
end

function M.exists(path)
  local f = io.open(path, "rb")
  if f then
    f:close()
    return true
  end
  return false
end

function M.is_dir(path)
  return M.run("test -d " .. M.quote(path))
end

function M.mkdir_p(path)
  assert(M.run("mkdir -p " .. M.quote(path)), "cannot create directory " .. path)
end

function M.rm_rf(path)
  assert(path ~= "" and path ~= "/" and path ~= ".", "refusing to remove " .. path)
  M.run("rm -rf " .. M.quote(path))
end

function M.copy(src, dst)
  return M.run("cp " .. M.quote(src) .. " " .. M.quote(dst))
end

-- Sorted names in a directory (no "." or ".."), or nil when it is not one.
function M.list_dir(path)
  if not M.is_dir(path) then
    return nil
  end
  local text = M.capture("LC_ALL=C ls -1A " .. M.quote(path))
  local names = {}
  for name in text:gmatch("[^\n]+") do
    names[#names + 1] = name
  end
  table.sort(names)
  return names
end

-- SHA-256 of a file's bytes as lowercase hex, or nil when unreadable.
function M.sha256(path)
  local text, ok = M.capture("(sha256sum < " .. M.quote(path) .. ") 2>/dev/null")
  if not ok then
    return nil
  end
  return text:match("^(%x+)")
end

-- SHA-256 of several files in one process: { [path] = hex or nil }.
function M.sha256_many(paths)
  local hashes = {}
  if #paths == 0 then
    return hashes
  end
  local words = {}
  for i, p in ipairs(paths) do
    words[i] = M.quote(p)
  end
  local text = M.capture("sha256sum -- " .. table.concat(words, " ") .. " 2>/dev/null")
  local i = 0
  for hex in text:gmatch("(%x+)  [^\n]*\n") do
    i = i + 1
    hashes[i] = hex
  end
  local out = {}
  if i == #paths then
    for k, p in ipairs(paths) do
      out[p] = hashes[k]
    end
  else
    for _, p in ipairs(paths) do
      out[p] = M.sha256(p)
    end
  end
  return out
end

function M.basename(path)
  return (path:gsub("/+$", ""):match("([^/]+)$")) or path
end

function M.dirname(path)
  return path:match("^(.*)/[^/]*$") or "."
end

-- True when the grader runs as root.
function M.is_root()
  return (M.capture("id -u 2>/dev/null"):match("%d+")) == "0"
end

-- The absolute, symlink-free form of an existing path.
function M.realpath(path)
  local text = M.capture("realpath -- " .. M.quote(path) .. " 2>/dev/null")
  return text:match("[^\n]+")
end

-- A fresh private folder under build/grade (mode 0700).
function M.private_dir(tag)
  M.mkdir_p("build/grade")
  local text = M.capture("mktemp -d build/grade/tmp." .. tag .. ".XXXXXX")
  local dir = text:match("[^\n]+")
  assert(dir, "cannot create a temporary folder in build/grade")
  return dir
end

-- Number of processors for parallel jobs (at least 1).
function M.nproc()
  local text = M.capture("nproc 2>/dev/null")
  return tonumber(text:match("%d+")) or 1
end

-- The line list of a text, without line ends ("a\nb\n" -> {"a", "b"}).
-- keep_ends = true keeps each "\n" so callers see lines exactly as read.
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

-- The escape used between the grader and the C checker: backslash, TAB, CR,
-- LF and bytes outside 0x20..0x7e become \\ \t \r \n \xHH. One line stays one
-- line, and invisible differences (a trailing "\r", a TAB) become visible.
local escapes = { ["\\"] = "\\\\", ["\t"] = "\\t", ["\n"] = "\\n", ["\r"] = "\\r" }

function M.escape(s)
  return (s:gsub("[%c\\\128-\255]", function(c)
    return escapes[c] or string.format("\\x%02x", c:byte())
  end))
end

local unescapes = { ["\\"] = "\\", t = "\t", n = "\n", r = "\r" }

-- Undoes escape() in one left-to-right pass, so an escaped backslash followed
-- by "x41" stays a backslash and "x41".
function M.unescape(s)
  local out, i = {}, 1
  while true do
    local j = s:find("\\", i, true)
    if not j then
      out[#out + 1] = s:sub(i)
      return table.concat(out)
    end
    out[#out + 1] = s:sub(i, j - 1)
    local c = s:sub(j + 1, j + 1)
    local hex = c == "x" and s:sub(j + 2, j + 3):match("^%x%x$")
    if hex then
      out[#out + 1] = string.char(tonumber(hex, 16))
      i = j + 4
    else
      out[#out + 1] = unescapes[c] or ("\\" .. c)
      i = j + 2
    end
  end
end

-- Shortens s for a report line, marking what was cut.
function M.shorten(s, limit)
  limit = limit or 160
  if #s <= limit then
    return s
  end
  return s:sub(1, limit) .. string.format("... (%d more bytes)", #s - limit)
end

-- Formats a number of points: 5 -> "5", 2.5 -> "2.5", 1/3 -> "0.33".
function M.points(x)
  local s = string.format("%.2f", x):gsub("0+$", ""):gsub("%.$", "")
  return s
end

-- Parses command-line options. spec maps "--name" to { field, kind } with
-- kind "string", "number" or "flag"; defaults holds the starting values;
-- other words go to the list opts.positional. SEED and SPEED_LINES from the
-- environment fill opts.seed and opts.speed_lines when the options do not.
-- Raises { message } for an unknown option or a missing value.
function M.parse_args(argv, spec, defaults)
  local opts = defaults or {}
  opts.positional = {}
  local i = 1
  while i <= #argv do
    local word, entry = argv[i], spec[argv[i]]
    if entry and entry[2] == "flag" then
      opts[entry[1]] = true
    elseif entry then
      local value = argv[i + 1]
      if value == nil or (entry[2] == "number" and not tonumber(value)) then
        error({ message = word .. " needs " .. (entry[2] == "number" and "a number" or "a value") }, 0)
      end
      opts[entry[1]] = entry[2] == "number" and tonumber(value) or value
      i = i + 1
    elseif word:match("^%-%-") then
      error({ message = "unknown option " .. word }, 0)
    else
      opts.positional[#opts.positional + 1] = word
    end
    i = i + 1
  end
  local function env_number(name)
    local v = os.getenv(name)
    return v and v ~= "" and tonumber(v) or nil
  end
  opts.seed = opts.seed or env_number("SEED")
  opts.speed_lines = opts.speed_lines or env_number("SPEED_LINES")
  return opts
end

-- Reads a Lua data file (a rubric or a manifest) in an empty environment, so
-- it can only build tables. Returns the value, or nil plus a message.
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

return M
