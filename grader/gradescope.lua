-- gradescope.lua: `make gradescope` builds build/gradescope/N/autograder.zip, one per chapter,
-- and `make prairielearn` the same grader for PrairieLearn's external grading.
--
--   make gradescope [CHAPTER=N]                       build the zips, one per chapter
--                                                     (build/gradescope/N/autograder.zip)
--   make prairielearn [CHAPTER=N]                     build/prairielearn/N/serverFilesCourse/drip-N/
--   make gradescope-failed ERR=FILE OUT=FILE [FORMAT=prairielearn]
--                                                     (inside the container) write a results
--                                                     file saying why grading could not run
--
-- Gradescope unpacks the zip into /autograder/source, runs setup.sh once when
-- the image is built, and run_autograder once per submission in a fresh
-- container, as root, in the same container as the student's code. The zip carries what
-- `make grade` needs and nothing a student could use: the top-level Makefile, the grader
-- (engine, chapters, checkers, fixtures; not the mutants, which only verify-fixtures
-- grades, nor the attack suite and the tests), exercises/harness (the sandbox),
-- the reference solutions, the workbook's Lua helpers (vm/lib) and the profiler's sources
-- (vm/prof: the folded-stacks reader the checker links, and dripprof, which reads the
-- fixtures for the seeded variants). The files are laid out in a folder, with their modes,
-- and zipped by Info-ZIP's zip, so run_autograder and setup.sh stay executable. run_autograder first makes
-- /autograder private to root (chmod 700): where bubblewrap cannot create namespaces, as in
-- Gradescope's Docker, student code runs under an unprivileged uid, and that uid must not
-- read the reference or the answers. It then copies the student's files out of
-- /autograder/submission (wherever they are nested; regular files only), runs `make grade`
-- on them and puts build/grade/results.json where Gradescope reads it.
--
-- PrairieLearn's external grader is the same tree in a folder of the course's
-- serverFilesCourse/ (PrairieLearn copies it to /grade/serverFilesCourse/drip-N), with `run` as
-- the question's entrypoint: the student's files come in /grade/student, the results go to
-- /grade/results/results.json (build/grade/run/N/prairielearn.json, made from the same result).
-- setup.sh, beside it, installs the packages in the grading image (PrairieLearn runs no setup).
-- Gradescope's setup.sh also makes the seed pool (pool.lua) in its image; PrairieLearn's course
-- files are not in the image, so its grades compute the reference's answers each time.

local wb = require("vm.lib.workbook")
local engine = require("grader.engine")
local report = require("grader.report")

local M = {}

-- What a chapter's zip holds, besides the two scripts, the chapter's reference and its
-- fixtures: files and whole folders, less EXCLUDED. CHAPTER in a path is the chapter's id.
local CONTENT = { "Makefile", "grader/grader.mk", "grader/engine.lua", "grader/grade.lua", "grader/report.lua",
  "grader/fixtures.lua", "grader/gradescope.lua", "grader/pool.lua", "grader/CHAPTER", "exercises/exercises.mk",
  "exercises/harness", "exercises/CHAPTER/chapter.lua", "vm/lib", "vm/prof" }
local EXCLUDED = { "^grader/%d+/fixtures/", "^grader/%d+/mutants/", "^grader/%d+/attacks/", "_spec%.lua$",
  "^exercises/harness/tests/", "^vm/prof/tests/", "^vm/prof/bench/", "%.md$" }

-- The scripts, for a platform whose tree is at SOURCE: setup.sh installs the packages (make
-- setup-grade, the workbook's own list); the entrypoint (ENTRY) grades one submission.
local SETUP = [[#!/usr/bin/env bash
# setup.sh: run once, as root, when the autograder image is built. The packages are the
# workbook's own list for grading (make setup-grade), not a copy of it.@POOL@
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq make
make -C @SOURCE@ setup-grade
@MAKE_POOL@]]

local RUN = [[#!/usr/bin/env bash
# @ENTRY@: @PLATFORM@ runs this once per submission, in a fresh container, as root.
# It grades the student's files with `make grade` exactly as an instructor would locally.
# Student code runs in this same container: where bubblewrap cannot give it namespaces of its
# own, it runs under an unprivileged uid, so everything here is made private to root first.
chmod 700 @PRIVATE@ || exit 1
cd @SOURCE@ || exit 1
mkdir -p @RESULTS@ build
rm -rf build/grade build/submission
mkdir -p build/submission
for name in @FILES@; do
  # NUL-separated: a folder named "x<newline>@SOURCE@/solutions/N" would otherwise
  # put the reference's path on a line of its own, sorted first.
  found=$(find @SUBMISSION@ -type f -name "$name" -print0 | LC_ALL=C sort -z | head -z -n 1 | tr -d '\0')
  if [ -n "$found" ]; then cp "$found" "build/submission/$name"; fi
done
if make --no-print-directory grade SUBMISSION=build/submission CHAPTER=@CHAPTER@ 2> build/grade-error.txt &&
   [ -s @MADE@ ]; then
  cp @MADE@ @RESULTS@/results.json
else
  make --no-print-directory gradescope-failed FORMAT=@FORMAT@ ERR=build/grade-error.txt OUT=@RESULTS@/results.json
fi
cat build/grade-error.txt >&2
]]

-- Where each platform puts things (CHAPTER: the chapter's id). stage: the tree's folder under
-- build/; zip: packed as Gradescope uploads it.
M.PLATFORMS = {
  gradescope = { ENTRY = "run_autograder", PLATFORM = "Gradescope", SOURCE = "/autograder/source",
    PRIVATE = "/autograder /autograder/source", RESULTS = "/autograder/results", SUBMISSION = "/autograder/submission",
    MADE = "build/grade/results.json", FORMAT = "gradescope", stage = "gradescope/CHAPTER/autograder",
    POOL = "\n# The image keeps what this builds, so the seed pool is made here too: the reference's\n"
      .. "# answers for the seeds a grade takes (make seed-pool), and no grade runs the reference.",
    -- The zip holds one chapter. Without a pool every grade still works, computing the answers.
    MAKE_POOL = "chmod 700 @PRIVATE@\nmake -C @SOURCE@ seed-pool "
      .. "|| echo 'setup.sh: no seed pool: each grade will run the reference on its seeded inputs' >&2\n",
    zip = "gradescope/CHAPTER/autograder.zip" },
  prairielearn = { ENTRY = "run", PLATFORM = "PrairieLearn's external grader (externalGradingOptions.entrypoint)",
    SOURCE = "/grade/serverFilesCourse/drip-CHAPTER", PRIVATE = "/grade /grade/serverFilesCourse/drip-CHAPTER",
    RESULTS = "/grade/results", SUBMISSION = "/grade/student", MADE = "build/grade/run/CHAPTER/prairielearn.json",
    FORMAT = "prairielearn", POOL = "", MAKE_POOL = "", stage = "prairielearn/CHAPTER/serverFilesCourse/drip-CHAPTER" },
}

-- A platform's script: the template with its places filled in, twice, so that a value may
-- name other places (MAKE_POOL names SOURCE).
function M.script(template, platform, chapter)
  local values = setmetatable({ FILES = table.concat(chapter.exercise.student_files, " "), CHAPTER = chapter.id },
    { __index = platform })
  local function fill(text)
    return (text:gsub("@([%u_]+)@", function(key)
      return (tostring(values[key]):gsub("CHAPTER", chapter.id))
    end))
  end
  return fill(fill(template))
end

-- Copies path (a file, or a folder's files less EXCLUDED) into the stage, with its mode, as
-- dest (default: the same path); every file with `whole` (a fixture folder).
local STAGE

local function add_tree(files, path, dest, whole)
  dest = dest or path
  if wb.is_dir(path) then
    for _, name in ipairs(wb.list_dir(path)) do
      local below = path .. "/" .. name
      if (whole or not wb.matches_any(dest .. "/" .. name, EXCLUDED)) and not name:match("%.o$")
        and not name:match("~$") then
        add_tree(files, below, dest .. "/" .. name, whole)
      end
    end
    return
  end
  wb.mkdir_p(STAGE .. "/" .. wb.dirname(dest))
  wb.must(wb.copy(path, STAGE .. "/" .. dest), "cannot copy " .. path)
  files[#files + 1] = dest
end

-- A script of the zip's own, executable.
local function add_script(files, name, text)
  wb.write_file(STAGE .. "/" .. name, text)
  wb.run("chmod 755 " .. wb.quote(STAGE .. "/" .. name))
  table.insert(files, 1, name)
end

-- Builds chapter id's tree for a platform (and Gradescope's zip).
local function build(id, platform)
  local stage = "build/" .. platform.stage:gsub("CHAPTER", id)
  STAGE = stage
  wb.rm_rf(stage)
  wb.mkdir_p(stage)
  local chapter = engine.load_chapter(id)
  local ex = chapter.exercise
  local files = {}
  add_tree(files, ex.solution)
  -- Of the exercise, what the build needs: its headers and its checker (not the stubs, not
  -- the public cases).
  for _, names in ipairs({ ex.headers, ex.checker }) do
    for _, name in ipairs(names) do
      add_tree(files, ex.dir .. "/" .. name)
    end
  end
  -- The fixtures make grade would use here (FIXTURES=dir, else the committed ones), with
  -- answers that are present and fresh: in the container a missing or stale answer file would
  -- fail every submission, so it fails here, naming the command to run.
  local _, dir = engine.load_fixtures(chapter)
  add_tree(files, dir, "grader/" .. id .. "/fixtures", true)
  for _, path in ipairs(CONTENT) do
    add_tree(files, (path:gsub("CHAPTER", id)))
  end
  add_script(files, platform.ENTRY, M.script(RUN, platform, chapter))
  add_script(files, "setup.sh", M.script(SETUP, platform, chapter))
  if not platform.zip then
    print(string.format("%s: %s (%d files, fixtures from %s); copy it into the course's serverFilesCourse/, with "
      .. "the entrypoint %s/%s", platform.FORMAT, stage, #files, dir, M.script("@SOURCE@", platform, chapter), platform.ENTRY))
    return
  end
  local out = "build/" .. platform.zip:gsub("CHAPTER", id)
  os.remove(out)
  -- -X: no extra fields (uid, gid, access times), -D: no folder entries: names, modes, bytes.
  local ok = wb.run("cd " .. wb.quote(stage) .. " && zip -q -X -D -r " .. wb.quote(wb.realpath(wb.dirname(out))
    .. "/" .. wb.basename(out)) .. " .")
  wb.must(ok, "zip failed to write " .. out)
  print(string.format("gradescope: %s (%d files, fixtures from %s); upload it as chapter %s's autograder",
    out, #files, dir, id))
end

-- Inside the container: grading could not run; say so in the platform's results file.
local function write_failure(err_path, out_path, format)
  local text = "The autograder could not grade this submission. Please tell your instructor.\n\n"
    .. (wb.read_file(err_path) or "unknown error")
  report.write_json(out_path, format == "prairielearn" and { gradable = false, score = 0, output = text,
    message = "not graded: the grader failed", tests = {} } or report.results(0, text, {}))
end

-- Run as a script, not required (grader/attacks.lua reads M.PLATFORMS).
if arg and arg[0] and arg[0]:match("gradescope%.lua$") and (...) ~= "grader.gradescope" then
  local parser = wb.parser("gradescope.lua", "Builds the Gradescope autograder (make gradescope) or PrairieLearn's.")
  parser:option("--failed", "(inside the container) write OUT, a results file saying why ERR"):args(2)
    :argname({ "<err>", "<out>" })
  parser:option("--format", "the platform (gradescope, prairielearn)", "gradescope")
  local args = wb.parse(parser, arg)

  wb.exit_with("make " .. args.format, function()
    local platform = wb.must(M.PLATFORMS[args.format], "no platform " .. args.format
      .. " (gradescope, prairielearn)")
    if args.failed then
      write_failure(args.failed[1], args.failed[2], args.format)
    else
      wb.must(not platform.zip or wb.run("command -v zip > /dev/null"),
        "zip is not installed (Debian package zip; make setup installs it)")
      for _, id in ipairs(engine.chosen()) do
        build(id, platform)
      end
    end
  end)
end

return M
