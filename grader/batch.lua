-- batch.lua: `make grade SUBMISSIONS=dir/` grades every folder in dir/.
--
--   lua5.4 grader/batch.lua DIR [--chapter N] [--out OUT] [--seed N] [--speed-lines N]
--                           [--jobs N] [--skip-reference] [--force]
--
-- Each sub-folder of DIR is one submission (the student's files may sit a
-- few folders deeper, as LMS downloads nest them). Submissions are graded in
-- parallel by one grade.lua --job worker per core, each submission in its own
-- folder and its grade in a pcall, so a submission that crashes, hangs or does
-- not compile costs only its own row. Everything shares one seed, printed, so
-- all students get the same randomised inputs and SEED=n repeats the batch.
--
-- Written to OUT (default build/grade/batch):
--   NAME/results.json, NAME/CHAPTER/report.txt   per submission
-- (with several chapters and no CHAPTER=N, a batch each, in OUT/CHAPTER/)
--   NAME.err                                     when a submission could not be graded
--   scores.csv                                   one row per submission
--   grades.csv                                   student, points, max_points: for an LMS's
--                                                gradebook import (--ids FILE names the students)
--   failures.txt                                 the checks most often failed
--   similarity/                                  the pairs most alike (grader/similarity.lua)
--   index.html                                   the dashboard of all of it (grader/dashboard.lua)
-- Before the batch, the reference solution is graded once: it must score
-- full marks (else the fixtures are wrong) and it measures the speed baseline
-- (--skip-reference leaves that out, for verify.lua, which grades it anyway).
--
-- An interrupted batch resumes: each results.json records a key, the hash of everything its
-- grade depends on (the submission's files, the seed, the options, the isolation level, the
-- grader, harness, chapter and fixture files); a re-run into the same OUT keeps every result
-- whose key is unchanged and grades the rest, with the earlier run's seed unless one is
-- given. Results are written whole or not at all (written aside, then renamed), so a kill
-- leaves no half result. --force (FORCE=1) regrades everything.

local wb = require("vm.lib.workbook")
local engine = require("grader.engine")
local report = require("grader.report")
local lfs = require("lfs")

local M = {}

-- The folder holding `file` inside a submission folder (up to 3 levels), or
-- the submission folder itself when the file is nowhere, and a note for scores.csv when
-- the choice needs the instructor's eye (several copies found, none found, an archive
-- left packed). Paths are NUL-separated all the way: a student's folder may be named
-- "x<newline>./solutions/N", and one path per line would then sort the reference's
-- file first.
function M.locate(folder, file)
  local found = wb.capture("find " .. wb.quote(folder) .. " -maxdepth 4 -type f -name " .. wb.quote(file)
    .. " -print0 2>/dev/null | LC_ALL=C sort -z")
  local paths = {}
  for path in found:gmatch("([^%z]+)%z") do
    paths[#paths + 1] = path
  end
  if #paths == 0 then
    local archives = wb.capture("find " .. wb.quote(folder) .. " -maxdepth 4 -type f \\( -iname '*.zip' -o -iname "
      .. "'*.tar*' -o -iname '*.tgz' \\) 2>/dev/null | head -n 1")
    return folder, "no " .. file .. " in the folder or 3 folders below it"
      .. (archives ~= "" and " (it holds an archive: unpack it in place and grade again)" or "")
  end
  return wb.dirname(paths[1]), #paths > 1 and string.format("%d copies of %s; graded %s", #paths, file,
    paths[1]:sub(#folder + 2)) or nil
end

-- Names the batch gives its own files in OUT, beside the submissions' folders: a submission
-- folder named scores.csv made the summary fail for everyone, and one named bob.err
-- collided with bob's messages file (whichever of the two came second was not graded).
local OWN = { ["scores.csv"] = true, ["grades.csv"] = true, ["failures.txt"] = true, similarity = true,
  ["index.html"] = true }
local function reserved(name)
  return OWN[name] or name:match("%.err$") ~= nil
end

-- One field of scores.csv. Names and messages in it are the students' (folder names, the
-- paths of their files, their compiler's words), and the file is opened in a spreadsheet:
--   * cut to report.QUOTE bytes, the grader's one limit for quoted text;
--   * a field starting with = + - @ TAB or CR is a formula to a spreadsheet (a folder named
--     "=2+5" showed 7), so it gets a leading "'" (OWASP's rule for CSV injection), checked on
--     the raw text, before escaping turns a TAB into "\t";
--   * control bytes (ESC, BEL: a terminal's `cat scores.csv` obeys them) and bytes past 0x7e
--     are written in the workbook's one escape dialect, wb.escape (\\ \t \n \r \xHH), so a
--     field holds no byte below 0x20 and a row stays one line;
--   * then quoted, as CSV does, when it holds a comma or a double quote.
local function csv_field(s)
  s = wb.shorten(tostring(s), report.QUOTE)
  if s:find("^[=+%-@\t\r]") then
    s = "'" .. s
  end
  s = wb.escape(s)
  if s:find('[,"]') then
    return '"' .. s:gsub('"', '""') .. '"'
  end
  return s
end

-- The entries of a SUBMISSIONS folder: its names (dot-files left out, sorted), and which of
-- them are symbolic links or loose files (both listed, neither graded).
function M.list(dir)
  local names = wb.must(wb.list_dir(dir), "SUBMISSIONS folder " .. dir .. " does not exist")
  local subs, linked, loose = {}, {}, {}
  for _, name in ipairs(names) do
    if not name:match("^%.") then
      subs[#subs + 1] = name
      -- A sub-folder that is a symbolic link may point anywhere the grader (root) can read:
      -- solutions/N, or another student's folder. It is listed, not graded.
      linked[name] = lfs.symlinkattributes(dir .. "/" .. name, "mode") == "link"
      -- A file beside the folders (an LMS's flat download, a zip left packed) is listed
      -- too: skipping it silently would leave a student without a row.
      loose[name] = not linked[name] and not wb.is_dir(dir .. "/" .. name)
    end
  end
  wb.must(#subs > 0, "SUBMISSIONS folder " .. dir .. " has no sub-folder (one folder per submission)")
  return subs, linked, loose
end

-- Grades every submission; returns the list of rows (name, score, max, error).
function M.run(opts)
  local dir = opts.dir:gsub("/+$", "")
  local subs, linked, loose = M.list(dir)
  local ids = opts.ids and M.read_ids(opts.ids) -- a bad file stops the batch before it grades
  engine.require_tools()
  -- One isolation level for the whole batch, chosen once: at the user level the
  -- submissions must be as private as the repository.
  local chosen = engine.choose_isolation(wb.realpath(dir))
  local out = opts.out
  wb.mkdir_p(out)
  local id = opts.chapter
  local chapter = engine.load_chapter(id)
  local earlier = not opts.force and tonumber(wb.read_file(out .. "/.seed") or "")
  local seed, pool = engine.seed_for(chapter, opts)
  if earlier and not opts.seed_given then
    seed, pool = earlier, nil
  end
  wb.write_file(out .. "/.seed", seed .. "\n")
  local extra = (opts.speed_lines and ("--speed-lines " .. opts.speed_lines) or "") .. " --isolation " .. chosen.level
  local lua = os.getenv("LUA") or "lua5.4"

  -- The reference first: a fixture problem stops here, once, and the speed
  -- baseline is measured before the parallel jobs need it.
  local student_file = chapter.exercise.student_files[1]

  -- Where each submission's files are, and its key.
  local folders, notes, keys = {}, {}, {}
  for _, name in ipairs(subs) do
    if not (loose[name] or linked[name] or reserved(name)) then
      folders[name], notes[name] = M.locate(dir .. "/" .. name, student_file)
    end
  end
  local stamp = M.stamp(chapter, seed, extra)
  local student_paths = {}
  for _, folder in pairs(folders) do
    for _, file in ipairs(chapter.exercise.student_files) do
      student_paths[#student_paths + 1] = folder .. "/" .. file
    end
  end
  local hashes = wb.sha256_many(student_paths)
  for name, folder in pairs(folders) do
    local parts = { stamp }
    for _, file in ipairs(chapter.exercise.student_files) do
      parts[#parts + 1] = hashes[folder .. "/" .. file] or "missing"
    end
    keys[name] = table.concat(parts, ":")
  end
  -- --force keeps nothing: no key is the one a result records.
  local kept = M.keep(out, subs, opts.force and {} or keys)

  if not opts.skip_reference and kept.count < #subs then
    local ref_json = out .. "/.reference-" .. id .. ".json"
    local ok = wb.run(string.format("%s grader/grade.lua --chapter %s --submission %s --out %s --json %s --seed %d %s --quiet",
      lua, id, wb.quote(chapter.exercise.solution), wb.quote(out .. "/.reference"), wb.quote(ref_json), seed, extra))
    wb.must(ok, "the reference solution could not be graded (see the message above)")
    local ref = report.read_json(ref_json) or {}
    if ref.score == nil or ref.extra_data == nil or ref.score < ref.extra_data.max_score - 1e-9 then
      io.stderr:write(string.format("warning: the reference solution scores %s of %s on chapter %s; "
        .. "check the fixtures with `make verify-fixtures`\n", tostring(ref.score),
        tostring(ref.extra_data and ref.extra_data.max_score), id))
    end
  end

  -- The jobs: OUT/.jobs holds INDEX, NAME, FOLDER and KEY of each, each ended by a NUL (any
  -- byte but "/" may be in a folder's name); a worker takes a job by its INDEX and grades it
  -- into OUT/.job-INDEX, renamed to OUT/NAME when it is done (follow). So no command line
  -- names a submission while student code runs: at the user level every uid may read every
  -- process's command line in /proc, and a batch's names are the students' (grade.lua --job).
  local jobs, queued = {}, {}
  for _, name in ipairs(subs) do
    local why = loose[name] and "a file, not a folder (one folder per submission: unpack an archive, or put "
        .. "the file in a folder of its own)"
      or reserved(name) and "the batch writes a file named " .. name .. " itself; rename the folder"
      or linked[name] and name .. " is a symbolic link, not a folder (it could point at the reference or "
        .. "another submission); copy the folder itself"
    if why then
      wb.write_file(out .. "/" .. name .. ".err", "not graded: " .. why .. "\n")
    elseif not kept[name] then
      queued[#queued + 1] = name
      jobs[#jobs + 1] = M.job_record(#queued, name, folders[name], keys[name])
    end
  end
  wb.write_file(out .. "/.jobs", table.concat(jobs))
  -- Workers, one per submission graded at once (grade.lua --job): each grades the jobs no
  -- other took, one after another, keeping what every grade needs besides the submission
  -- (the chapter, its fixtures, the reference, the run's plan and answers), and prints each
  -- INDEX when it is done: the batch's progress reads them as they come.
  local script = string.format([[%s grader/grade.lua --chapter %s --job "%s/.jobs" --seed %d %s --jobs 1 --quiet ]]
    .. [[2> "%s/.worker-$1.err"]], lua, id, out, seed, extra, out)
  -- Submissions in parallel, each grade's checks one by one; but at the user level no
  -- namespace keeps two submissions apart (their checks would share the machine's IPC
  -- objects, /tmp and /dev/shm while they run), so there one check runs at a time.
  local jobs_n = chosen.level == "user" and 1 or (opts.jobs or wb.nproc())
  local workers = {}
  for k = 1, math.min(jobs_n, #queued) do
    workers[k] = k .. "\n"
  end
  wb.write_file(out .. "/.workers", table.concat(workers))
  if kept.count > 0 then
    print(string.format("kept %d results of an earlier run into %s (their submissions, the seed, the grader and "
      .. "the fixtures are unchanged; FORCE=1 grades them again)", kept.count, out))
  end
  print(string.format("grading %d submissions from %s, %d at a time, seed %d%s (SEED=%d repeats it)", #queued, dir,
    #workers, seed, pool and string.format(", one of the seed pool's %d", pool) or "", seed))
  local pipe = io.popen(string.format("xargs -r -a %s -n 1 -P %d sh -c %s _", wb.quote(out .. "/.workers"),
    math.max(#workers, 1), wb.quote(script)))
  local done = M.follow(pipe, out, queued)
  pipe:close()
  M.name_unfinished(out, queued, done, #workers)
  return M.summarise(out, subs, notes, ids)
end

-- After the workers: a job none of them reported (a worker that died while grading it, or
-- never started) gets its submission's name like the others, with what the workers said; the
-- workers' marks of the jobs they took go.
function M.name_unfinished(out, names, done, workers)
  local said = {}
  for k = 1, workers do
    local text = wb.read_file(out .. "/.worker-" .. k .. ".err") or ""
    if text ~= "" then
      said[#said + 1] = text:gsub("\n+$", "")
    end
    os.remove(out .. "/.worker-" .. k .. ".err")
  end
  for index, name in ipairs(names) do
    wb.rm_rf(out .. "/.taken-" .. index)
    if not done[index] then
      wb.write_file(out .. "/.job-" .. index .. ".err", "not graded: its grader stopped before it was done"
        .. (#said > 0 and (": " .. table.concat(said, "; ")) or "") .. "\n")
      M.name_job(out, index, name)
    end
  end
end

-- The hash of what every grade of the batch depends on besides the submission's own files.
function M.stamp(chapter, seed, extra)
  local id = chapter.id
  local roots = { "grader", "exercises/harness", "exercises/" .. id, "solutions/" .. id, "vm/lib",
    require("grader.fixtures").folder(id) }
  local listed = wb.capture("find " .. wb.command(roots) .. " -type f ! -name '*.tmp*' -print0 2>/dev/null | LC_ALL=C sort -z")
  local paths = {}
  for path in listed:gmatch("([^%z]+)%z") do
    paths[#paths + 1] = path
  end
  local lines = { "chapter " .. id, "seed " .. seed, "options " .. extra, "GRADE_NO_SPEED " .. (os.getenv("GRADE_NO_SPEED") or "") }
  return wb.content_hash(lines, paths):sub(1, 32)
end

-- Clears OUT of everything but the results to keep: a submission's folder stays when its
-- results.json records the key it would get now. Returns the kept names (and .count).
function M.keep(out, subs, keys)
  local kept, count = {}, 0
  for _, name in ipairs(subs) do
    local result = keys[name] and report.read_json(out .. "/" .. name .. "/results.json")
    if type(result) == "table" and type(result.extra_data) == "table" and result.extra_data.grade_key == keys[name] then
      kept[name], count = true, count + 1
    end
  end
  for _, entry in ipairs(wb.list_dir(out) or {}) do
    if not kept[entry] and entry ~= ".seed" then
      wb.rm_rf(out .. "/" .. entry)
    end
  end
  kept.count = count
  return kept
end

-- "m:ss" or "h:mm:ss".
local function clock(seconds)
  seconds = math.floor(seconds + 0.5)
  local h, m, sec = seconds // 3600, seconds // 60 % 60, seconds % 60
  return h > 0 and string.format("%d:%02d:%02d", h, m, sec) or string.format("%d:%02d", m, sec)
end

-- Whether a line the batch printed is a progress line (progress_line's, "[N/M] ...").
function M.is_progress_line(line)
  return line:match("^%[%d+/%d+%] ") ~= nil
end

-- The progress line after `done` of `total` submissions, the last one `name` with what its
-- results.json says (nil: none was written), `trouble` of them not built or not graded.
function M.progress_line(done, total, name, result, trouble, elapsed)
  local score = "not graded (see its .err file)"
  if type(result) == "table" and type(result.score) == "number" then
    local data = type(result.extra_data) == "table" and result.extra_data or {}
    score = string.format("%s of %s%s", wb.format_number(result.score), data.max_score and wb.format_number(data.max_score) or "?",
      data.build_ok == false and ", did not build" or "")
  end
  local left = done < total and string.format(", about %s left", clock(elapsed / done * (total - done))) or ""
  return string.format("[%d/%d] %s: %s (%d not built or not graded; %s elapsed%s)", done, total,
    wb.escape(wb.shorten(name, report.QUOTE)), score, trouble, clock(elapsed), left)
end

-- One job of the jobs file: INDEX, NAME, FOLDER and KEY, each ended by a NUL (a folder's
-- name may hold any byte but "/" and NUL).
function M.job_record(index, name, folder, key)
  return table.concat({ index, name, folder, key }, "\0") .. "\0"
end

-- The jobs of the jobs file `path` (grade.lua --job), in order: each one's index, folder and
-- key, and the folder it grades into, .job-INDEX beside the file; nil and why when the file
-- cannot be read.
function M.jobs(path)
  local text = wb.read_file(path)
  if not text then
    return nil, "the jobs file " .. path .. " cannot be read"
  end
  local list = {}
  for i, _, folder, key in text:gmatch("(%d+)\0([^\0]*)\0([^\0]*)\0([^\0]*)\0") do
    list[#list + 1] = { index = tonumber(i), folder = folder, key = key, out = wb.dirname(path) .. "/.job-" .. i }
  end
  return list
end


-- A job's folder, OUT/.job-INDEX, and its messages, OUT/.job-INDEX.err (if it wrote any),
-- take the submission's name once the job is done; a move that fails is the job's message.
function M.name_job(out, index, name)
  local job, err_path = out .. "/.job-" .. index, out .. "/" .. name .. ".err"
  local moved, why = true, nil
  if wb.is_dir(job) then
    moved, why = os.rename(job, out .. "/" .. name)
  end
  local err = wb.read_file(job .. ".err")
  os.remove(job .. ".err")
  if not moved then
    err = (err or "") .. "not graded: its results could not be moved into place: " .. tostring(why) .. "\n"
  end
  if err and err ~= "" then
    wb.write_file(err_path, err)
  end
end

-- Prints a line as each job of `pipe` (one INDEX per line) finishes: on a terminal one line
-- rewritten in place, else one line per submission (a log, a CI job). Returns the set of the
-- indices reported.
function M.follow(pipe, out, names)
  local terminal = os.execute("test -t 1") == true
  local start, done, trouble, reported = os.time(), 0, 0, {}
  for line in pipe:lines() do
    local index = tonumber(line)
    local name = index and not reported[index] and names[index]
    if name then
      reported[index] = true
      M.name_job(out, index, name)
      done = done + 1
      local result = report.read_json(out .. "/" .. name .. "/results.json")
      local built = type(result) == "table" and type(result.extra_data) == "table" and result.extra_data.build_ok
      trouble = trouble + ((type(result) == "table" and built ~= false) and 0 or 1)
      local line = M.progress_line(done, #names, name, result, trouble, os.difftime(os.time(), start))
      io.stdout:write(terminal and ("\r\27[K" .. line) or (line .. "\n"))
      io.stdout:flush()
    end
  end
  if terminal and done > 0 then
    io.stdout:write("\n")
  end
  return reported
end

-- The mapping file of --ids (LMS_IDS=file): one line per submission, "FOLDER,IDENTIFIER" (or
-- a TAB between), the identifier the LMS knows the student by (a login, an email, an SIS id).
-- Returns identifier by folder name; a line without both, or a folder twice, is an error
-- naming the file and the line.
function M.read_ids(path)
  local text = wb.must(wb.read_file(path), "LMS_IDS file " .. path .. " cannot be read")
  local ids = {}
  for number, line in ipairs(wb.split_lines(text)) do
    line = line:gsub("\r$", "")
    local folder, id = line:match("^([^,\t]+)[,\t]%s*([^,\t]-)%s*$")
    if line:find("%S") and not (folder and id ~= "") then
      wb.fail(string.format("%s:%d: expected FOLDER,IDENTIFIER, got %s", path, number,
        wb.escape(wb.shorten(line, report.QUOTE))))
    elseif folder and ids[folder] then
      wb.fail(string.format("%s:%d: %s is named twice", path, number, wb.escape(wb.shorten(folder, report.QUOTE))))
    elseif folder then
      ids[folder] = id
    end
  end
  return ids
end

-- Reads every results.json and writes scores.csv, grades.csv and failures.txt. notes[name]: what the
-- search for the student's file found worth saying (the error column says it, with why a
-- build failed: a 0 with an empty error column is a 0 for the answers).
function M.summarise(out, subs, notes, ids)
  notes = notes or {}
  local rows, failed, seen, group_list, built_count = {}, {}, {}, {}, 0
  -- For the dashboard, over the submissions that built: each check's passes, the checks'
  -- outcomes, and the first differences (check and key) by how many submissions show them.
  local checks, check_list, outcomes, differences = {}, {}, {}, {}
  for _, name in ipairs(subs) do
    local result = report.read_json(out .. "/" .. name .. "/results.json")
    local row = { name = name, groups = {} }
    if type(result) == "table" and type(result.tests) == "table" then
      -- A submission that did not build fails every check: counting it would bury the checks
      -- that code which runs gets wrong under ties of "every submission that did not build".
      local data = type(result.extra_data) == "table" and result.extra_data or {}
      local built = data.build_ok ~= false
      built_count = built_count + (built and 1 or 0)
      row.score = result.score
      row.max = data.max_score or 0
      local got, _, order = report.families(result)
      row.groups = got
      for _, group in ipairs(order) do
        if not seen[group] then
          seen[group] = true
          group_list[#group_list + 1] = group
        end
      end
      for _, t in ipairs(result.tests) do
        if built then
          if t.score < t.max_score then
            failed[t.name] = (failed[t.name] or 0) + 1
          end
          local c = checks[t.name]
          if not c then
            c = { name = t.name, passed = 0, total = 0 }
            checks[t.name], check_list[#check_list + 1] = c, c
          end
          c.total, c.passed = c.total + 1, c.passed + (t.score >= t.max_score - 1e-9 and 1 or 0)
          local outcome = type(t.extra_data) == "table" and t.extra_data.outcome or t.status
          outcomes[outcome] = (outcomes[outcome] or 0) + 1
          local key = tostring(t.output or ""):match("\nfirst difference at (.-):\n")
          if key then
            local id = t.name .. "\0" .. key
            differences[id] = differences[id] or { check = t.name, key = key, n = 0 }
            differences[id].n = differences[id].n + 1
          end
        end
      end
      local why = { notes[name] }
      if data.build_error and not (notes[name] or ""):match("^no ") then
        why[#why + 1] = "build: " .. tostring(data.build_error)
      end
      row.error = #why > 0 and table.concat(why, " | ") or nil
    else
      local err = wb.read_file(out .. "/" .. name .. ".err") or "no results.json"
      row.error = err:gsub("\n+$", ""):gsub("\n", " | ")
    end
    rows[#rows + 1] = row
  end
  -- scores.csv, and grades.csv for the LMS: a submission not graded has no points in either (an
  -- import leaves its grade alone).
  local csv = { "submission,score,max_score," .. table.concat(group_list, ",") .. ",error" }
  local grades, unmapped = { "student,points,max_points" }, 0
  for _, row in ipairs(rows) do
    local points = wb.format_number(row.score) .. "," .. wb.format_number(row.max)
    local fields = { csv_field(row.name), points }
    for _, g in ipairs(group_list) do
      fields[#fields + 1] = wb.format_number(row.groups[g])
    end
    fields[#fields + 1] = csv_field(row.error or "")
    csv[#csv + 1] = table.concat(fields, ",")
    unmapped = unmapped + ((ids and not ids[row.name]) and 1 or 0)
    grades[#grades + 1] = csv_field(ids and ids[row.name] or row.name) .. "," .. points
  end
  wb.write_file(out .. "/scores.csv", table.concat(csv, "\n") .. "\n")
  wb.write_file(out .. "/grades.csv", table.concat(grades, "\n") .. "\n")
  if unmapped > 0 then
    io.stderr:write(string.format("warning: %d submission folders are not in the LMS_IDS file; grades.csv names "
      .. "them by their folder\n", unmapped))
  end

  local ranking = {}
  for title, n in pairs(failed) do
    ranking[#ranking + 1] = { title = title, n = n }
  end
  table.sort(ranking, function(a, b)
    return a.n > b.n or (a.n == b.n and a.title < b.title)
  end)
  local lines = { string.format("checks most often failed (of the %d submissions that built; %d did not build "
    .. "or were not graded: scores.csv's error column says why):", built_count, #rows - built_count) }
  for i, r in ipairs(ranking) do
    if i > 15 then
      break
    end
    lines[#lines + 1] = string.format("%5d  %s", r.n, r.title)
  end
  wb.write_file(out .. "/failures.txt", table.concat(lines, "\n") .. "\n")
  local stats = { rows = rows, checks = check_list, outcomes = {}, differences = {} }
  for name, n in pairs(outcomes) do
    stats.outcomes[#stats.outcomes + 1] = { name = name, n = n }
  end
  stats.outcomes[#stats.outcomes + 1] = { name = "(submissions not built or not graded)", n = #rows - built_count }
  for _, d in pairs(differences) do
    stats.differences[#stats.differences + 1] = d
  end
  local function by_count(a, b)
    return a.n > b.n or (a.n == b.n and (a.name or a.check .. a.key) < (b.name or b.check .. b.key))
  end
  table.sort(stats.outcomes, by_count)
  table.sort(stats.differences, by_count)
  return rows, lines, stats
end

local function main(argv)
  local parser = wb.parser("batch.lua", "Grades every folder of DIR (make grade SUBMISSIONS=DIR/).")
  parser:argument("dir", "one sub-folder per submission")
  parser:option("--out", "where the results go", engine.root .. "/batch")
  parser:option("--seed", "the seed of the randomised checks (default: SEED, else a fresh one)")
    :convert(wb.to_integer)
  parser:option("--speed-lines", "stacks in the speed input"):convert(wb.to_integer)
  parser:option("--jobs", "submissions at once (default: one per core)"):convert(wb.to_integer)
  parser:flag("--skip-reference", "do not grade the reference first")
  parser:flag("--force", "grade every submission again (default: FORCE=1), keeping no earlier result")
  parser:option("--ids", "the LMS's student identifiers: a file of FOLDER,IDENTIFIER lines (default: LMS_IDS)")
  parser:option("--base", "past submissions: base code for the similarity section, like the stub")
  parser:option("--chapter", "this chapter only (default: CHAPTER, else each chapter on its own)")
  local opts = wb.parse(parser, argv)
  opts.force = opts.force or os.getenv("FORCE") == "1"
  opts.ids = opts.ids or ((os.getenv("LMS_IDS") or "") ~= "" and os.getenv("LMS_IDS") or nil)
  opts = engine.seed_and_lines(opts)
  local ids = engine.chosen(opts.chapter)
  local out = opts.out
  for _, id in ipairs(ids) do
    opts.chapter, opts.out = id, #ids > 1 and (out .. "/" .. id) or out
    local rows, failures, stats = M.run(opts)
    local graded = 0
    for _, row in ipairs(rows) do
      if row.score then
        graded = graded + 1
      end
    end
    print(table.concat(failures, "\n"))
    local similar = require("grader.similarity").section(opts.dir, id, opts.out .. "/similarity", opts.base)
    print(table.concat(similar, "\n"))
    stats.chapter, stats.similarity = id, similar
    require("grader.dashboard").write(opts.out, stats)
    print(string.format("chapter %s: graded %d of %d submissions; scores: %s/scores.csv", id, graded, #rows,
      opts.out))
  end
end

-- Run as a script, not required: grader/similarity.lua requires this file while the batch runs
-- (arg[0] is still batch.lua then, and `...` is the module's name).
if arg and arg[0] and arg[0]:match("batch%.lua$") and (...) ~= "grader.batch" then
  wb.exit_with("make grade: could not grade", main, arg)
end

return M
