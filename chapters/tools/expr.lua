-- expr.lua: the arithmetic inside a chapter placeholder, {{...}}.
--
-- A chapter states numbers that are computed from its data: differences,
-- ratios, per-call costs, and comparisons that decide a word ("more" or
-- "fewer"). They are written as small expressions over data keys:
--
--   profile.ir_fib_outline - profile.ir_fib_total
--   (a - b) / calls * 1e6
--   abs(repeat.ir_zoo_first - repeat.ir_zoo_second) < repeat.ir_zoo_first / 1e6
--   level_width(fib_drip, fib, 20) / stacks_total(fib_drip)
--
-- Grammar, loosest binding first:
--   expr    := andexpr { "or" andexpr }
--   andexpr := compare { "and" compare }
--   compare := sum [ ("<" | "<=" | ">" | ">=" | "==" | "!=") sum ]
--   sum     := product { ("+" | "-") product }
--   product := unary { ("*" | "/") unary }
--   unary   := "-" unary | atom
--   atom    := NUMBER | STRING | KEY | NAME "(" [ arg { "," arg } ] ")" | "(" expr ")"
--   arg     := NAME (a bare word: a key's value, or else the word) | expr
-- Functions: abs, round, min, max and contains, and those the caller passes
-- (stacks.lua, tables.lua).
-- KEY is a data key such as profile.ir_fib_total (letters, digits, _ and .).
-- Its value is a number when it reads as one (0x1ab70 does), else text;
-- arithmetic wants numbers, and == / != compare text with text, or text
-- that reads as a number with a number. A function argument that is a bare
-- word and not a data key is passed as text (a data file, a frame name).
-- Comparisons give true or false.
--
-- The parser is a plain recursive descent over a token list, and evaluates
-- as it parses: expressions are a line long, so there is no tree to keep.
-- Errors are raised as strings that say what went wrong and where in the
-- expression; the caller adds the template's file and line.
local M = {}

local function tokenize(text)
  local tokens, i = {}, 1
  while i <= #text do
    local c = text:sub(i, i)
    if c:match("%s") then
      i = i + 1
    else
      local number = text:match("^0[xX]%x+", i) or text:match("^%d+%.?%d*[eE][-+]?%d+", i)
          or text:match("^%d+%.?%d*", i) or text:match("^%.%d+", i)
      local name = not number and text:match("^[%a_][%w_.]*", i)
      local two = text:sub(i, i + 1)
      if number then
        tokens[#tokens + 1] = { kind = "number", value = tonumber(number), at = i }
        i = i + #number
      elseif name then
        tokens[#tokens + 1] = { kind = "name", value = name, at = i }
        i = i + #name
      elseif c == '"' then
        local close = text:find('"', i + 1, true)
        if not close then
          error("unclosed string at column " .. i, 0)
        end
        tokens[#tokens + 1] = { kind = "string", value = text:sub(i + 1, close - 1), at = i }
        i = close + 1
      elseif two == "<=" or two == ">=" or two == "==" or two == "!=" then
        tokens[#tokens + 1] = { kind = two, at = i }
        i = i + 2
      elseif c:match("[-+*/()<>,]") then
        tokens[#tokens + 1] = { kind = c, at = i }
        i = i + 1
      else
        error("unexpected '" .. c .. "' at column " .. i, 0)
      end
    end
  end
  tokens[#tokens + 1] = { kind = "end", at = #text + 1 }
  return tokens
end

-- A parser over one token list. lookup(key) returns a data value or nil;
-- functions maps a name to function(args) returning a number or a string.
local function parser(tokens, lookup, functions)
  local pos = 1
  local P = {}

  local function peek(kind)
    return tokens[pos].kind == kind
  end

  local function take(kind)
    local t = tokens[pos]
    if t.kind ~= kind then
      local seen = t.kind == "end" and "the end" or ("'" .. (t.value or t.kind) .. "'")
      error("expected " .. kind .. " at column " .. t.at .. ", found " .. seen, 0)
    end
    pos = pos + 1
    return t
  end

  local function number(value, what)
    if type(value) ~= "number" then
      error(what .. " is not a number: '" .. tostring(value) .. "'", 0)
    end
    return value
  end

  local function call(name)
    local fn = functions[name]
    if not fn then
      error("unknown function '" .. name .. "'", 0)
    end
    take("(")
    local args = {}
    if not peek(")") then
      repeat
        if #args > 0 then
          take(",")
        end
        local t, after = tokens[pos], tokens[pos + 1]
        if t.kind == "name" and (after.kind == "," or after.kind == ")") then
          local v = lookup(t.value) -- a data key gives its value, any other word itself
          args[#args + 1] = v == nil and t.value or (tonumber(v) or v)
          pos = pos + 1
        else
          args[#args + 1] = P.expr()
        end
      until not peek(",")
    end
    take(")")
    return fn(table.unpack(args))
  end

  local function atom()
    local t = tokens[pos]
    if t.kind == "number" or t.kind == "string" then
      pos = pos + 1
      return t.value
    elseif t.kind == "name" then
      pos = pos + 1
      if peek("(") then
        return call(t.value)
      end
      local v = lookup(t.value)
      if v == nil then
        error("unknown key '" .. t.value .. "'", 0)
      end
      return tonumber(v) or v
    elseif t.kind == "(" then
      pos = pos + 1
      local v = P.expr()
      take(")")
      return v
    end
    take("a number, key or '('")
  end

  local function unary()
    if peek("-") then
      pos = pos + 1
      return -number(unary(), "the operand of '-'")
    end
    return atom()
  end

  local arithmetic = {
    ["+"] = function(a, b) return a + b end,
    ["-"] = function(a, b) return a - b end,
    ["*"] = function(a, b) return a * b end,
    ["/"] = function(a, b)
      if b == 0 then
        error("division by zero", 0)
      end
      return a / b
    end,
  }

  -- One level of left-associative operators: operand { (op1 | op2) operand }.
  local function left_assoc(operand, op1, op2)
    return function()
      local v = operand()
      while peek(op1) or peek(op2) do
        local op = tokens[pos].kind
        pos = pos + 1
        local rhs = number(operand(), "the right side of '" .. op .. "'")
        v = arithmetic[op](number(v, "the left side of '" .. op .. "'"), rhs)
      end
      return v
    end
  end

  local product = left_assoc(unary, "*", "/")
  local sum = left_assoc(product, "+", "-")

  local compare_ops = {
    ["<"] = function(a, b) return a < b end,
    ["<="] = function(a, b) return a <= b end,
    [">"] = function(a, b) return a > b end,
    [">="] = function(a, b) return a >= b end,
    ["=="] = function(a, b) return a == b end,
    ["!="] = function(a, b) return a ~= b end,
  }

  local function compare()
    local v = sum()
    local op = tokens[pos].kind
    if compare_ops[op] then
      pos = pos + 1
      local rhs = sum()
      if type(v) == "string" or type(rhs) == "string" then
        -- text that reads as a number compares as one: "0x00..1ab70" == 0x1ab70
        local a, b = tonumber(v), tonumber(rhs)
        if a and b then
          v, rhs = a, b
        elseif op == "==" or op == "!=" then
          return compare_ops[op](tostring(v), tostring(rhs))
        else
          error("'" .. op .. "' compares numbers, not text", 0)
        end
      end
      return compare_ops[op](number(v, "the left side of '" .. op .. "'"),
        number(rhs, "the right side of '" .. op .. "'"))
    end
    return v
  end

  local function is_word(word)
    local t = tokens[pos]
    return t.kind == "name" and t.value == word
  end

  local function logic(word, operand)
    local v = operand()
    while is_word(word) do
      pos = pos + 1
      local rhs = operand()
      if type(v) ~= "boolean" or type(rhs) ~= "boolean" then
        error("'" .. word .. "' joins comparisons", 0)
      end
      if word == "and" then
        v = v and rhs
      else
        v = v or rhs
      end
    end
    return v
  end

  function P.expr()
    return logic("or", function() return logic("and", compare) end)
  end

  function P.whole()
    local v = P.expr()
    take("end")
    return v
  end

  return P
end

-- Functions every expression has, besides the caller's.
local builtins = {
  abs = function(x) return math.abs(x) end,
  -- the nearest whole number: `x == round(x)` says that x is whole
  round = function(x) return math.floor(x + 0.5) end,
  -- true when text holds part (plain text, not a pattern): a claim about a name
  contains = function(text, part) return tostring(text):find(tostring(part), 1, true) ~= nil end,
  min = function(...) return math.min(...) end,
  max = function(...) return math.max(...) end,
}

-- Evaluates text; returns a number, a boolean (comparisons) or a string
-- (a function that returns text). Raises an error string on failure.
function M.evaluate(text, lookup, functions)
  local all = setmetatable({}, { __index = function(_, name)
    return (functions or {})[name] or builtins[name]
  end })
  return parser(tokenize(text), lookup, all).whole()
end

-- True when text is a bare data key (its value is used as written).
function M.is_key(text)
  return text:match("^[%a_][%w_.]*$") ~= nil
end

return M
