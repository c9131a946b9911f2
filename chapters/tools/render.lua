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
--   {{key}}               the value of key (file.key), as written in the data file
--   {{EXPR|filter|...}}   a Lua expression through filters:
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
-- Data files hold `key = value` lines; `#` starts a comment line. A file is named in
-- expressions by its base name with '-' made '_', and a '_' after a Lua keyword
-- (repeat.txt is repeat_): its keys are that name's fields (profile.ir_fib_total), a
-- folded-stack or table file is that name itself, given to the functions of stacks.lua
-- and tables.lua (self_count(fib_c, "runPlain")).
--
-- Expressions are Lua's, compiled by load() in an environment that holds only those
-- names and the functions abs, round, min, max, contains (plain text in text), tonumber
-- and the caller's. A value is a number when tonumber reads it (0x1ab70 does), else text.
-- An unknown name or key is an error, and so is a division by zero, which Lua turns into
-- a value that is no finite number: as a placeholder's value, or as a function's argument
-- or result.
local wb = require("vm.lib.workbook")

local M = {}

-- Raises "WHERE: MSG" (a file, or a file and line), with no position of ours: the chapter
-- tools' one form of error (folder.lua's too).
function M.fail(where, msg)
  error(where .. ": " .. msg, 0)
end

-- The name expressions give the file at path: its base name, '-' made '_' (a '_' after a
-- Lua keyword).
local function name_of(path, base)
  local name = base:gsub("-", "_")
  if not name:match("^[%a_][%w_]*$") then
    M.fail(path, "a data file's name must read as a Lua name once '-' is made '_'")
  end
  return load("local " .. name) and name or name .. "_" -- `local repeat` does not compile
end

-- Reads `key = value` lines into t, each key prefixed with prefix.
function M.load_data(t, path, prefix)
  local text, err = wb.read_file(path)
  if not text then
    M.fail(path, "cannot read data file (" .. err .. ")")
  end
  for n, line in ipairs(wb.split_lines(text)) do
    line = line:gsub("\r$", "")
    if line ~= "" and not line:match("^%s*#") then
      local k, v = line:match("^%s*([%a_][%w_]*)%s*=%s*(.-)%s*$")
      if not k then
        M.fail(path .. ":" .. n, "expected 'key = value' (a key of letters, digits and _), got '" .. line .. "'")
      end
      t[prefix .. k] = v
    end
  end
  return t
end

-- Loads a chapter's data files: `key = value` files into one table, keys prefixed with
-- the file's name and a dot (profile.txt gives profile.KEY); folded-stack files
-- (NAME.folded) as a name -> path table (fib-drip.folded is fib_drip), for stacks.lua;
-- and the tables the text includes (NAME.out) the same way, for tables.lua.
function M.load_files(paths)
  local data, folded, tables = {}, {}, {}
  for _, path in ipairs(paths) do
    local base = wb.basename(path)
    local stack_name, table_name = base:match("^(.+)%.folded$"), base:match("^(.+)%.out$")
    if stack_name then
      folded[name_of(path, stack_name)] = path
    elseif table_name then
      tables[name_of(path, table_name)] = path
    else
      M.load_data(data, path, name_of(path, base:match("^(.+)%.txt$") or base) .. ".")
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
    loaded[name] = loaded[name] or read(paths[name] or error("no " .. what .. " called '" .. tostring(name) .. "'", 0))
    return loaded[name]
  end
end

-- v, unless it is a number that is not finite (inf or nan: a division by zero).
local function finite(v)
  if type(v) == "number" and (v ~= v or v == math.huge or v == -math.huge) then
    error("division by zero", 0)
  end
  return v
end

local builtins = {
  abs = math.abs,
  -- the nearest whole number: `x == round(x)` says that x is whole
  round = function(x) return math.floor(x + 0.5) end,
  -- true when text holds part (plain text, not a pattern): a claim about a name
  contains = function(text, part) return tostring(text):find(tostring(part), 1, true) ~= nil end,
  min = math.min,
  max = math.max,
  tonumber = tonumber,
}

-- A metatable whose reads of a missing name raise "PREFIXname'".
local function strict(prefix)
  return { __index = function(_, name) error(prefix .. tostring(name) .. "'", 0) end }
end

-- The environment of a chapter's expressions: data (key -> text, as load_files gives it),
-- the names of the files given to functions (a list of name -> path tables), and the
-- functions, builtins and the caller's (name -> function).
function M.environment(data, functions, files)
  local env = {}
  local function define(name, value)
    if rawget(env, name) ~= nil then
      error("two data files or functions are called '" .. name .. "'", 0)
    end
    env[name] = value
  end
  for key, value in pairs(data) do
    local file, field = key:match("^([^.]+)%.(.+)$")
    if not rawget(env, file) then
      define(file, setmetatable({}, strict("unknown key '" .. file .. ".")))
    end
    env[file][field] = tonumber(value) or value
  end
  for _, paths in ipairs(files or {}) do
    for name in pairs(paths) do
      define(name, name)
    end
  end
  for _, list in ipairs({ builtins, functions or {} }) do
    for name, fn in pairs(list) do
      define(name, function(...)
        for i = 1, select("#", ...) do
          finite((select(i, ...)))
        end
        return finite(fn(...))
      end)
    end
  end
  return setmetatable(env, strict("unknown name '"))
end

-- Evaluates a Lua expression in env (M.environment); raises an error string on failure.
function M.evaluate(text, env)
  local chunk, err = load("return " .. text, "=expression", "t", env)
  if not chunk then
    error("cannot read '" .. text .. "': " .. err:gsub("^expression:%d+: ", ""), 0)
  end
  local ok, value = pcall(chunk)
  if not ok then
    error((tostring(value):gsub("^expression:%d+: ", "")), 0)
  end
  return finite(value)
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

-- text, x formatted, with "about " before it when the format rounds x.
local function about(x, text)
  return (tonumber(text) == x and "" or "about ") .. text
end

local small_numbers = { "once", "twice", "three times", "four times", "five times",
  "six times", "seven times", "eight times", "nine times", "ten times" }

local function in_words_times(x)
  local whole = math.floor(x + 0.5)
  if math.abs(x - whole) < 0.005 and small_numbers[whole] then
    return small_numbers[whole]
  end
  return about(x, string.format("%.1f", x)) .. " times"
end

local function ordinal(x)
  local n = math.floor(x + 0.5)
  local teen = n % 100 >= 11 and n % 100 <= 13 -- 11th, 12th, 13th
  return string.format("%d", n) .. (not teen and ({ "st", "nd", "rd" })[n % 10] or "th")
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

-- The filters without words that need a number: name -> function(the number, the value as
-- given). commas takes the value as given: a key's text keeps every digit past 2^53.
local number_filters = {
  commas = function(_, v)
    return wb.commas(v) or error("commas needs a whole number, got '" .. tostring(v) .. "'", 0)
  end,
  abs = math.abs,
  times = in_words_times,
  ordinal = ordinal,
}

-- Applies one filter to a value; returns the new value.
local function apply(filter, v)
  local name, arg = filter:match("^(%w+):(.*)$")
  if number_filters[filter] then
    return number_filters[filter](as_number(v, filter), v)
  elseif filter:match("^%%[-%d.]*[dfgs]$") then
    return format_pattern(filter, v)
  elseif name == "about" and arg:match("^%%[%d.]*[dfg]$") then
    local x = as_number(v, "about")
    return about(x, format_pattern(arg, x))
  elseif name == "sign" then
    local w = words(arg, 3, "sign")
    local x = as_number(v, "sign")
    return x < 0 and w[1] or (x == 0 and w[2] or w[3])
  elseif name == "choose" then
    if type(v) ~= "boolean" then
      error("choose needs a comparison, got '" .. tostring(v) .. "'", 0)
    end
    local w = words(arg, 2, "choose")
    return v and w[1] or w[2]
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
local function check_claim(text, env)
  local ok = M.evaluate(text, env)
  if type(ok) ~= "boolean" then
    error("a check needs a comparison, got '" .. tostring(ok) .. "'", 0)
  end
  if ok then
    return
  end
  local detail = ""
  local left, right = text:match("^(.-)%s*[<>=~]=?%s*(.-)$")
  if left and not text:match("%f[%w]and%f[%W]") and not text:match("%f[%w]or%f[%W]") then
    local okl, l = pcall(M.evaluate, left, env)
    local okr, r = pcall(M.evaluate, right, env)
    if okl and okr then
      detail = string.format(" (%s is %s, %s is %s)", left, tostring(l), right, tostring(r))
    end
  end
  error("the data no longer supports this claim: " .. text .. detail ..
    "; reword the text around it", 0)
end

-- One placeholder's text; checks give "".
local function placeholder(inner, data, env, dir)
  local path = inner:match("^include:(.+)$")
  if path then
    local text = wb.read_file(dir .. "/" .. path) or error("cannot read included file '" .. dir .. "/" .. path .. "'", 0)
    return (text:gsub("\n$", ""))
  end
  local claim = inner:match("^%s*check:%s*(.-)%s*$")
  if claim then
    check_claim(claim, env)
    return ""
  end
  local e, filters = split_filters(inner)
  local v = data[e] or M.evaluate(e, env) -- a key as written in its file, else an expression
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

-- Renders template text; name and dir are for messages and includes; functions are the
-- ones expressions may call, over the files of the name -> path tables in files
-- (stacks.lua's over the folded stacks, tables.lua's over the tables).
function M.render(text, data, name, dir, functions, files)
  local env = M.environment(data, functions, files)
  local out, n = {}, 0
  for line in (text .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    local rendered = line:gsub("{{(.-)}}", function(inner)
      local ok, result = pcall(placeholder, inner, data, env, dir)
      if not ok then
        M.fail(name .. ":" .. n, tostring(result))
      end
      return result
    end)
    -- a line of checks only (blank once they are taken out) is left out
    if not (line:find("{{", 1, true) and line:gsub("{{%s*check:.-}}", ""):match("^%s*$")) then
      out[#out + 1] = rendered
    end
  end
  if out[#out] == "" then
    out[#out] = nil
  end
  return table.concat(out, "\n") .. "\n"
end

return M
