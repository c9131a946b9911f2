-- bench.lua: `make bench-grade`, what grading costs: the machine's CPU time per grade and a
-- batch's throughput, for this tree and for another commit (BENCH_BASE, default HEAD~1, in a
-- git worktree under build/bench-grade/), measured side by side in one run, the two trees
-- taking turns, so that both see the same machine.
--
--   lua5.4 grader/bench.lua [--base REF] [--runs N] [--copies N] [--chapter N]
--
-- A grade is `make grade SUBMISSION=<the chapter's reference> SEED=5`, caches warm (each tree
-- grades once before it is measured); a grade without SEED is the same as an instructor runs it,
-- which takes a seed of the pool where the tree has `make seed-pool` (made in the warm-up, of
-- POOL_SIZE seeds), else a fresh seed, whose reference answers it computes. Its cost is the
-- machine's busy CPU time while it runs (/proc/stat: user, nice, system, irq, softirq, steal),
-- so that kernel threads working for it (namespace and key clean-up) count too: run it on an
-- otherwise idle machine. The batch grades --copies copies of the reference with SUBMISSIONS,
-- one job per core, every one again (FORCE=1). Figures are medians of --runs runs. Nothing here is asserted: it prints.

local wb = require("vm.lib.workbook")
local engine = require("grader.engine")

local SEED = 5
local POOL_SIZE = 4
local OUT = "build/bench-grade"

local function parse_args(argv)
  local parser = wb.parser("bench.lua", "CPU per grade and batch throughput, against another commit.")
  parser:option("--base", "the commit to compare with", os.getenv("BENCH_BASE") or "HEAD~1")
  parser:option("--runs", "runs of each measure", os.getenv("BENCH_RUNS") or "3"):convert(wb.to_integer)
  parser:option("--copies", "submissions in the batch", os.getenv("BENCH_COPIES") or "6"):convert(wb.to_integer)
  parser:option("--chapter", "the chapter (default: CHAPTER, else the first)")
  return wb.parse(parser, argv)
end

-- The machine's busy CPU time so far, in clock ticks.
local function busy_ticks()
  local f = assert(io.open("/proc/stat", "r"))
  local line = f:read("l")
  f:close()
  local t = {}
  for n in line:gmatch("%d+") do
    t[#t + 1] = tonumber(n)
  end
  -- user nice system idle iowait irq softirq steal ...
  return t[1] + t[2] + t[3] + t[6] + t[7] + (t[8] or 0)
end

local HZ = tonumber(wb.capture("getconf CLK_TCK"):match("%d+") or "") or 100

-- Runs command (a shell command, from tree's root, with its make's Lua variables set) in tree;
-- returns the machine's busy CPU seconds and the wall seconds. Raises with its last lines
-- when it fails.
local function timed(tree, command)
  local log = wb.realpath(OUT) .. "/last.log"
  command = string.format("cd %s && unset MAKEFLAGS MFLAGS MAKELEVEL && eval \"$(make -s --no-print-directory "
    .. "lua-path)\" && %s > %s 2>&1", wb.quote(tree), command, wb.quote(log))
  -- The kernel's writing back what a command wrote is counted to its CPU time, not to the next
  -- command's (sync before and after), but not to its wall time: a batch does not wait for it.
  wb.run("sync")
  local wall, ticks = wb.wall_clock(), busy_ticks()
  local ok = wb.run(command)
  wall = wb.wall_clock() - wall
  wb.run("sync")
  ticks = busy_ticks() - ticks
  if not ok then
    wb.fail(command .. " failed:\n" .. wb.shorten(wb.read_file(log) or "", 2000))
  end
  return ticks / HZ, wall
end

-- A worktree of `ref` (its commit's own tree, built by its own make), made once per commit.
local function worktree(ref)
  local sha = wb.must(wb.capture("git rev-parse --verify --quiet " .. wb.quote(ref .. "^{commit}")
    .. " 2>/dev/null"):match("%x+"), "bench-grade: " .. ref .. " is not a commit of this repository (BENCH_BASE=REF "
    .. "names one)")
  local dir = OUT .. "/base-" .. sha:sub(1, 12)
  if not wb.exists(dir .. "/Makefile") then
    wb.run("git worktree prune")
    wb.must(wb.run(string.format("git worktree add --detach --force %s %s > /dev/null 2>&1", wb.quote(dir), sha)),
      "bench-grade: git worktree add " .. dir .. " failed")
  end
  return wb.realpath(dir), sha:sub(1, 12)
end

-- copies copies of the chapter's reference, one folder each.
local function submissions(chapter, copies)
  local dir = wb.realpath(".") .. "/" .. OUT .. "/submissions"
  wb.rm_rf(dir)
  for i = 1, copies do
    local folder = string.format("%s/copy-%02d", dir, i)
    wb.mkdir_p(folder)
    for _, name in ipairs(chapter.exercise.student_files) do
      wb.copy(chapter.exercise.solution .. "/" .. name, folder .. "/" .. name)
    end
  end
  return dir
end

local function main(argv)
  local opts = parse_args(argv)
  wb.mkdir_p(OUT)
  local id = engine.chosen(opts.chapter)[1]
  local chapter = engine.load_chapter(id)
  local base, sha = worktree(opts.base)
  local trees = { { name = "base " .. opts.base .. " (" .. sha .. ")", dir = base }, { name = "this tree",
    dir = wb.realpath(".") } }
  -- make grade, as an instructor runs it; the batch without its one grade of the reference first
  -- (a fixed cost, which would weigh on a small batch as it does not on a course's).
  local grade = string.format("make -s --no-print-directory grade CHAPTER=%s SUBMISSION=%s SEED=%d", id,
    chapter.exercise.solution, SEED)
  local unseeded = string.format("env -u SEED make -s --no-print-directory grade CHAPTER=%s SUBMISSION=%s", id,
    chapter.exercise.solution)
  local batch = string.format("make -s --no-print-directory build/harness/sandbox build/dripprof && "
    .. "${LUA:-lua5.4} grader/batch.lua %s --chapter %s --skip-reference --force --seed %d --out build/grade/bench-batch",
    wb.quote(submissions(chapter, opts.copies)), id, SEED)
  print(string.format("bench-grade: chapter %s, %d runs of each, a batch of %d copies, %d cores; warming up ...", id,
    opts.runs, opts.copies, wb.nproc()))
  io.stdout:flush()
  for _, tree in ipairs(trees) do
    timed(tree.dir, grade)
    if wb.exists(tree.dir .. "/grader/pool.lua") then -- the tree has make seed-pool
      timed(tree.dir, string.format("make -s --no-print-directory seed-pool CHAPTER=%s POOL=%d", id, POOL_SIZE))
    end
    tree.grade_cpu, tree.grade_wall, tree.batch_cpu, tree.batch_wall, tree.unseeded = {}, {}, {}, {}, {}
  end
  for run = 1, opts.runs do
    for _, tree in ipairs(trees) do
      local cpu, wall = timed(tree.dir, grade)
      tree.grade_cpu[run], tree.grade_wall[run] = cpu, wall
      tree.unseeded[run] = timed(tree.dir, unseeded)
      wb.rm_rf(tree.dir .. "/build/grade/bench-batch") -- every submission graded again, whatever the tree's --force
      cpu, wall = timed(tree.dir, batch)
      tree.batch_cpu[run], tree.batch_wall[run] = cpu / opts.copies, wall
      print(string.format("  run %d, %s: grade %.2f s CPU, %.2f s wall, without SEED %.2f s CPU; batch %.2f s CPU "
        .. "per submission, %.1f s wall", run, tree.name, tree.grade_cpu[run], tree.grade_wall[run], tree.unseeded[run],
        tree.batch_cpu[run], wall))
      io.stdout:flush()
    end
  end
  local a, b = trees[1], trees[2]
  local function row(what, x, y)
    print(string.format("%-36s %12.2f %12.2f   %.2fx", what, x, y, x > 0 and y / x or 0))
  end
  print(string.format("\n%-36s %12s %12s   %s", "median of " .. opts.runs .. " runs", "base", "this tree", "this/base"))
  row("CPU per grade (machine, s)", wb.median(a.grade_cpu), wb.median(b.grade_cpu))
  row("wall per grade (s)", wb.median(a.grade_wall), wb.median(b.grade_wall))
  row("CPU per grade without SEED (s)", wb.median(a.unseeded), wb.median(b.unseeded))
  row("batch: CPU per submission (s)", wb.median(a.batch_cpu), wb.median(b.batch_cpu))
  local per_minute = function(t)
    return opts.copies / wb.median(t.batch_wall) * 60
  end
  row("batch: submissions per minute", per_minute(a), per_minute(b))
  print(string.format("(%s: %s; this tree: %s)", a.name, a.dir, b.dir))
  return 0
end

wb.exit_with("make bench-grade", main, arg)
