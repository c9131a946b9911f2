-- variants.lua: chapter 165's seeded inputs, so answers hard-coded to the
-- visible fixtures fail.
--
-- Three kinds of input come out of here, all from Lua's one random stream
-- (math.random, seeded by the engine with the run's seed), so a seed reproduces
-- them byte for byte:
--   * edge-case annotate lines written from the handout's rules (rows and
--     look-alikes that are not rows), with random numbers and names;
--   * variants of the fixtures: every function renamed consistently, every
--     count replaced, lines shuffled, stacks duplicated or made recursive;
--   * sum_named and inclusive edge cases (substrings, case, overflow, empty
--     frames, zero counts).
-- (The large input of the speed check is made by the checker itself, from a seed.)
-- This module only writes inputs. The right answers always come from running
-- the reference solution on them, never from a second implementation here, and
-- the fixtures' stacks come from dripprof (vm/lib/dripprof.lua), the
-- workbook's one reader of folded stacks, and their rows are the reference's own
-- answers for them.

local wb = require("vm.lib.workbook")

local M = {}

local random = math.random

-- true with probability p.
local function chance(p)
  return random() < p
end

local function pick(list)
  return list[random(#list)]
end

-- Shuffles list in place (Fisher-Yates) and returns it.
function M.shuffle(list)
  for i = #list, 2, -1 do
    local j = random(i)
    list[i], list[j] = list[j], list[i]
  end
  return list
end

local UINT64_MAX = "18446744073709551615"
local UINT64_MAX_PLUS_1 = "18446744073709551616"

-- A count as decimal text: usually small, sometimes past 2^32, rarely huge.
local function count_text()
  local r = random(1, 10)
  if r <= 5 then
    return tostring(random(0, 99999))
  elseif r <= 9 then
    return tostring(random(4294967296, 99999999999999))
  end
  return string.format("%u", random(0))
end

local function pct_text()
  local forms = { "%5.2f", "%5.2f", "%5.2f", "%.1f", "%6.2f" }
  local value = random(0, 10000) / 100
  if chance(0.1) then
    return "100.0"
  elseif chance(0.05) then
    return string.format("%.2f", -random(1, 999) / 100)
  elseif chance(0.05) then
    return string.format("%.1f", 100 + random(1, 999) / 10)
  end
  return string.format(pick(forms), value)
end

local syllables = { "ka", "lo", "mi", "re", "su", "ta", "vo", "ne", "pi", "dra", "xu", "zo", "qe",
  "fib", "run", "op", "get", "put", "val" }

-- A fresh identifier such as "tamirevo_3".
function M.identifier(min_parts, max_parts)
  local parts = {}
  for i = 1, random(min_parts or 2, max_parts or 4) do
    parts[i] = pick(syllables)
  end
  return table.concat(parts) .. (chance(0.3) and ("_" .. random(0, 99)) or "")
end

local function long_name(length)
  local parts = {}
  local n = 0
  while n < length do
    local id = M.identifier(3, 6)
    parts[#parts + 1] = id
    n = n + #id + 2
  end
  return table.concat(parts, "::")
end

-- A name with the characters real callgrind names carry.
local function function_name()
  local id = M.identifier()
  local forms = {
    function() return "prog.c:" .. id .. " [/tmp/cg/prog]" end,
    function() return "???:<drip::vm::" .. id .. ">::run [/x/drip-rs]" end,
    function() return "vm/src/" .. id .. ".c:" .. id .. "'2 [/w/build/drip]" end,
    function() return id .. " (below main)" end,
    function() return "0x000000000001" .. random(1000, 9999) end,
    function() return "./elf/dl-lookup.c:" .. id end,
    function() return id end,
  }
  return pick(forms)()
end

-- Returns a mapper from a name to the same name with every identifier of 3+
-- letters replaced by a random one, consistently across calls.
function M.renamer()
  local map, renamed = {}, {}
  local keep = { PROGRAM = true, TOTALS = true, below = true }
  local function word_for(word)
    if #word < 3 or keep[word] then
      return word
    end
    map[word] = map[word] or M.identifier()
    return map[word]
  end
  -- A name's words are renamed the first time it is seen (the fixtures' frames repeat).
  return function(name)
    renamed[name] = renamed[name] or name:gsub("[%a_][%w_]*", word_for)
    return renamed[name]
  end
end

-- One callgrind_annotate row: count, optional percentage, two blanks, name.
local function row(digits, name, opts)
  opts = opts or {}
  local count = opts.plain and digits or wb.commas(digits)
  local text = count
  if opts.pct ~= false and (opts.pct or chance(0.8)) then
    text = text .. " (" .. pct_text() .. "%)"
  end
  return (opts.indent or "") .. text .. "  " .. name
end

-- Annotate lines from the rules in the handout, shuffled; each ends in "\n"
-- (or "\r\n"), except possibly the last, as at the end of a real file.
function M.edge_rows()
  local lines = {}
  local function add(line)
    lines[#lines + 1] = line
  end
  for _ = 1, 3 do
    add(row(count_text(), function_name()))
    add(row(count_text(), function_name(), { pct = false }))
    add(row(count_text(), function_name(), { plain = true }))
    add(row(count_text(), function_name(), { indent = string.rep(" ", random(1, 8)) }))
    add(row(count_text(), "PROGRAM TOTALS", { pct = true }))
    add(row(count_text(), long_name(random(260, 3000))))
    add(row(count_text(), function_name() .. " with  two  blanks\tand a tab"))
    add(row(count_text(), function_name()) .. "\r")
    add(row(UINT64_MAX, function_name()))
    add(row(tostring(random(0, 999)), "x"))
    -- Not rows, by the rules.
    add(row(UINT64_MAX_PLUS_1, function_name()))
    add(row(UINT64_MAX_PLUS_1, function_name(), { plain = true }))
    add(tostring(random(1, 9)) .. "," .. string.format("%02d", random(0, 99)) .. "  " .. function_name())
    add(tostring(random(10, 99)) .. "," .. string.format("%04d", random(0, 9999)) .. "  " .. function_name())
    add("," .. string.format("%03d", random(0, 999)) .. "  " .. function_name())
    add(wb.commas(count_text()) .. ",  " .. function_name())
    add("")
    add(string.rep("-", 80))
    add("Ir                      file:function")
    add("Profile data file 'callgrind.out." .. random(100, 99999) .. "' (creator: callgrind-3.19.0)")
    add("Events recorded:  Ir")
    add(row(count_text(), "   " .. M.identifier() .. " = 1;"))
    add(string.rep(" ", random(2, 12)) .. ".  " .. M.identifier() .. "();")
    add(row(count_text(), ". " .. M.identifier()))
    add(row(count_text(), "=> prog.c:" .. M.identifier() .. " (" .. random(1, 99) .. "x)",
      { indent = "  " }))
    add(row(count_text(), "* prog.c:" .. M.identifier()))
    add(row(count_text(), "> prog.c:" .. M.identifier()))
    add(row(count_text(), "< prog.c:" .. M.identifier()))
    add(row(count_text(), wb.commas(count_text()) .. " (" .. pct_text() .. "%)  "
      .. function_name(), { pct = true }))
    add(wb.commas(count_text()) .. " (" .. pct_text() .. "%) " .. wb.commas(count_text()) .. " ("
      .. pct_text() .. "%)  " .. function_name())
    add(wb.commas(count_text()) .. " (88.0%, 88.0%)  " .. function_name())
    add(wb.commas(count_text()) .. " (" .. pct_text() .. "%) " .. function_name())
    add(wb.commas(count_text()) .. " (" .. pct_text() .. "%)  ")
    add(wb.commas(count_text()) .. " (" .. pct_text() .. "%)")
    add(wb.commas(count_text()) .. " (" .. pct_text() .. ")  " .. function_name())
    add("-" .. wb.commas(count_text()) .. "  " .. function_name())
  end
  M.shuffle(lines)
  local out = {}
  for i, line in ipairs(lines) do
    out[i] = line .. ((i < #lines or chance(0.5)) and "\n" or "")
  end
  return table.concat(out)
end

-- A variant of an annotate fixture: every row (as the reference's parse_row read it, in the
-- fixture's expected answers) gets a new count, grouped with commas or not, a new percentage
-- where it had one, a random indentation and renamed functions; the other lines are kept.
-- Returns the lines (each ending in "\n"), shuffled.
function M.annotate_variant(fixture, rename)
  local rows = {}
  for _, item in ipairs(fixture.items) do
    local line = tonumber(item.key:match("^row:(%d+)$"))
    local pct, name = item.result:match('^1 ir=%d+ pct=(%S+) name="(.*)"$')
    if line and name then
      rows[line] = { label = wb.unescape(name), pct = pct ~= "none" }
    end
  end
  local out = {}
  for i, line in ipairs(wb.split_lines(wb.read_file(fixture.path) or "", true)) do
    local r = rows[i]
    if r then
      local indent = chance(0.2) and string.rep(" ", random(1, 8)) or ""
      out[#out + 1] = row(count_text(), rename(r.label), { pct = r.pct, indent = indent,
        plain = chance(0.2) }) .. "\n"
    else
      out[#out + 1] = line:sub(-1) == "\n" and line or line .. "\n"
    end
  end
  return M.shuffle(out)
end

-- A variant of a folded fixture's stacks (dripprof.stacks): renamed frames, new counts,
-- shuffled, with some stacks repeated (they must add up) and some made recursive.
function M.folded_variant(stacks, rename)
  local out = {}
  for _, stack in ipairs(stacks) do
    local frames = {}
    for i, frame in ipairs(stack.frames) do
      frames[i] = rename(frame)
    end
    if #frames > 1 and chance(0.2) then
      local k = random(1, #frames)
      table.insert(frames, k, frames[k])
    end
    local joined = table.concat(frames, ";")
    out[#out + 1] = joined .. " " .. random(0, 5000000000)
    if chance(0.1) then
      out[#out + 1] = joined .. " " .. random(1, 1000)
    end
  end
  return M.shuffle(out)
end

-- Rows and needles for sum_named's edge cases. Returns rows ({ir = decimal
-- text, name}; no name: NULL) and needles (list of strings).
function M.sum_edges()
  local fib = M.identifier(1, 2)
  local rows = {
    { ir = tostring(random(5000000000, 9000000000)), name = "PROGRAM TOTALS" },
    { ir = tostring(random(1, 1000000)), name = "prog.c:" .. fib .. " [/tmp/p]" },
    { ir = tostring(random(1, 1000000)), name = "prog.c:" .. fib .. "'2 [/tmp/p]" },
    { ir = tostring(random(1, 1000000)), name = "prog.c:" .. fib .. "onacci [/tmp/p]" },
    { ir = tostring(random(1, 1000000)), name = "prog.c:" .. fib:upper() .. " [/tmp/p]" },
    { ir = tostring(random(3000000000, 4000000000)), name = "big:one" },
    { ir = tostring(random(3000000000, 4000000000)), name = "big:two" },
    { ir = tostring(random(0, 10)), name = "(below main)" },
    { ir = "9223372036854775808", name = "huge:left" },
    { ir = "9223372036854775808", name = "huge:right" },
    { ir = tostring(random(1, 99)), name = "needle at the end: " .. fib },
    { ir = tostring(random(1, 99)) }, -- name NULL: not a row, skipped (profile.h)
    { ir = tostring(random(1, 99)) },
  }
  M.shuffle(rows)
  local needles = { "", fib, fib:upper(), fib .. "'2", "big:", "huge:", "huge:left", "(below main)",
    " ", "zz-no-such-function-" .. random(1, 999), "PROGRAM TOTALS", "prog.c:" .. fib .. " [/tmp/p] and more",
    "[/tmp/p]" }
  return rows, needles
end

-- Vectors {count, stack} for inclusive's edge cases (no stack: NULL), with random names.
-- "zero;X_only" is a function seen only on a stack of count 0: listed with cost 0.
function M.stack_edges()
  local a, b, c, d = M.identifier(), M.identifier(), M.identifier(), M.identifier()
  local long = long_name(random(300, 2000))
  local function n()
    return tostring(random(1, 100000))
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
    { tostring(random(4294967296, 99999999999)), "main;" .. c .. ";" .. d },
    { "18446744073709551610", "solo;alone" },
    { n() }, -- a NULL stack: an empty one (profile.h)
  }
  return M.shuffle(vectors)
end

-- Vectors whose total for one frame is past UINT64_MAX: inclusive must fail.
function M.overflow_stacks()
  local a = M.identifier()
  return M.shuffle({
    { "9223372036854775808", "main;" .. a },
    { "9223372036854775808", "main;other" },
    { tostring(random(1, 100)), "main;" .. a .. ";leaf" },
  })
end

return M
