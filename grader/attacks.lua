-- attacks.lua: grades a chapter's attack suite (grader/NNN/attacks/) and checks that every
-- attack came to its designed outcome (grader/N/attacks/attacks.lua says what each is).
--
-- Used by the grader's tests, once per isolation level, and by the Gradescope and PrairieLearn
-- emulations.
-- The attacks are graded as a batch through batch.lua, exactly as an instructor grades
-- submissions; the checks then look at what the batch wrote and at the machine:
--   * each attack's results.json: score, build line, statuses, families, speed;
--   * nothing of the solution, the expected answers or a secret of the grader's environment
--     anywhere in it (the student sees all of it);
--   * results.json unchanged a while later (a survivor would rewrite it), no process named
--     "drip-attack", no file an attack left in the shared temporary folders, no System V
--     shared memory of a sandbox uid;
--   * the repository's files unchanged (build/ and .git aside).

local wb = require("vm.lib.workbook")
local engine = require("grader.engine")
local mutants = require("grader.mutants")
local report = require("grader.report")
local json = require("dkjson")

local M = {}

local LUA = os.getenv("LUA") or "lua5.4"
local MARKERS = { "/tmp/drip-attack-survived", "/tmp/drip-attack-escaped", "/tmp/drip-attack-left",
  "/tmp/drip-attack-big.bin", "/tmp/drip-attack-fifo", "/var/tmp/drip-attack-left", "/dev/shm/drip-attack-left",
  "/run/lock/drip-attack-left" }

-- A fingerprint of every file of the repository outside build/ and .git.
function M.repository_fingerprint()
  return wb.capture("find . \\( -path ./build -o -path ./.git \\) -prune -o -type f -print0 2>/dev/null"
    .. " | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum")
end

-- Lines of the reference that appear nowhere in the files a student has anyway: if one of
-- them shows up in a report, the reference's source leaked. Attacks built on the reference
-- hold these lines too; what they print never quotes their own source.
local function secret_lines(chapter)
  local ex = chapter.exercise
  local public = {}
  for _, names in ipairs({ ex.student_files, ex.headers }) do
    for _, name in ipairs(names) do
      for line in (wb.read_file(ex.dir .. "/" .. name) or ""):gmatch("[^\n]+") do
        public[line:gsub("^%s+", "")] = true
      end
    end
  end
  local lines = {}
  for _, name in ipairs(ex.student_files) do
    for line in (wb.read_file(ex.solution .. "/" .. name) or ""):gmatch("[^\n]+") do
      local text = line:gsub("^%s+", "")
      if #text >= 30 and not public[text] then
        lines[#lines + 1] = text
      end
    end
  end
  return lines
end

-- A value the grader's environment holds (GRADE_TEST_SECRET) that no report may show.
local function new_secret()
  return "drip-secret-" .. tostring(os.time()) .. tostring({}):match("0x(%x+)")
end

-- The text of an attack's submission, from prelude.c, the attack and its base: the stubs
-- (the exercise's file), the reference, a mutant (grader/N/mutants/mutants.lua; `mutant`
-- names one) or none. sealed = true defines ATTACK_SEALED first, for a prelude to leave out
-- what would keep the grader from sealing the attack's cases.
local function submission_text(chapter, dir, attack, root, out, fixtures)
  local ex = chapter.exercise
  local file = ex.student_files[1]
  local prelude = assert(wb.read_file(dir .. "/prelude.c"))
  local body = wb.read_file(dir .. "/" .. attack.name .. ".c") or "" -- a control has no attack
  local base = ""
  if attack.base == "stubs" then
    base = assert(wb.read_file(ex.dir .. "/" .. file))
  elseif attack.base == "reference" then
    base = assert(wb.read_file(ex.solution .. "/" .. file))
  elseif attack.base == "mutant" then
    base = mutants.named(chapter, mutants.of(chapter), attack.mutant).source
  elseif attack.base ~= "none" then
    wb.fail(string.format("grader/%s/attacks/attacks.lua: %s: unknown base %s", chapter.id, attack.name,
      tostring(attack.base)))
  end
  local text = body:find("/* @BASE@ */", 1, true) and body:gsub("/%* @BASE@ %*/", function()
    return base
  end) or (body .. "\n" .. base)
  text = (attack.sealed and "#define ATTACK_SEALED 1\n" or "") .. prelude .. "\n" .. text
  return (text:gsub("@ROOT@", root):gsub("@OUT@", out):gsub("@FIXTURES@", fixtures))
end

-- Writes an attack's submission to file (the student's file), with root, out and fixtures for
-- @ROOT@, @OUT@ and @FIXTURES@ (the fixture folder the grading uses).
-- kind = "nested" puts it `nested` folders deeper (a path that may hold newlines) instead;
-- kind = "hardlink" makes it a hard link to a copy of `from` outside the submission.
local function write_submission(chapter, dir, attack, file, root, out, fixtures)
  if attack.kind == "nested" then
    file = wb.dirname(file) .. "/" .. attack.nested .. "/" .. wb.basename(file)
    wb.mkdir_p(wb.dirname(file))
  end
  if attack.kind == "symlink" then
    wb.run("ln -s " .. wb.quote((attack.target:gsub("@ROOT@", root))) .. " " .. wb.quote(file))
  elseif attack.kind == "hardlink" then
    -- Another name of a file the student could not read: a copy of `from` outside the
    -- submission (a hard link to the repository's own file would change its link count
    -- for every other grading under way).
    local elsewhere = wb.dirname(wb.dirname(wb.dirname(file))) .. "/elsewhere-" .. attack.name
    wb.mkdir_p(elsewhere)
    wb.copy((attack.from:gsub("@ROOT@", root)), elsewhere .. "/" .. wb.basename(file))
    wb.run("ln " .. wb.quote(elsewhere .. "/" .. wb.basename(file)) .. " " .. wb.quote(file))
  elseif attack.kind == "huge" then
    wb.run(string.format("head -c %d /dev/zero | tr '\\0' '/' > %s", attack.size, wb.quote(file)))
  elseif attack.kind == "copy" then
    wb.copy(attack.from, file)
  else
    wb.write_file(file, submission_text(chapter, dir, attack, root, out, fixtures))
  end
end

-- Lays out one folder per attack under subs; returns the attacks, split by speed.
local function lay_out(chapter, subs, root, out, fixtures)
  local chapter_dir = "grader/" .. chapter.id .. "/attacks"
  local attacks = assert(wb.load_data(chapter_dir .. "/attacks.lua"))
  local file = chapter.exercise.student_files[1]
  local plain, timed = {}, {}
  for _, attack in ipairs(attacks) do
    local folder = subs .. (attack.with_speed and "/speed/" or "/plain/") .. attack.name
    if attack.kind == "folder_symlink" then -- the submission's folder itself is a link
      wb.mkdir_p(wb.dirname(folder))
      wb.run("ln -s " .. wb.quote((attack.target:gsub("@ROOT@", root))) .. " " .. wb.quote(folder))
    else
      wb.mkdir_p(folder)
      write_submission(chapter, chapter_dir, attack, folder .. "/" .. file, root, out .. "/" .. attack.name, fixtures)
    end
    local list = attack.with_speed and timed or plain
    list[#list + 1] = attack
  end
  return plain, timed
end

-- All strings in a decoded JSON value, joined.
local function strings_of(value, out)
  out = out or {}
  if type(value) == "string" then
    out[#out + 1] = value
  elseif type(value) == "table" then
    for _, v in pairs(value) do
      strings_of(v, out)
    end
  end
  return out
end

-- An attack's designed outcome at isolation `level`: its fields, under those of attack[level].
local function at_level(attack, level)
  local designed = setmetatable({}, { __index = attack })
  for field, value in pairs(attack[level] or {}) do
    designed[field] = value
  end
  return designed
end

-- Checks one attack's result against its designed outcome; returns a list of problems. err:
-- what the grader said when it could not grade (its .err file); log: its whole output, where
-- there is no .err (the platform layouts), quoted only when nothing was graded.
local function judge(attack, result, text, all, err, log)
  local problems = {}
  local function expect(ok, what)
    if not ok then
      problems[#problems + 1] = what
    end
  end
  if attack.not_graded then
    expect(result == nil, "should not be graded, but has a results.json")
    expect((err or ""):match(attack.not_graded), "its error should match '" .. attack.not_graded .. "': "
      .. (err or "(none)"))
    return problems
  end
  if type(result) ~= "table" or result.score == nil then
    local said = (err or log or ""):gsub("%s+$", "")
    return { "was not graded (no results.json)" .. (said ~= "" and ": " .. said:sub(-600) or "") }
  end
  local max = result.extra_data and result.extra_data.max_score or 0
  for _, t in ipairs(result.tests or {}) do
    if (t.output or ""):match("^passed") and t.score < t.max_score - 1e-9 then
      problems[#problems + 1] = "'passed' next to " .. wb.format_number(t.score) .. " of " .. wb.format_number(t.max_score)
        .. " points: " .. t.name
    end
  end
  expect(not text:find("[%z\1-\9\11-\31\127]"), "the report holds a control character (an escape sequence?)")
  -- C1 controls, raw or in UTF-8 (C2 80 to C2 9F)
  expect(not text:find("[\128-\159]"), "the report holds a C1 control character (an 8-bit escape sequence?)")
  if attack.score == 0 then
    expect(result.score < 1e-9, "should score 0, scored " .. wb.format_number(result.score))
  elseif attack.score == "full" then
    -- A results.json that says the submission could not be graded holds no maximum and no
    -- test: 0 of 0 is not full marks.
    local tests = #(result.tests or {})
    expect(max > 0 and tests > 0 and result.score >= max - 1e-9, "should keep full marks, scored "
      .. wb.format_number(result.score) .. " of " .. wb.format_number(max) .. " in " .. tests .. " tests"
      .. (tests == 0 and ": " .. wb.shorten(text, 300) or ""))
  end
  if attack.build then
    local line = text:match("\nbuild: ([^\n]*)") or ""
    expect(line:match(attack.build), "build line should match '" .. attack.build .. "': " .. line)
  end
  if attack.status then
    expect(text:match(attack.status), "no check reports '" .. attack.status .. "'")
  end
  if attack.report_at_most then
    local stored = #json.encode(result)
    expect(#text <= attack.report_at_most and stored <= 2 * attack.report_at_most, string.format(
      "the report is %d bytes and results.json %d: quoted text is not cut (at most %d and %d)", #text, stored,
      attack.report_at_most, 2 * attack.report_at_most))
  end
  if attack.forks_at_most then
    local seen = 0
    for n in text:gmatch("attack: forked (%d+)") do
      seen = seen + 1
      expect(tonumber(n) <= attack.forks_at_most, "forked " .. n .. " processes, more than "
        .. attack.forks_at_most)
    end
    expect(seen > 0, "no fork count in the report")
  end
  local got, fmax = report.families(result)
  for family, want in pairs(attack.families or {}) do
    if want == "zero" then
      expect((got[family] or 0) < 1e-9, family .. " should score 0, got " .. wb.format_number(got[family] or 0))
    else
      expect(fmax[family] and got[family] >= fmax[family] - 1e-9, family .. " should keep full marks, got "
        .. wb.format_number(got[family] or 0))
    end
  end
  if attack.speed then
    local speed = got.speed or 0
    expect((fmax.speed or 0) > 0, "the speed check did not run")
    if attack.speed == "not_full" then
      expect(speed < (fmax.speed or 0) - 1e-9, "speed should not get full marks, got " .. wb.format_number(speed))
    else
      local other = all[attack.than] and report.families(all[attack.than]).speed or -1
      expect(speed <= other + 1e-9, string.format("speed %s is more than %s's %s", wb.format_number(speed), attack.than,
        wb.format_number(other)))
    end
  end
  return problems
end

-- What every attack's results must show once grading is over: results.json as it was
-- first read (a survivor would rewrite it), and no secret in anything the student sees.
local function after_grading(problems, path, first, result, secrets)
  if (wb.read_file(path) or "") ~= first then
    problems[#problems + 1] = "results.json changed after grading"
  end
  local visible = table.concat(strings_of(result), "\n")
  for _, s in ipairs(secrets) do
    if visible:find(s, 1, true) then
      problems[#problems + 1] = "results.json shows a secret: " .. wb.shorten(s, 60)
      return
    end
  end
end

-- PrairieLearn's results as the judge reads Gradescope's (points are the score), and what
-- only PrairieLearn's format must hold: a score from 0 to 1 that is points over max_points,
-- gradable a boolean.
local function from_prairielearn(result, problems)
  if type(result) ~= "table" then
    return result
  end
  if type(result.gradable) ~= "boolean" or type(result.score) ~= "number" or result.score < 0 or result.score > 1 then
    problems[#problems + 1] = "PrairieLearn's results need gradable (boolean) and score (0 to 1)"
  elseif (result.max_points or 0) > 0 and math.abs(result.score * result.max_points - result.points) > 1e-6 then
    problems[#problems + 1] = "score is not points / max_points"
  end
  local tests = {}
  for i, t in ipairs(result.tests or {}) do
    tests[i] = { name = t.name, score = t.points, max_score = t.max_points, output = (t.message or "") .. "\n" .. (t.output or "") }
  end
  return { score = result.points, output = result.output, extra_data = { max_score = result.max_points }, tests = tests }
end

-- Emulates a platform (grader/gradescope.lua's PLATFORMS: gradescope, prairielearn) for each
-- attack (and the reference and the stubs): the platform's tree in a folder bind-mounted on its
-- root (/autograder, /grade) in a private mount namespace (root only), the attack's file where
-- the platform puts the student's, its entrypoint run as the platform runs it.
-- opts: chapter (id), level, out, platform, tree (the zip, or the folder made by make
-- prairielearn), names (attacks to run, each after any it is compared with), speed_lines (the
-- attacks on the speed check are graded with it, on a speed input of that many stacks; default:
-- the rubric's). Returns a list of { name, problems, result (the platform's results, as
-- Gradescope's) }.
local function emulate(opts)
  local platforms = require("grader.gradescope")
  local layout = platforms.PLATFORMS[opts.platform]
  local chapter = engine.load_chapter(opts.chapter)
  local function place(key)
    return (layout[key]:gsub("CHAPTER", chapter.id))
  end
  local mount = place("PRIVATE"):match("^%S+")
  local source, results, submission = place("SOURCE"), place("RESULTS"), place("SUBMISSION")
  local file = chapter.exercise.student_files[1]
  local dir = wb.realpath("grader/" .. chapter.id .. "/attacks")
  local attacks = assert(wb.load_data(dir .. "/attacks.lua"))
  local by_name = {}
  for _, a in ipairs(attacks) do
    by_name[a.name] = a
  end
  by_name.reference = { name = "reference", kind = "copy", from = chapter.exercise.solution .. "/" .. file,
    score = "full" }
  by_name.stubs = { name = "stubs", kind = "copy", from = chapter.exercise.dir .. "/" .. file, score = 0 }
  local root = opts.out .. mount
  local function inside(path)
    return root .. path:sub(#mount + 1)
  end
  wb.rm_rf(root)
  wb.mkdir_p(inside(source))
  if opts.tree:match("%.zip$") then
    wb.run("unzip -q " .. wb.quote(opts.tree) .. " -d " .. wb.quote(inside(source)))
  else
    wb.run("cp -a " .. wb.quote(opts.tree) .. "/. " .. wb.quote(inside(source)))
  end
  -- Gradescope runs /autograder/run_autograder, a copy of the zip's; PrairieLearn the one in place.
  local entry = source .. "/" .. layout.ENTRY
  if layout.zip then
    entry = mount .. "/" .. layout.ENTRY
    wb.copy(inside(source .. "/" .. layout.ENTRY), inside(entry))
  end
  root = wb.realpath(root)
  local secret = new_secret()
  local secrets = secret_lines(chapter)
  secrets[#secrets + 1] = secret
  local made_mountpoint = not wb.is_dir(mount) and wb.run("mkdir " .. mount)
  -- What the platform's setup.sh does in its image besides installing packages (Gradescope's:
  -- the seed pool), with a pool of two on the speed input the attacks are graded with.
  if (layout.MAKE_POOL or "") ~= "" then
    local script, log = opts.out .. "/setup-pool.sh", opts.out .. "/setup-pool.log"
    wb.write_file(script, "set -e\n" .. platforms.script(layout.MAKE_POOL, layout, chapter))
    local ok = wb.run(string.format("POOL=2 %sGRADE_ISOLATION=%s unshare -m --propagation private "
      .. "sh -c 'mount --bind %s %s && exec bash %s' > %s 2>&1",
      opts.speed_lines and "SPEED_LINES=" .. opts.speed_lines .. " " or "", opts.level, wb.quote(root), mount,
      wb.quote(script), wb.quote(log)))
    assert(ok, "the seed pool of setup.sh: " .. (wb.read_file(log) or ""))
  end
  local outcomes, graded = {}, {}
  for _, name in ipairs(opts.names) do
    local attack = assert(by_name[name], "no attack " .. name)
    wb.rm_rf(inside(submission))
    wb.rm_rf(inside(results))
    local nested = inside(submission) .. (layout.zip and "/nested" or "")
    wb.mkdir_p(nested)
    write_submission(chapter, dir, attack, nested .. "/" .. file, source, results,
      source .. "/grader/" .. chapter.id .. "/fixtures")
    local log = opts.out .. "/" .. name .. ".log"
    local speed = attack.with_speed and (opts.speed_lines and "SPEED_LINES=" .. opts.speed_lines .. " " or "")
      or "GRADE_NO_SPEED=1 "
    wb.run(string.format("GRADE_ISOLATION=%s %sGRADE_TEST_SECRET=%s unshare -m --propagation private "
      .. "sh -c 'mount --bind %s %s && exec bash %s' > %s 2>&1", opts.level, speed, secret, wb.quote(root), mount,
      entry, wb.quote(log)))
    local path = inside(results) .. "/results.json"
    local first = wb.read_file(path) or ""
    local result = json.decode(first ~= "" and first or "null")
    local problems = {}
    local seen = layout.zip and result or from_prairielearn(result, problems)
    local text = type(seen) == "table" and seen.output or ""
    graded[name] = seen
    local designed = at_level(attack, opts.level)
    if not layout.zip then
      designed.families = {} -- PrairieLearn's tests name no family: scores and secrets are judged
    end
    for _, problem in ipairs(judge(designed, seen, text, graded, nil, wb.read_file(log))) do
      problems[#problems + 1] = problem
    end
    wb.run("sleep 1")
    after_grading(problems, path, first, result, secrets)
    if not wb.capture("stat -c %a " .. wb.quote(inside(source))):match("^700") then
      problems[#problems + 1] = source .. " is not private to root while grading"
    end
    outcomes[#outcomes + 1] = { name = name, problems = problems, result = seen }
  end
  if made_mountpoint then
    wb.run("rmdir " .. mount)
  end
  return outcomes
end

-- Calls fn() and gives the repository (the current folder) its mode back after, also when fn
-- raises: at the user level the grader makes it private (chmod 700). Returns fn's result.
function M.mode_kept(fn)
  local mode = wb.capture("stat -c %a ."):match("%d+")
  local ok, result = pcall(fn)
  wb.run("chmod " .. mode .. " .")
  if not ok then
    error(result, 0)
  end
  return result
end

function M.platform(opts)
  -- In the platform's container only its tree exists. Here the repository is beside it, and at
  -- the user level the grader rightly refuses to grade while other users may read its
  -- solutions/ (a clone is readable by all): it stays private while the emulation grades.
  if opts.level == "user" then
    return M.mode_kept(function()
      wb.run("chmod go-rwx .")
      return emulate(opts)
    end)
  end
  return emulate(opts)
end

-- Grades the attacks of every chapter (or opts.chapter) at isolation `level`. opts: level,
-- out, seed, fixtures (a small fixture folder), speed_lines. Returns a list of { name, problems }.
function M.run(opts)
  local root = wb.realpath(".")
  local before = M.repository_fingerprint()
  local secret = new_secret()
  local outcomes = {}
  for _, id in ipairs(engine.chosen(opts.chapter)) do
    if wb.exists("grader/" .. id .. "/attacks/attacks.lua") then
      local chapter = engine.load_chapter(id)
      local subs, out = opts.out .. "/submissions", opts.out .. "/graded"
      wb.rm_rf(subs)
      wb.rm_rf(out)
      local plain, timed = lay_out(chapter, subs, root, out, wb.realpath(opts.fixtures))
      local env = string.format("GRADE_ISOLATION=%s FIXTURES=%s GRADE_TEST_SECRET=%s", opts.level,
        wb.quote(opts.fixtures), secret)
      for _, batch in ipairs({ { "plain", plain, "GRADE_NO_SPEED=1 " }, { "speed", timed, "" } }) do
        if #batch[2] > 0 then
          local log = opts.out .. "/" .. batch[1] .. ".log"
          wb.run(string.format("%s %s%s grader/batch.lua %s --chapter %s --skip-reference --out %s --seed %d %s > %s 2>&1",
            env, batch[3], LUA, wb.quote(subs .. "/" .. batch[1]), id, wb.quote(out .. "." .. batch[1]), opts.seed,
            opts.speed_lines and ("--speed-lines " .. opts.speed_lines) or "", wb.quote(log)))
          -- Move each attack's results where its @OUT@ said they would be.
          for _, attack in ipairs(batch[2]) do
            wb.mkdir_p(out)
            wb.run("mv " .. wb.quote(out .. "." .. batch[1] .. "/" .. attack.name) .. " " .. wb.quote(out .. "/"
              .. attack.name) .. " 2>/dev/null")
          end
        end
      end
      local results, texts, first_read, errors = {}, {}, {}, {}
      local all = {}
      for _, list in ipairs({ plain, timed }) do
        for _, attack in ipairs(list) do
          all[#all + 1] = attack
          first_read[attack.name] = wb.read_file(out .. "/" .. attack.name .. "/results.json") or ""
          results[attack.name] = json.decode(first_read[attack.name] ~= "" and first_read[attack.name] or "null")
          texts[attack.name] = wb.read_file(out .. "/" .. attack.name .. "/" .. id .. "/report.txt") or ""
          errors[attack.name] = wb.read_file(out .. "." .. (attack.with_speed and "speed" or "plain") .. "/"
            .. attack.name .. ".err")
        end
      end
      wb.run("sleep 3") -- a survivor would act now
      local secrets = secret_lines(chapter)
      -- The answers of a fixture: its sha256 line is in no file the student has.
      local answers_dir = wb.realpath(opts.fixtures) .. "/expected"
      local first = (wb.list_dir(answers_dir) or {})[1]
      local expected = first and wb.read_file(answers_dir .. "/" .. first) or ""
      secrets[#secrets + 1] = expected:match("\n(sha256 %x+)\n")
      secrets[#secrets + 1] = secret
      for _, attack in ipairs(all) do
        local problems = judge(at_level(attack, opts.level), results[attack.name], texts[attack.name], results,
          errors[attack.name])
        after_grading(problems, out .. "/" .. attack.name .. "/results.json", first_read[attack.name],
          results[attack.name], secrets)
        outcomes[#outcomes + 1] = { name = id .. "/" .. attack.name, problems = problems }
      end
    end
  end
  local machine = {}
  local survivors = {}
  for pid in wb.capture("ps -eo pid=,comm= | awk '$2 == \"drip-attack\" { print $1 }'"):gmatch("%d+") do
    survivors[#survivors + 1] = pid
  end
  if #survivors > 0 then
    machine[#machine + 1] = #survivors .. " attack process(es) survived the grading"
    wb.run("kill -KILL " .. table.concat(survivors, " ") .. " 2>/dev/null")
  end
  for _, marker in ipairs(MARKERS) do
    if wb.run("test -e " .. wb.quote(marker) .. " -o -L " .. wb.quote(marker)) then
      machine[#machine + 1] = "an attack left " .. marker
      wb.run("rm -f " .. wb.quote(marker))
    end
  end
  -- System V objects a sandbox uid created or owns (IPC_SET can give one away, never its
  -- creator): the uid and cuid columns of each table (see sandbox_box.c).
  local ipc = wb.capture("awk 'FNR > 1 && (FILENAME ~ /sem$/ ? ($5 >= 2000000000 || $7 >= 2000000000) : "
    .. "($8 >= 2000000000 || $10 >= 2000000000))' /proc/sysvipc/shm /proc/sysvipc/sem /proc/sysvipc/msg 2>/dev/null")
  if ipc:match("%S") then
    machine[#machine + 1] = "System V objects of a sandbox uid are left: " .. ipc
  end
  if M.repository_fingerprint() ~= before then
    machine[#machine + 1] = "the repository's files changed during the attacks"
  end
  outcomes[#outcomes + 1] = { name = "the machine after the attacks", problems = machine }
  return outcomes
end

return M
