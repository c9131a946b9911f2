-- feedback.lua: what a run of code under test means, in words a beginner can act on, for the
-- student's report (exercises/harness/exercise.lua). The grade's report (grader/report.lua) says
-- an answer, a missing one and a repeated one with M.said and M.TWICE, so the two reports never
-- word one difference two ways. How a run ended it says with the runner's status (a line per
-- check, read over a batch of submissions), not with status_lines' advice to a beginner, which
-- the student's own runs (make exercise-N) give.
--
-- Everything is rendered from data: a case (its rule, origin and fields: cases.lua), a run's
-- result (runner.lua) and a comparison (compare.lua). The chapter only adds its words for
-- answers (exercises/N/chapter.lua, `words`) and the call its cases make.

local wb = require("vm.lib.workbook")
local chapter = require("exercises.harness.chapter")
local compare = require("exercises.harness.compare")

local M = {}

-- Longest piece of an input shown; longer text is cut with a note.
M.SHOW_MAX = 160

-- Text in quotes, escaped (wb.escape: one line, no control character reaches the terminal)
-- and with its blanks shown as '·', cut after SHOW_MAX characters. nil shows as NULL.
function M.show(text)
  if text == nil then
    return "NULL"
  end
  local shown = wb.escape(text:sub(1, M.SHOW_MAX)):gsub(" ", "·")
  if #text > M.SHOW_MAX then
    return string.format('"%s"... (%d characters in all)', shown, #text)
  end
  return '"' .. shown .. '"'
end

-- An answer as it came (escaped already), its blanks shown.
function M.show_answer(answer)
  return (answer:gsub(" ", "·"))
end

-- Wraps text at blanks into lines of at most width characters, each starting with prefix.
function M.wrap(text, width, prefix)
  local lines, line = {}, ""
  for word in text:gmatch("%S+") do
    if #line > 0 and #line + 1 + #word > width then
      lines[#lines + 1] = prefix .. line
      line = word
    else
      line = #line > 0 and (line .. " " .. word) or word
    end
  end
  lines[#lines + 1] = prefix .. line
  return table.concat(lines, "\n")
end

-- ------------------------------------------------------------------ how a run ended

-- The label of a verdict in a report's heading line.
M.LABEL = { wrong = "wrong result", crashed = "crashed", timeout = "timed out",
  sanitizer = "memory error or undefined behaviour", leak = "memory leak", output = "too much output",
  memory = "too much memory", exit = "exited", error = "could not run" }

local EXPLANATIONS = {
  crashed = "Your code crashed (%s) before the test could check anything.",
  timeout = "The test did not finish: %s. Your code is too slow or in an endless loop. Check that "
    .. "every loop moves on (advances its pointer or index) on every path, and that the big tests do "
    .. "not search a long list for every name.",
  sanitizer = "A sanitizer stopped the test: %s.",
  leak = "LeakSanitizer found memory that was never freed: %s. Free what you malloc unless you hand "
    .. "it to the caller%s.",
  output = "The test printed too much (%s): a printf left in a loop?",
  memory = "The test used too much memory (%s). Memory that keeps growing: a loop that allocates "
    .. "without freeing, or an array grown one element at a time (realloc(p, n + 1) in a loop keeps "
    .. "every old block in the sanitizer's quarantine): grow it by doubling.",
  exit = "The process ended with %s instead of returning from your function: did your code call "
    .. "exit()? Return an error value (-1) instead.",
  error = "The test could not be run: %s.",
}

local SIGNALS = {
  SIGSEGV = "segmentation fault: it read or wrote memory it does not own, e.g. through a NULL "
    .. "pointer or past the end of a string",
  SIGABRT = "abort: a failed assert(), or the C library found the heap damaged (double free?)",
  SIGFPE = "arithmetic error: a division by zero?",
  SIGBUS = "bus error: a bad pointer",
  SIGILL = "illegal instruction: undefined behaviour, or falling off the end of a function",
}

local SANITIZER = {
  ["heap-buffer-overflow"] = "you read or wrote past the end of a malloc'd block (room for the "
    .. "terminating '\\0'? one element past the end of an array: i <= count?)",
  ["stack-overflow"] = "the stack ran out: recursion that goes too deep",
  ["SEGV"] = "a bad pointer: NULL, or memory that was never yours",
  ["heap-use-after-free"] = "you used memory after free()ing it",
  ["double-free"] = "you free()d the same block twice",
  ["stack-buffer-overflow"] = "you went past the end of a local variable or array (the caller's "
    .. "too: a pointer to one element is not an array)",
  ["global-buffer-overflow"] = "you went past the end of a global array or string literal",
  ["stack-use-after-return"] = "you used a pointer to a local variable after its function returned",
  ["attempting free on address which was not malloc()-ed"] = "something was free()d that malloc "
    .. "did not return. The caller frees what you hand out: each must be a malloc'd copy, not a "
    .. "pointer into the input or a static or local buffer",
  ["attempting double-free"] = "you free()d the same block twice",
  ["use-of-uninitialized-value"] = "a value was used before anything was stored in it",
  ["load of value"] = "a variable (often a bool) was read before anything was stored in it",
  ["null pointer"] = "a NULL pointer was used: check pointers that may be NULL before using them "
    .. "(a NULL input the contract allows, or what malloc returned)",
}

-- A path below the current folder, shortened to start there.
local function relative(path)
  local cwd = os.getenv("PWD")
  if cwd and path:sub(1, #cwd + 1) == cwd .. "/" then
    return path:sub(#cwd + 2)
  end
  return path
end

-- The lines of the code under test a sanitizer report names: where it happened, and where
-- the memory involved was allocated and freed.
-- The words before a place, by its stack's kind (runner.stacks); a leak's allocation is of the
-- memory itself.
local PLACE = { error = "It happened at ", freed = "It was freed at ",
  allocated = "The memory involved was allocated at ", leak_allocated = "The memory was allocated at " }

function M.places(result)
  local lines, seen_error, said = {}, false, {}
  for _, stack in ipairs(result.stacks or {}) do
    local where = relative(stack.where)
    -- Each place once, and only the first error's.
    if not said[stack.kind .. where] and not (stack.kind == "error" and seen_error) then
      said[stack.kind .. where] = true
      seen_error = seen_error or stack.kind == "error"
      local words = PLACE[(result.kind == "leak" and stack.kind == "allocated") and "leak_allocated" or stack.kind]
      lines[#lines + 1] = words .. where .. "."
    end
  end
  -- A report whose stacks never pass through the code under test (a SEGV in the checker's
  -- strcmp on a name pointer that was never set) still happened outside it.
  local outside = #lines == 0 and result.kind == "sanitizer" and ("\n" .. (result.stderr or "")):find("\n%s*#0 ")
  if (#lines > 0 and not seen_error and result.kind ~= "leak") or outside then
    table.insert(lines, 1, "It happened outside your code (in the checker, using what your code returned).")
  end
  return lines
end

-- Appends the lines of `more` to `lines`.
local function append(lines, more)
  table.move(more, 1, #more, #lines + 1, lines)
end

-- Why a run that did not end well ended so, as lines (indented two blanks). ch: the chapter.
function M.status_lines(ch, result)
  local template = EXPLANATIONS[result.kind]
  if not template then
    return {}
  end
  local detail = result.status
  local signal = detail:match("crashed: (%S+)")
  if signal and SIGNALS[signal] then
    detail = signal .. ", " .. SIGNALS[signal]
  end
  for kind, meaning in pairs(SANITIZER) do
    if result.status:find(kind, 1, true) then
      detail = result.status .. ": " .. meaning
    end
  end
  local owned = ch.owned and (" (" .. ch.owned .. ")") or ""
  local lines = { M.wrap(string.format(template, detail, owned), 78, "  ") }
  -- What the process said last on stderr (no sanitizer or answer to go by): its last 5 lines
  -- of its own, shown as printed shows stdout's.
  local said = (result.kind == "exit" or result.kind == "error") and M.printed(result.stderr, math.huge) or {}
  if #said > 0 then
    lines[#lines + 1] = "  Its last words on stderr:"
    table.move(said, math.max(1, #said - 4), #said, #lines + 1, lines)
  end
  for _, line in ipairs(M.places(result)) do
    lines[#lines + 1] = "  " .. line
  end
  return lines
end

-- What the code under test printed on stdout (cmocka's own lines left out), at most `most`
-- lines: a student's debugging printf. (status_lines reads stderr's last words with it.)
function M.printed(stdout, most)
  local lines, total = {}, 0
  for line in (stdout or ""):gmatch("[^\n]+") do
    if not line:match("^%[") then
      total = total + 1
      if total <= most then
        lines[#lines + 1] = "    " .. wb.shorten(wb.escape(line), 200)
      end
    end
  end
  if total > most then
    lines[#lines + 1] = string.format("    ... (%d lines in all)", total)
  end
  return lines
end

-- ------------------------------------------------------------------ what a case gave

-- The case's input fields, as lines: each field once, a field given many times as its first
-- few values and how many there are.
function M.input_lines(c)
  local lines, counts, shown = {}, {}, {}
  for _, f in ipairs(c.fields) do
    counts[f[1]] = (counts[f[1]] or 0) + 1
  end
  for _, f in ipairs(c.fields) do
    local key = f[1]
    shown[key] = (shown[key] or 0) + 1
    if shown[key] <= 3 then
      lines[#lines + 1] = string.format("  %-9s %s", key .. ":", M.show(f[2]))
    elseif shown[key] == 4 then
      lines[#lines + 1] = string.format("  %-9s ... (%d in all)", "", counts[key])
    end
  end
  if #lines > 0 then
    lines[#lines + 1] = "            (· is one blank; \\n, \\r, \\t are newline, carriage return, TAB)"
  end
  return lines
end

-- An answer the reference never gives: the code wrote into its const input.
local function changed_lines(key, now)
  return { string.format("  but:      your code changed the %s, which is now %s", key:sub(9), M.show_answer(now)),
    "            (it is const, the caller's: read it, never write into it; strtok writes)" }
end

-- An answer in the chapter's words, or what stands in for a missing one. finished: the run got
-- to its end, so a missing answer was never given rather than cut short.
function M.said(ch, func, key, answer, finished)
  if answer then
    return chapter.words(ch, func, key, answer)
  end
  return finished and "(no such answer)" or "(no answer: the run stopped before it, so this input is the likely cause)"
end

-- The note after an answer the run gave more than once.
M.TWICE = "   (and given more than once)"

-- The lines of the first difference (compare.lua): expected and actual, in the chapter's
-- words. finished: the run got to its end (a missing answer was not cut short).
function M.difference_lines(ch, func, d, finished)
  if d.key:match("^changed:") and not d.expected then
    return changed_lines(d.key, d.actual)
  end
  local lines = { "  expected: " .. M.said(ch, func, d.key, d.expected, true),
    "  actual:   " .. M.said(ch, func, d.key, d.actual, finished) .. (d.twice and M.TWICE or "") }
  local at = compare.first_difference(d.expected, d.actual)
  if at and at > #d.expected then
    lines[#lines + 1] = string.format("  (the same up to character %d, where the expected answer ends; yours goes on "
      .. "with \"%s\")", at - 1, M.show_answer(d.actual:sub(at, at + 20)))
  elseif at and at > #d.actual then
    lines[#lines + 1] = string.format("  (the same up to character %d, where yours ends; the expected answer goes on "
      .. "with \"%s\")", at - 1, M.show_answer(d.expected:sub(at, at + 20)))
  elseif at and at > 20 then
    lines[#lines + 1] = string.format("  (the answers first differ at character %d)", at)
  end
  return lines
end

-- The differences after the first, one line each, at most `most`.
function M.other_differences(ch, func, differences, finished, most)
  local lines = {}
  for i = 2, math.min(#differences, most + 1) do
    local d = differences[i]
    local line
    if d.key:match("^changed:") and not d.expected then
      line = changed_lines(d.key, d.actual)[1]:gsub("^  but:%s+", "")
    elseif not d.expected then
      line = "not expected: " .. M.said(ch, func, d.key, d.actual, finished)
    else
      line = string.format("expected %s, got %s", M.said(ch, func, d.key, d.expected, true),
        d.actual and M.said(ch, func, d.key, d.actual, finished) or (finished and "no such answer" or "no answer"))
    end
    lines[#lines + 1] = (i == 2 and "  also:     " or "            ") .. line
  end
  if #differences > most + 1 then
    lines[#lines + 1] = string.format("            ... and %d more differences", #differences - most - 1)
  end
  return lines
end

-- The lines that explain one failing case of the student's run: its rule and origin, the
-- call and its input, how the run ended, and the differences (at most `most`).
function M.case_lines(ch, c, result, comparison, most)
  local lines = {}
  if c.meta.why then
    lines[#lines + 1] = "  rule:     " .. wb.escape(c.meta.why)
  end
  if c.meta.from then
    lines[#lines + 1] = "  from:     " .. wb.escape(c.meta.from)
  end
  lines[#lines + 1] = "  call:     " .. chapter.call(ch, c.func)
  append(lines, M.input_lines(c))
  append(lines, M.status_lines(ch, result))
  local differences = comparison and comparison.differences or {}
  if differences[1] then
    append(lines, M.difference_lines(ch, c.func, differences[1], result.items.finished))
    append(lines, M.other_differences(ch, c.func, differences, result.items.finished, most or 4))
  end
  if c.meta.hint then
    lines[#lines + 1] = "  hint:     " .. wb.escape(c.meta.hint)
  end
  return lines
end

return M
