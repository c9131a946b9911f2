-- make_fixtures.lua: `make fixtures` regenerates chapter 165's profile fixtures
-- with the installed valgrind, from real runs of our VM and of a C program.
--
--   lua5.4 grader/165/make_fixtures.lua [OUT_DIR]     (default grader/165/fixtures)
--
-- Everything runs in one fixed working directory, /tmp/drip-fixtures, with
-- the programs copied into it, because callgrind_annotate prints file and
-- object paths as the run saw them: a fixed folder keeps the fixtures the same
-- wherever the repository is cloned. The annotate outputs use the flags the
-- notes recommend (--auto=no --threshold=100, Ir only, no --tree).
--
-- Made here:
--   vm-fib-{self,inclusive}.txt, vm-fib.folded   build/drip on fib.drip with fib(20)
--   vm-zoo-{self,inclusive}.txt, vm-zoo.folded   build/drip on zoo.drip, loop bound 20000
--   c-wordfreq-{self,inclusive,nopct}.txt        programs/wordfreq.c (not the VM)
--   c-wordfreq.folded, vm-{fib,zoo}-c.folded     those runs folded into C stacks by build/dripprof
-- The book-*.txt/.folded and toy-vm.folded fixtures are written by hand from
-- published figures and are not touched. Run `make expected` afterwards
-- (`make fixtures` does).

local wb = require("vm.lib.workbook")

local parser = wb.parser("make_fixtures.lua", "Regenerates chapter 165's profile fixtures (make fixtures).")
parser:argument("out_dir", "where they go", "grader/165/fixtures"):args("?")
local out_dir = wb.parse(parser, arg).out_dir
local work = "/tmp/drip-fixtures"

local function sh(cmd)
  local ok = wb.run(cmd)
  if not ok then
    io.stderr:write("make fixtures: failed: " .. cmd .. "\n")
    os.exit(1)
  end
end

-- Says which step make fixtures is on, before a run that may take a while.
local function step(what)
  print("fixtures: " .. what .. " ...")
  io.stdout:flush()
end

local function in_work(cmd)
  sh("cd " .. wb.quote(work) .. " && " .. cmd)
end

local function copy_out(name)
  sh("cp " .. wb.quote(work .. "/" .. name) .. " " .. wb.quote(out_dir .. "/" .. name))
  print("fixture: " .. out_dir .. "/" .. name)
end

local function annotate(profile, name, flags)
  in_work(string.format("callgrind_annotate --auto=no --threshold=100 %s %s > %s", flags, profile,
    wb.quote(name)))
  copy_out(name)
end

-- Folds a callgrind profile into C-level stacks with our dripprof.
local function fold(profile, name)
  if not wb.exists("build/dripprof") then
    io.stderr:write("make fixtures: build/dripprof is missing (run `make all`); " .. name .. " not made\n")
    return
  end
  in_work(wb.quote(wb.realpath("build/dripprof")) .. " fold " .. profile .. " > " .. name)
  copy_out(name)
end

if not wb.run("command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null") then
  io.stderr:write("make fixtures: valgrind is not installed (Debian package valgrind)\n")
  os.exit(1)
end
wb.rm_rf(work)
wb.mkdir_p(work)

-- Our VM, on the chapter's two benchmarks made small.
if wb.exists("build/drip") then
  sh("cp build/drip " .. wb.quote(work .. "/drip"))
  local fib = assert(wb.read_file("vm/bench/fib.drip"))
  fib = fib:gsub("fib%(35%) == 9227465", "fib(20) == 6765")
  wb.write_file(work .. "/fib.drip", fib)
  local zoo = assert(wb.read_file("vm/bench/zoo.drip"))
  zoo = zoo:gsub("sum < 10000000", "sum < 20000")
  wb.write_file(work .. "/zoo.drip", zoo)
  for _, prog in ipairs({ "fib", "zoo" }) do
    step("profiling build/drip on " .. prog .. ".drip under callgrind")
    in_work(string.format("valgrind --tool=callgrind --callgrind-out-file=callgrind.out.%s ./drip %s.drip "
      .. "> /dev/null 2> valgrind-%s.log", prog, prog, prog))
    annotate("callgrind.out." .. prog, "vm-" .. prog .. "-self.txt", "")
    annotate("callgrind.out." .. prog, "vm-" .. prog .. "-inclusive.txt", "--inclusive=yes")
    in_work(string.format("./drip --folded=vm-%s.folded %s.drip > /dev/null", prog, prog))
    copy_out("vm-" .. prog .. ".folded")
    fold("callgrind.out." .. prog, "vm-" .. prog .. "-c.folded")
  end
else
  io.stderr:write("make fixtures: build/drip is missing (run `make all`); VM fixtures not regenerated\n")
end

-- A program that is not the VM.
sh("cp grader/165/fixtures/programs/wordfreq.c " .. wb.quote(work .. "/wordfreq.c"))
step("building and profiling programs/wordfreq.c under callgrind")
in_work("${CC:-cc} -std=c11 -O1 -g -fno-inline wordfreq.c -o wordfreq")
in_work("valgrind --tool=callgrind --callgrind-out-file=callgrind.out.wordfreq ./wordfreq > /dev/null "
  .. "2> valgrind-wordfreq.log")
annotate("callgrind.out.wordfreq", "c-wordfreq-self.txt", "")
annotate("callgrind.out.wordfreq", "c-wordfreq-inclusive.txt", "--inclusive=yes")
annotate("callgrind.out.wordfreq", "c-wordfreq-nopct.txt", "--show-percs=no")
fold("callgrind.out.wordfreq", "c-wordfreq.folded")
