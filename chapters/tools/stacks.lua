-- stacks.lua: facts about folded stacks, for the sentences of a chapter.
--
-- The chapter's figures are drawn from committed folded-stack files, and
-- its text describes them ("the tower keeps 97.5 % of its width at the
-- 20th level of fib"). Those numbers are computed here, from the same
-- files, by functions a template calls inside a placeholder:
--
--   stacks_total(F)               the sum of all counts
--   deepest(F)                    the most frames on one line
--   deepest(F, frame)             the most times frame occurs on one line
--   level_width(F, frame, k)      the counts of the lines on which frame
--                                 occurs at least k times: the width of the
--                                 k-th level of a recursive frame's tower
--   self_count(F, frame)          the counts of the lines that end in frame
--   inclusive_count(F, frame)     the counts of the lines that hold frame
--                                 (once per line, however often it occurs)
--   path_count(F, "a;b;c")        the counts of the lines on which frames a,
--                                 b and c follow one another in that order
--                                 (a calls b, which calls c)
--   heaviest(F)                   the line with the largest count, as text
--   heaviest_frame(F, k)          the k-th frame of that line (1 = outermost)
--   heaviest_depth(F)             how many frames that line has
--   growth(B, A, k)               the frame whose self count grew the k-th
--                                 most from file B to file A (text)
--   self_change(B, A, frame)      self_count(A, frame) - self_count(B, frame)
--
-- F names a file given to the chapter tool: fib-drip.folded is fib_drip.
-- Files are read on first use only, and each once, by the workbook's one
-- reader of folded stacks (vm/prof/folded.c, through `dripprof stacks`: see
-- vm/lib/dripprof.lua); a line it refuses stops the chapter with its file
-- and line.
local dripprof = require("vm.lib.dripprof")
local render = require("chapters.tools.render")

local M = {}

local function occurrences(frames, frame)
  local n = 0
  for _, f in ipairs(frames) do
    if f == frame then
      n = n + 1
    end
  end
  return n
end

-- Returns the functions for a template's expressions (render.lua), over the files in paths
-- (name -> path).
function M.functions(paths)
  local lines_of = render.named_files(paths, "folded stacks", dripprof.stacks)

  local function sum(name, keep)
    local total = 0
    for _, line in ipairs(lines_of(name)) do
      if keep(line) then
        total = total + line.count
      end
    end
    return total
  end

  local function self_counts(name)
    local counts = {}
    for _, line in ipairs(lines_of(name)) do
      local leaf = line.frames[#line.frames]
      counts[leaf] = (counts[leaf] or 0) + line.count
    end
    return counts
  end

  local function heaviest_line(name)
    local best
    for _, line in ipairs(lines_of(name)) do
      if not best or line.count > best.count then
        best = line
      end
    end
    return best
  end

  local F = {}

  function F.stacks_total(name)
    return sum(name, function() return true end)
  end

  function F.deepest(name, frame)
    local most = 0
    for _, line in ipairs(lines_of(name)) do
      most = math.max(most, frame and occurrences(line.frames, frame) or #line.frames)
    end
    return most
  end

  function F.level_width(name, frame, k)
    return sum(name, function(line) return occurrences(line.frames, frame) >= k end)
  end

  function F.self_count(name, frame)
    return sum(name, function(line) return line.frames[#line.frames] == frame end)
  end

  function F.inclusive_count(name, frame)
    return sum(name, function(line) return occurrences(line.frames, frame) > 0 end)
  end

  -- A frame holds no ';' (the folded format cannot escape one) and is never empty, so
  -- the frames follow one another exactly where ";a;b;c;" is part of ";LINE;".
  function F.path_count(name, path)
    local want = ";" .. tostring(path) .. ";"
    return sum(name, function(line)
      return (";" .. table.concat(line.frames, ";") .. ";"):find(want, 1, true) ~= nil
    end)
  end

  function F.heaviest(name)
    local best = heaviest_line(name)
    return best and (table.concat(best.frames, ";") .. " " .. string.format("%d", best.count)) or ""
  end

  function F.heaviest_depth(name)
    local best = heaviest_line(name)
    return best and #best.frames or 0
  end

  function F.heaviest_frame(name, k)
    local best = heaviest_line(name)
    return best and best.frames[k]
      or error("heaviest_frame: the heaviest line of " .. name .. " has no frame " .. tostring(k), 0)
  end

  function F.self_change(before, after, frame)
    return F.self_count(after, frame) - F.self_count(before, frame)
  end

  -- The frames of either file by their change, the largest first; a tie by name.
  function F.growth(before, after, k)
    local change, names = self_counts(after), {}
    for frame, count in pairs(self_counts(before)) do
      change[frame] = (change[frame] or 0) - count
    end
    for frame in pairs(change) do
      names[#names + 1] = frame
    end
    table.sort(names, function(x, y)
      return change[x] > change[y] or change[x] == change[y] and x < y
    end)
    return names[k] or error("growth: no frame number " .. tostring(k), 0)
  end

  return F
end

return M
