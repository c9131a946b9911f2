-- edition_spec.lua: the `edition` suite of `make test` (make test-edition), a busted spec
-- run from the workbook's root; EDITION_FULL=1 (make test-edition-full) runs the edition's
-- whole make test.
--
-- Builds the student edition into build/edition-test/ with the real target and uses it
-- the way a student would, following its README:
--
--   build     make student-edition refuses what it must (a non-empty DEST, the workbook
--             itself, an instructor's tree) and leaves the instructor's tree as it was;
--   leaks     check_edition.lua passes on the edition and catches planted leaks (a
--             renamed copy of a reference function, a line of it, a grader file, a
--             build output, a solutions/ folder) -- it must be able to fail;
--   text      every `make TARGET` the edition's text names is one of its targets (make -n);
--             its make help offers no instructor's target or SOLUTION=1, which refuse in one line;
--   template  git init + git add -A in the edition leaves nothing untracked or ignored;
--   student   `make` builds with the stubs; `make exercise-165` fails cleanly (every test
--             a plain wrong result); dripprof top/files --with the checker it built say
--             what is missing, fold works; with the reference's profile.c copied in,
--             `make exercise-165` passes, the edition's own `make test` passes with it
--             committed, and `dripprof top` and `dripprof files` with the student's
--             checker print exactly what they print with the reference's.
--
-- The edition's own `make test` runs in make test-slow (EDITION_FULL=1); make test checks
-- that it finds its suites. The edition
-- lives inside build/, so ../shared is not beside it: it must not need it.
local wb = require("vm.lib.workbook")

local ROOT = "build/edition-test"
local EDITION = ROOT .. "/edition"
local LUA = os.getenv("LUA") or "lua5.4"

-- Asserts ok, showing why (shortened) when it is not.
local function check(ok, why)
  assert(ok, why and wb.shorten(tostring(why), 1500))
end

-- Runs a shell command; returns success, exit code and everything it printed.
local function sh(command)
  local code, output = wb.finish(wb.start(command))
  return code == 0, code, (output:gsub("\n$", ""))
end

local function in_edition(command)
  -- A make of its own: none of the instructor's make variables or flags leak in.
  return sh("cd " .. wb.quote(EDITION) .. " && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL " .. command)
end

local function make_edition(dest, force)
  return sh("make --no-print-directory student-edition DEST=" .. wb.quote(dest) .. (force and " FORCE=1" or ""))
end


-- A function of the reference, with every name changed, as a student would disguise it.
local function disguised_reference_function(name)
  local text = wb.read_file("solutions/165/profile.c")
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

-- make student-edition checks every edition with sim_c (Debian's similarity-tester, which
-- Debian 13 lacks): without it there is no edition to try, and one skipped test says why.
if not sh("command -v sim_c") then
  pending("make test-edition SKIPPED: make student-edition needs sim_c (Debian package similarity-tester, "
    .. "not in Debian 13) to check the edition for renamed copies of the reference")
  return
end

describe("the student edition", function()
  lazy_setup(function()
    assert(wb.exists("grader/edition/ships.txt"), "run it from the workbook's root (make test-edition)")
    wb.rm_rf(ROOT)
    wb.mkdir_p(ROOT)
  end)
  lazy_teardown(wb.test_scratch(ROOT))

  -- ---------------------------------------------------------------- build

  describe("make student-edition", function()
    it("refuses DEST=.", function()
      local ok, _, out = make_edition(".", true)
      check(not ok and out:find("is the workbook or holds it", 1, true), out)
    end)
    it("refuses a DEST inside the workbook", function()
      local ok, _, out = make_edition("vm/edition")
      check(not ok and out:find("inside the workbook", 1, true), out)
    end)
    it("refuses a non-empty DEST and leaves it alone without FORCE=1", function()
      wb.mkdir_p(ROOT .. "/busy")
      wb.write_file(ROOT .. "/busy/notes.txt", "mine\n")
      local ok, _, out = make_edition(ROOT .. "/busy")
      check(not ok and out:find("is not empty", 1, true) and wb.exists(ROOT .. "/busy/notes.txt"), out)
    end)
    it("never empties an instructor's workbook, even with FORCE=1", function()
      wb.mkdir_p(ROOT .. "/instructor/solutions")
      local ok, _, out = make_edition(ROOT .. "/instructor", true)
      check(not ok and out:find("looks like an instructor's workbook", 1, true)
        and wb.is_dir(ROOT .. "/instructor/solutions"), out)
    end)
    it("writes the edition and checks it; FORCE=1 replaces an older one but keeps its .git; "
      .. "the instructor's tree is as it was", function()
      local status_before = select(3, sh("git status --porcelain --untracked-files=all"))
      wb.mkdir_p(EDITION .. "/.git")
      wb.write_file(EDITION .. "/.git/keep", "the template repository's history\n")
      wb.write_file(EDITION .. "/stale.txt", "from an older edition\n")
      local ok, _, out = make_edition(EDITION, true)
      check(ok and out:find("no run of %d+ tokens in common"), out)
      check(wb.exists(EDITION .. "/.git/keep") and not wb.exists(EDITION .. "/stale.txt"), "FORCE=1 and .git")
      local status_after = select(3, sh("git status --porcelain --untracked-files=all"))
      assert.are.equal(status_before, status_after)
      wb.rm_rf(EDITION .. "/.git")
    end)
  end)

  -- ---------------------------------------------------------------- leaks

  describe("check_edition", function()
    it("finds nothing in the edition", function()
      local ok, _, out = sh(LUA .. " grader/edition/check_edition.lua " .. wb.quote(EDITION))
      check(ok and out:find("no run of %d+ tokens in common"), out)
    end)
    local code, out
    lazy_setup(function()
      local planted = ROOT .. "/planted"
      wb.rm_rf(planted)
      sh("cp -a " .. wb.quote(EDITION) .. " " .. wb.quote(planted))
      wb.write_file(planted .. "/vm/prof/helpers.c", disguised_reference_function("add_frame") ..
        "\n" .. disguised_reference_function("scan_count"))
      local telling
      for line in wb.read_file("solutions/165/profile.c"):gmatch("[^\n]+") do
        if not telling and line:match("^ %* .*stack.*index") then
          telling = line
        end
      end
      wb.write_file(planted .. "/chapters/notes.md", "Notes\n" .. (telling or "?") .. "\n")
      sh("cp grader/165/fixtures/expected/vm-fib.folded.expected " .. wb.quote(planted .. "/exercises/165/tests/"))
      wb.mkdir_p(planted .. "/solutions")
      wb.mkdir_p(planted .. "/vm/build")
      sh("cp build/dripprof " .. wb.quote(planted .. "/vm/prof/dripprof"))
      code, out = select(2, sh(LUA .. " grader/edition/check_edition.lua " .. wb.quote(planted)))
      wb.rm_rf(planted)
    end)
    it("fails on an edition with planted leaks", function()
      check(code == 1, out)
    end)
    for _, e in ipairs({ -- Lua patterns
      { "layout: solutions is not in", "a solutions/ folder" },
      { "outputs: vm/build is a build output", "a build/ folder" },
      { "outputs: vm/prof/dripprof is an executable", "a binary" },
      { "copies: exercises/165/tests/vm%-fib%.folded%.expected has the same bytes as grader/", "a grader file" },
      { "lines: chapters/notes%.md:2 is a line of solutions/165/profile%.c", "a line of the reference" },
    }) do
      it("catches " .. e[2], function()
        check(out:find(e[1]) ~= nil, out)
      end)
    end
    -- A renamed function of the reference is a run of the reference's lines, names aside.
    for _, name in ipairs({ "add_frame", "scan_count" }) do
      it("catches a renamed " .. name, function()
        local at = select(2, wb.read_file("solutions/165/profile.c"):find("^.-\n[%w_ ]-[%s%*]" .. name .. "%("))
        local line = select(2, wb.read_file("solutions/165/profile.c"):sub(1, at):gsub("\n", "")) + 1
        local caught = false
        for first, last in out:gmatch("helpers%.c:%d+%-%d+ is the reference's solutions/165/profile%.c:(%d+)%-(%d+)") do
          caught = caught or (tonumber(first) <= line + 1 and line <= tonumber(last))
        end
        check(caught, name .. " at line " .. line .. "\n" .. out)
      end)
    end
  end)

  -- A leftover beside the stubs in the instructor's exercises/ (an editor backup of a
  -- filled-in profile.c) ships with the edition, and what exercises/ holds counts as
  -- published on purpose: the check must judge exercises/ as committed, not as it lies.
  -- Planted in a clone of the workbook, never in the instructor's own tree.
  describe("check_edition with a leftover in the workbook's exercises/", function()
    local code, out
    lazy_setup(function()
      local clone, planted = ROOT .. "/leftover-workbook", ROOT .. "/leftover-edition"
      wb.rm_rf(clone)
      wb.rm_rf(planted)
      if not sh("git clone -q . " .. wb.quote(clone)) then
        return
      end
      sh("cp -a " .. wb.quote(EDITION) .. " " .. wb.quote(planted))
      for _, where in ipairs({ clone, planted }) do
        sh("cp solutions/165/profile.c " .. wb.quote(where .. "/exercises/165/profile.c~"))
      end
      code, out = select(2, sh("cd " .. wb.quote(clone) .. " && " .. LUA .. " grader/edition/check_edition.lua "
        .. wb.quote(wb.realpath(planted))))
      wb.rm_rf(clone)
      wb.rm_rf(planted)
    end)
    it("catches the reference in exercises/165/profile.c~", function()
      check(code == 1 and out:find("copies: exercises/165/profile%.c~ has the same bytes as solutions/"), out)
    end)
  end)

  -- ---------------------------------------------------------------- template repository

  describe("as a template repository", function()
    lazy_teardown(function()
      sh("rm -rf " .. wb.quote(EDITION .. "/.git"))
    end)
    it("git init + git add -A: nothing left over or ignored (no build outputs)", function()
      local ok, _, out = in_edition("git init -q . && git add -A && "
        .. "git ls-files --others --ignored --exclude-standard --directory")
      check(ok and out == "", out)
    end)
    it("git add -A takes every file of the edition", function()
      local _, _, count = in_edition("git ls-files | wc -l")
      local _, _, files = in_edition("find . -name .git -prune -o -type f -print | wc -l")
      check(tonumber(count) and tonumber(count) == tonumber(files), count .. " of " .. files)
    end)
    it("no build or test file of the edition refers to ../shared", function()
      local _, _, out = in_edition("grep -rl --include='*.mk' --include=Makefile --include='*.sh' --include='*.lua' "
        .. "'\\.\\./shared' . || true")
      check(out == "", out)
    end)
  end)

  -- The edition's text is true to it: every `make TARGET` its README, chapter, handouts,
  -- headers, sources' comments and `make help` name is a target of the edition, and none is one
  -- that refuses there (an instructor's target, SOLUTION=1). The harness's Lua, whose messages
  -- the student reads, is held to the first rule only: it also serves the instructor's
  -- workbook (`make expected` writes the answers it compares with), and an instructor's target
  -- refuses in the edition in one line. Left out: the build files (make help speaks for them)
  -- and the data (case files, answers). A mention is "make WORD [VAR=value]..." with WORD a
  -- target of the instructor's workbook (so English "make the" is none), -N standing for a chapter.
  describe("its text", function()
    -- The targets the edition refuses (the Makefile's INSTRUCTOR_ONLY), by name.
    local function instructor_only()
      local _, _, only = sh("env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "
        .. "--eval 'only: ; @echo $(INSTRUCTOR_ONLY)' only 2> /dev/null")
      local set = {}
      for target in only:gmatch("%S+") do
        set[#set + 1], set[target] = target, true
      end
      return set
    end
    it("make help offers no instructor's target and no SOLUTION=1, and each refuses in one line", function()
      local _, _, help = in_edition("make -s help")
      local asked = {}
      for _, target in ipairs(instructor_only()) do
        check(not help:find("make " .. target .. " ", 1, true), target .. " in the edition's make help:\n" .. help)
        asked[#asked + 1] = target
      end
      check(#asked > 3 and not help:find("SOLUTION", 1, true), help)
      asked[#asked + 1] = "exercise-165 SOLUTION=1"
      for _, goal in ipairs(asked) do
        local ok, _, out = in_edition("make " .. goal)
        check(not ok and not out:find("\n") and out:find("make " .. goal .. ": only in the instructor's workbook", 1, true),
          out)
      end
    end)
    it("names only targets that the edition has and that run there (make -n)", function()
      local names, stems = {}, {}
      for name in select(3, sh("make -pRrq : 2> /dev/null")):gmatch("\n(%a[%w_%%-]*):") do
        if name:find("%", 1, true) then
          stems[#stems + 1] = name:match("^(.-)%%")
        else
          names[name] = true
        end
      end
      local function is_target(word)
        for _, stem in ipairs(stems) do
          if #word > #stem and word:sub(1, #stem) == stem then
            return true
          end
        end
        return names[word]
      end
      local _, _, chapter = in_edition("ls exercises | grep -m1 '^[0-9]'")
      local pruned = "find . \\( -path ./build -o -path ./.git -o -path '*/tests/expected' \\) -prune -o "
      local _, _, text = in_edition(pruned .. "-type f \\( -name '*.md' -o -name '*.h' -o -name '*.c' "
        .. "-o -name chapter.lua \\) -print0 | xargs -0 cat && make -s help")
      local _, _, lua = in_edition(pruned .. "-path './exercises/harness/*.lua' -print0 | xargs -0 cat")
      check(lua:find("make exercise-", 1, true), "read none of the harness's Lua")
      local only = instructor_only()
      local commands, tried = {}, {}
      -- The text's mentions, then the harness's Lua's but those of an instructor's target.
      for _, source in ipairs({ { text, {} }, { lua, only } }) do
        for target, rest in source[1]:gmatch("make ([%w_%-]+)([^\n`\"'(),;:]*)") do
          if is_target(target) and not source[2][target] then
            local words = { (target:gsub("%-N$", "-" .. chapter)) }
            for word in rest:gmatch("%S+") do
              if not word:match("^[%u_]+=") then
                break
              end
              words[#words + 1] = word
            end
            local line = table.concat(words, " ")
            if not tried[line] then
              tried[line] = true
              commands[#commands + 1] = line
            end
          end
        end
      end
      check(tried["exercise-" .. chapter] and tried.test, "found no make exercise-N or make test:\n" .. text:sub(1, 300))
      for _, line in ipairs(commands) do
        local ok, _, out = in_edition("make -n " .. line .. " 2>&1 > /dev/null")
        check(ok, "the edition names make " .. line .. ", which it has not:\n" .. out)
      end
    end)
  end)

  -- ---------------------------------------------------------------- student

  describe("used as a student would", function()
    local folded = "chapters/165/data/fib-drip.folded"
    local total
    it("make builds the VM and dripprof with the stubs", function()
      local ok, _, out = in_edition("make -s all")
      check(ok and wb.exists(EDITION .. "/build/drip") and wb.exists(EDITION .. "/build/dripprof"), out)
    end)
    it("stubs: make exercise-165 fails, every test a plain wrong result (no crash, no timeout)", function()
      local ok, _, out = in_edition("make exercise-165")
      local tsv = wb.read_file(EDITION .. "/build/exercise/165/results.tsv") or ""
      local plain = 0
      total = 0
      for _, verdict in tsv:gmatch("([^\t\n]+)\t([^\t\n]+)") do
        total = total + 1
        plain = plain + (verdict == "wrong" and 1 or 0)
      end
      check(not ok and total > 50 and plain == total
        and out:find("parse_row 0/%d+ · sum_named 0/%d+ · inclusive 0/%d+"),
        plain .. " of " .. total .. " failed plainly\n" .. out:sub(-400))
    end)
    -- The profiler asks the student's checker, which make exercise-165 built.
    local CHECKER = " --with build/exercise/165/check "
    it("stubs: dripprof top --with the student's checker says inclusive() is not written yet", function()
      local _, code, out = in_edition("build/dripprof top" .. CHECKER .. folded)
      check(code == 3 and out:find("inclusive() from build/exercise/165/check is not written yet", 1, true), out)
    end)
    it("stubs: dripprof files says parse_row() is not written yet", function()
      local _, code, out = in_edition("build/dripprof files" .. CHECKER .. "vm/prof/tests/data/shared-jumps.annotate.txt")
      check(code == 3 and out:find("parse_row() from build/exercise/165/check is not written yet", 1, true), out)
    end)
    it("stubs: dripprof fold and flame work", function()
      local ok, _, out = in_edition("build/dripprof fold vm/prof/tests/data/fib.callgrind.out | "
        .. "build/dripprof flame - > build/fib.svg && grep -c '<g' build/fib.svg")
      check(ok and tonumber(out) and tonumber(out) > 5, out)
    end)
    it("with the reference's profile.c copied in, make exercise-165 passes", function()
      sh("cp solutions/165/profile.c " .. wb.quote(EDITION .. "/exercises/165/profile.c"))
      local ok, _, out = in_edition("make exercise-165")
      check(ok and out:find("All " .. tostring(total) .. " tests pass.", 1, true), out:sub(-600))
    end)
    it("has the speed budget (speed.txt, the handout's table) and no reference; BUDGET= counts the student's", function()
      local budgets = (wb.read_file(EDITION .. "/exercises/165/README.md") or "")
        :match("\n<!%-%- BEGIN speed budget.-\n<!%-%- END speed budget %-%->")
      local graded = wb.commas(require("exercises.harness.chapter").load("165").speed.lines)
      check(budgets and budgets:find("\n| " .. graded .. " (graded) | ", 1, true)
        and wb.exists(EDITION .. "/exercises/165/tests/expected/speed.txt") and not wb.exists(EDITION .. "/solutions"),
        tostring(budgets))
      local ok, _, out = in_edition("make exercise-165 BUDGET=20000")
      check(ok and out:find("That is [%d.]+x the reference's count: within the budget for full marks%."), out)
    end)
    -- The edition's suite checks the workbook, not the answers: it must pass with the
    -- student's work in profile.c, committed as the README says (the stubs' suite ran the
    -- student's file, or its git HEAD, as "the shipped stubs", and failed there).
    -- The edition's whole make test runs in make test-slow (EDITION_FULL=1); in make test, a
    -- dry run: the edition's make test finds the suites it runs.
    if os.getenv("EDITION_FULL") == "1" then
      it("the edition's own make test passes, with the student's work committed", function()
        local committed = in_edition("git init -q . && git add exercises/165/profile.c && git -c user.name=student "
          .. "-c user.email=student@example.org commit -q -m 'my work'")
        local ok, _, out = in_edition("make test")
        sh("rm -rf " .. wb.quote(EDITION .. "/.git"))
        local last = out:match("(%d+ passed, %d+ failed)%s*$")
        check(committed and ok and last and last:match(" 0 failed$"), tostring(last) .. "\n" .. out:sub(-1500))
      end)
    else
      it("the edition's make test has its suites, each a target (make -n; make test-slow runs them)", function()
        local _, _, list = in_edition("make -s --no-print-directory --eval 'suites: ; @echo $(TEST_SUITES)' suites")
        local names = {}
        for name in list:gmatch("%S+") do
          names[#names + 1] = name
          local ok, _, out = in_edition("make -n test-" .. name)
          check(ok, "make -n test-" .. name .. ": " .. out)
        end
        check(table.concat(names, " "):find("prof exercises chapters", 1, true), list)
      end)
    end
    it("make exercise-165 rebuilds the checker the profiler asks, with the student's code", function()
      local ok, _, out = in_edition("make -s exercise-165")
      check(ok and wb.exists(EDITION .. "/build/exercise/165/check"), out)
    end)
    for _, args in ipairs({ "top " .. folded, "top --limit 5 vm/prof/tests/data/fib.callgrind.out",
                            "files vm/prof/tests/data/shared-jumps.annotate.txt" }) do
      it("dripprof " .. args .. " on the student's code prints what the instructor's prints", function()
        local mine_ok, _, mine = in_edition("build/dripprof " .. args:gsub(" ", CHECKER, 1))
        sh("MAKEFLAGS= make -s exercise-165 SOLUTION=1 > /dev/null 2>&1")
        local _, _, theirs = sh("build/dripprof " .. args:gsub(" ", " --with build/exercise/165-solution/check ", 1))
        check(mine_ok and mine == theirs and #mine > 200, mine:sub(1, 600))
      end)
    end
  end)
end)
