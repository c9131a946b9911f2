-- gradescope.lua: `make gradescope` builds build/gradescope/autograder.zip.
--
--   lua5.4 grader/gradescope.lua                      build the zip
--   lua5.4 grader/gradescope.lua --failed ERR OUT     (inside Gradescope) write a
--                                                     results.json saying why grading could not run
--
-- Gradescope unpacks the zip into /autograder/source, runs setup.sh once when
-- the image is built, and run_autograder once per submission in a fresh
-- container, as root, in the same container as the student's code. The zip carries what
-- `make grade` needs and nothing a student could use: the top-level Makefile, the grader
-- (engine, chapters, checkers, fixtures; not the mutants, whose base is a correct
-- implementation, nor the attack suite and the tests), exercises/harness (the sandbox),
-- the reference solutions and the shared folded-stacks reader. run_autograder first makes
-- /autograder private to root (chmod 700): where bubblewrap cannot create namespaces, as in
-- Gradescope's Docker, student code runs under an unprivileged uid, and that uid must not
-- read the reference or the answers. It then copies the student's files out of
-- /autograder/submission (wherever they are nested; regular files only), runs `make grade`
-- on them and puts build/grade/results.json where Gradescope reads it.

package.path = "grader/?.lua;" .. package.path

local util = require("util")
local engine = require("engine")
local zip = require("zip")
local json = require("dkjson")

local OUT = "build/gradescope/autograder.zip"

-- What the zip holds, besides the two scripts and each chapter's reference: files and
-- whole folders, less EXCLUDED.
local CONTENT = { "Makefile", "grader", "exercises/exercises.mk", "exercises/harness", "vm/prof/folded.h",
  "vm/prof/folded.c" }
local EXCLUDED = { "^grader/%d+/mutants/", "^grader/%d+/attacks/", "^grader/test%.lua$", "^grader/verify%.lua$",
  "^grader/attacks%.lua$", "^exercises/harness/tests/" }

local SETUP = [[#!/usr/bin/env bash
# setup.sh: Gradescope runs this once, as root, when it builds the autograder image.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq make gcc binutils lua5.4 lua-dkjson valgrind bubblewrap util-linux procps \
  coreutils findutils
]]

local RUN = [[#!/usr/bin/env bash
# run_autograder: Gradescope runs this once per submission, in a fresh container, as root.
# It grades the student's files with `make grade` exactly as an instructor would locally.
# Student code runs in this same container: where bubblewrap cannot give it namespaces of its
# own, it runs under an unprivileged uid, so everything here is made private to root first.
chmod 700 /autograder /autograder/source || exit 1
cd /autograder/source || exit 1
mkdir -p /autograder/results build
rm -rf build/grade build/submission
mkdir -p build/submission
for name in %s; do
  found=$(find /autograder/submission -type f -name "$name" | LC_ALL=C sort | head -n 1)
  if [ -n "$found" ]; then cp "$found" "build/submission/$name"; fi
done
if make --no-print-directory grade SUBMISSION=build/submission 2> build/grade-error.txt &&
   [ -s build/grade/results.json ]; then
  cp build/grade/results.json /autograder/results/results.json
else
  lua5.4 grader/gradescope.lua --failed build/grade-error.txt /autograder/results/results.json
fi
cat build/grade-error.txt >&2
]]

local function excluded(path)
  for _, pattern in ipairs(EXCLUDED) do
    if path:match(pattern) then
      return true
    end
  end
  return false
end

local function add_tree(entries, path)
  if util.is_dir(path) then
    local text = util.capture("find " .. util.quote(path) .. " -type f ! -name '*.o' ! -name '*~' | LC_ALL=C sort")
    for file in text:gmatch("[^\n]+") do
      if not excluded(file) then
        add_tree(entries, file)
      end
    end
    return
  end
  local data = util.read_file(path)
  if not data then
    error({ message = "cannot read " .. path }, 0)
  end
  local executable = util.run("test -x " .. util.quote(path))
  entries[#entries + 1] = { name = path, data = data, mode = executable and 493 or 420 }
end

local function build_zip()
  local entries, names, seen = {}, {}, {}
  for _, id in ipairs(engine.chapters()) do
    local rubric = engine.load_chapter(id).rubric
    for _, f in ipairs(rubric.student_files) do
      if not seen[f] then
        seen[f] = true
        names[#names + 1] = f
      end
    end
    add_tree(entries, rubric.reference)
  end
  for _, path in ipairs(CONTENT) do
    add_tree(entries, path)
  end
  table.insert(entries, 1, { name = "setup.sh", data = SETUP, mode = 493 })
  table.insert(entries, 2, { name = "run_autograder", data = string.format(RUN, table.concat(names, " ")), mode = 493 })
  util.mkdir_p(util.dirname(OUT))
  zip.write(OUT, entries)
  print(string.format("gradescope: %s (%d files); upload it as the assignment's autograder", OUT, #entries))
end

-- Inside Gradescope: grading could not run; say so in results.json.
local function write_failure(err_path, out_path)
  local why = util.read_file(err_path) or "unknown error"
  local result = {
    score = 0,
    output = "The autograder could not grade this submission. Please tell your instructor.\n\n" .. why,
    output_format = "text",
    visibility = "visible",
    stdout_visibility = "visible",
    tests = {},
  }
  util.write_file(out_path, json.encode(result, { indent = true }) .. "\n")
end

local ok, err = pcall(function()
  if arg[1] == "--failed" then
    write_failure(arg[2], arg[3])
  else
    build_zip()
  end
end)
if not ok then
  io.stderr:write("make gradescope: " .. (type(err) == "table" and err.message or tostring(err)) .. "\n")
  os.exit(2)
end
