-- pool.lua: `make seed-pool`, the seeds a grade takes when it is given none.
--
--   lua5.4 grader/pool.lua [--chapter N] [--size N]      (CHAPTER=N, POOL=N; FORCE=1 anew)
--
-- A grade's seeded checks need the reference's answers to their inputs, and its speed check
-- the reference's counts under cachegrind: seconds of CPU that a grade with a fresh seed
-- spends before any student code runs. The pool is --size seeds (default 32) for which they
-- are computed here, once, into the grader's cache (engine.cache_root), and listed in its
-- pool file; a grade or a batch given no SEED then takes one of them (engine.seed_for) and runs
-- no reference at all. Gradescope's setup.sh makes the pool in the image, where every
-- container starts with it. A pool already there is topped up: its seeds stay (what the cache
-- holds for them costs nothing to check) and fresh ones are drawn up to --size; FORCE=1 draws
-- every seed anew. The pool file is written last, after every seed in it is ready.
--
-- Thirty-two inputs instead of one per grade: each student still gets inputs made for the
-- run, renamed and shuffled, and a copy of one run's answers is right for a thirty-second of
-- the grades; a course that wants more makes a larger pool.

local wb = require("vm.lib.workbook")
local engine = require("grader.engine")

local DEFAULT_SIZE = 32

local function parse_args(argv)
  local parser = wb.parser("pool.lua", "Makes the seed pool: reference answers for seeds a grade may take.")
  parser:option("--chapter", "this chapter only (default: CHAPTER, else each chapter)")
  parser:option("--size", "seeds in the pool (default: POOL, else 32)"):convert(wb.to_integer)
  local opts = engine.seed_and_lines(wb.parse(parser, argv)) -- SPEED_LINES, as a grade reads it
  opts.size = opts.size or tonumber(os.getenv("POOL") or "") or DEFAULT_SIZE
  wb.must(opts.size >= 1, "a seed pool holds at least one seed (POOL=" .. opts.size .. ")")
  return opts
end

-- The pool's seeds: those of the pool file kept (unless FORCE=1), then fresh ones, distinct.
local function seeds(chapter, size)
  local list, seen = {}, {}
  local function add(seed)
    if #list < size and not seen[seed] then
      list[#list + 1], seen[seed] = seed, true
    end
  end
  if os.getenv("FORCE") ~= "1" then
    for _, seed in ipairs(engine.pool_seeds(chapter)) do
      add(seed)
    end
  end
  local next_seed = engine.fresh_seed()
  while #list < size do
    add(next_seed)
    next_seed = (next_seed * 48271 + 11) % 1000000000
  end
  return list
end

local function pool_for_chapter(id, size, speed_lines)
  local chapter = engine.load_chapter(id)
  local fixtures = engine.load_fixtures(chapter)
  local ref = engine.reference(chapter)
  local list = seeds(chapter, size)
  local started = wb.wall_clock()
  for i, seed in ipairs(list) do
    print(string.format("seed-pool: chapter %s, seed %d of %d (%d), %.0f s so far", id, i, #list, seed,
      wb.wall_clock() - started))
    io.stdout:flush()
    engine.prepare({ chapter = chapter, seed = seed, ref = ref, fixtures = fixtures, jobs = wb.nproc(),
      speed_lines = speed_lines, out = engine.root .. "/pool/" .. id })
  end
  wb.write_file(engine.pool_path(chapter), table.concat(list, "\n") .. "\n")
  print(string.format("seed-pool: chapter %s: %d seeds ready -> %s", id, #list, engine.pool_path(chapter)))
end

local function main(argv)
  local opts = parse_args(argv)
  engine.require_tools()
  engine.choose_isolation()
  for _, id in ipairs(engine.chosen(opts.chapter)) do
    pool_for_chapter(id, opts.size, opts.speed_lines)
  end
end

wb.exit_with("make seed-pool: could not make the pool", main, arg)
