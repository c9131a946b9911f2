-- fresh_machine_spec.lua: the suite slow-fresh-machine of `make test-slow` (make
-- test-fresh-machine), a busted spec run from the workbook's root, as root.
--
-- The README promises that on a bare Debian system `make` and `git` are all a student needs
-- first: every target installs the rest, or says what to install and whom to ask. This
-- suite keeps that promise honest on real bare systems, minimal Debian 12 (bookworm) and
-- Debian 13 (trixie) systems made by mmdebstrap (--variant=minbase, plus make, git and
-- ca-certificates), entered with chroot (grader/tests/fresh/in_chroot.sh). In each, it clones the
-- workbook (git HEAD: commit what you want tested) and runs the README's commands as
-- written, each in a clean environment:
--
--   Debian 12  as a user without root on the bare system: `make exercise-165` stops and
--              names the missing packages, what they are for and both ways out (sudo
--              apt-get install, or ask whoever runs the machine); as root: `make
--              exercise-165` installs what the loop needs and fails with the stubs' report,
--              then passes with the reference's profile.c copied in, and `make exercise-165
--              BUDGET=1` installs valgrind and counts it within the budget; as the user again,
--              with those packages present and pandoc and luajit absent: `make
--              exercise-165` runs the tests; then the student edition (made on the host
--              by `make student-edition`, copied in): its `make exercise-165`, stubs and
--              reference.
--   Debian 13  the student edition first, on the bare system: its `make exercise-165`
--              installs what the loop needs, stubs and reference, and BUDGET=1 (valgrind
--              3.24: its cachegrind writes another output file); then the workbook's
--              `make exercise-165`, stubs and reference.
--
-- Then, in both, `make test`: with FRESH_FULL=1 the README's `make test` itself (and the
-- edition's, with the student's work committed as its README says), which takes 10 minutes
-- and more per system on 2 cores. By default a cheaper stand-in that still proves what
-- make test needs gets installed: `make setup` (the packages of make test, the whole
-- list), then a second `make setup` finds nothing missing (every check of the Makefile
-- passes), then `make` builds the VM and the profiler; in Debian 13, whose archive has no
-- similarity-tester, `make student-edition` (its only user) stops and says so. No suite of make test runs by
-- default: even the VM's alone (make test-vm) took 7 minutes in a chroot on the busy
-- 2-core machine, which "a few minutes" for the whole test leaves no room for. Left out
-- even with FRESH_FULL=1: the suites' parts that need bubblewrap (it cannot nest inside a
-- chroot; they skip by themselves), chromium's browser checks (CI installs chromium, the
-- workbook does not), sudo (the bare systems have none: the root and the no-sudo user
-- are tested, a user with sudo is not), Ubuntu, and what a chroot lacks of a real machine
-- (systemd, a kernel of its own).
--
-- Caching, so that a rerun is quick: each bootstrapped system is a tarball,
-- build/fresh/SUITE.tar, made once; every run unpacks a clean copy of it into
-- build/fresh/run/SUITE/, so no run sees what another installed. Between runs the copy's
-- apt indexes and downloaded .deb files are kept in build/fresh/apt/SUITE/ and put back
-- into the next copy: setup.sh still runs apt-get update and installs every package as
-- on a bare machine; only the downloads are saved. `rm -rf build/fresh` starts over.
-- Measured on the busy 2-core machine: 14 minutes the first time (two bootstraps of about
-- 4.5 minutes, every package downloaded at about 600 kB/s), 5 to 6 minutes cached.
--
-- Skips, counted as neither passed nor failed, the reason in the TAP line (SKIPPED: why):
-- not root (chroot, mount and mmdebstrap's root mode need it) or mmdebstrap missing (make
-- test-fresh-machine installs it as root: SETUP_FOR_fresh) make one skipped test and
-- nothing else; mmdebstrap unable to reach the Debian archive for a system not cached yet
-- makes that system's tests skipped. Any other failure of mmdebstrap fails the suite.
local wb = require("vm.lib.workbook")

local FRESH = "build/fresh"
local IN_CHROOT = "grader/tests/fresh/in_chroot.sh"
local FULL = os.getenv("FRESH_FULL") == "1"
local STUDENT = "student"
local SYSTEMS = {
  { suite = "bookworm", name = "Debian 12" },
  { suite = "trixie", name = "Debian 13" },
}

-- Asserts ok, showing why (the end of it: a report ends with its verdict) when it is not.
local function check(ok, why)
  if not ok then
    why = tostring(why)
    error(#why > 2500 and "..." .. why:sub(-2500) or why, 2)
  end
end

-- Runs a shell command on the host; returns success, exit code and its output (both streams).
local function sh(command)
  local code, output = wb.finish(wb.start(command))
  return code == 0, code, output
end

-- Takes what sh or System:run returns: fails with the output when the command failed.
local function must(ok, _, out)
  assert(ok, out)
end

-- The packages of the student's loop, as the Makefile lists them (its one list).
local function loop_packages()
  local list = wb.read_file("Makefile"):match("\nSETUP_FOR_exercise%s*:=%s*([^\n]+)")
  local names = {}
  for name in assert(list, "no SETUP_FOR_exercise in the Makefile"):gmatch("%S+") do
    names[#names + 1] = name
  end
  return names
end

-- Why this machine cannot run the suite, or nil.
local function why_not_here()
  if not wb.is_root() then
    return "needs root (chroot, mounts and mmdebstrap's root mode)"
  end
  if not sh("command -v mmdebstrap") then
    return "mmdebstrap is not installed (Debian package mmdebstrap; make test-fresh-machine installs it as root)"
  end
end

-- apt's words for an archive it cannot reach.
local UNREACHABLE = { "Could not resolve", "Temporary failure resolving", "Failed to fetch",
  "Unable to connect", "Connection failed", "Network is unreachable", "Could not connect" }

-- build/fresh/SUITE.tar, bootstrapped once. Returns its path, or nil plus the reason to
-- skip (no archive); any other failure of mmdebstrap raises, with its output.
local function base_system(suite)
  local tarball = FRESH .. "/" .. suite .. ".tar"
  if wb.exists(tarball) then
    return tarball
  end
  wb.mkdir_p(FRESH)
  -- mmdebstrap picks the format from the name's ending: the unfinished one ends in .tar too.
  local partial = FRESH .. "/" .. suite .. ".partial.tar"
  local ok, _, out = sh("mmdebstrap --quiet --variant=minbase --include=make,git,ca-certificates "
    .. suite .. " " .. wb.quote(partial))
  if not ok then
    os.remove(partial)
    for _, words in ipairs(UNREACHABLE) do
      if out:find(words, 1, true) then
        return nil, "mmdebstrap cannot reach the Debian archive to bootstrap " .. suite .. " (" .. words .. ")"
      end
    end
    error("mmdebstrap failed to bootstrap " .. suite .. ":\n" .. out:sub(-2000))
  end
  assert(os.rename(partial, tarball))
  return tarball
end

-- A system at work: a clean copy of a bootstrapped one, with the apt downloads of earlier runs.
local System = {}
System.__index = System

local function unpack_system(suite, tarball)
  local root = FRESH .. "/run/" .. suite
  local cache = FRESH .. "/apt/" .. suite
  -- Nothing is ever mounted under root outside in_chroot.sh's own namespace, so this
  -- removes files of ours alone.
  wb.rm_rf(root)
  wb.mkdir_p(root)
  must(sh("tar -xf " .. wb.quote(tarball) .. " -C " .. wb.quote(root)))
  if wb.is_dir(cache) then
    sh("cp -a " .. wb.quote(cache .. "/lists/.") .. " " .. wb.quote(root .. "/var/lib/apt/lists/") .. " && "
      .. "cp -a " .. wb.quote(cache .. "/archives/.") .. " " .. wb.quote(root .. "/var/cache/apt/archives/"))
  end
  return setmetatable({ suite = suite, root = root, cache = cache }, System)
end

-- Runs command in the system as user (default root); returns success, exit code, output.
function System:run(command, user)
  return sh(wb.command({ "bash", IN_CHROOT, self.root, user or "root", command }))
end

-- Keeps the copy's apt indexes and downloads for the next run.
function System:keep_downloads()
  wb.rm_rf(self.cache)
  wb.mkdir_p(self.cache .. "/lists")
  wb.mkdir_p(self.cache .. "/archives")
  sh("cp -a " .. wb.quote(self.root .. "/var/lib/apt/lists/.") .. " " .. wb.quote(self.cache .. "/lists/") .. " && "
    .. "cp " .. wb.quote(self.root) .. "/var/cache/apt/archives/*.deb " .. wb.quote(self.cache .. "/archives/")
    .. " 2> /dev/null")
  wb.rm_rf(self.cache .. "/lists/lock")
  wb.rm_rf(self.cache .. "/lists/partial")
end

-- A clone of this workbook (git HEAD) at the home folder's drip/, owned by user.
function System:clone_workbook(user)
  local home = user == "root" and "/root" or "/home/" .. user
  must(sh("git clone -q --no-hardlinks . " .. wb.quote(self.root .. home .. "/drip")))
  if user ~= "root" then
    must(self:run("chown -R " .. user .. ": " .. home .. "/drip"))
  end
  return home .. "/drip"
end

-- The student edition, copied in at /root/edition.
function System:copy_edition(edition)
  must(sh("cp -a " .. wb.quote(edition) .. " " .. wb.quote(self.root .. "/root/edition")))
  return "/root/edition"
end

-- ------------------------------------------------------------------ the outcomes

-- The stubs' report: every test fails and the progress line says 0 of each function. Takes
-- what System:run returns (success, exit code, output).
local function stubs_report(ok, _, out)
  check(not ok and out:find("parse_row 0/%d+ · sum_named 0/%d+ · inclusive 0/%d+"), out)
end

-- The reference's: every test passes.
local function all_pass(ok, _, out)
  check(ok and out:find("All %d+ tests pass%."), out)
end

-- setup.sh installed the loop's packages on the way (it says so first), then the stubs' report.
local function installed_then_stubs(ok, code, out)
  check(out:find("setup: make exercise%-165 needs Debian packages this machine lacks:"), out)
  stubs_report(ok, code, out)
end

-- The reference's profile.c copied into the workbook or edition at clone.
local function copy_reference(system, clone)
  must(sh("cp solutions/165/profile.c " .. wb.quote(system.root .. clone .. "/exercises/165/profile.c")))
end

-- The README's make test, or its stand-in (see the header).
local function make_test(system, folder)
  if FULL then
    local ok, _, out = system:run("cd " .. folder .. " && make test")
    check(ok and out:find("\n%d+ passed, 0 failed\n?$"), out)
  else
    local ok, _, out = system:run("cd " .. folder .. " && make setup")
    check(ok, out)
    ok, _, out = system:run("cd " .. folder .. " && make -s setup")
    check(ok and out == "", "a second make setup still finds packages missing:\n" .. out)
    ok, _, out = system:run("cd " .. folder .. " && make")
    check(ok and system:run("cd " .. folder .. " && test -x build/drip && test -x build/dripprof"), out)
  end
end

-- The edition's make test (FRESH_FULL=1 only), with the student's work committed as its
-- README says.
local function edition_make_test(system, edition)
  local ok, _, out = system:run("cd " .. edition .. " && git init -q . && git add -A && "
    .. "git -c user.name=student -c user.email=student@example.org commit -q -m 'my work' && make test")
  check(ok and out:find("\n%d+ passed, 0 failed\n?$"), out)
end

-- ------------------------------------------------------------------ the suite

local skip = why_not_here()
local edition -- built on the host once, for both systems

local function each_system(spec)
  for _, s in ipairs(SYSTEMS) do
    describe("a fresh " .. s.name .. " (" .. s.suite .. ")", function()
      local system, why
      lazy_setup(function()
        local tarball
        tarball, why = base_system(s.suite)
        if tarball then
          system = unpack_system(s.suite, tarball)
        end
      end)
      lazy_teardown(function()
        if system then
          system:keep_downloads()
        end
      end)
      -- Each test: pending with the reason when the system could not be made (said once).
      local said = false
      local function test(name, fn)
        it(name, function()
          if why then
            if not said then
              print("# make test-fresh-machine: " .. s.name .. " SKIPPED: " .. why)
              said = true
            end
            pending("SKIPPED: " .. why)
            return
          end
          fn(system)
        end)
      end
      spec[s.suite](test)
    end)
  end
end

-- Without root or mmdebstrap, one skipped test that says why, and nothing else.
if skip then
  pending("make test-fresh-machine SKIPPED: " .. skip)
  return
end

describe("make test-fresh-machine", function()
  lazy_setup(function()
    edition = FRESH .. "/edition"
    local ok, _, out = sh("make --no-print-directory student-edition DEST=" .. wb.quote(edition) .. " FORCE=1")
    check(ok, out)
  end)

  -- The speed budget's count (valgrind, the static counted build, its system-call trace) on
  -- this system's valgrind and C library, for the reference already copied into `folder`.
  local function within_budget(system, folder)
    local ok, _, out = system:run("cd " .. folder .. " && make exercise-165 BUDGET=1")
    check(ok and out:find("within the budget for full marks", 1, true), out)
  end

  each_system({
    bookworm = function(test)
      local mine, theirs
      test("without root, on the bare system: make exercise-165 names what is missing, what it is for, "
        .. "and both ways out", function(system)
        must(system:run("useradd --create-home --user-group --shell /bin/bash " .. STUDENT))
        theirs = system:clone_workbook(STUDENT)
        local ok, _, out = system:run("cd drip && make exercise-165", STUDENT)
        check(not ok, out)
        local missing = out:match("needs Debian packages this machine lacks:([^\n]*)")
        check(missing, out)
        for _, name in ipairs(loop_packages()) do
          check(missing:find(" " .. name:gsub("%p", "%%%0") .. "%f[%s%z]"), name .. " is not named:\n" .. out)
        end
        check(out:find("not root, and sudo is absent or asks for a password", 1, true), out)
        check(out:find("sudo apt-get install" .. missing, 1, true), out)
        check(out:find("ask whoever runs this machine to install the Debian packages:" .. missing, 1, true), out)
        check(out:find("make exercise-N and make watch-N need only:", 1, true), out)
        check(not wb.exists(system.root .. theirs .. "/build/exercise"), "it built something:\n" .. out)
      end)
      test("as root: make exercise-165 installs what the loop needs, then fails with the stubs' report",
        function(system)
        mine = system:clone_workbook("root")
        installed_then_stubs(system:run("cd drip && make exercise-165"))
      end)
      test("as root, with the reference copied in: make exercise-165 passes", function(system)
        copy_reference(system, mine)
        all_pass(system:run("cd drip && make exercise-165"))
      end)
      test("as root: make exercise-165 BUDGET=1 installs valgrind and counts the reference within the budget",
        function(system)
        within_budget(system, "drip")
      end)
      test("without root, the loop's packages present and pandoc and luajit absent: make exercise-165 "
        .. "runs the tests", function(system)
        local absent = system:run("command -v pandoc || command -v luajit")
        check(not absent, "pandoc or luajit is installed already")
        local ok, _, out = system:run("cd drip && make exercise-165", STUDENT)
        check(not out:find("setup:", 1, true), out)
        stubs_report(ok, nil, out)
        copy_reference(system, theirs)
        all_pass(system:run("cd drip && make exercise-165", STUDENT))
      end)
      test(FULL and "as root: make test passes" or "as root: make setup installs all make test needs, "
        .. "and make builds the VM", function(system)
        make_test(system, "drip")
      end)
      test("the student edition: make exercise-165 fails with the stubs' report, passes with the reference",
        function(system)
        local there = system:copy_edition(edition)
        stubs_report(system:run("cd " .. there .. " && make exercise-165"))
        copy_reference(system, there)
        all_pass(system:run("cd " .. there .. " && make exercise-165"))
        if FULL then
          edition_make_test(system, there)
        end
      end)
    end,

    trixie = function(test)
      local there, mine
      test("the student edition on the bare system: make exercise-165 installs what the loop needs, "
        .. "then fails with the stubs' report", function(system)
        there = system:copy_edition(edition)
        installed_then_stubs(system:run("cd " .. there .. " && make exercise-165"))
      end)
      test("the student edition, with the reference copied in: make exercise-165 passes", function(system)
        copy_reference(system, there)
        all_pass(system:run("cd " .. there .. " && make exercise-165"))
      end)
      test("the student edition: make exercise-165 BUDGET=1 installs valgrind and counts the reference within "
        .. "the budget", function(system)
        within_budget(system, there)
      end)
      test("the workbook: make exercise-165 fails with the stubs' report", function(system)
        mine = system:clone_workbook("root")
        stubs_report(system:run("cd drip && make exercise-165"))
      end)
      test("the workbook, with the reference copied in: make exercise-165 passes", function(system)
        copy_reference(system, mine)
        all_pass(system:run("cd drip && make exercise-165"))
      end)
      test(FULL and "the workbook: make test passes" or "the workbook: make setup installs all make test "
        .. "needs, and make builds the VM", function(system)
        make_test(system, "drip")
      end)
      test("the workbook: make student-edition, which needs similarity-tester, says Debian 13 has none",
        function(system)
        local ok, _, out = system:run("cd drip && make student-edition DEST=/tmp/edition")
        check(not ok and out:find("archive has no similarity-tester: make student-edition cannot run here", 1, true), out)
      end)
      if FULL then
        test("the student edition: make test passes", function(system)
          edition_make_test(system, there)
        end)
      end
    end,
  })
end)
