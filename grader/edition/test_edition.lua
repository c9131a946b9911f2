-- test_edition.lua: the `edition` suite of `make test` (make test-edition).
--
--   lua5.4 grader/edition/test_edition.lua [--result FILE] [--full]
--
-- Builds the student edition into build/edition-test/ with the real target and uses it
-- the way a student would, following its README:
--
--   build     make student-edition refuses what it must (a non-empty DEST, the workbook
--             itself, an instructor's tree) and leaves the instructor's tree as it was;
--   leaks     check_edition.lua passes on the edition and catches planted leaks (a
--             renamed copy of a reference function, a line of it, a grader file, a
--             build output, a solutions/ folder) -- it must be able to fail;
--   template  git init + git add -A in the edition leaves nothing untracked or ignored;
--   student   `make` builds with the stubs; dripprof top/files say what is missing,
--             fold works; `make exercise-165` fails cleanly (every test a plain
--             failure); the edition's own `make test` passes; with the reference's
--             profile.c copied in, `make exercise-165` passes and, after `make`,
--             `dripprof top` and `dripprof files` print exactly what the instructor's
--             dripprof (built on the reference) prints.
--
-- The edition's `make test` runs its suites but the VM's, whose files are the
-- instructor's own, already tested by test-vm (--full runs that one too). The edition
-- lives inside build/, so ../shared is not beside it: it must not need it.
-- Writes "PASSED FAILED" to --result.
package.path = "grader/?.lua;grader/edition/?.lua;" .. package.path

local util = require("util")

local ROOT = "build/edition-test"
local EDITION = ROOT .. "/edition"
local LUA = os.getenv("LUA") or "lua5.4"

local passed, failed = 0, 0
local function check(ok, name, why)
  if ok then
    passed = passed + 1
    print("ok   edition: " .. name)
  else
    failed = failed + 1
    print("FAIL edition: " .. name .. (why and (": " .. util.shorten(tostring(why), 1500)) or ""))
  end
end

-- Runs a shell command; returns success, exit code and everything it printed.
local function sh(command)
  local pipe = assert(io.popen("( " .. command .. " ) 2>&1; echo \"\\n=exit $?\"", "r"))
  local output = pipe:read("a")
  pipe:close()
  local code = tonumber(output:match("\n=exit (%d+)\n$"))
  return code == 0, code, output:gsub("\n?\n=exit %d+\n$", "")
end

local function in_edition(command)
  -- A make of its own: none of the instructor's make variables or flags leak in.
  return sh("cd " .. util.quote(EDITION) .. " && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL " .. command)
end

local function make_edition(dest, force)
  return sh("make --no-print-directory student-edition DEST=" .. util.quote(dest) .. (force and " FORCE=1" or ""))
end

-- ------------------------------------------------------------------ build

local function build_tests()
  local ok, _, out = make_edition(".", true)
  check(not ok and out:find("is the workbook or holds it", 1, true), "DEST=. is refused", out)
  ok, _, out = make_edition("vm/edition")
  check(not ok and out:find("inside the workbook", 1, true), "DEST inside the workbook is refused", out)
  util.mkdir_p(ROOT .. "/busy")
  util.write_file(ROOT .. "/busy/notes.txt", "mine\n")
  ok, _, out = make_edition(ROOT .. "/busy")
  check(not ok and out:find("is not empty", 1, true) and util.exists(ROOT .. "/busy/notes.txt"),
    "a non-empty DEST is refused and left alone without FORCE=1", out)
  util.mkdir_p(ROOT .. "/instructor/solutions")
  ok, _, out = make_edition(ROOT .. "/instructor", true)
  check(not ok and out:find("looks like an instructor's workbook", 1, true) and util.is_dir(ROOT .. "/instructor/solutions"),
    "FORCE=1 never empties an instructor's workbook", out)

  local status_before = select(3, sh("git status --porcelain --untracked-files=all"))
  util.mkdir_p(EDITION .. "/.git")
  util.write_file(EDITION .. "/.git/keep", "the template repository's history\n")
  util.write_file(EDITION .. "/stale.txt", "from an older edition\n")
  ok, _, out = make_edition(EDITION, true)
  check(ok and out:find("none close", 1, true), "make student-edition writes the edition and checks it", out)
  check(util.exists(EDITION .. "/.git/keep") and not util.exists(EDITION .. "/stale.txt"),
    "FORCE=1 replaces an older edition but keeps its .git")
  local status_after = select(3, sh("git status --porcelain --untracked-files=all"))
  check(status_before == status_after, "the instructor's tree is as it was",
    status_before .. " -> " .. status_after)
  util.rm_rf(EDITION .. "/.git")
  return ok
end

-- ------------------------------------------------------------------ leaks

-- A function of the reference, with every name changed, as a student would disguise it.
local function disguised_reference_function(name)
  local text = util.read_file("solutions/165/profile.c")
  local start = text:find("\n[%w_ ]-[%s%*]" .. name .. "%(")
  local stop = text:find("\n}\n", start, true)
  local body = text:sub(start + 1, stop + 2)
  local keep = { ["size_t"] = true, ["uint64_t"] = true, ["const"] = true, ["return"] = true,
    ["static"] = true, ["while"] = true, ["if"] = true, ["for"] = true, ["NULL"] = true,
    ["bool"] = true, ["true"] = true, ["false"] = true, ["char"] = true, ["int"] = true,
    ["continue"] = true, ["break"] = true, ["void"] = true, ["sizeof"] = true, ["struct"] = true }
  return "/* not a copy */\n" .. body:gsub("[%a_][%w_]*", function(word)
    return keep[word] and word or ("my" .. word:gsub("_", ""):upper())
  end)
end

local function leak_tests()
  local ok, code, out = sh(LUA .. " grader/edition/check_edition.lua " .. util.quote(EDITION))
  check(ok and out:find("none close", 1, true), "check_edition finds nothing in the edition", out)
  local planted = ROOT .. "/planted"
  util.rm_rf(planted)
  sh("cp -a " .. util.quote(EDITION) .. " " .. util.quote(planted))
  util.write_file(planted .. "/vm/prof/helpers.c", disguised_reference_function("add_frame") ..
    "\n" .. disguised_reference_function("scan_count"))
  local telling
  for line in util.read_file("solutions/165/profile.c"):gmatch("[^\n]+") do
    if not telling and line:match("^ %* .*stack.*index") then
      telling = line
    end
  end
  util.write_file(planted .. "/chapters/notes.md", "Notes\n" .. (telling or "?") .. "\n")
  sh("cp grader/fixtures/165/expected/vm-fib.folded.expected " .. util.quote(planted .. "/exercises/165/tests/"))
  util.mkdir_p(planted .. "/solutions")
  util.mkdir_p(planted .. "/vm/build")
  sh("cp build/dripprof " .. util.quote(planted .. "/vm/prof/dripprof"))
  ok, code, out = sh(LUA .. " grader/edition/check_edition.lua " .. util.quote(planted))
  check(not ok and code == 1, "check_edition fails on an edition with planted leaks", out)
  local expected = { -- Lua patterns
    { "layout: solutions is not in", "a solutions/ folder" },
    { "outputs: vm/build is a build output", "a build/ folder" },
    { "outputs: vm/prof/dripprof is an executable", "a binary" },
    { "copies: exercises/165/tests/vm%-fib%.folded%.expected has the same bytes as grader/", "a grader file" },
    { "lines: chapters/notes%.md:2 is a line of solutions/165/profile%.c", "a line of the reference" },
    { "helpers%.c:%d+%-%d+ myADDFRAME is close to solutions/165/profile%.c:%d+ add_frame", "a renamed add_frame" },
    { "helpers%.c:%d+%-%d+ mySCANCOUNT is close to solutions/165/profile%.c:%d+ scan_count", "a renamed scan_count" },
  }
  for _, e in ipairs(expected) do
    check(out:find(e[1]) ~= nil, "check_edition catches " .. e[2], out)
  end
  util.rm_rf(planted)
end

-- ------------------------------------------------------------------ template repository

local function template_tests()
  local ok, _, out = in_edition("git init -q . && git add -A && git ls-files --others --ignored --exclude-standard --directory")
  check(ok and out == "", "git init + git add -A: nothing left over or ignored (no build outputs)", out)
  local _, _, count = in_edition("git ls-files | wc -l")
  local _, _, files = in_edition("find . -name .git -prune -o -type f -print | wc -l")
  check(tonumber(count) and tonumber(count) == tonumber(files), "git add -A takes every file of the edition",
    count .. " of " .. files)
  _, _, out = in_edition("grep -rl --include='*.mk' --include=Makefile --include='*.sh' --include='*.lua' '\\.\\./shared' . || true")
  check(out == "", "no build or test file of the edition refers to ../shared", out)
  sh("rm -rf " .. util.quote(EDITION .. "/.git"))
end

-- ------------------------------------------------------------------ student

local function student_tests(full)
  local ok, _, out = in_edition("make -s all")
  check(ok and util.exists(EDITION .. "/build/drip") and util.exists(EDITION .. "/build/dripprof"),
    "make builds the VM and dripprof with the stubs", out)
  local folded = "chapters/data/165/fib-drip.folded"
  ok, code, out = in_edition("build/dripprof top " .. folded)
  check(code == 3 and out:find("dripprof top needs inclusive() from exercises/165/profile.c: run make exercise-165\n"
      .. "  (inclusive() returns -1 on the one stack \"main;f 3\", like the shipped stub)", 1, true),
    "stubs: dripprof top says it needs inclusive() from exercises/165/profile.c", out)
  ok, code, out = in_edition("build/dripprof files vm/prof/tests/data/shared-jumps.annotate.txt")
  check(code == 3 and out:find("dripprof files needs parse_row() from exercises/165/profile.c", 1, true),
    "stubs: dripprof files says it needs parse_row()", out)
  ok, _, out = in_edition("build/dripprof fold vm/prof/tests/data/fib.callgrind.out | build/dripprof flame - > build/fib.svg && grep -c '<g' build/fib.svg")
  check(ok and tonumber(out) and tonumber(out) > 5, "stubs: dripprof fold and flame work", out)

  ok, _, out = in_edition("make exercise-165")
  local tsv = util.read_file(EDITION .. "/build/exercise/165/results.tsv") or ""
  local total, plain = 0, 0
  for _, verdict in tsv:gmatch("([^\t\n]+)\t([^\t\n]+)") do
    total = total + 1
    plain = plain + (verdict == "failed" and 1 or 0)
  end
  check(not ok and total > 50 and plain == total and out:find("parse_row 0/%d+ · sum_named 0/%d+ · inclusive 0/%d+"),
    "stubs: make exercise-165 fails, every test a plain failure (no crash, no timeout)",
    plain .. " of " .. total .. " failed plainly\n" .. out:sub(-400))

  local command = full and "make test" or "make test TEST_SUITES='prof exercises chapters'"
  ok, _, out = in_edition(command)
  local last = out:match("(%d+ passed, %d+ failed)%s*$")
  check(ok and last and last:match(" 0 failed$"), "the edition's own " .. command .. " passes: " .. tostring(last), out:sub(-1500))

  sh("cp solutions/165/profile.c " .. util.quote(EDITION .. "/exercises/165/profile.c"))
  ok, _, out = in_edition("make exercise-165")
  check(ok and out:find("All " .. total .. " tests pass.", 1, true),
    "with the reference's profile.c copied in, make exercise-165 passes", out:sub(-600))
  ok, _, out = in_edition("make -s all")
  check(ok, "make rebuilds dripprof with the student's code", out)
  local cases = { "top " .. folded, "top --limit 5 vm/prof/tests/data/fib.callgrind.out",
                  "files vm/prof/tests/data/shared-jumps.annotate.txt" }
  for _, args in ipairs(cases) do
    local mine_ok, _, mine = in_edition("build/dripprof " .. args)
    local _, _, theirs = sh("build/dripprof " .. args)
    check(mine_ok and mine == theirs and #mine > 200,
      "dripprof " .. args .. " on the student's code prints what the instructor's prints", mine:sub(1, 600))
  end
end

-- ------------------------------------------------------------------ main

local ok_args, opts = pcall(util.parse_args, arg, { ["--result"] = { "result", "string" },
  ["--full"] = { "full", "flag" } })
if not ok_args then
  io.stderr:write("test_edition.lua: " .. opts.message .. "\n")
  os.exit(2)
end
if not util.exists("grader/edition/ships.txt") then
  io.stderr:write("test_edition.lua: run it from the workbook's root (make test-edition)\n")
  os.exit(2)
end
util.rm_rf(ROOT)
util.mkdir_p(ROOT)
local function part(name, run, ...)
  local ok, result = pcall(run, ...)
  check(ok, "part " .. name .. " ran to the end", result)
  return ok and result
end
if part("build", build_tests) then
  part("leaks", leak_tests)
  part("template", template_tests)
  part("student", student_tests, opts.full)
end
print(string.format("edition: %d passed, %d failed", passed, failed))
if opts.result then
  util.write_file(opts.result, string.format("%d %d\n", passed, failed))
end
if failed == 0 then
  util.rm_rf(ROOT)
else
  print("(the edition of this run is in " .. EDITION .. ")")
end
os.exit(failed == 0 and 0 or 1)
