-- grader_spec.lua: the grader's own tests, a busted spec run from the repository root.
--
--   make test-grader             everything but the long tests (suite `grader` of make test)
--   make test-grader-batch       #batch: SUBMISSIONS batches, the small one that explains
--                                each row of scores.csv and the scale test, BATCH_COPIES
--                                (20) copies while busy loops keep the machine loaded
--   make test-grader-gradescope  #gradescope: the attacks through the Gradescope layout (root)
--   make test-grader-prairielearn  #prairielearn: the same through PrairieLearn's layout (root)
--
-- Every test drives the real entry points (grade.lua, batch.lua, expected.lua, verify.lua)
-- as processes, the way `make` does, and checks what they print and write. The speed check
-- runs on a smaller input (SPEED_LINES) and only where it is the point of the test, to keep
-- the suite near two minutes. Blocks prepare with lazy_setup, so a block whose tests a
-- tag leaves out does none of its work.

local wb = require("vm.lib.workbook")
local json = require("dkjson")
local report = require("grader.report")
local verify = require("grader.verify")
local compare = require("exercises.harness.compare")
local engine = require("grader.engine")
local sandbox = require("exercises.harness.sandbox")
local speed = require("exercises.harness.speed")
local attacks = require("grader.attacks")
local mutants = require("grader.mutants")
local parity = require("grader.tests.parity")
local common = require("grader.tests.common")

local LUA = os.getenv("LUA") or "lua5.4"
local ROOT = engine.root .. "/test"
local SEED = 4242
local SPEED_LINES = 10000
local CHAPTER = engine.load_chapter("165")
local levels, make_tree = common.levels, wb.make_tree

wb.mkdir_p(ROOT)

-- Runs a shell command; returns exit code, stdout, stderr.
local function run(cmd)
  return wb.run_captured(cmd, ROOT)
end

local function grade_cmd(env, args)
  return string.format("%s %s grader/grade.lua --seed %d --speed-lines %d %s", env, LUA, SEED, SPEED_LINES, args)
end

-- Grades the folder submission (env before the command, then options, --quiet unless given)
-- into ROOT/TAG-run and ROOT/TAG.json; returns the exit code, stdout, stderr and the results.
local function grade(tag, env, submission, options)
  local out = ROOT .. "/" .. tag
  local code, stdout, stderr = run(grade_cmd(env, string.format("--submission %s --out %s-run --json %s.json %s",
    submission, out, out, options or "--quiet")))
  return code, stdout, stderr, report.read_json(out .. ".json") or {}
end

-- The command that grades the folders in subs as a batch into out: env before it, the
-- options beyond the usual ones after.
local function batch_cmd(env, subs, out, options)
  return string.format("%s %s grader/batch.lua %s --skip-reference --out %s --seed %d %s", env, LUA, wb.quote(subs),
    wb.quote(out), SEED, options or "")
end

-- Each file of a folder, by name and hash, one a line.
local function hashes(dir)
  local sums = {}
  for _, f in ipairs(wb.list_dir(dir)) do
    sums[#sums + 1] = f .. " " .. wb.sha256(dir .. "/" .. f)
  end
  return table.concat(sums, "\n")
end

-- An empty grade cache ROOT/TAG but for the reference's builds, copied from the shared cache
-- (built there first when no test has made them yet, so every cache shares one build): each
-- is named by its inputs and never changed.
local function cache_dir(tag)
  engine.reference(CHAPTER)
  local cache = make_tree(ROOT .. "/" .. tag, {})
  wb.run("cp -a " .. wb.quote(engine.cache_root .. "/reference") .. " " .. wb.quote(cache) .. " 2>/dev/null")
  return cache
end

-- The speed check's test in a results.json, or nil.
local function speed_test(path)
  for _, t in ipairs((report.read_json(path) or {}).tests or {}) do
    if t.name:match("speed") then
      return t
    end
  end
end

-- A fixture folder ROOT/fixtures-TAG with some of the committed fixtures and their answers.
local function fixture_subset(tag, names)
  return common.fixture_subset(".", ROOT .. "/fixtures-" .. tag, names)
end

-- results.json: the Gradescope fields and their types.
local function check_results_json(path)
  local r = report.read_json(path)
  assert.are.equal("table", type(r), path .. " does not decode")
  assert.is_truthy(math.type(r.score), "score is a number")
  assert.are.equal("number", type(r.execution_time))
  assert.is_truthy(type(r.output) == "string" and r.output:match("seed"), "output is the report")
  assert.is_truthy(r.output_format == "text" and r.visibility == "visible" and r.stdout_visibility == "visible",
    "formats and visibility")
  assert.is_truthy(type(r.tests) == "table" and #r.tests > 10, "tests[]")
  for _, t in ipairs(r.tests) do
    assert.is_truthy(type(t.name) == "string" and type(t.number) == "string" and type(t.score) == "number"
      and type(t.max_score) == "number" and (t.status == "passed" or t.status == "failed")
      and type(t.output) == "string" and type(t.tags) == "table" and t.visibility == "visible"
      and t.score <= t.max_score + 1e-9, "tests[] have name, number, score, max_score, status, output, tags, "
      .. "visibility: " .. tostring(t.name))
  end
end

-- SUBMISSIONS: stubs and reference copies, graded in parallel with the speed check on
-- (with `busy`, while three busy loops per core keep the machine loaded), and the checks of
-- the batch's results. Returns what the checks look at, which the block's setup fills in.
local function batch_checks(copies, busy, lms)
  local batch = { copies = copies, extras = lms and 4 or 0, out = ROOT .. "/batch" }
  lazy_setup(function()
    local stub, files = wb.read_file("exercises/165/profile.c"), { ["student-empty"] = true }
    for i = 1, copies do
      -- Nested one level, as LMS downloads are.
      files[string.format("student-%02d/work/profile.c", i)] = (i % 3 == 0)
        and wb.read_file("solutions/165/profile.c") or stub
    end
    if lms then
      -- What an LMS download also holds: a file beside the folders, an archive left packed,
      -- a profile.c that does not compile, two copies of profile.c in one folder.
      files["student-loose_profile.c"] = "int x;\n"
      files["student-zip/submission.zip"] = "PK\3\4"
      files["student-broken/profile.c"] = "this is not C\n"
      for _, path in ipairs({ "a.c", "profile.c", "b/profile.c" }) do
        files["student-two/" .. path] = stub
      end
    end
    -- --skip-reference: a reference copy is among the submissions anyway.
    local command = batch_cmd("SPEED_LINES=" .. SPEED_LINES, make_tree(ROOT .. "/submissions", files), batch.out)
    batch.code, batch.stdout, batch.stderr = wb.while_busy(busy and 3 * wb.nproc() or 0, run, command)
    batch.csv = wb.read_file(batch.out .. "/scores.csv") or ""
  end)
  it("SUBMISSIONS batch exits 0", function()
    assert.are.equal(0, batch.code, batch.stderr)
  end)
  it("scores.csv has a header and one row per submission", function()
    assert.are.equal(batch.copies + batch.extras + 2, #wb.split_lines(batch.csv), batch.csv)
  end)
  it("make grade scores the shipped stubs 0 and the reference 100 of 100 (with the speed check)", function()
    local seen = 0
    for _, row in ipairs(wb.split_lines(batch.csv)) do
      local name, score, max = row:match("^([^,]+),([^,]*),([^,]*),")
      local n = tonumber(name and name:match("student%-(%d+)"))
      if n then
        seen = seen + 1
        if n % 3 == 0 then
          assert.is_truthy(score == max and tonumber(score) == 100, "reference: " .. row)
        else
          assert.are.equal(0, tonumber(score), "stubs: " .. row)
        end
      end
    end
    assert.are.equal(batch.copies, seen)
  end)
  it("a submission without profile.c scores 0 and does not stop the batch", function()
    assert.is_truthy(batch.csv:match("student%-empty,0,"), batch.csv)
  end)
  it("failures.txt lists the checks most often failed, and the batch prints a summary", function()
    assert.is_truthy((wb.read_file(batch.out .. "/failures.txt") or ""):match("checks most often failed"))
    assert.is_truthy(batch.stdout:match("graded %d+ of %d+ submissions"), batch.stdout)
  end)
  it("results.json has Gradescope's fields and types", function()
    check_results_json(batch.out .. "/student-03/results.json")
  end)
  it("the report prints the seed and how to repeat it", function()
    local report = wb.read_file(batch.out .. "/student-03/165/report.txt") or ""
    assert.is_truthy(report:match("seed: " .. SEED .. " %(repeat this run with SEED=" .. SEED .. "%)"),
      report:sub(1, 300))
  end)
  return batch
end

-- A test per name: the attack (or the sweep after the attacks) came to its designed outcome,
-- outcomes[prefix .. name] listing no problem.
local function outcome_tests(names, outcomes, prefix)
  for _, name in ipairs(names) do
    it(name, function()
      local problems = outcomes[prefix .. name]
      assert.is_truthy(problems, "no outcome")
      assert.are.equal("", table.concat(problems, "; "))
    end)
  end
end

-- The attack suite (grader/165/attacks/) at one isolation level: every attack comes to its
-- designed outcome, nothing survives, the repository is unchanged, the stubs still score 0.
local function attack_checks(level)
  local outcomes, stubs = {}, {}
  -- At the user level the grader makes the repository private: its mode is given back after.
  lazy_setup(function() attacks.mode_kept(function()
    -- The fixtures outside the repository, readable by anyone, as an instructor's hidden set
    -- may be (FIXTURES=dir): the grader must make them private too.
    local fixtures = wb.temp_dir("/tmp", "drip-attack-fixtures")
    wb.run("cp -R " .. wb.quote(fixture_subset("attacks", { "book-fib-self.txt", "toy-vm.folded" })) .. "/. "
      .. wb.quote(fixtures) .. " && chmod 755 " .. wb.quote(fixtures))
    for _, o in ipairs(attacks.run({ level = level, out = ROOT .. "/attacks-" .. level, seed = SEED,
      fixtures = fixtures, speed_lines = SPEED_LINES })) do
      outcomes[o.name] = o.problems
    end
    stubs.code, stubs.stdout, stubs.stderr, stubs.result = grade("attacks-" .. level .. "/stubs", "GRADE_NO_SPEED=1 "
      .. "GRADE_ISOLATION=" .. level .. " FIXTURES=" .. wb.quote(fixtures), "exercises/165")
    wb.rm_rf(fixtures)
  end) end)
  local names = {}
  for _, attack in ipairs(assert(wb.load_data("grader/165/attacks/attacks.lua"))) do
    names[#names + 1] = "165/" .. attack.name
  end
  names[#names + 1] = "the machine after the attacks"
  outcome_tests(names, outcomes, "")
  it("the shipped stubs still score 0 afterwards", function()
    assert.is_truthy(stubs.code == 0 and stubs.result.score == 0, stubs.stderr)
  end)
  -- At the user level nothing keeps two submissions' checks apart while they run.
  it("the batch grades " .. (level == "user" and "one submission at a time" or "submissions in parallel"), function()
    local log = wb.read_file(ROOT .. "/attacks-" .. level .. "/plain.log") or ""
    local together = tonumber(log:match("grading %d+ submissions from %S+, (%d+) at a time"))
    assert.is_truthy(together and (level == "user") == (together == 1), log:sub(1, 400))
  end)
  it("results.json names the isolation level", function()
    local data = stubs.result.extra_data
    assert.is_truthy(type(data) == "table" and tostring(data.isolation):match("^" .. level .. ":"),
      tostring(data and data.isolation))
  end)
end

describe("the grader", function()
  it("has the shipped stubs to grade (exercises/165/profile.c)", function()
    assert.is_true(wb.exists("exercises/165/profile.c"))
  end)

  describe("seeds", function()
    -- The inputs chapter.plan generates for a seed: name and hash of every file.
    local function generated(seed, name)
      local chapter = engine.load_chapter("165")
      local fixtures = engine.load_fixtures(chapter)
      local gen = make_tree(ROOT .. "/seed-" .. name, {})
      math.randomseed(seed)
      chapter.plan({ rubric = chapter.rubric, fixtures = fixtures, gen = gen, speed_lines = 500 })
      return hashes(gen)
    end
    it("the same seed generates the same randomised inputs; another seed, others", function()
      local a, b, c = generated(11, "a"), generated(11, "b"), generated(12, "c")
      assert.are.equal(a, b)
      assert.are_not.equal(a, c)
    end)
    it("serialize writes plain data that load_data reads back equal, holes in lists kept", function()
      local value = { "a\n\0\255\"", 7, -0.5, math.mininteger, true, { { "5", nil }, { nil, "z" } },
        name = { ir = "18446744073709551616" }, [10] = false }
      local path = ROOT .. "/serialized.lua"
      wb.write_file(path, wb.serialize(value))
      assert.are.same(value, wb.load_data(path))
      assert.has_error(function()
        wb.serialize({ print })
      end)
    end)

    -- A grade's generated case files, by name and hash, with GRADE_CACHE=cache.
    local function graded_cases(cache, tag)
      local out = ROOT .. "/inputs-" .. tag
      local code, _, stderr = run("GRADE_NO_SPEED=1 GRADE_CACHE=" .. wb.quote(cache) .. " "
        .. grade_cmd("", "--chapter 165 --submission solutions/165 --quiet --out " .. out))
      assert.are.equal(0, code, stderr)
      return hashes(out .. "/165/gen")
    end
    it("a seed's plan is kept in the cache: a second grade on it plans from it, to the same files", function()
      local cache = cache_dir("inputs-cache")
      local first = graded_cases(cache, "first")
      local kept = {}
      for _, name in ipairs(wb.list_dir(cache .. "/answers")) do
        if name:match("^plan%-165%-") then
          kept[#kept + 1] = cache .. "/answers/" .. name
        end
      end
      assert.are.equal(1, #kept)
      assert.is_true(wb.exists(kept[1] .. "/inputs.lua") and wb.exists(kept[1] .. "/case-1.tsv"))
      assert.are.equal(first, graded_cases(cache, "again"))
      -- What the grade used is what the cache held: edited there, it shows in the run's files.
      local inputs = wb.load_data(kept[1] .. "/inputs.lua")
      inputs.edge_rows = "1,000 (50.00%)  ???:kept_in_the_cache\n"
      wb.write_file(kept[1] .. "/inputs.lua", wb.serialize(inputs))
      graded_cases(cache, "edited")
      assert.are.equal(inputs.edge_rows, wb.read_file(ROOT .. "/inputs-edited/165/gen/edge-rows.txt"))
      -- Not readable as data: made again, the same as the first time.
      wb.write_file(kept[1] .. "/inputs.lua", "return {")
      assert.are.equal(first, graded_cases(cache, "remade"))
      assert.are.equal("table", type(wb.load_data(kept[1] .. "/inputs.lua")))
    end)
  end)

  describe("the seed pool (make seed-pool)", function()
    local cache = ROOT .. "/pool-cache"
    local env = "env -u SEED -u POOL -u FORCE GRADE_NO_SPEED=1 GRADE_CACHE=" .. wb.quote(cache)
    local function pool()
      return wb.read_file(cache .. "/pool-165") or ""
    end
    local function answers()
      return #(wb.list_dir(cache .. "/answers") or {})
    end
    lazy_setup(function()
      cache_dir("pool-cache")
      local code, _, stderr = run(env .. " " .. LUA .. " grader/pool.lua --chapter 165 --size 2")
      assert.are.equal(0, code, stderr)
    end)
    it("lists as many distinct seeds as asked for", function()
      local a, b, more = pool():match("^(%d+)\n(%d+)\n(.*)$")
      assert.is_truthy(a, pool())
      assert.are_not.equal(a, b)
      assert.are.equal("", more)
    end)
    it("a grade given no seed takes one of the pool's and runs no reference", function()
      local before, out = answers(), ROOT .. "/pool-grade"
      local code, _, stderr = run(env .. " " .. LUA .. " grader/grade.lua --chapter 165 --submission solutions/165 "
        .. "--quiet --out " .. out .. " --json " .. out .. "/results.json")
      assert.are.equal(0, code, stderr)
      local r = report.read_json(out .. "/results.json")
      assert.are.equal(2, r.extra_data.seed_pool)
      assert.is_truthy(("\n" .. pool()):find("\n" .. r.extra_data.seed .. "\n", 1, true), pool())
      assert.are.equal(r.extra_data.max_score, r.score)
      assert.are.equal(before, answers())
    end)
    it("a pool file that is not one seed per line stops the grade, naming the line", function()
      local bad = make_tree(ROOT .. "/pool-bad", { ["pool-165"] = "12\n1.5\n" })
      local code, _, stderr = run("env -u SEED GRADE_CACHE=" .. wb.quote(bad) .. " " .. LUA
        .. " grader/grade.lua --chapter 165 --submission solutions/165 --quiet --out " .. bad .. "/run")
      assert.are.equal(2, code)
      assert.is_truthy(stderr:find(bad .. "/pool-165:2: not a seed", 1, true), stderr)
    end)
    it("a larger pool keeps the seeds it had", function()
      local had = pool()
      local code, _, stderr = run(env .. " " .. LUA .. " grader/pool.lua --chapter 165 --size 3")
      assert.are.equal(0, code, stderr)
      assert.are.equal(had, pool():sub(1, #had))
      assert.is_truthy(pool():sub(#had + 1):match("^%d+\n$"), pool())
    end)
  end)

  describe("bad submissions are results, not grader crashes", function()
    local code, stdout, stderr, r
    lazy_setup(function()
      local dir = make_tree(ROOT .. "/broken", { ["profile.c"] = "#include \"profile.h\"\n"
        .. "int parse_row(const char *line, Row *row) {\n  return 1 +\n}\n" })
      code, stdout, stderr, r = grade("broken", "GRADE_VALGRIND=/nonexistent/valgrind", dir, "")
    end)
    it("a compile error is graded (exit 0, score 0)", function()
      assert.is_truthy(code == 0 and r.score == 0, stderr)
    end)
    it("the report shows the compile error", function()
      assert.is_truthy(stdout:match("build: FAILED: profile%.c does not compile: .*error"), stdout:sub(1, 400))
    end)
    it("PrairieLearn's results say the code that does not compile is not gradable, and why", function()
      local pl = report.read_json(ROOT .. "/broken-run/165/prairielearn.json") or {}
      assert.is_truthy(pl.gradable == false and pl.score == 0 and tostring(pl.format_errors):find("does not compile", 1, true),
        json.encode(pl))
    end)
    it("without valgrind the speed check is skipped with the reason and left out of the total", function()
      assert.is_truthy(stdout:match("skipped: valgrind is not installed"), stdout:sub(1, 400))
      assert.are.equal(85, r.extra_data and r.extra_data.max_score)
    end)
  end)

  -- A key, an answer, a status, a folder name: the student's text, quoted by the report. One
  -- 7 MB key in three checks once made an 88 MB report.txt and a 220 MB results.json.
  -- The similarity cases are data (grader/tests/similarity/cases.lua); this driver makes
  -- each case's folders, runs grader/similarity.lua on them and checks its table and views.
  describe("code similarity (make similarity)", function()
    local data = assert(wb.load_data("grader/tests/similarity/cases.lua"))
    local sources = { reference = "solutions/165/profile.c", independent = "grader/tests/similarity/independent.c",
      stub = "exercises/165/profile.c" }
    -- The reference renamed, unindented, each "{" on a line of its own, its blocks reversed.
    local function disguised()
      local text = wb.read_file(sources.reference)
      for _, pair in ipairs(data.renames) do
        text = text:gsub("%f[%w_]" .. pair[1] .. "%f[^%w_]", pair[2])
      end
      text = text:gsub("\n[ \t]+", "\n"):gsub("%s*{\n", "\n{\n")
      local blocks = {}
      for block in (text .. "\n\n"):gmatch("(.-)\n\n+") do
        table.insert(blocks, 1, block)
      end
      return table.concat(blocks, "\n\n") .. "\n"
    end
    local function make(dir, list)
      local files = {}
      for name, source in pairs(list) do
        files[name .. "/profile.c"] = source == "disguised" and disguised() or wb.read_file(sources[source])
      end
      return make_tree(dir, files)
    end
    local function shown(name)
      return wb.escape(wb.shorten(name, report.QUOTE))
    end
    if not select(2, wb.capture("command -v sim_c")) then
      pending("SKIPPED: make similarity needs sim_c (Debian package similarity-tester; make setup-similarity)")
      return
    end
    for i, case in ipairs(data.cases) do
      describe(case.title, function()
        local out, rows, txt, code, stdout, stderr = ROOT .. "/similarity-" .. i .. "-out", {}
        lazy_setup(function()
          local subs = make(ROOT .. "/similarity-" .. i, case.submissions)
          local base = case.base and "--base " .. wb.quote(make(subs .. "-base", case.base)) or ""
          code, stdout, stderr = run(string.format("%s grader/similarity.lua %s --out %s %s", LUA, base, wb.quote(out),
            wb.quote(subs)))
          txt = wb.read_file(out .. "/similarity.txt") or ""
          for line in txt:gmatch("[^\n]+") do
            local rank, a_share, b_share, _, view, a, b = line:match("^%s*(%d+)%s+(%d+)%%%s+(%d+)%%%s+(%d+)%s+(%S+)%s+(.-) | (.*)$")
            if rank then
              rows[#rows + 1] = { rank = tonumber(rank), shares = { tonumber(a_share), tonumber(b_share) }, view = view,
                names = { a, b } }
            end
          end
        end)
        local function row_of(a, b)
          for _, row in ipairs(rows) do
            if (row.names[1] == shown(a) and row.names[2] == shown(b)) or (row.names[1] == shown(b) and row.names[2] == shown(a)) then
              return row
            end
          end
        end
        it("runs and writes a table without a control byte", function()
          assert.are.equal(0, code, stdout .. stderr)
          assert.is_falsy(txt:find("[%z\1-\9\11-\31\127-\255]"), txt)
        end)
        if case.first then
          it("ranks " .. shown(case.first[1]) .. " and " .. shown(case.first[2]) .. " first, both at least "
            .. data.min_share .. " % alike", function()
            local row = row_of(case.first[1], case.first[2])
            assert.is_truthy(row and row.rank == 1 and math.min(row.shares[1], row.shares[2]) >= data.min_share, txt)
          end)
        end
        for _, pair in ipairs(case.low or {}) do
          it("ranks " .. shown(pair[1]) .. " and " .. shown(pair[2]) .. " low, under " .. data.max_share .. " %, no view", function()
            local row = row_of(pair[1], pair[2])
            assert.is_truthy(not row or (row.rank > 1 and math.max(row.shares[1], row.shares[2]) < data.max_share
              and row.view == "-"), txt)
          end)
        end
        for _, name in ipairs(case.alone or {}) do
          it("pairs " .. shown(name) .. " with nothing", function()
            for _, row in ipairs(rows) do
              assert.is_falsy(row.names[1] == shown(name) or row.names[2] == shown(name), txt)
            end
          end)
        end
        if case.view then
          it("shows the pair side by side, every student text escaped", function()
            local row = row_of(case.view[1], case.view[2])
            local html = row and wb.read_file(out .. "/" .. row.view) or ""
            assert.is_truthy(html:find("<mark", 1, true), txt)
            assert.is_falsy(html:find("[%z\1-\9\11-\31\127-\255]") or html:find("<img", 1, true), html:sub(1, 600))
            for _, name in ipairs(case.view) do
              local escaped = shown(name):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
                ['"'] = "&quot;", ["'"] = "&#39;" })
              assert.is_truthy(html:find(escaped, 1, true), escaped .. "\n" .. html:sub(1, 600))
            end
          end)
        end
      end)
    end
    it("the independent solution in the tests is correct: full marks from the grader", function()
      local code, _, stderr, r = grade("independent", "", make(ROOT .. "/independent", { ["."] = "independent" }))
      assert.is_truthy(code == 0 and r.score and r.score == r.extra_data.max_score and r.score == 100, stderr)
    end)
  end)

  describe("quoted student text is cut before it is stored", function()
    local huge = string.rep("\1", 1 << 20) -- 1 MB of a control byte: escaped, it is 4 MB
    local function result()
      local check = { title = "parse_row: a.txt", func = "parse_row", group = "parse_row_fixtures", kind = "items",
        class = "crash", status = huge, score = 0, points = 3, matched = 0, total = 2, where = huge,
        output = huge .. "\n" .. huge,
        first = { key = huge, expected = huge, actual = huge },
        describe = function(key)
          return "parse_row(" .. key .. ")"
        end }
      return { chapter = "165", title = "t", submission = huge, seed = 1, fixtures_dir = "f", fixtures = {},
        isolation = "none", build = { ok = false, error = huge, warnings = 0, log = huge }, exercise = {},
        checks = { check }, score = 0, max_score = 3, execution_time = 0 }
    end
    it("report.txt stays small and shows no control byte", function()
      local text = report.text(result())
      assert.is_truthy(#text < 40 * report.QUOTE, "report.txt is " .. #text .. " bytes")
      assert.is_falsy(text:find("[%z\1-\9\11-\31\127]"), "a control byte in report.txt")
      assert.is_truthy(text:find("more bytes)", 1, true), "the cut is marked")
    end)
    it("results.json stays small, build_error included", function()
      local r = result()
      local text = report.text(r)
      local encoded = json.encode(report.gradescope(r, text))
      assert.is_truthy(#encoded < 200 * report.QUOTE, "results.json is " .. #encoded .. " bytes")
      local data = report.gradescope(r, text).extra_data
      assert.is_truthy(#data.build_error < 2 * report.QUOTE and #data.submission < 2 * report.QUOTE)
    end)
  end)

  describe("a batch's jobs file", function()
    local batch = require("grader.batch")
    it("gives each job its folder and key by number, whatever bytes the names hold", function()
      local path = ROOT .. "/jobs-test/.jobs"
      wb.mkdir_p(ROOT .. "/jobs-test")
      local names = { "12", "a\nb 3\t", "=2+5" }
      local records = {}
      for i, name in ipairs(names) do
        records[i] = batch.job_record(i, name, "downloads/" .. name, "key-" .. i)
      end
      wb.write_file(path, table.concat(records))
      local jobs = assert(batch.jobs(path))
      assert.are.equal(#names, #jobs)
      for i, name in ipairs(names) do
        assert.are.same({ index = i, folder = "downloads/" .. name, key = "key-" .. i,
          out = ROOT .. "/jobs-test/.job-" .. i }, jobs[i])
      end
      local none, why = batch.jobs(path .. ".missing")
      assert.is_truthy(none == nil and why:match("cannot be read"), why)
    end)
    it("a job its worker never finished is named as not graded, with what the worker said", function()
      local out = ROOT .. "/unfinished-test"
      wb.rm_rf(out)
      wb.mkdir_p(out .. "/.job-2/165")
      wb.mkdir_p(out .. "/.taken-1")
      wb.mkdir_p(out .. "/.taken-2")
      wb.write_file(out .. "/.worker-1.err", "lua5.4: not enough memory\n")
      batch.name_unfinished(out, { "alice", "bob" }, { [1] = true }, 2)
      assert.matches("^not graded: its grader stopped before it was done: lua5.4: not enough memory\n$",
        wb.read_file(out .. "/bob.err"))
      assert.is_true(wb.is_dir(out .. "/bob/165"))
      assert.is_nil(wb.read_file(out .. "/alice.err"))
      for _, gone in ipairs({ ".taken-1", ".taken-2", ".worker-1.err", ".job-2", ".job-2.err" }) do
        assert.is_false(wb.exists(out .. "/" .. gone), gone)
      end
    end)
  end)

  -- scores.csv opens in a spreadsheet: a field starting with = + - @ is a formula there, and
  -- ESC/BEL bytes drive the terminal that prints it. Folders without a profile.c (or with one
  -- that does not compile) keep the batch cheap: every row is a quick 0.
  describe("scores.csv neutralises formulas and escapes control bytes", function()
    local csv, code, stdout, stderr
    local NAMES = { "=2+5", "+x", "-y", "@z", "\27]0;owned\7bell" }
    local command = batch_cmd("GRADE_NO_SPEED=1", ROOT .. "/csv-injection", ROOT .. "/csv-injection-out")
    lazy_setup(function()
      -- Two copies of profile.c, the first (in C order) in a folder named with ESC and BEL:
      -- the error column names the copy graded.
      local files = { ["nested/a\27[2J\7/profile.c"] = "this is not C\n", ["nested/b/profile.c"] = "this is not C\n" }
      for _, name in ipairs(NAMES) do
        files[name] = true
      end
      make_tree(ROOT .. "/csv-injection", files)
      -- --force: an earlier run's results in the same folder, graded by the same grader, would be kept.
      code, stdout, stderr = run(command .. " --force")
      csv = wb.read_file(ROOT .. "/csv-injection-out/scores.csv") or ""
    end)
    it("the batch exits 0 with a row per folder", function()
      local rows = select(2, csv:gsub("\n", "\n"))
      assert.is_truthy(code == 0 and rows == 1 + #NAMES + 1, stderr .. csv)
    end)
    it("run again it keeps every result, and with --force it grades every submission again", function()
      local _, again = run(command)
      local _, forced = run(command .. " --force")
      assert.is_truthy(again:match("kept %d+ results") and again:match("grading 0 submissions"), again)
      assert.is_truthy(not forced:match("kept %d+ results") and not forced:match("grading 0 submissions"), forced)
    end)
    it("the batch's summary has a code-similarity section, its table in OUT/similarity", function()
      local has_sim = select(2, wb.capture("command -v sim_c"))
      assert.is_truthy(stdout:find(has_sim and "\ncode similarity of 1 submissions in " or "\ncode similarity: not compared: "
        .. "sim_c is missing", 1, true), stdout)
      assert.are.equal(has_sim, wb.exists(ROOT .. "/csv-injection-out/similarity/similarity.txt"))
    end)
    it("the batch writes its dashboard, every student text in it escaped", function()
      local html = wb.read_file(ROOT .. "/csv-injection-out/index.html") or ""
      assert.is_truthy(html:find("<svg", 1, true) and html:find("\\x1b]0;owned\\x07bell", 1, true), html:sub(1, 300))
      assert.is_falsy(html:find("[%z\1-\9\11-\31\127]"), "a control byte")
    end)
    for _, start in ipairs({ "=2+5", "+x", "-y", "@z" }) do
      it("a folder named " .. start .. " starts its row with '" .. start:sub(1, 1), function()
        assert.is_truthy(csv:find("\n'" .. start .. ",", 1, true), csv)
      end)
    end
    it("not on a terminal, the batch prints one progress line per submission, names escaped", function()
      local total = #NAMES + 1
      local lines = {}
      for n, line in stdout:gmatch("\n%[(%d+)/" .. total .. "%] ([^\n]*)") do
        lines[#lines + 1] = line
        assert.are.equal(#lines, tonumber(n), stdout)
      end
      assert.are.equal(total, #lines, stdout)
      assert.is_truthy(stdout:find("\\x1b]0;owned\\x07bell: 0 of %d+, did not build %(%d+ not built"), stdout)
      assert.is_truthy(lines[total]:find("elapsed%)$") and lines[1]:find("left%)$"), stdout)
      assert.is_falsy(stdout:find("[\27\7\r]"), stdout)
    end)
    it("on a terminal, the progress line is rewritten in place and ended once", function()
      local subs = make_tree(ROOT .. "/progress-tty", { x = true, y = true })
      -- script(1) (util-linux, in every Debian) runs the batch on a pseudo-terminal.
      local _, tty = run("GRADE_NO_SPEED=1 script -qfec " .. wb.quote(batch_cmd("", subs, subs .. "-out", "--force"))
        .. " /dev/null")
      assert.is_truthy(tty:find("\r\27%[K%[1/2%] [xy]: [^\r\n]*\r\27%[K%[2/2%] [xy]: [^\r\n]*elapsed%)\r?\n"), tty)
    end)
    it("grades.csv, for an LMS: student, points, max_points, formulas neutralised, a row per folder", function()
      local grades = wb.read_file(ROOT .. "/csv-injection-out/grades.csv") or ""
      assert.is_truthy(grades:find("^student,points,max_points\n") and grades:find("\n'=2%+5,0,%d+\n")
        and select(2, grades:gsub("\n", "")) == 1 + #NAMES + 1, grades)
    end)
    it("grades.csv takes the students' identifiers from an LMS_IDS file; a bad line is an error naming file and line", function()
      local batch = require("grader.batch")
      local out = ROOT .. "/csv-injection-out"
      wb.write_file(ROOT .. "/ids.csv", "=2+5,s1001\r\n+x\t@s1002\n\n")
      batch.summarise(out, { "=2+5", "+x", "-y" }, {}, batch.read_ids(ROOT .. "/ids.csv"))
      local grades = wb.read_file(out .. "/grades.csv") or ""
      assert.is_truthy(grades:find("\ns1001,0,%d+\n'@s1002,0,%d+\n'%-y,0,%d+\n$"), grades)
      wb.write_file(ROOT .. "/bad-ids.csv", "=2+5,s1001\njust a name\n")
      local ok, err = pcall(batch.read_ids, ROOT .. "/bad-ids.csv")
      assert.is_truthy(not ok and tostring(err.message):find("bad-ids.csv:2: expected FOLDER,IDENTIFIER", 1, true), tostring(err.message))
    end)
    it("no byte below 0x20 but the newline; ESC and BEL written as \\x1b, \\x07", function()
      assert.is_falsy(csv:find("[%z\1-\9\11-\31\127]"), csv)
      assert.is_truthy(csv:find("\n\\x1b]0;owned\\x07bell,", 1, true), csv)
      assert.is_truthy(csv:find("graded a\\x1b[2J\\x07/profile.c", 1, true), csv)
    end)
  end)

  -- One build for both: a file the student's own run refuses to build (strdup without its
  -- declaration) is refused here with the same words.
  it("builds a submission as make exercise-165 does: strdup without _POSIX_C_SOURCE stops it", function()
    local dir = make_tree(ROOT .. "/no-posix", { ["profile.c"] = (wb.read_file("solutions/165/profile.c"):gsub(
      "#include \"profile.h\"", "#include \"profile.h\"\nchar *copy_of(const char *s) { return strdup(s); }", 1)) })
    local code = grade("no-posix", "GRADE_NO_SPEED=1", dir)
    local report = wb.read_file(ROOT .. "/no-posix-run/165/report.txt") or ""
    local _, student = run("MAKEFLAGS= make --no-print-directory exercise-165 EX_FROM_DIR=" .. dir .. " EX_OUT=" .. ROOT
      .. "/no-posix-exercise")
    assert.is_truthy(code == 0 and report:find("implicit declaration of function", 1, true)
      and student:find("implicit declaration of function", 1, true), report .. student)
  end)

  it("takes only profile.c from a submission: headers and checker are restored pristine", function()
    local dir = make_tree(ROOT .. "/own-header", { ["profile.c"] = wb.read_file("solutions/165/profile.c"),
      ["profile.h"] = "#error a student's header must not be used\n",
      ["check.c"] = "#error a student's checker must not be used\n" })
    local code, _, stderr, r = grade("own-header", "GRADE_NO_SPEED=1", dir)
    assert.is_truthy(code == 0 and r.score and r.extra_data and r.score == r.extra_data.max_score, stderr)
  end)

  it("writes PrairieLearn's results from the same result: score 0 to 1, gradable, tests with points", function()
    local r = report.read_json(ROOT .. "/own-header.json") or {}
    local pl = report.read_json(ROOT .. "/own-header-run/165/prairielearn.json") or {}
    assert.is_truthy(pl.gradable == true and pl.score == 1 and pl.points == r.score and pl.max_points == r.extra_data.max_score
      and pl.output == r.output and #pl.tests == #r.tests, json.encode(pl):sub(1, 600))
    local sum = 0
    for i, t in ipairs(pl.tests) do
      assert.is_truthy(t.name == r.tests[i].name and t.points == r.tests[i].score and t.max_points == r.tests[i].max_score
        and type(t.message) == "string" and type(t.output) == "string", json.encode(t))
      sum = sum + t.points
    end
    assert.is_truthy(math.abs(pl.points - sum) < 1e-6, sum .. " vs " .. pl.points)
  end)

  describe("fixture folders", function()
    local dir = ROOT .. "/fixtures"
    local env = "FIXTURES=" .. wb.quote(dir)
    local function expected()
      return run(env .. " " .. LUA .. " grader/expected.lua")
    end
    lazy_setup(function()
      make_tree(dir, { ["toy-vm.folded"] = wb.read_file("grader/165/fixtures/toy-vm.folded"),
        ["book.txt"] = wb.read_file("grader/165/fixtures/book-fib-self.txt"),
        ["dropped-in.folded"] = "main;a;b;a 7\nmain;c 3\n" })
    end)
    it("a fixture without expected answers is refused, naming the command", function()
      local code, _, stderr = run(grade_cmd(env .. " GRADE_NO_SPEED=1", "--submission solutions/165 --quiet"))
      assert.is_truthy(code == 2 and stderr:match("has no expected answers") and stderr:match("make expected FIXTURES="),
        stderr)
    end)
    it("make expected FIXTURES=dir writes answers for a new folder, and only for it", function()
      local code, stdout, stderr = expected()
      assert.are.equal(0, code, stderr)
      assert.is_truthy(stdout:match("toy%-vm%.folded +%d+ answers") and not stdout:match(" cases +%->"), stdout)
      -- It says which step it is on, each before the step's results.
      local build, run_on = stdout:find("expected: chapter 165: building the reference ...", 1, true),
        stdout:find("expected: chapter 165: running the reference on 3 fixtures from " .. dir .. " ...", 1, true)
      assert.is_truthy(build and run_on and build < run_on and run_on < stdout:find("toy-vm.folded", 1, true), stdout)
    end)
    it("a swapped-in folder is graded after make expected alone; a dropped-in file becomes a check", function()
      local code, _, stderr, r = grade("fixtures", env .. " GRADE_NO_SPEED=1", "solutions/165")
      assert.is_truthy(code == 0 and r.score and r.extra_data and r.score == r.extra_data.max_score and r.score > 0,
        stderr)
      local names = {}
      for _, t in ipairs(r.tests or {}) do
        names[#names + 1] = t.name
      end
      assert.is_truthy(table.concat(names, "\n"):match("dropped%-in%.folded"))
    end)
    it("make gradescope FIXTURES=dir ships that folder's fixtures and answers, not the committed ones", function()
      local code, _, stderr = run(env .. " " .. LUA .. " grader/gradescope.lua")
      local listing = wb.capture("zipinfo -1 build/gradescope/165/autograder.zip")
      assert.are.equal(0, code, stderr)
      assert.is_truthy(listing:match("\ngrader/165/fixtures/dropped%-in%.folded\n")
        and listing:match("\ngrader/165/fixtures/expected/dropped%-in%.folded%.expected\n"), listing)
      assert.is_falsy(listing:match("grader/165/fixtures/vm%-fib%.folded"), listing)
    end)
    it("make expected on a folder without fixtures fails and says so", function()
      local empty = make_tree(ROOT .. "/fixtures-none", {})
      local code, _, stderr = run("FIXTURES=" .. wb.quote(empty) .. " " .. LUA .. " grader/expected.lua")
      assert.is_truthy(code == 2 and stderr:find(empty .. " holds no fixtures", 1, true), stderr)
    end)
    it("a changed fixture's stale answers are refused", function()
      wb.write_file(dir .. "/toy-vm.folded", (wb.read_file(dir .. "/toy-vm.folded") or "") .. "main;run 5\n")
      local code, _, stderr = run(grade_cmd(env, "--submission solutions/165 --quiet"))
      assert.is_truthy(code == 2 and stderr:match("toy%-vm%.folded changed") and stderr:match("stale"), stderr)
    end)
    it("make gradescope refuses fixtures whose answers are stale, naming the command", function()
      local code, _, stderr = run(env .. " " .. LUA .. " grader/gradescope.lua")
      assert.is_truthy(code == 2 and stderr:match("toy%-vm%.folded changed") and stderr:match("make expected FIXTURES="),
        stderr)
    end)
    -- Broken fixtures, and fixtures that would hand out free points: (folded, annotate,
    -- message or nil, what).
    local totals = "--------\n20,186,274,402 (100.0%)  PROGRAM TOTALS\n"
    local book = wb.read_file("grader/165/fixtures/book-fib-self.txt")
    for _, case in ipairs({
      { "main;run;fib 10\nmain;run 5\nmain;;x 4\n", book, "toy-vm.folded:3:",
        "a corrupted folded fixture gives an error" },
      { "main;run 5\n", totals .. "bad\0line\n", "book.txt:3:", "a corrupted annotate fixture (NUL byte) gives an error" },
      { "main;run 5\n", "just some text\nwith no rows\n", "book.txt:1: no callgrind_annotate row",
        "a file with no annotate rows is refused" },
      { "", totals, "toy-vm.folded:1: no stack", "a folded fixture with no stack is refused" },
      { "\n\n", totals, "toy-vm.folded:1: no stack", "a folded fixture of blank lines is refused" },
      { "main;run 5\n", totals .. "3,4", "book.txt:3: the last line has no newline",
        "an annotate fixture cut short (last line without a newline) is refused" },
      { "main;run 5\nmain;fi", totals, "toy-vm.folded:2: the last line has no newline",
        "a folded fixture cut short is refused" },
      { "main;run 5\n", totals .. "\n  ", nil,
        "an annotate fixture ending in a blank line without a newline is accepted" },
    }) do
      it(case[4] .. (case[3] and " naming file and line" or ""), function()
        wb.write_file(dir .. "/toy-vm.folded", case[1])
        wb.write_file(dir .. "/book.txt", case[2])
        local code, _, stderr = expected()
        if case[3] then
          assert.is_truthy(code == 1 and stderr:find(dir .. "/" .. case[3], 1, true), stderr)
        else
          assert.are.equal(0, code, stderr)
        end
      end)
    end
  end)

  -- After the fixture folders: its setup builds the zip of the committed fixtures again, which
  -- the build with FIXTURES=dir there replaced.
  describe("make gradescope", function()
    local zip = "build/gradescope/165/autograder.zip"
    -- zipinfo's listing: name -> permission bits as text ("-rwxr-xr-x").
    local modes = {}
    lazy_setup(function()
      local code, _, stderr = run(LUA .. " grader/gradescope.lua")
      assert.are.equal(0, code, stderr)
      for mode, name in wb.capture("zipinfo " .. wb.quote(zip)):gmatch("\n(%-[rwx-]+) .- (%S+)%f[\n]") do
        modes[name] = mode
      end
    end)
    it("holds run_autograder and setup.sh, executable", function()
      assert.are.equal("-rwxr-xr-x", modes["run_autograder"])
      assert.are.equal("-rwxr-xr-x", modes["setup.sh"])
    end)
    it("carries the grader, the reference, the sandbox, dripprof's sources and the Lua helpers", function()
      for _, name in ipairs({ "solutions/165/profile.c", "exercises/165/tests/check.c", "exercises/165/chapter.lua",
        "exercises/165/profile.h", "exercises/harness/checker.c", "exercises/harness/sandbox.c",
        "exercises/harness/sandbox_box.c", "vm/prof/folded.c", "vm/prof/dripprof.c", "vm/prof/prof.mk",
        "vm/lib/workbook.lua", "vm/lib/dripprof.lua", "Makefile", "grader/165/chapter.lua" }) do
        assert.is_truthy(modes[name], name)
      end
    end)
    it("holds no mutant, attack, stub, public case or test", function()
      local useless = {}
      for name in pairs(modes) do
        if name:match("mutants/") or name:match("attacks") or name == "exercises/165/profile.c"
          or name:match("_spec%.lua$") or (name:match("/tests/") and name ~= "exercises/165/tests/check.c")
          or name:match("^chapters/") then
          useless[#useless + 1] = name
        end
      end
      assert.are.equal("", table.concat(useless, " "))
    end)
    it("setup.sh makes the seed pool in the image, /autograder private first", function()
      local script = wb.capture("unzip -p " .. wb.quote(zip) .. " setup.sh")
      assert.is_truthy(script:match("\nchmod 700 /autograder /autograder/source\nmake %-C /autograder/source seed%-pool "),
        script)
    end)
    it("run_autograder makes /autograder private before grading", function()
      local script = wb.capture("unzip -p " .. wb.quote(zip) .. " run_autograder")
      assert.is_truthy(script:match("chmod 700 /autograder /autograder/source"), script)
    end)
  end)

  -- The speed check reads cachegrind's log and output file defensively: the program can add
  -- lines to both, so only one whole valgrind's of each gives a count.
  describe("the speed count", function()
    local command = "./check --run inclusive.1"
    local header = "==7== Cachegrind, a cache and branch-prediction profiler\n==7== Command: " .. command .. "\n"
    local log = header .. "==7== \n==7== I   refs:      123,456\n"
    local out = "desc: I1 cache: 32768 B\ncmd: " .. command .. "\nevents: Ir\nfl=x\nfn=main\n1 5\nsummary: 123456\n"
    local forged = "desc: x\ncmd: " .. command .. "\nevents: Ir\nsummary: 1\n"
    for _, c in ipairs({
      { "gives the count", log, out, 123456 },
      { "gives the count of valgrind 3.21 and later, whose file starts with cmd:", log,
        (out:gsub("^desc: [^\n]*\n", "")), 123456 },
      { "gives none for a file that starts with neither", log, "x\n" .. out, nil },
      { "gives none when a forged output file comes first", log, forged .. out, nil },
      { "gives none for another command", log, (out:gsub("inclusive%.1", "inclusive.2")), nil },
      { "gives none without an output file", log, "", nil },
      { "gives none for a second valgrind (exec)", log .. header, out, nil },
      { "gives none for a second program in the log", header .. "==7== Command: /bin/true\n==7== I   refs: 123,456\n",
        out, nil },
      { "gives none for a forged closing count next to valgrind's", header .. "==7== I   refs: 1\n"
        .. "==7== I   refs:      123,456\n", out, nil },
      { "gives none for a log shut after a forged closing count", header .. "==7== I   refs: 1\n", out, nil },
      { "gives none for a log that does not start with valgrind's header", "==8== I   refs: 5\n" .. log, out, nil },
      { "gives none when the sandbox cut the log or the output", log, out, nil, true },
    }) do
      it(c[1], function()
        assert.are.equal(c[4], (speed.read_count(c[2], c[3], command, c[5])))
      end)
    end

    -- valgrind's trace of the program's system calls, in the log: nothing that makes or
    -- changes code at run time, no file but the cases, no call outside the list.
    local function traced(calls)
      local lines = { header }
      for _, call in ipairs(calls) do
        lines[#lines + 1] = "SYSCALL[7,1](9) " .. call .. " --> [pre-success] Success(0x0) \n"
      end
      return table.concat(lines) .. "==7== I   refs:      123,456\n"
    end
    local honest = { "sys_brk ( 0x0 )", "sys_openat ( 4294967196, 0x1fff000916(cases.tsv), 0 )",
      "sys_mmap ( 0x0, 135168, 3, 34, 4294967295, 0 )", "sys_mprotect ( 0x4ca000, 16384, 1 )[sync]",
      "exit_group( 0 )", "unimplemented (by the kernel) syscall: 334! (ni_syscall)" }
    for _, c in ipairs({
      { "counts a run whose calls are all allowed", honest, 123456 },
      { "and one whose blocked call comes back on a second line",
        { "sys_read ( 4, 0x40014c0, 4096 ) --> [async] ... \nSYSCALL[7,1](0) ... [async]" }, 123456 },
      { "refuses memory mapped executable", { "sys_mmap ( 0x0, 4096, 7, 34, 4294967295, 0 )" }, nil },
      { "refuses memory made executable", { "sys_mprotect ( 0x4ca000, 4096, 5 )" }, nil },
      { "refuses an mmap whose protection it cannot read", { "sys_mmap ( 0x0 )" }, nil },
      { "refuses a file other than the cases, naming the refused call",
        { "sys_openat ( -100, 0x1fff(/proc/self/mem), 2 )" }, nil, "sys_openat() of 0x1fff(/proc/self/mem)" },
      { "refuses the cases' name in another folder",
        { "sys_openat ( 3, 0x1fff(cases.tsv), 0 )" }, nil },
      { "refuses a path that holds ' )'", { "sys_openat ( -100, 0x1fff(x )(cases.tsv), 0 )" }, nil },
      { "refuses a call outside the list", { "sys_ptrace ( 16, 1, 0x0, 0x0 )" }, nil },
      { "refuses a flag set on a descriptor (the log made non-blocking)", { "sys_fcntl ( 1020, 4, 2048 )" }, nil },
      { "refuses an ioctl but the terminal question", { "sys_ioctl ( 1020, 0x5421, 0x1ffe )" }, nil },
      { "allows reading a descriptor's flags and the terminal question",
        { "sys_fcntl ( 3, 3 )[sync]", "sys_ioctl ( 1, 0x5401, 0x1ffefff )" }, 123456 },
      { "refuses a call after text the program wrote without a newline",
        { "sys_brk ( 0x0 ) --> Success(0x0) \nforged textSYSCALL[7,1](10) sys_mprotect ( 0x1000, 4096, 7 )" }, nil },
    }) do
      it(c[1], function()
        local count, why = speed.read_count(traced(c[2]), out, command, false, "cases.tsv")
        assert.are.equal(c[3], count)
        assert.is_truthy(not c[4] or why:find(c[4], 1, true), why)
      end)
    end
    -- Under valgrind nothing of the client's but the program is mapped, and the one page of
    -- valgrind's own code the client may run (its signal trampoline) holds no client request:
    -- a request can only come from the program, which the build searches.
    it("is of a static program, beside no page of valgrind's that holds a client request", function()
      local ref = engine.reference(CHAPTER)
      local headers = wb.capture("readelf -lW " .. wb.quote(ref.fast))
      assert.is_truthy(headers:find("LOAD", 1, true) and not headers:find("INTERP", 1, true), headers)
      local trace = wb.capture(speed.valgrind() .. " -d -d --tool=cachegrind "
        .. "--cache-sim=no --cachegrind-out-file=/dev/null " .. wb.quote(ref.fast) .. " --help 2>&1")
      local tool = assert(trace:match("launcher launching (%S+)"), trace)
      local loads = {}
      for offset, vaddr, size in wb.capture("readelf -lW " .. wb.quote(tool)):gmatch(
        "LOAD%s+0x(%x+)%s+0x(%x+)%s+0x%x+%s+0x(%x+)") do
        loads[#loads + 1] = { tonumber(offset, 16), tonumber(vaddr, 16), tonumber(size, 16) }
      end
      local binary, pages = assert(wb.read_file(tool)), 0
      for first, last in trace:gmatch("transfer ownership V %-> C of 0x(%x+) %.%. 0x(%x+)") do
        first, last = tonumber(first, 16), tonumber(last, 16)
        for _, load in ipairs(loads) do
          if first >= load[2] and last < load[2] + load[3] then
            local bytes = binary:sub(load[1] + first - load[2] + 1, load[1] + last - load[2] + 1)
            pages = pages + 1
            assert.is_nil(require("exercises.harness.build").client_request_refusal(bytes, tool))
          end
        end
      end
      assert.is_true(pages > 0, "no page handed to the client found in: " .. wb.shorten(trace, 2000))
    end)

  end)

  describe("a SUBMISSIONS batch #batch", function()
    local batch = batch_checks(3, false, true)
    -- A 0 in scores.csv says why when the answers are not the reason.
    for _, case in ipairs({
      { "student%-empty,0,.*,no profile%.c in the folder or 3 folders below it\n", "a folder without profile.c" },
      { "student%-zip,0,.*no profile%.c.*it holds an archive: unpack it", "a folder holding only an archive" },
      { "student%-broken,0,.*,build: profile%.c does not compile: profile%.c:1:", "a compile error" },
      { "student%-two,0,.*,2 copies of profile%.c; graded b/profile%.c\n", "two copies of profile.c" },
      { "student%-loose_profile%.c,,.*,\"not graded: a file, not a folder", "a file beside the folders" },
      { "student%-01,0,100,[%d,]+,\n", "(not) the stubs: their 0 is for the answers" },
    }) do
      it("scores.csv's error column explains " .. case[2], function()
        assert.is_truthy(batch.csv:match(case[1]), batch.csv)
      end)
    end
    it("failures.txt counts only the submissions that built (a 0 for no code is not a wrong answer)", function()
      local text = wb.read_file(batch.out .. "/failures.txt") or ""
      -- Built: student-01..03 and student-two, of which the three stubs fail every check.
      assert.is_truthy(text:match("of the 4 submissions that built; 4 did not build") and text:match("\n%s+3  "),
        text)
      assert.is_falsy(text:match("\n%s+[4-9]  "), text)
    end)
  end)

  -- The mutants, the reference (full marks) and the stubs (zero), via verify, on the
  -- fixtures that make every mutant lose points: a subset of the full set so the suite
  -- stays fast (`make verify-fixtures` uses them all).
  describe("verify-fixtures", function()
    local SUBSET = { "book-fib-self.txt", "c-wordfreq-self.txt", "c-wordfreq-nopct.txt", "vm-fib.folded",
      "vm-zoo.folded", "toy-vm.folded", "book-fib.folded" }
    local lines, problems, said = {}, {}, {}
    lazy_setup(function()
      local dir = fixture_subset("subset", SUBSET)
      -- The batches would keep an earlier run's results (same grader, inputs and seed), and
      -- grade, and say, nothing.
      wb.rm_rf(ROOT .. "/verify")
      local list
      problems, list = verify.verify({ out = ROOT .. "/verify", seed = SEED, speed_lines = SPEED_LINES,
        no_speed = true, fixtures = dir, say = function(line) said[#said + 1] = line end })
      for _, line in ipairs(list) do
        lines[line:match("^%S+%s+(%S+)") or line] = line
      end
    end)
    local candidates = { "165-reference", "165-stubs" }
    for _, m in ipairs(mutants.of(CHAPTER)) do
      candidates[#candidates + 1] = "165-mutant-" .. m.fault:lower()
    end
    for _, name in ipairs(candidates) do
      it("grades " .. name .. " as expected", function()
        local line = lines[name] or "(not graded)"
        assert.is_truthy(line:match("^ok"), line .. "\n" .. table.concat(problems, "\n"))
      end)
    end
    it("says which step it is on: each batch, then a line per graded candidate", function()
      local steps, graded = 0, 0
      for _, line in ipairs(said) do
        steps = steps + (line:match("^chapter 165: grading %d+ candidates %(") and 1 or 0)
        graded = graded + (line:match("^%[%d+/%d+%] 165%-[%w_-]+: [%d.]+ of [%d.]+") and 1 or 0)
      end
      assert.are.equal(2, steps, table.concat(said, "\n"))
      assert.are.equal(#candidates, graded, table.concat(said, "\n"))
    end)
    it("shows a wrong inclusive()'s first difference as input/expected/actual", function()
      local r = report.read_json(ROOT .. "/verify/graded/165-mutant-every_occurrence/results.json") or {}
      local found = false
      for _, t in ipairs(r.tests or {}) do
        found = found or (t.name:match("^inclusive: toy%-vm") and t.output:match("first difference")
          and t.output:match("expected:") and t.output:match("actual:") and t.output:match("input:")
          and t.output:match("at place %d+ of the array")) ~= nil
      end
      assert.is_true(found)
    end)
    -- The batch's dashboard in headless Chromium (vm/prof/tests/headless.sh, as the flame graph
    -- and the book are checked): a check page loads it in a frame and compares what it shows
    -- with scores.csv.
    it("writes a dashboard that renders without scripts and shows scores.csv's numbers", function()
      local out = ROOT .. "/verify/graded"
      local scores, graded = {}, 0
      for line in (wb.read_file(out .. "/scores.csv") or ""):gmatch("\n([^\n]+)") do
        local name, score = line:match("^([^,]+),([^,]*),")
        scores[#scores + 1] = string.format("%q: %q", name, score)
        graded = graded + (score ~= "" and 1 or 0)
      end
      if not select(2, wb.capture("command -v chromium || command -v chromium-browser")) then
        pending("SKIPPED: the dashboard check needs chromium")
        return
      end
      wb.write_file(out .. "/check.html", [[<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<iframe id="page" width="1100" height="900"></iframe><pre id="result">not run</pre><script>
var SCORES = {]] .. table.concat(scores, ", ") .. "}, GRADED = " .. graded .. [[, lines = [], bad = 0;
function check(ok, what) { lines.push((ok ? "ok " : "not ok ") + what); if (!ok) bad++; }
var frame = document.getElementById("page");
frame.onload = function () {
  var d = frame.contentDocument, i;
  check(d.querySelectorAll("script, link, img, iframe, object, embed").length === 0,
        "no script and nothing to load: the page reads the same with scripts disabled, and no load can fail");
  var svg = d.querySelector("svg"), box = svg && svg.getBoundingClientRect();
  check(box && box.width > 0 && box.height > 0, "the histogram renders");
  var bars = d.querySelectorAll("svg rect.bar"), sum = 0;
  for (i = 0; i < bars.length; i++) sum += Number(bars[i].getAttribute("data-count"));
  check(bars.length === 10 && sum === GRADED, "the histogram counts " + sum + " graded submissions, scores.csv " + GRADED);
  var rows = d.querySelectorAll("table.submissions tr"), seen = 0;
  for (i = 1; i < rows.length; i++) {
    var name = rows[i].querySelector(".name").textContent, score = rows[i].querySelector(".score").textContent;
    check(SCORES[name] === score, name + " scores " + score + " as in scores.csv (" + SCORES[name] + ")");
    seen++;
  }
  check(seen === Object.keys(SCORES).length, seen + " submissions, a row per row of scores.csv");
  check(d.querySelectorAll("table.checks tr").length > 1 && d.querySelectorAll("table.outcomes tr").length > 2
        && d.querySelectorAll("table.differences tr").length > 1, "pass rates, outcomes and first differences shown");
  document.getElementById("result").textContent = lines.join("\n") + "\nRESULT: " + (bad ? "FAILED" : "PASSED");
};
frame.src = "index.html";
</script></body></html>
]])
      local code, stdout = run("bash -c " .. wb.quote('. vm/prof/tests/headless.sh && headless_check "$(headless_browser)" '
        .. '"file://$0/check.html" "$0" "" "grader: dashboard check"') .. " " .. wb.quote(wb.realpath(out)))
      assert.is_truthy(code == 0, stdout .. (wb.read_file(out .. "/result.txt") or ""))
    end)
    it("reports an endless loop as 'timed out after 2 s'", function()
      local h = report.read_json(ROOT .. "/verify/graded/165-mutant-hangs_on_empty_needle/results.json") or {}
      assert.is_truthy((h.output or ""):match("timed out after 2 s"), h.output)
    end)
  end)

  -- Parity (grader/tests/parity.lua): on the checks verify-fixtures graded above, the student's
  -- run (each check's case forked in one sandbox, as make exercise-165 runs cases) reports
  -- wrong exactly the items the grader (one sandboxed process per check) marked wrong, for the
  -- stubs and every mutant; and the reference answers the same in both. It reads what that
  -- block left in ROOT/verify, so it runs after it; it adds about 20 s (the student's runs).
  describe("parity of the student's run with the grader", function()
    local ex = CHAPTER.exercise
    -- Each candidate, whether it was graded with the speed check (verify's slow run), and
    -- whether it gets some answer wrong (not a mutant only too slow).
    local candidates, slow, wrong_somewhere = { "165-stubs" }, {}, { ["165-stubs"] = true }
    for _, m in ipairs(mutants.of(CHAPTER)) do
      local name = "165-mutant-" .. m.fault:lower()
      candidates[#candidates + 1] = name
      slow[name] = m.slow == true
      for _, family in ipairs(m.loses) do
        wrong_somewhere[name] = wrong_somewhere[name] or family ~= "speed"
      end
    end
    local graded, student, why = {}, {}, {}
    local function run_both(name)
      local dir = ROOT .. "/verify/graded" .. (slow[name] and "-slow/" or "/") .. name
      local checks, problem = parity.graded(dir, "165")
      if not checks then
        why[name] = problem
        return
      end
      graded[name] = checks
      student[name] = parity.run_student(dir .. "/165/build/check-asan", checks, ROOT .. "/parity/" .. name,
        ex.limits, ex.student_files)
    end
    lazy_setup(function()
      run_both("165-reference")
      for _, name in ipairs(candidates) do
        run_both(name)
      end
    end)
    local function both(name)
      assert.is_truthy(graded[name] and graded["165-reference"], why[name] or why["165-reference"]
        or "verify-fixtures graded nothing")
    end
    it("every candidate was graded on the reference's inputs, check by check", function()
      both("165-stubs")
      local reference = graded["165-reference"]
      assert.is_true(#parity.numbers(reference) >= 10)
      for _, name in ipairs(candidates) do
        both(name)
        for _, n in ipairs(parity.numbers(reference)) do
          local mine = graded[name][n]
          assert.is_truthy(mine and wb.read_file(mine.tsv) == wb.read_file(reference[n].tsv),
            name .. ": check " .. n .. " has other inputs")
        end
      end
    end)
    it("the reference gives the same answers in both worlds, and ends well", function()
      both("165-reference")
      local g, s = graded["165-reference"], student["165-reference"]
      for _, n in ipairs(parity.numbers(g)) do
        local c = compare.items(g[n].items, s[n].items)
        assert.is_truthy(c.first == nil and #g[n].items > 0 and g[n].kind == "ok" and s[n].kind == "ok",
          string.format("check %d (%s): %s", n, g[n].title, c.first and c.first.key or (s[n].kind .. " " .. g[n].kind)))
      end
    end)
    for _, name in ipairs(candidates) do
      it(name .. ": the student's run reports wrong what the grader marks wrong", function()
        both(name)
        if name == "165-stubs" then
          -- verify-fixtures grades the work tree's stubs; the parity is about the committed ones.
          local committed = wb.capture("git show HEAD:exercises/165/profile.c 2>/dev/null")
          if committed ~= wb.read_file(ROOT .. "/verify/graded/165-stubs/165/build/profile.c") then
            pending("exercises/165/profile.c differs from git HEAD's: the stubs graded are not the committed ones")
            return
          end
        end
        local lines, wrong = parity.disagreements(graded[name], student[name], graded["165-reference"],
          student["165-reference"])
        assert.are.equal("", table.concat(lines, "\n"))
        assert.are.equal(wrong_somewhere[name] == true, wrong > 0, "items reported wrong: " .. wrong)
      end)
    end
    it("would see a disagreement: one answer changed, or a run said to crash, in the student's run only", function()
      both("165-reference")
      local g, s = graded["165-reference"], student["165-reference"]
      local n = parity.numbers(g)[1]
      local items = { table.unpack(s[n].items) }
      local key = items[1].key
      items[1] = { key = key, result = items[1].result .. " (changed)" }
      local changed = setmetatable({ [n] = { items = items, kind = "ok" } }, { __index = s })
      local lines = parity.disagreements(g, changed, g, s)
      assert.is_truthy(#lines == 1 and lines[1]:find("only the grader marks 0 wrong: nothing; only the student's run "
        .. "reports 1: " .. key, 1, true), table.concat(lines, "\n"))
      changed[n] = { items = s[n].items, kind = "crashed" }
      lines = parity.disagreements(g, changed, g, s)
      assert.is_truthy(#lines == 1 and lines[1]:find("reports 1: (run) crashed", 1, true), table.concat(lines, "\n"))
    end)
  end)

  describe("the CPU-time witness", function()
    local rule = CHAPTER.rubric.speed
    -- Measured at 50,000 stacks: the reference's runs idle (whole, calling nothing),
    -- 0.19 s of CPU per reference count; with load 7 to 9 beside it a run takes up to 1.38
    -- times as long, and quadratic code up to 1.5 times as long per instruction. At the graded
    -- 20,000 (seed 5): the reference's runs 0.21 and 0.17 s, the linear-search mutant's 1.98 s.
    local ref = { cpu = 0.69, base_cpu = 0.5 }
    local graded = { cpu = 0.21, base_cpu = 0.17 }
    it("at the graded size, linear-search code (10 % faster than here) whose count claims the half limit "
      .. "does not agree", function()
      assert.is_false((speed.witness(graded, 10, 1.98 * 0.9, rule)))
    end)
    it("at the graded size, honest code at the half limit under load agrees", function()
      assert.is_true((speed.witness(graded, 10, 0.17 * 1.38 + 10 * 0.04 * 1.5 * 1.38, rule)))
    end)
    for _, c in ipairs({
      { "the reference's own run under load agrees with its count", 1.0, 0.69 * 1.38, true },
      { "honest code at the half limit, 1.5x the cost per instruction, under load, agrees", 10, 0.5 * 1.38
        + 10 * 0.19 * 1.5 * 1.38, true },
      { "code 12x the reference's that claims 1x does not", 1.0, 0.5 + 12 * 0.19, false },
      { "code 12x the reference's that claims 2x does not", 2.0, 0.5 + 12 * 0.19, false },
    }) do
      it(c[1], function()
        assert.are.equal(c[4], (speed.witness(ref, c[2], c[3], rule)))
      end)
    end
    it("a run that took more CPU than its count allows earns no speed points (the rubric's witness at 0)",
      function()
        local fixtures = fixture_subset("witness", { "book-fib-self.txt", "toy-vm.folded" })
        local json_path = ROOT .. "/witness.json"
        local edit = [['local r = require("grader.165.rubric"); r.speed.witness_factor = 0; r.speed.witness_slack = 0']]
        local code, _, stderr = run(string.format("FIXTURES=%s %s -e %s grader/grade.lua --seed %d --speed-lines %d "
          .. "--submission solutions/165 --quiet --out %s --json %s", wb.quote(fixtures), LUA, edit, SEED, SPEED_LINES,
          ROOT .. "/witness", json_path))
        assert.are.equal(0, code, stderr)
        local seen = speed_test(json_path)
        assert.is_truthy(seen, "no speed check in " .. json_path)
        assert.are.equal(0, seen.score)
        assert.is_truthy(seen.output:match("is contradicted by its CPU time: [%d.]+ s, more than the 0%.0 s"),
          seen.output)
      end)
  end)

  -- Verdicts do not depend on load: the reference, an endless loop and a crash, graded with
  -- CPU limits scaled down to a quarter, on the machine as it is and with three busy loops
  -- per core beside it, get the same points and the same statuses.
  describe("verdicts under load", function()
    local all = mutants.of(CHAPTER)
    local candidates = { reference = wb.read_file("solutions/165/profile.c"),
      hangs = mutants.named(CHAPTER, all, "HANGS_ON_EMPTY_NEEDLE").source,
      crashes = mutants.named(CHAPTER, all, "NEEDS_SEMICOLON").source }
    local quiet, busy, full = {}, {}, {}
    local function grade_all(tag, fixtures, subs)
      local out = ROOT .. "/load-" .. tag
      local code, _, stderr = run(batch_cmd("GRADE_NO_SPEED=1 GRADE_CPU_SCALE=0.25 FIXTURES=" .. wb.quote(fixtures),
        subs, out))
      assert.are.equal(0, code, "the batch ran (" .. tag .. "): " .. stderr)
      local verdicts = {}
      for name in pairs(candidates) do
        local r = report.read_json(out .. "/" .. name .. "/results.json") or {}
        full[name] = r.score ~= nil and r.extra_data ~= nil and r.score == r.extra_data.max_score
        local lines = { name .. " " .. tostring(r.score) }
        for _, t in ipairs(r.tests or {}) do
          lines[#lines + 1] = string.format("%s %s %s", t.name, wb.format_number(t.score), t.output:match("^[^\n]*"))
        end
        table.sort(lines)
        verdicts[name] = table.concat(lines, "\n")
      end
      return verdicts
    end
    lazy_setup(function()
      local fixtures = fixture_subset("load", { "book-fib-self.txt", "toy-vm.folded" })
      local files = {}
      for name, text in pairs(candidates) do
        files[name .. "/profile.c"] = text
      end
      local subs = make_tree(ROOT .. "/load-submissions", files)
      quiet = grade_all("quiet", fixtures, subs)
      busy = wb.while_busy(3 * wb.nproc(), grade_all, "busy", fixtures, subs)
    end)
    for name in pairs(candidates) do
      it(name .. " gets the same points and statuses with 3 busy loops per core beside it", function()
        assert.are.equal(quiet[name], busy[name])
      end)
    end
    it("the reference scores full marks with a quarter of the CPU time", function()
      assert.is_true(full.reference, quiet.reference)
    end)
    it("an endless loop is a CPU-time timeout", function()
      assert.is_truthy(quiet.hangs:match("timed out after 0%.5 s of CPU time"), quiet.hangs)
    end)
    it("a crash is reported as the crash", function()
      assert.is_truthy(quiet.crashes:match("SEGV"), quiet.crashes)
    end)
  end)

  describe("another copy of the workbook on the machine", function()
    it("stops grading at the user level while other users may read its solutions", function()
      local _, why = levels()
      if why.user then
        pending("the user level is not possible here: " .. why.user)
        return
      end
      local copy = wb.temp_dir("/tmp", "drip-copy")
      wb.mkdir_p(copy .. "/solutions/1")
      wb.mkdir_p(copy .. "/grader")
      local function listed()
        local copies = "\n" .. table.concat(sandbox.readable_copies("user"), "\n") .. "\n"
        return copies:find("\n" .. copy .. "/solutions\n", 1, true) ~= nil
      end
      wb.run("chmod 755 " .. wb.quote(copy))
      local open = listed()
      wb.run("chmod 700 " .. wb.quote(copy))
      local closed = listed()
      wb.rm_rf(copy)
      assert.is_true(open, "a readable copy is not found")
      assert.is_false(closed, "a private copy is reported")
      assert.are.same({}, sandbox.readable_copies("bwrap"))
    end)
  end)

  -- bubblewrap's level in make test; the user level, the fallback, in make test-slow.
  local usable, why_not = levels()
  for _, level in ipairs(usable) do
    describe("the attack suite at the " .. level .. " level" .. (level == "user" and " #userlevel" or ""), function()
      attack_checks(level)
    end)
  end
  for level, why in pairs(why_not) do
    pending("the attack suite at the " .. level .. " level: not possible on this machine (" .. why .. ")")
  end
end)

-- The long tests (make test-slow).
-- The witness's worst case: the reference's CPU time measured on an idle machine (the cache a
-- batch reuses), the student's run at the graded size with 3 busy loops per core beside it.
describe("the CPU-time witness under load #batch", function()
  it("a copy of the reference keeps its speed points at the graded size", function()
    local json_path = ROOT .. "/witness-load.json"
    local command = grade_cmd("FIXTURES=" .. wb.quote(fixture_subset("witness-load", { "toy-vm.folded" })),
      "--submission solutions/165 --quiet --out " .. ROOT .. "/witness-load --json " .. json_path)
      :gsub("%-%-speed%-lines %d+", "")
    local code, _, stderr = run(command)
    assert.are.equal(0, code, stderr)
    code, _, stderr = wb.while_busy(3 * wb.nproc(), run, command)
    assert.are.equal(0, code, stderr)
    local t = speed_test(json_path)
    assert.is_truthy(t and t.name:find(CHAPTER.exercise.speed.lines .. " stacks", 1, true), json_path)
    assert.are.equal(t.max_score, t.score, t.output)
  end)
end)

describe("the grader at scale #batch", function()
  batch_checks(tonumber(os.getenv("BATCH_COPIES")) or 20, true)
end)

-- A batch killed half-way (SIGKILL to its whole process group, as a reboot or a lost
-- session would) and run again: it keeps what was finished, grades the rest with the first
-- run's seed, and ends with the scores of a batch that was never interrupted.
describe("an interrupted batch #batch", function()
  local whole, resumed, rerun, parsed, finished = "", "", "", true, 0
  lazy_setup(function()
    local reference, stub = wb.read_file("solutions/165/profile.c"), wb.read_file("exercises/165/profile.c")
    local subs = make_tree(ROOT .. "/interrupted", { ["s1/profile.c"] = reference, ["s2/profile.c"] = stub,
      ["s3/profile.c"] = reference, ["s4/profile.c"] = stub })
    local function batch(out, seed)
      return string.format("env -u SEED GRADE_NO_SPEED=1 %s grader/batch.lua %s --skip-reference --jobs 1 --out %s%s",
        LUA, subs, out, seed and (" --seed " .. seed) or "")
    end
    run(batch(ROOT .. "/whole", SEED))
    whole = wb.read_file(ROOT .. "/whole/scores.csv") or "(none)"
    local out = ROOT .. "/resumed"
    wb.rm_rf(out)
    os.remove(out .. ".log")
    -- setsid: the batch leads a process group of its own, so one kill reaches every job.
    -- The log lies beside OUT: the batch clears OUT of all but the results it keeps.
    run(string.format("setsid sh -c %s & pid=$!; n=0; until grep -q '^\\[1/4\\]' %s.log 2>/dev/null || [ $n -ge 3000 ];"
      .. " do sleep 0.2; n=$((n+1)); done; kill -s KILL -- -$pid; wait", wb.quote("exec " .. batch(out, SEED) .. " > "
      .. out .. ".log 2>&1"), out))
    for _, name in ipairs({ "s1", "s2", "s3", "s4" }) do
      local text = wb.read_file(out .. "/" .. name .. "/results.json")
      finished = finished + (text and 1 or 0)
      parsed = parsed and (text == nil or report.read_json(out .. "/" .. name .. "/results.json") ~= nil)
    end
    local _
    _, rerun = run(batch(out))
    resumed = wb.read_file(out .. "/scores.csv") or "(none)"
  end)
  it("the kill left whole results only, and fewer than all of them", function()
    assert.is_truthy(parsed and finished >= 1 and finished < 4, finished .. " finished")
  end)
  it("the re-run keeps the finished results and grades the rest with the first run's seed", function()
    assert.is_truthy(rerun:find("kept " .. finished .. " results", 1, true) and rerun:find("seed " .. SEED, 1, true)
      and rerun:find("grading " .. (4 - finished) .. " submissions", 1, true), rerun)
  end)
  it("ends with the scores of a batch that was never interrupted", function()
    assert.are.equal(whole, resumed)
  end)
end)

-- The platforms' layouts: Gradescope's zip and its run_autograder, PrairieLearn's tree and its
-- run, each on the reference, the stubs and the attacks that aim at it, at every isolation
-- level this machine offers (root only).
local PLATFORMS = {
  { name = "gradescope", title = "Gradescope's", mount = "/autograder", tree = "build/gradescope/165/autograder.zip",
    newline = "newline_path_gradescope", speed = true, pool = true },
  { name = "prairielearn", title = "PrairieLearn's", mount = "/grade",
    tree = "build/prairielearn/165/serverFilesCourse/drip-165", newline = "newline_path" },
}
for _, platform in ipairs(PLATFORMS) do
  describe("the grader in " .. platform.title .. " layout #" .. platform.name, function()
    local NAMES = { "reference", "stubs", "include_gradescope", "include_relative", "incbin",
      "exec_reference", "rewrite_results", "read_expected", "exfiltrate", "env_dump", "fork_bomb", "do_nothing",
      "leak_off", "symlink_solution", "huge_source", platform.newline }
    -- The speed check's attacks, each after the slow-code control it is compared with.
    for _, name in ipairs(platform.speed and { "control_quadratic", "precompute", "forge_callgrind", "exec_native",
      "forge_count", "forge_flood", "reexec_quiet", "runtime_requests", "mprotect_exec", "proc_self_mem", "speed_leak",
      "sanitizer_ifdef" } or {}) do
      NAMES[#NAMES + 1] = name
    end
    if not wb.is_root() then
      pending(platform.title .. " emulation needs root (a private mount namespace on " .. platform.mount .. ")")
      return
    end
    local outcomes, before = {}, nil
    lazy_setup(function()
      local code, _, stderr = run("CHAPTER=165 " .. LUA .. " grader/gradescope.lua --format " .. platform.name)
      assert.are.equal(0, code, "make " .. platform.name .. " builds its tree: " .. stderr)
      before = attacks.repository_fingerprint()
    end)
    for _, level in ipairs((levels())) do
      describe("at the " .. level .. " level", function()
        lazy_setup(function()
          for _, o in ipairs(attacks.platform({ chapter = "165", level = level, platform = platform.name,
            out = wb.realpath(ROOT) .. "/" .. platform.name .. "-" .. level, tree = platform.tree, names = NAMES,
            speed_lines = SPEED_LINES })) do
            outcomes[level .. " " .. o.name] = o.problems
            outcomes[level .. " " .. o.name .. " result"] = o.result
          end
        end)
        if platform.pool then
          it("grades with a seed of the pool setup.sh made", function()
            local result = outcomes[level .. " reference result"] or {}
            assert.are.equal(2, (result.extra_data or {}).seed_pool)
          end)
        end
        outcome_tests(NAMES, outcomes, level .. " ")
      end)
    end
    it("leaves no attack process and the repository unchanged", function()
      local survivors = wb.capture("ps -eo comm= | grep -c '^drip-attack' || true"):match("%d+")
      assert.are.equal(0, tonumber(survivors))
      assert.are.equal(before, attacks.repository_fingerprint())
    end)
  end)
end
