-- chapter.lua: a chapter's exercise as the engine sees it, from exercises/N/chapter.lua.
--
-- A chapter is a set of folders; the engine (exercises/harness, grader/*.lua) names none and
-- takes everything chapter-specific from the chapter's module, exercises/N/chapter.lua, which
-- ships in the student edition. It returns a table:
--   title          the chapter's title
--   student_files  the files the student writes ({ "digits.c" }), in exercises/N/
--   headers        the API headers, in exercises/N/ (the only copies), restored pristine
--   checker        the checker's C sources, relative to exercises/N/ ({ "tests/check.c" })
--   platform       further repository sources the checker links (optional)
--   cases          the public case files, relative to exercises/N/; each file's name is the
--                  function its cases call, and their order is the report's
--   stub           the answer the shipped stubs give ("-1"): a function all of whose failing
--                  answers are it is "not written yet"
--   calls          { FUNCTION = "the call, as the report shows it" }
--   words          function(func, key, answer) -> the answer in words, or nil for as it is
--   owned          what the caller frees, for the leak explanation (optional)
--   limits         overrides of M.limits (optional)
--   speed          the speed check's input (optional; exercises/harness/speed.lua): func,
--                  lines (the graded size), sizes (published), seed, fields(lines, seed)
--   next_steps     what to do once every public test passes, shown after "All N tests pass."
--                  (optional: nothing is shown without it): a list of { COMMAND, WHAT IT DOES }
--                  pairs and sentences, in the order the student should take them
-- This module fills in the rest: its id and folders, and the limits.

local wb = require("vm.lib.workbook")

local M = {}

-- The limits of one case or check, unless a chapter says otherwise: CPU seconds of its whole
-- process tree (not wall-clock time: a busy machine changes no verdict), a wall-clock
-- backstop, resident memory (MB), bytes of stdout + stderr, bytes of answers, the largest
-- file it may write and how many processes it may have, itself included. The one definition:
-- the student's run (fork_tests.c gets them on its command line) and the grader (the sandbox
-- gets them) both take them from here.
M.limits = { cpu = 2, wall = 60, memory = 512, output = 65536, results = 8 << 20, file_size = 1 << 20, procs = 16 }

-- The chapters with an exercise: exercises/N/chapter.lua, sorted by N.
function M.ids(root)
  root = root or "exercises"
  local ids = {}
  for _, name in ipairs(wb.list_dir(root) or {}) do
    if name:match("^%d+$") and wb.exists(root .. "/" .. name .. "/chapter.lua") then
      ids[#ids + 1] = name
    end
  end
  table.sort(ids, function(a, b)
    return tonumber(a) < tonumber(b)
  end)
  return ids
end

-- Chapter id's module, with its folders and limits filled in; raises when it has none.
function M.load(id)
  local dir = "exercises/" .. id
  if not wb.exists(dir .. "/chapter.lua") then
    wb.fail("there is no exercise " .. id .. " (no " .. dir .. "/chapter.lua)")
  end
  local ch = setmetatable({}, { __index = require("exercises." .. id .. ".chapter") })
  ch.id, ch.dir = id, dir
  ch.solution = "solutions/" .. id
  ch.limits = setmetatable(ch.limits or {}, { __index = M.limits })
  return ch
end

-- The build of the chapter's checker with the files of `submission` (see build.lua).
function M.build_spec(ch, dir, submission, trusted)
  local build = require("exercises.harness.build")
  local sources, includes = { table.unpack(build.kit) }, { ch.dir, table.unpack(build.kit_includes) }
  for _, path in ipairs(ch.checker) do
    sources[#sources + 1] = ch.dir .. "/" .. path
  end
  for _, path in ipairs(ch.platform or {}) do
    sources[#sources + 1] = path
  end
  local headers = {}
  for i, name in ipairs(ch.headers) do
    headers[i] = { ch.dir .. "/" .. name, name }
  end
  return { dir = dir, submission = submission, student_files = ch.student_files, headers = headers,
    ours = { sources = sources, includes = includes }, trusted = trusted, display = submission }
end

-- The public case files, as repository paths.
function M.case_files(ch)
  local list = {}
  for i, path in ipairs(ch.cases) do
    list[i] = ch.dir .. "/" .. path
  end
  return list
end

-- Where the reference's answers for a case file are kept: tests/expected/NAME.expected.
function M.expected_path(case_file)
  return wb.dirname(case_file) .. "/expected/" .. wb.basename(case_file) .. ".expected"
end

-- The call a function's cases make, for the report.
function M.call(ch, func)
  return (ch.calls or {})[func] or (func .. "(...)")
end

-- An answer in the chapter's words (ch.words), or as it is.
function M.words(ch, func, key, answer)
  return answer and ch.words and ch.words(func, key, answer) or answer
end

return M
