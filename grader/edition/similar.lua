-- similar.lua: how close a C function is to a function of the reference solution.
--
-- The student edition must not let anyone recover solutions/ (check_edition.lua). A
-- copy rarely stays a copy: names get changed, code gets reformatted or reordered a
-- little. So each function is compared as token sequences, not text:
--
--   shape  every identifier becomes I, every number N, every string S, every character
--          constant C; keywords, standard types and punctuation stay. Renaming every
--          variable leaves the shape unchanged.
--   named  the same, but identifiers stay, folded to lower case without underscores
--          (emit_byte and emitByte are one name).
--
-- A function is cut into overlapping runs of K tokens (shingles). The closeness of an
-- edition function E to a reference function R is the share of R's runs that also occur
-- in E, for each of the two streams: 1.0 means all of R's code is in E (E may hold
-- more). Reordering statements breaks only the runs across the seams, so a shuffled
-- copy still scores high, while two functions that merely share idioms (a for loop over
-- an array, a free() of each element) share a few runs, not most of them.
--
-- Function boundaries come from the tokens: a `{` at file level right after a `)` opens
-- a body, which ends at its matching `}`; the name is the identifier before the
-- matching `(`. Preprocessor lines are dropped first. This is a heuristic for
-- clang-formatted C, which is what the workbook holds.

local M = {}

M.K = 6

local KEYWORDS = {}
for word in ([[auto break case char const continue default do double else enum extern float
  for goto if inline int long register restrict return short signed sizeof static struct
  switch typedef union unsigned void volatile while bool true false NULL _Bool
  uint8_t uint16_t uint32_t uint64_t int8_t int16_t int32_t int64_t size_t ssize_t
  SIZE_MAX UINT64_MAX]]):gmatch("%S+") do
  KEYWORDS[word] = true
end

local OPERATORS = { "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
  "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=" }

-- Blanks out comments, string and character literals (keeping line breaks, and one
-- marker per literal) and drops preprocessor lines with their continuations.
local function clean(text)
  local out, i, n = {}, 1, #text
  while i <= n do
    local c, two = text:sub(i, i), text:sub(i, i + 1)
    if two == "/*" then
      local stop = text:find("*/", i + 2, true) or n - 1
      out[#out + 1] = (text:sub(i, stop + 1):gsub("[^\n]", ""))
      i = stop + 2
    elseif two == "//" then
      local stop = text:find("\n", i, true) or n + 1
      i = stop
    elseif c == '"' or c == "'" then
      local j = i + 1
      while j <= n and text:sub(j, j) ~= c and text:sub(j, j) ~= "\n" do
        j = j + (text:sub(j, j) == "\\" and 2 or 1)
      end
      out[#out + 1] = c == '"' and " \1S " or " \1C "
      i = j + 1
    else
      out[#out + 1] = c
      i = i + 1
    end
  end
  local lines, skipping = {}, false
  for line in (table.concat(out) .. "\n"):gmatch("([^\n]*)\n") do
    local directive = skipping or line:match("^%s*#")
    skipping = directive and line:match("\\%s*$") ~= nil
    lines[#lines + 1] = directive and "" or line
  end
  return lines
end

-- Tokens of the cleaned lines: { text, line } each.
local function tokenize(lines)
  local tokens = {}
  for number, line in ipairs(lines) do
    local i = 1
    while i <= #line do
      local c = line:sub(i, i)
      if c:match("%s") then
        i = i + 1
      elseif c == "\1" then
        tokens[#tokens + 1] = { "\1" .. line:sub(i + 1, i + 1), number }
        i = i + 2
      elseif c:match("[%a_]") then
        local word = line:match("^[%w_]+", i)
        tokens[#tokens + 1] = { word, number }
        i = i + #word
      elseif c:match("%d") or (c == "." and line:sub(i + 1, i + 1):match("%d")) then
        local num = line:match("^[%w%.]+", i)
        tokens[#tokens + 1] = { "\1N", number }
        i = i + #num
      else
        local op = c
        for _, candidate in ipairs(OPERATORS) do
          if line:sub(i, i + #candidate - 1) == candidate then
            op = candidate
            break
          end
        end
        tokens[#tokens + 1] = { op, number }
        i = i + #op
      end
    end
  end
  return tokens
end

local function shape_of(token)
  if token:sub(1, 1) == "\1" then
    return token:sub(2)
  end
  if token:match("^[%a_]") and not KEYWORDS[token] then
    return "I"
  end
  return token
end

local function named_of(token)
  if token:match("^[%a_]") and not KEYWORDS[token] then
    return (token:lower():gsub("_", ""))
  end
  return shape_of(token)
end

-- The set of K-token runs of a stream (a table used as a set) and how many there are.
local function shingles(stream)
  local set, count = {}, 0
  for i = 1, math.max(#stream - M.K + 1, 1) do
    local run = table.concat(stream, " ", i, math.min(i + M.K - 1, #stream))
    if not set[run] then
      set[run] = true
      count = count + 1
    end
  end
  return set, count
end

-- The functions defined in C source text: { name, first_line, last_line, tokens,
-- shape = set, shape_count, named = set, named_count }.
function M.functions(text)
  local tokens = tokenize(clean(text))
  local found, depth, i = {}, 0, 1
  while i <= #tokens do
    local t = tokens[i][1]
    if t == "{" and depth == 0 and i > 1 and tokens[i - 1][1] == ")" then
      -- walk back to the matching "(" and the name before it
      local j, parens = i - 1, 0
      repeat
        local b = tokens[j][1]
        parens = parens + (b == ")" and 1 or b == "(" and -1 or 0)
        j = j - 1
      until parens == 0 or j < 1
      local name = j >= 1 and tokens[j][1] or "?"
      local start = j
      while start > 1 and not (";}"):find(tokens[start - 1][1], 1, true) do
        start = start - 1
      end
      local k, braces = i, 0
      repeat
        local b = tokens[k][1]
        braces = braces + (b == "{" and 1 or b == "}" and -1 or 0)
        k = k + 1
      until braces == 0 or k > #tokens
      local shape, named = {}, {}
      for x = start, k - 1 do
        shape[#shape + 1] = shape_of(tokens[x][1])
        named[#named + 1] = named_of(tokens[x][1])
      end
      local f = { name = name, first_line = tokens[start][2], last_line = tokens[k - 1][2],
                  length = k - start }
      f.shape, f.shape_count = shingles(shape)
      f.named, f.named_count = shingles(named)
      found[#found + 1] = f
      i = k
    else
      depth = depth + (t == "{" and 1 or t == "}" and -1 or 0)
      i = i + 1
    end
  end
  return found
end

local function covered(reference_set, reference_count, other_set)
  local hits = 0
  for run in pairs(reference_set) do
    if other_set[run] then
      hits = hits + 1
    end
  end
  return hits / reference_count
end

-- How much of reference function r is in function e: shape and named shares (0..1).
function M.compare(e, r)
  return covered(r.shape, r.shape_count, e.shape), covered(r.named, r.named_count, e.named)
end

-- The verdict on a pair. Below MIN_TOKENS a function is not compared at all; below
-- IDIOM_TOKENS tokens a reference function is an idiom
-- that every C program repeats (a digit test, a hash loop, a comparator, a loop that
-- frees an array): it counts only as a copy with its names. A longer one counts when
-- most of its structure is there, renamed or not. Calibration on the workbook (see
-- check_edition.lua): the VM's and profiler's own code reaches at most 0.48
-- (shape) on a longer reference function, a renamed copy at least 0.95.
M.IDIOM_TOKENS = 60
M.MIN_TOKENS = 30 -- a one-line predicate such as is_digit() carries nothing to recover
function M.close(e, r)
  local shape, named = M.compare(e, r)
  if r.length < M.MIN_TOKENS then
    return false, shape, named
  elseif r.length < M.IDIOM_TOKENS then
    return named >= 0.8, shape, named
  end
  return shape >= 0.7 or named >= 0.5, shape, named
end

return M
