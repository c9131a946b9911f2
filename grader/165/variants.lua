-- variants.lua: chapter 165's seeded inputs, so answers hard-coded to the
-- visible fixtures fail.
--
-- Four kinds of input come out of here, all from one rng (grader/rng.lua), so
-- a seed reproduces them byte for byte:
--   * edge-case annotate lines written from the handout's rules (rows and
--     look-alikes that are not rows), with random numbers and names;
--   * variants of the fixtures: every function renamed consistently, every
--     count replaced, lines shuffled, stacks duplicated or made recursive;
--   * sum_named and inclusive edge cases (substrings, case, overflow, empty
--     frames, zero counts);
--   * the large folded input for the speed check.
-- This module only writes inputs. The right answers always come from running
-- the reference solution on them, never from a second implementation here.

local M = {}

local UINT64_MAX = "18446744073709551615"
local UINT64_MAX_PLUS_1 = "18446744073709551616"

-- "20186274402" -> "20,186,274,402"
function M.group(digits)
  local head = #digits % 3
  local parts = {}
  if head > 0 then
    parts[1] = digits:sub(1, head)
  end
  for i = head + 1, #digits, 3 do
    parts[#parts + 1] = digits:sub(i, i + 2)
  end
  return table.concat(parts, ",")
end

-- A count as decimal text: usually small, sometimes past 2^32, rarely huge.
local function count_text(rng)
  local r = rng:int(1, 10)
  if r <= 5 then
    return tostring(rng:int(0, 99999))
  elseif r <= 9 then
    return tostring(rng:int(4294967296, 99999999999999))
  end
  return string.format("%u", rng:next() * 2 + rng:int(0, 1))
end

local function pct_text(rng)
  local forms = { "%5.2f", "%5.2f", "%5.2f", "%.1f", "%6.2f" }
  local value = rng:int(0, 10000) / 100
  if rng:chance(0.1) then
    return "100.0"
  elseif rng:chance(0.05) then
    return string.format("%.2f", -rng:int(1, 999) / 100)
  elseif rng:chance(0.05) then
    return string.format("%.1f", 100 + rng:int(1, 999) / 10)
  end
  return string.format(rng:pick(forms), value)
end

local syllables = { "ka", "lo", "mi", "re", "su", "ta", "vo", "ne", "pi", "dra", "xu", "zo", "qe",
  "fib", "run", "op", "get", "put", "val" }

-- A fresh identifier such as "tamirevo_3".
function M.identifier(rng, min_parts, max_parts)
  local parts = {}
  for i = 1, rng:int(min_parts or 2, max_parts or 4) do
    parts[i] = rng:pick(syllables)
  end
  return table.concat(parts) .. (rng:chance(0.3) and ("_" .. rng:int(0, 99)) or "")
end

local function long_name(rng, length)
  local parts = {}
  local n = 0
  while n < length do
    local id = M.identifier(rng, 3, 6)
    parts[#parts + 1] = id
    n = n + #id + 2
  end
  return table.concat(parts, "::")
end

-- A name with the characters real callgrind names carry.
local function function_name(rng)
  local id = M.identifier(rng)
  local forms = {
    function() return "prog.c:" .. id .. " [/tmp/cg/prog]" end,
    function() return "???:<drip::vm::" .. id .. ">::run [/x/drip-rs]" end,
    function() return "vm/src/" .. id .. ".c:" .. id .. "'2 [/w/build/drip]" end,
    function() return id .. " (below main)" end,
    function() return "0x000000000001" .. rng:int(1000, 9999) end,
    function() return "./elf/dl-lookup.c:" .. id end,
    function() return id end,
  }
  return rng:pick(forms)()
end

-- Returns a mapper from a name to the same name with every identifier of 3+
-- letters replaced by a random one, consistently across calls.
function M.renamer(rng)
  local map = {}
  local keep = { PROGRAM = true, TOTALS = true, below = true }
  return function(name)
    return (name:gsub("[%a_][%w_]*", function(word)
      if #word < 3 or keep[word] then
        return word
      end
      if not map[word] then
        map[word] = M.identifier(rng)
      end
      return map[word]
    end))
  end
end

-- One callgrind_annotate row: count, optional percentage, two blanks, name.
local function row(rng, digits, name, opts)
  opts = opts or {}
  local count = opts.plain and digits or M.group(digits)
  local text = count
  if opts.pct ~= false and (opts.pct or rng:chance(0.8)) then
    text = text .. " (" .. pct_text(rng) .. "%)"
  end
  return (opts.indent or "") .. text .. "  " .. name
end

-- Annotate lines from the rules in the handout, shuffled; each ends in "\n"
-- (or "\r\n"), except possibly the last, as at the end of a real file.
function M.edge_rows(rng)
  local lines = {}
  local function add(line)
    lines[#lines + 1] = line
  end
  for _ = 1, 3 do
    add(row(rng, count_text(rng), function_name(rng)))
    add(row(rng, count_text(rng), function_name(rng), { pct = false }))
    add(row(rng, count_text(rng), function_name(rng), { plain = true }))
    add(row(rng, count_text(rng), function_name(rng), { indent = string.rep(" ", rng:int(1, 8)) }))
    add(row(rng, count_text(rng), "PROGRAM TOTALS", { pct = true }))
    add(row(rng, count_text(rng), long_name(rng, rng:int(260, 3000))))
    add(row(rng, count_text(rng), function_name(rng) .. " with  two  blanks\tand a tab"))
    add(row(rng, count_text(rng), function_name(rng)) .. "\r")
    add(row(rng, UINT64_MAX, function_name(rng)))
    add(row(rng, tostring(rng:int(0, 999)), "x"))
    -- Not rows, by the rules.
    add(row(rng, UINT64_MAX_PLUS_1, function_name(rng)))
    add(row(rng, UINT64_MAX_PLUS_1, function_name(rng), { plain = true }))
    add(tostring(rng:int(1, 9)) .. "," .. string.format("%02d", rng:int(0, 99)) .. "  " .. function_name(rng))
    add(tostring(rng:int(10, 99)) .. "," .. string.format("%04d", rng:int(0, 9999)) .. "  " .. function_name(rng))
    add("," .. string.format("%03d", rng:int(0, 999)) .. "  " .. function_name(rng))
    add(M.group(count_text(rng)) .. ",  " .. function_name(rng))
    add("")
    add(string.rep("-", 80))
    add("Ir                      file:function")
    add("Profile data file 'callgrind.out." .. rng:int(100, 99999) .. "' (creator: callgrind-3.19.0)")
    add("Events recorded:  Ir")
    add(row(rng, count_text(rng), "   " .. M.identifier(rng) .. " = 1;"))
    add(string.rep(" ", rng:int(2, 12)) .. ".  " .. M.identifier(rng) .. "();")
    add(row(rng, count_text(rng), ". " .. M.identifier(rng)))
    add(row(rng, count_text(rng), "=> prog.c:" .. M.identifier(rng) .. " (" .. rng:int(1, 99) .. "x)",
      { indent = "  " }))
    add(row(rng, count_text(rng), "* prog.c:" .. M.identifier(rng)))
    add(row(rng, count_text(rng), "> prog.c:" .. M.identifier(rng)))
    add(row(rng, count_text(rng), "< prog.c:" .. M.identifier(rng)))
    add(row(rng, count_text(rng), M.group(count_text(rng)) .. " (" .. pct_text(rng) .. "%)  "
      .. function_name(rng), { pct = true }))
    add(M.group(count_text(rng)) .. " (" .. pct_text(rng) .. "%) " .. M.group(count_text(rng)) .. " ("
      .. pct_text(rng) .. "%)  " .. function_name(rng))
    add(M.group(count_text(rng)) .. " (88.0%, 88.0%)  " .. function_name(rng))
    add(M.group(count_text(rng)) .. " (" .. pct_text(rng) .. "%) " .. function_name(rng))
    add(M.group(count_text(rng)) .. " (" .. pct_text(rng) .. "%)  ")
    add(M.group(count_text(rng)) .. " (" .. pct_text(rng) .. "%)")
    add(M.group(count_text(rng)) .. " (" .. pct_text(rng) .. ")  " .. function_name(rng))
    add("-" .. M.group(count_text(rng)) .. "  " .. function_name(rng))
  end
  rng:shuffle(lines)
  local out = {}
  for i, line in ipairs(lines) do
    out[i] = line .. ((i < #lines or rng:chance(0.5)) and "\n" or "")
  end
  return table.concat(out)
end

-- A variant of an annotate fixture. lines: the fixture's lines as read (with
-- "\n"); is_row[i]: the reference's verdict for line i. Rows get a new count,
-- a new percentage and renamed functions; other lines are kept. Shuffled.
function M.annotate_variant(rng, lines, is_row, rename)
  local out = {}
  for i, line in ipairs(lines) do
    if is_row[i] then
      local indent, count, rest = line:match("^( *)([%d,]+)(.*)$")
      local pct, name = rest:match("^ (%(%s*%-?[%d.]+%%%))  (.*)$")
      if not pct then
        name = rest:match("^  (.*)$")
      end
      local ending = name:match("\r?\n$") or ""
      name = name:sub(1, #name - #ending)
      local digits = count_text(rng)
      local text = indent .. (count:find(",") and M.group(digits) or digits)
      if pct then
        text = text .. " (" .. pct_text(rng) .. "%)"
      end
      out[#out + 1] = text .. "  " .. rename(name) .. "\n"
    elseif line:sub(-1) == "\n" then
      out[#out + 1] = line
    else
      out[#out + 1] = line .. "\n"
    end
  end
  return rng:shuffle(out)
end

-- A variant of a folded fixture: renamed frames, new counts, shuffled, with
-- some stacks repeated (they must add up) and some made recursive.
function M.folded_variant(rng, text, rename)
  local out = {}
  for line in text:gmatch("[^\n]+") do
    local stack = line:gsub("\r$", ""):match("^(.-)%s+%d+%s*$")
    if stack then
      local frames = {}
      for frame in stack:gmatch("[^;]+") do
        frames[#frames + 1] = rename(frame)
      end
      if #frames > 1 and rng:chance(0.2) then
        local k = rng:int(1, #frames)
        table.insert(frames, k, frames[k])
      end
      local joined = table.concat(frames, ";")
      out[#out + 1] = joined .. " " .. rng:int(0, 5000000000)
      if rng:chance(0.1) then
        out[#out + 1] = joined .. " " .. rng:int(1, 1000)
      end
    end
  end
  return rng:shuffle(out)
end

-- Rows and needles for sum_named's edge cases. Returns rows ({ir = decimal
-- text, name}; no name: NULL) and needles (list of strings).
function M.sum_edges(rng)
  local fib = M.identifier(rng, 1, 2)
  local rows = {
    { ir = tostring(rng:int(5000000000, 9000000000)), name = "PROGRAM TOTALS" },
    { ir = tostring(rng:int(1, 1000000)), name = "prog.c:" .. fib .. " [/tmp/p]" },
    { ir = tostring(rng:int(1, 1000000)), name = "prog.c:" .. fib .. "'2 [/tmp/p]" },
    { ir = tostring(rng:int(1, 1000000)), name = "prog.c:" .. fib .. "onacci [/tmp/p]" },
    { ir = tostring(rng:int(1, 1000000)), name = "prog.c:" .. fib:upper() .. " [/tmp/p]" },
    { ir = tostring(rng:int(3000000000, 4000000000)), name = "big:one" },
    { ir = tostring(rng:int(3000000000, 4000000000)), name = "big:two" },
    { ir = tostring(rng:int(0, 10)), name = "(below main)" },
    { ir = "9223372036854775808", name = "huge:left" },
    { ir = "9223372036854775808", name = "huge:right" },
    { ir = tostring(rng:int(1, 99)), name = "needle at the end: " .. fib },
    { ir = tostring(rng:int(1, 99)) }, -- name NULL: not a row, skipped (profile.h)
    { ir = tostring(rng:int(1, 99)) },
  }
  rng:shuffle(rows)
  local needles = { "", fib, fib:upper(), fib .. "'2", "big:", "huge:", "huge:left", "(below main)",
    " ", "zz-no-such-function-" .. rng:int(1, 999), "PROGRAM TOTALS", "prog.c:" .. fib .. " [/tmp/p] and more",
    "[/tmp/p]" }
  return rows, needles
end

-- Vectors {count, stack} for inclusive's edge cases (no stack: NULL), with random names.
-- "zero;X_only" is a function seen only on a stack of count 0: listed with cost 0.
function M.stack_edges(rng)
  local a, b, c, d = M.identifier(rng), M.identifier(rng), M.identifier(rng), M.identifier(rng)
  local long = long_name(rng, rng:int(300, 2000))
  local function n()
    return tostring(rng:int(1, 100000))
  end
  local vectors = {
    { n(), "main;" .. a .. ";" .. b .. ";" .. b .. ";" .. b },
    { n(), "main;" .. a .. ";" .. b },
    { n(), "main;" .. a .. ";" .. b },
    { n(), "main;" .. c },
    { n(), a .. ";;" .. b },
    { n(), ";" .. c },
    { n(), d .. ";" },
    { n(), ";;" },
    { n(), "" },
    { "0", "zero;" .. d .. "_only" },
    { n(), "with space;(below main);" .. a .. " " .. b },
    { n(), b .. "'2;" .. b .. ";" .. b .. "onacci" },
    { n(), long .. ";main" },
    { n(), a .. ";" .. b .. ";" .. a .. ";" .. b .. ";" .. a },
    { tostring(rng:int(4294967296, 99999999999)), "main;" .. c .. ";" .. d },
    { "18446744073709551610", "solo;alone" },
    { n() }, -- a NULL stack: an empty one (profile.h)
  }
  return rng:shuffle(vectors)
end

-- Vectors whose total for one frame is past UINT64_MAX: inclusive must fail.
function M.overflow_stacks(rng)
  local a = M.identifier(rng)
  return rng:shuffle({
    { "9223372036854775808", "main;" .. a },
    { "9223372036854775808", "main;other" },
    { tostring(rng:int(1, 100)), "main;" .. a .. ";leaf" },
  })
end

-- The speed check's input: `lines` stacks over about lines*distinct names,
-- root-first like real profiles, with some recursion. Returns the text.
function M.speed_input(rng, lines, distinct)
  local names = {}
  local ndistinct = math.max(16, math.floor(lines * distinct))
  for i = 1, ndistinct do
    names[i] = M.identifier(rng, 2, 5) .. "_" .. i
  end
  local out = {}
  for i = 1, lines do
    local depth = rng:int(3, 24)
    local frames = { "main" }
    for k = 2, depth do
      if k > 3 and rng:chance(0.15) then
        frames[k] = frames[k - 1]
      else
        frames[k] = names[rng:int(1, ndistinct)]
      end
    end
    out[i] = table.concat(frames, ";") .. " " .. rng:int(1, 1000000) .. "\n"
  end
  return table.concat(out)
end

return M
