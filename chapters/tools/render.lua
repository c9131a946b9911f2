-- render.lua: fills a chapter template with numbers and words from its data.
--
-- A chapter is written as NAME.md.in and rendered to NAME.md. Every figure
-- the text quotes comes from a data file, and so does every word that
-- depends on one ("fewer", "twice", "about"): the template says how to
-- compute it, never what it came to. Refreshing the data without
-- re-rendering (and rereading) the chapter makes `make test` fail, and so
-- does data that breaks a claim the text makes.
--
-- Placeholders:
--   {{key}}               the value of key, as written in the data file
--   {{EXPR|filter|...}}   an expression (expr.lua) through filters:
--       commas            a whole number with thousands separators: 358,328,431
--       %.1f              any Lua string.format pattern
--       abs               the absolute value
--       about:%.0f        "about 36" when the pattern rounds the value, else "36"
--       sign:NEG/ZERO/POS one of three words by the sign: {{a-b|sign:fewer/no/more}}
--       choose:YES/NO     one of two words by a comparison: {{a < b|choose:less/more}}
--       times             a ratio in words: "twice", "three times", "about 1.4 times"
--       ordinal           1st, 2nd, 3rd, 4th, ... 21st
--   {{check: EXPR}}       a claim the text relies on: renders nothing, and
--                         stops the rendering when the data breaks it. A line
--                         that holds only checks is left out of the output.
--   {{include:PATH}}      the lines of a file (relative to the template), verbatim
-- A computed number needs a format (commas, a pattern, about, ...): the
-- template decides how exact a number reads.
--
-- Data files hold `key = value` lines; `#` starts a comment line. Keys from
-- several files share one namespace, prefixed by the file's given prefix.
local wb = require("vm.lib.workbook")
local expr = require("chapters.tools.expr")

local M = {}

local function fail(where, msg)
  error(where .. ": " .. msg, 0)
end

-- Reads `key = value` lines into t, each key prefixed with prefix.
function M.load_data(t, path, prefix)
  local text, err = wb.read_file(path)
  if not text then
    fail(path, "cannot read data file (" .. err .. ")")
  end
  for n, line in ipairs(wb.split_lines(text)) do
    line = line:gsub("\r$", "")
    if line ~= "" and not line:match("^%s*#") then
      local k, v = line:match("^%s*([%w_.]+)%s*=%s*(.-)%s*$")
      if not k then
        fail(path .. ":" .. n, "expected 'key = value', got '" .. line .. "'")
      end
      t[prefix .. k] = v
    end
  end
  return t
end

-- Loads a chapter's data files: `key = value` files into one table, keys
-- prefixed with the file's base name (profile.txt gives profile.KEY);
-- folded-stack files (NAME.folded) as a name -> path table, the name with
-- '-' made '_' (fib-drip.folded is fib_drip), for stacks.lua; and the
-- tables the text includes (NAME.out) the same way, for tables.lua.
function M.load_files(paths)
  local data, folded, tables = {}, {}, {}
  for _, path in ipairs(paths) do
    local stack_name = path:match("([^/]+)%.folded$")
    local table_name = path:match("([^/]+)%.out$")
    if stack_name then
      folded[(stack_name:gsub("-", "_"))] = path
    elseif table_name then
      tables[(table_name:gsub("-", "_"))] = path
    else
      local base = path:match("([^/]+)%.txt$") or path:match("([^/]+)$")
      M.load_data(data, path, base .. ".")
    end
  end
  return data, folded, tables
end

-- A function name -> read(path) for the file of that name in paths (name -> path), each
-- read once, on first use: the data behind stacks.lua's and tables.lua's functions. A name
-- with no file is an error that says there is no `what` called so.
function M.named_files(paths, what, read)
  local loaded = {}
  return function(name)
    if not loaded[name] then
      local path = paths[name]
      if not path then
        error("no " .. what .. " called '" .. tostring(name) .. "'", 0)
      end
      loaded[name] = read(path)
    end
    return loaded[name]
  end
end

local function with_commas(v)
  if type(v) == "number" then
    v = string.format("%.0f", v)
  end
  local sign, digits = tostring(v):match("^(%-?)(%d+)$")
  if not digits then
    error("commas needs a whole number, got '" .. tostring(v) .. "'", 0)
  end
  local out = digits:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  if sign == "-" and digits:match("^0+$") then
    sign = "" -- a value that rounds to 0 has no sign
  end
  return sign .. out:gsub("^,", "")
end

local function as_number(v, filter)
  local x = tonumber(v)
  if type(v) == "boolean" or not x then
    error(filter .. " needs a number, got '" .. tostring(v) .. "'", 0)
  end
  return x
end

local function format_pattern(pattern, v)
  local x = tonumber(v)
  if pattern:match("[dfg]$") and not x then
    error("format " .. pattern .. " needs a number, got '" .. tostring(v) .. "'", 0)
  end
  if pattern:match("d$") then
    x = math.floor(x + 0.5)
  end
  return string.format(pattern, x or v)
end

local small_numbers = { "once", "twice", "three times", "four times", "five times",
  "six times", "seven times", "eight times", "nine times", "ten times" }

local function in_words_times(x)
  local whole = math.floor(x + 0.5)
  if math.abs(x - whole) < 0.005 and small_numbers[whole] then
    return small_numbers[whole]
  end
  local text = string.format("%.1f", x)
  local prefix = tonumber(text) == x and "" or "about "
  return prefix .. text .. " times"
end

local function ordinal(x)
  local n = math.floor(x + 0.5)
  local last_two, last = n % 100, n % 10
  local suffix = "th"
  if last_two < 11 or last_two > 13 then
    suffix = ({ "st", "nd", "rd" })[last] or "th"
  end
  return string.format("%d", n) .. suffix
end

-- Splits "a/b/c" into its words; wants exactly n of them.
local function words(arg, n, filter)
  local list = {}
  for w in (arg .. "/"):gmatch("(.-)/") do
    list[#list + 1] = w
  end
  if #list ~= n then
    error(filter .. " wants " .. n .. " words separated by '/', got '" .. arg .. "'", 0)
  end
  return list
end

-- Applies one filter to a value; returns the new value.
local function apply(filter, v)
  local name, arg = filter:match("^(%w+):(.*)$")
  name = name or filter
  if filter == "commas" then
    return with_commas(as_number(v, "commas") and v)
  elseif filter:match("^%%[-%d.]*[dfgs]$") then
    return format_pattern(filter, v)
  elseif filter == "abs" then
    return math.abs(as_number(v, "abs"))
  elseif name == "about" and arg and arg:match("^%%[%d.]*[dfg]$") then
    local x = as_number(v, "about")
    local text = format_pattern(arg, x)
    return (tonumber(text) == x and "" or "about ") .. text
  elseif name == "sign" and arg then
    local w = words(arg, 3, "sign")
    local x = as_number(v, "sign")
    return x < 0 and w[1] or (x == 0 and w[2] or w[3])
  elseif name == "choose" and arg then
    if type(v) ~= "boolean" then
      error("choose needs a comparison, got '" .. tostring(v) .. "'", 0)
    end
    local w = words(arg, 2, "choose")
    return v and w[1] or w[2]
  elseif filter == "times" then
    return in_words_times(as_number(v, "times"))
  elseif filter == "ordinal" then
    return ordinal(as_number(v, "ordinal"))
  end
  error("unknown filter '" .. filter .. "'", 0)
end

-- The filters of a placeholder: "expr|f1|f2" -> "expr", {"f1", "f2"}. A
-- choose or sign filter's words run to the next '|'.
local function split_filters(inner)
  local parts = {}
  for part in (inner .. "|"):gmatch("(.-)|") do
    parts[#parts + 1] = part:match("^%s*(.-)%s*$")
  end
  local e = table.remove(parts, 1)
  return e, parts
end

-- Evaluates a claim; on failure, says what each side came to.
local function check_claim(text, lookup, functions)
  local ok = expr.evaluate(text, lookup, functions)
  if type(ok) ~= "boolean" then
    error("a check needs a comparison, got '" .. tostring(ok) .. "'", 0)
  end
  if ok then
    return
  end
  local detail = ""
  local left, op, right = text:match("^(.-)%s*([<>=!]=?)%s*(.-)$")
  if left and not text:match("%f[%w]and%f[%W]") and not text:match("%f[%w]or%f[%W]") then
    local okl, l = pcall(expr.evaluate, left, lookup, functions)
    local okr, r = pcall(expr.evaluate, right, lookup, functions)
    if okl and okr then
      detail = string.format(" (%s is %s, %s is %s)", left, tostring(l), right, tostring(r))
    end
  end
  error("the data no longer supports this claim: " .. text .. detail ..
    "; reword the text around it", 0)
end

local function read_lines(path)
  local text = wb.read_file(path)
  if not text then
    error("cannot read included file '" .. path .. "'", 0)
  end
  return (text:gsub("\n$", ""))
end

-- One placeholder's text; checks give "".
local function placeholder(inner, data, functions, dir)
  local lookup = function(key) return data[key] end
  local path = inner:match("^include:(.+)$")
  if path then
    return read_lines(dir .. "/" .. path)
  end
  local claim = inner:match("^%s*check:%s*(.-)%s*$")
  if claim then
    check_claim(claim, lookup, functions)
    return ""
  end
  local e, filters = split_filters(inner)
  local v
  if expr.is_key(e) and data[e] ~= nil then
    v = data[e]
  else
    v = expr.evaluate(e, lookup, functions)
  end
  for _, f in ipairs(filters) do
    v = apply(f, v)
  end
  if type(v) == "boolean" then
    error("a comparison renders through |choose:YES/NO, or goes in {{check: ...}}", 0)
  end
  if type(v) == "number" then
    error("a computed value needs a format, such as |%.1f or |commas", 0)
  end
  return v
end

-- Renders template text; name and dir are for messages and includes;
-- functions are the ones expressions may call (stacks.lua).
function M.render(text, data, name, dir, functions)
  local out, n = {}, 0
  for line in (text .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    local where = name .. ":" .. n
    local only_checks = line:match("{{") ~= nil
    local rendered = line:gsub("{{(.-)}}", function(inner)
      if not inner:match("^%s*check:") then
        only_checks = false
      end
      local ok, result = pcall(placeholder, inner, data, functions or {}, dir)
      if not ok then
        fail(where, tostring(result))
      end
      return result
    end)
    if only_checks and rendered:match("^%s*$") then
      rendered = nil -- a line of checks only
    end
    out[#out + 1] = rendered
  end
  if out[#out] == "" then
    out[#out] = nil
  end
  return table.concat(out, "\n") .. "\n"
end

return M
