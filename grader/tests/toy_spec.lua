-- toy_spec.lua: the `toy` suite of `make test` (make test-toy): the engine on a second chapter.
--
-- Chapter 999 (grader/tests/toy/: one function, group_digits, with its exercise, reference,
-- grading plan, fixtures, a mutant and an attack) lives in the test tree, so it never ships in
-- the student edition nor shows in `make help`. This spec makes a scratch copy of the workbook
-- (the files git tracks or would track, build/grade/toy.XXXXXX), drops the toy's folders in
-- beside chapter 165's, and runs every command there as an instructor would:
--
--   exercise    make exercise-999: the stubs fail cleanly ("not written yet?"), SOLUTION=1
--               passes; make expected CHAPTER=999 writes the answers the toy commits;
--   grade       make grade CHAPTER=999 scores the stubs 0; make grade SUBMISSION=solutions/999
--               picks chapter 999 by its file and scores full marks; SUBMISSIONS=dir/ grades
--               a small batch (stubs, reference, the mutant, an empty folder);
--   verify      make verify-fixtures CHAPTER=999: reference full, stubs zero, mutant caught;
--   gradescope  make gradescope CHAPTER=999: the zip holds chapter 999 and nothing of 165;
--   edition     make student-edition: exercises/999 ships, solutions/ and grader/ do not,
--               and check_edition passes (it runs while the grading goes on);
--   attack      the toy's attack graded at the best isolation level this machine has must
--               score 0 and leave nothing behind; with no isolation it earns full marks (it is
--               real); each run in namespaces of its own (root only);
--   FIXTURES    FIXTURES=dir is one chapter's folder: without CHAPTER=N it is refused;
--   165         chapter 165 still grades full marks in the copy, picked by its file.
-- Adding a chapter must need no engine change: every command here runs the engine as
-- committed. The sandbox and dripprof are copied in with their times, so make builds nothing
-- it has built already, and so are what other suites built for chapter 165 (the kit's objects,
-- the reference's builds). Takes about a minute.

local wb = require("vm.lib.workbook")
local json = require("dkjson")
local mutants = require("grader.mutants")
local common = require("grader.tests.common")

local TOY = "grader/tests/toy"
local SEED = 999
local LUA = os.getenv("LUA") or "lua5.4"

local COPY = wb.realpath(wb.temp_dir("build/grade", "toy"))
local clean_up = wb.test_scratch(COPY)

-- Asserts ok, showing why (shortened) when it is not.
local function check(ok, why)
  assert(ok, why and wb.shorten(tostring(why), 2000))
end

local function read_copy(path)
  return wb.read_file(COPY .. "/" .. path)
end

-- The shell prefix of a command in the copy: its own root for the Lua modules, none of the
-- outer make's flags or variables, and git not reaching out to this repository (the copy is
-- no checkout, like a workbook unpacked from a tarball).
local function in_copy(command)
  return string.format("cd %s && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u CHAPTER -u FIXTURES -u SUBMISSION "
    .. "-u SUBMISSIONS -u SOLUTION -u TEST GIT_CEILING_DIRECTORIES=%s LUA_PATH=%s %s", wb.quote(COPY),
    wb.quote(wb.dirname(COPY)), wb.quote(COPY .. "/?.lua;;"), command)
end

-- Runs a command in the copy; returns its exit code and its output (stdout and stderr).
local function sh(command)
  return wb.finish(wb.start(in_copy(command)))
end

-- Commands that run beside the others (the copy's parts write to folders of their own):
-- started by name, awaited by name for their exit code and output.
local started = {}

local function start(name, command)
  started[name] = { pipe = wb.start(in_copy(command)) }
end

local function await(name)
  local s = started[name]
  assert(s, name .. " was never started: an earlier step failed")
  if not s.code then
    s.code, s.output = wb.finish(s.pipe)
  end
  return s.code, s.output
end

local function make(args)
  return sh("make --no-print-directory " .. args)
end

-- The score and maximum of a results.json in the copy.
local function score_of(path)
  local r = json.decode(read_copy(path) or "null") or {}
  return r.score, r.extra_data and r.extra_data.max_score
end

-- Runs a shell command in this repository; fails the test with what it said when it fails.
local function must(command)
  local code, output = wb.finish(wb.start(command))
  check(code == 0, command .. ": " .. output)
end

-- The scratch copy: the workbook's files (those git tracks or would track, as they are in the
-- work tree), the toy's three folders in place, and the built sandbox and dripprof (with the
-- objects dripprof is linked from, times kept).
local function make_copy()
  local list = {}
  for path in wb.capture("git ls-files -z --cached --others --exclude-standard"):gmatch("([^%z]+)%z") do
    if wb.exists(path) and not wb.is_dir(path) then -- a file deleted but not yet committed is not there
      list[#list + 1] = path .. "\0"
    end
  end
  wb.write_file(COPY .. ".files", table.concat(list))
  must("tar --null -T " .. wb.quote(COPY .. ".files") .. " -cf - | tar -xf - -C " .. wb.quote(COPY))
  os.remove(COPY .. ".files")
  for _, part in ipairs({ "exercises", "solutions", "grader" }) do
    must("cp -R " .. wb.quote(TOY .. "/" .. part .. "/999") .. " " .. wb.quote(COPY .. "/" .. part .. "/999"))
  end
  wb.mkdir_p(COPY .. "/build/obj")
  -- What other suites have built for chapter 165 already: the checker kit's objects and the
  -- reference's builds. Each folder is named by a hash of everything it is made from and is
  -- never changed once in place (builders rename a private folder into it), so one whose
  -- sources are the copy's is the copy's too; the others are never looked at.
  for _, cache in ipairs({ { "build/harness/objects", "^%a+%-%x+$" }, { "build/grade-cache/reference", "^%d+%-%x+$" } }) do
    wb.mkdir_p(COPY .. "/" .. cache[1])
    for _, name in ipairs(wb.list_dir(cache[1]) or {}) do
      if name:match(cache[2]) then
        wb.run("cp -a " .. wb.quote(cache[1] .. "/" .. name) .. " " .. wb.quote(COPY .. "/" .. cache[1] .. "/")
          .. " 2>/dev/null")
      end
    end
  end
  must("cp -a build/harness/sandbox " .. wb.quote(COPY .. "/build/harness/") .. " && cp -a build/dripprof "
    .. wb.quote(COPY .. "/build/") .. " && cp -a build/obj/prof " .. wb.quote(COPY .. "/build/obj/"))
end

describe("a second chapter (the toy chapter 999) in a copy of the workbook", function()
  lazy_setup(function()
    make_copy()
  end)
  lazy_teardown(function()
    for name in pairs(started) do
      await(name)
    end
    clean_up()
  end)

  it("is in no list of this workbook: make help names no chapter 999", function()
    local code, output = wb.finish(wb.start("env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory help"))
    check(code == 0 and output:match("make exercise%-165") and not output:match("999"), output)
  end)

  -- FIXTURES=dir is one chapter's fixture folder: in a workbook of one chapter it needed no
  -- CHAPTER=N, in one of two it would serve both (165 read 999's fixtures, and both wrote their
  -- answers into the same dir/expected/). First, before the edition is being made: a
  -- regression here would rewrite answers in exercises/.
  describe("FIXTURES=dir with two chapters", function()
    local dir = COPY .. "/build/fixtures-999"
    local code, output
    lazy_setup(function()
      wb.mkdir_p(dir)
      wb.copy(COPY .. "/grader/999/fixtures/counts.txt", dir .. "/counts.txt")
      code, output = make("expected FIXTURES=" .. wb.quote(dir))
    end)
    it("make expected without CHAPTER=N is refused, naming the chapters, and writes nothing", function()
      check(code ~= 0 and output:find("FIXTURES=" .. dir .. " is one chapter's fixture folder", 1, true)
        and output:find("165, 999", 1, true) and output:find("CHAPTER=N", 1, true), output)
      check(not wb.exists(dir .. "/expected/counts.txt.expected") and not output:match("expected: parse_row"), output)
    end)
    it("make expected CHAPTER=999 FIXTURES=dir writes that chapter's answers there", function()
      local c, out = make("expected CHAPTER=999 FIXTURES=" .. wb.quote(dir))
      check(c == 0 and wb.exists(dir .. "/expected/counts.txt.expected"), out)
    end)
  end)

  describe("make exercise-999 and make expected", function()
    local stubs, reference, expected = {}, {}, {}
    lazy_setup(function()
      expected.code, expected.output = make("expected CHAPTER=999")
      stubs.code, stubs.output = make("exercise-999")
      reference.code, reference.output = make("exercise-999 SOLUTION=1")
      -- Nothing below writes into the copy's sources any more: the edition can be made now.
      start("edition", "make --no-print-directory student-edition DEST=build/edition")
    end)
    it("make expected CHAPTER=999 writes the public cases' and the fixtures' answers", function()
      check(expected.code == 0 and expected.output:match("group_digits%.txt%s+8 cases")
        and expected.output:match("counts%.txt%s+12 answers") and expected.output:match("edges%.txt%s+22 answers"),
        expected.output)
    end)
    it("the answers it writes are the ones the toy commits (they are fresh)", function()
      for _, path in ipairs({ "exercises/999/tests/expected/group_digits.txt.expected",
        "grader/999/fixtures/expected/counts.txt.expected", "grader/999/fixtures/expected/edges.txt.expected" }) do
        local written = read_copy(path)
        check(written and written == wb.read_file(TOY .. "/" .. path), path .. " differs from " .. TOY .. "/" .. path)
      end
    end)
    it("with the stubs it fails, every test a plain failure, and says not written yet", function()
      local tsv = read_copy("build/exercise/999/results.tsv") or ""
      local _, wrong = tsv:gsub("\twrong\t", "")
      check(stubs.code ~= 0 and wrong == 8 and #wb.split_lines(tsv) == 8, tsv .. stubs.output)
      check(stubs.output:find("group_digits: not written yet? Every test (8) got -1", 1, true)
        and stubs.output:find("make exercise-999 TEST=group_digits.zero", 1, true)
        and stubs.output:match("\n8 of 8 tests fail, so the exit status is 1[^\n]*\ngroup_digits 0/8\n"), stubs.output)
    end)
    it("with SOLUTION=1 every test passes", function()
      check(reference.code == 0 and reference.output:match("\nAll 8 tests pass%.\ngroup_digits 8/8\n"),
        reference.output)
    end)
  end)

  describe("make grade", function()
    local stubs, reference = {}, {}
    lazy_setup(function()
      stubs.code, stubs.output = make("grade CHAPTER=999 SEED=" .. SEED)
      stubs.score, stubs.max = score_of("build/grade/results.json")
      -- No CHAPTER: the grader picks the chapters whose files the folder holds.
      reference.code, reference.output = make("grade SUBMISSION=solutions/999 SEED=" .. SEED)
      reference.score, reference.max = score_of("build/grade/results.json")
    end)
    it("CHAPTER=999 scores the shipped stubs 0 of 10", function()
      check(stubs.code == 0 and stubs.score == 0 and stubs.max == 10, stubs.output)
      check(stubs.output:match("^Chapter 999: Grouping digits") and stubs.output:match("\nscore: 0 / 10\n"),
        stubs.output)
    end)
    it("explains a stub's answer in the chapter's words", function()
      check(stubs.output:find("first difference at 20186274402 size=32:\n"
        .. "               input:    group_digits(20186274402, out, 32) with out a buffer of 32 bytes\n"
        .. "               expected: returns 14 with out = \"20,186,274,402\"\n", 1, true), stubs.output)
    end)
    it("SUBMISSION=solutions/999 grades chapter 999 alone (its file is digits.c) with full marks", function()
      check(reference.code == 0 and reference.score == 10 and reference.max == 10, reference.output)
      check(not reference.output:match("Chapter 165") and reference.output:match("\nscore: 10 / 10\n")
        and reference.output:match("4/4%s+group_digits: buffers of exactly the room, and one byte less %(seeded%)\n"
          .. "%s+passed\n"), reference.output)
    end)
  end)

  describe("make grade SUBMISSIONS=dir/", function()
    local code, output, csv
    lazy_setup(function()
      local subs = wb.make_tree(COPY .. "/build/toy-submissions", { dave = true,
        ["alice/work/digits.c"] = read_copy("exercises/999/digits.c"),
        ["bob/digits.c"] = read_copy("solutions/999/digits.c"),
        ["carol/digits.c"] = mutants.load(COPY .. "/grader/999/mutants/mutants.lua",
          COPY .. "/solutions/999/digits.c")[1].source })
      code, output = make("grade CHAPTER=999 SEED=" .. SEED .. " SUBMISSIONS=" .. wb.quote(subs .. "/"))
      csv = read_copy("build/grade/batch/scores.csv") or ""
    end)
    it("grades every folder and prints the summary", function()
      check(code == 0 and output:match("chapter 999: graded 4 of 4 submissions"), output)
    end)
    it("scores.csv: the stubs 0, the reference 10, the mutant only its fixtures' 6, no digits.c 0 and why", function()
      check(csv:match("^submission,score,max_score,group_digits_fixtures,group_digits_tight,error\n"), csv)
      for _, row in ipairs({ "\nalice,0,10,0,0,\n", "\nbob,10,10,6,4,\n", "\ncarol,6,10,6,0,\n",
        "\ndave,0,10,0,0,no digits%.c in the folder or 3 folders below it\n" }) do
        check(csv:match(row), row .. " in\n" .. csv)
      end
    end)
    it("failures.txt puts the seeded check first: both built wrong submissions fail it", function()
      local text = read_copy("build/grade/batch/failures.txt") or ""
      check(text:match("of the 3 submissions that built; 1 did not build")
        and text:match("\n%s+2  group_digits: buffers of exactly the room"), text)
    end)
    it("the mutant's report names the heap overflow in its own file", function()
      local report = read_copy("build/grade/batch/carol/999/report.txt") or ""
      check(report:match("AddressSanitizer: heap%-buffer%-overflow") and report:match("in your code: digits%.c:%d+"),
        report)
    end)
  end)

  describe("make verify-fixtures CHAPTER=999", function()
    local code, output
    lazy_setup(function()
      code, output = make("verify-fixtures CHAPTER=999 SEED=" .. SEED)
    end)
    it("finds the fixtures separate right from wrong", function()
      check(code == 0 and output:match("\nverify%-fixtures: the fixtures separate right from wrong\n"), output)
    end)
    for _, c in ipairs({ { "999-reference", "10 / 10", "the reference with full marks" },
      { "999-stubs", "0 / 10", "the stubs with zero" },
      { "999-mutant-no_room_for_nul", "6 / 10", "the mutant caught, in the family it names, by a sanitizer" } }) do
      it("lists " .. c[3], function()
        check(output:find("\nok   " .. c[1] .. string.rep(" ", 37 - #c[1]) .. c[2], 1, true), output)
      end)
    end
  end)

  -- A mutant is the reference with its edits made; a reference changed where an edit applies
  -- must stop verify-fixtures, not yield a mutant that is no longer the fault it names.
  describe("the mutants' edits of the reference", function()
    local list, reference
    lazy_setup(function()
      list = COPY .. "/grader/999/mutants/mutants.lua"
      reference = read_copy("solutions/999/digits.c")
    end)
    local function load_with(text)
      local path = COPY .. "/build/changed-digits.c"
      wb.write_file(path, text)
      return pcall(mutants.load, list, path)
    end
    it("make the mutant: the reference with its one edit", function()
      local ok, loaded = load_with(reference)
      check(ok and #loaded == 1 and loaded[1].source ~= reference
        and loaded[1].source:find("if (size < length) {", 1, true), ok and loaded[1].source or loaded.message)
    end)
    it("refuse an edit whose `from` the reference no longer holds, naming mutants.lua and the mutant", function()
      local ok, err = load_with((reference:gsub("size < length %+ 1", "length >= size")))
      check(not ok and type(err) == "table" and err.message:find(list .. ": mutant NO_ROOM_FOR_NUL: edit 1: its `from` "
        .. "text occurs 0 times in " .. COPY .. "/build/changed-digits.c, not once", 1, true), ok or err.message)
    end)
    it("refuse an edit whose `from` the reference holds twice", function()
      local ok, err = load_with(reference .. "\n/* if (size < length + 1) { */\n")
      check(not ok and err.message:find("mutant NO_ROOM_FOR_NUL: edit 1: its `from` text occurs 2 times", 1, true),
        ok or err.message)
    end)
  end)

  describe("chapter 165 beside it", function()
    local code, output, score, max
    lazy_setup(function()
      -- The zip is made beside this grading (it writes build/gradescope only).
      start("gradescope", "make --no-print-directory gradescope CHAPTER=999")
      -- Two of 165's fixtures (an annotate table and folded stacks) keep this short.
      local dir = common.fixture_subset(COPY, COPY .. "/build/fixtures-165", { "book-fib-self.txt", "toy-vm.folded" })
      code, output = sh("GRADE_NO_SPEED=1 make --no-print-directory grade SUBMISSION=solutions/165 SEED=" .. SEED
        .. " FIXTURES=" .. wb.quote(dir))
      score, max = score_of("build/grade/results.json")
    end)
    it("still grades: its reference scores full marks in the copy", function()
      check(code == 0 and score == 85 and max == 85 and output:match("^Chapter 165: Profiling the VM")
        and not output:match("Chapter 999"), output)
    end)
  end)

  describe("make gradescope CHAPTER=999", function()
    local code, output, listing, run
    lazy_setup(function()
      code, output = await("gradescope")
      local zip = wb.quote(COPY .. "/build/gradescope/999/autograder.zip")
      listing = "\n" .. wb.capture("zipinfo -1 " .. zip .. " 2>/dev/null")
      run = wb.capture("unzip -p " .. zip .. " run_autograder 2>/dev/null")
    end)
    it("writes build/gradescope/999/autograder.zip", function()
      check(code == 0 and output:match("gradescope: build/gradescope/999/autograder%.zip"), output)
    end)
    it("holds chapter 999's reference, header, checker, module, plan and fixtures with answers", function()
      for _, name in ipairs({ "solutions/999/digits.c", "exercises/999/digits.h", "exercises/999/tests/check.c",
        "exercises/999/chapter.lua", "grader/999/chapter.lua", "grader/999/rubric.lua", "grader/999/fixtures/edges.txt",
        "grader/999/fixtures/fixtures.lua", "grader/999/fixtures/expected/edges.txt.expected", "grader/engine.lua",
        "run_autograder", "setup.sh" }) do
        check(listing:find("\n" .. name .. "\n", 1, true), name .. " is not in the zip:" .. listing)
      end
    end)
    it("holds nothing of chapter 165, nor 999's mutants, attacks or stubs", function()
      for _, prefix in ipairs({ "solutions/165", "grader/165", "exercises/165", "grader/999/mutants",
        "grader/999/attacks", "exercises/999/digits.c", "grader/tests" }) do
        check(not listing:find("\n" .. prefix, 1, true), prefix .. " is in the zip:" .. listing)
      end
    end)
    it("run_autograder grades chapter 999 from the student's digits.c", function()
      check(run:find("for name in digits.c; do", 1, true) and run:find("CHAPTER=999 ", 1, true), run)
    end)
  end)

  -- grader/attacks.lua ends a run by sweeping the machine: it kills processes named
  -- drip-attack and removes the marker files attacks leave in the shared temporary folders.
  -- Beside the grader suite's attack runs (make -j2 test) it would see, and remove, their
  -- markers mid-check; so the toy's run gets PID, IPC and mount namespaces of its own, with
  -- fresh temporary folders: it sees only what its own attack leaves. That takes root. A
  -- folder that holds this copy of the workbook stays as it is (a fresh one would hide it).
  describe("the toy's attack (grader/999/attacks)", function()
    local level = common.levels()[1] -- the best this machine has
    if not level or not wb.is_root() then
      pending("the toy's attack needs root and an isolation level besides none (" .. tostring(level) .. ")")
      return
    end
    local outcomes = {}
    lazy_setup(function()
      -- Both levels at once, each in its namespaces and folders of its own.
      for _, at in ipairs({ level, "none" }) do
        local lua = string.format("local o = require('grader.attacks').run({ chapter = '999', level = %q, "
          .. "out = %q, seed = %d, fixtures = %q }) io.write(require('dkjson').encode(o))", at,
          COPY .. "/build/toy-attacks-" .. at, SEED, COPY .. "/grader/999/fixtures")
        start("attack-" .. at, "unshare --mount --pid --ipc --fork --mount-proc sh -c " .. wb.quote(
          "for d in /tmp /var/tmp /dev/shm /run/lock; do case " .. wb.quote(COPY) .. "/ in $d/*) continue;; esac; "
          .. "[ ! -d $d ] || mount -t tmpfs -o mode=1777 tmpfs $d || exit 1; "
          .. "done; exec " .. LUA .. " -e " .. wb.quote(lua)))
      end
      for _, at in ipairs({ level, "none" }) do
        local _, text = await("attack-" .. at)
        outcomes[at] = { text = text }
        for _, o in ipairs(json.decode(text:match("%[.*%]$") or "[]") or {}) do
          outcomes[at][o.name] = table.concat(o.problems, "; ")
        end
      end
    end)
    it("exec_reference scores 0 at the " .. level .. " level, and leaves nothing behind", function()
      local o = outcomes[level]
      check(o["999/exec_reference"] == "" and o["the machine after the attacks"] == "", o.text)
    end)
    it("is a real attack: with no isolation it runs the reference's checker and earns full marks", function()
      local o = outcomes.none
      check(o["999/exec_reference"] == "should score 0, scored 10", o.text)
    end)
  end)

  describe("make student-edition", function()
    local listing, edition = {}, {}
    lazy_setup(function()
      edition.code, edition.output = await("edition")
      for path in wb.capture("cd " .. wb.quote(COPY .. "/build/edition") .. " && find . -type f | LC_ALL=C sort")
        :gmatch("%./([^\n]+)") do
        listing[path] = true
      end
    end)
    it("writes the edition, and its check_edition passes", function()
      check(edition.code == 0 and edition.output:match("check_edition: [^\n]*: %d+ files, no build outputs, "
        .. "no copy of solutions/ or grader/;[^\n]* no run of %d+ tokens in common\n")
        and edition.output:match("student%-edition: written to"), edition.output)
    end)
    it("holds exercises/999 as shipped: the stub, its header, the handout, the checker and the cases", function()
      for _, path in ipairs({ "exercises/999/digits.c", "exercises/999/digits.h", "exercises/999/README.md",
        "exercises/999/chapter.lua", "exercises/999/tests/check.c", "exercises/999/tests/group_digits.txt",
        "exercises/999/tests/expected/group_digits.txt.expected", "exercises/165/profile.c" }) do
        check(listing[path], path .. " is not in the edition")
      end
      check(wb.read_file(COPY .. "/build/edition/exercises/999/digits.c") == wb.read_file(TOY .. "/exercises/999/digits.c"),
        "the edition's digits.c is not the stub")
    end)
    it("holds nothing of solutions/ or grader/", function()
      for path in pairs(listing) do
        check(not path:match("^solutions/") and not path:match("^grader/"), path .. " is in the edition")
      end
    end)
  end)
end)
