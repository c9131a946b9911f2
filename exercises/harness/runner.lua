-- runner.lua: runs a chapter's checker on cases and reads what came back, for the student's
-- run (run_each: every case in its own forked child, fork_tests.c, under one sandbox) and for
-- the grader (start/finish: one case, one sandboxed process; run_packed: every case of a
-- file in one sandbox, each in its own forked child).
--
-- A case's run becomes a result table:
--     { name = "group_digits.zero", func = "group_digits", status = "crashed: SIGSEGV",
--       kind = "crashed", items = { answers, finished = bool }, stdout = "...", stderr = "...",
--       where = "digits.c:42 in group_digits", stacks = { { kind = "error", where = ... } } }
-- status is the supervisor's line (exercises/harness/status.h) and kind its reading
-- (sandbox.kind); a run that ended well but without the checker's closing line (exit() in the
-- code under test) is kind "exit". Whether the answers are right is the caller's comparison.

local wb = require("vm.lib.workbook")
local sandbox = require("exercises.harness.sandbox")
local answers = require("exercises.harness.answers")

local M = {}

-- The words of a run that ended well but never finished its case.
M.STOPPED_EARLY = "stopped early with exit status 0 (exit() in the code under test?)"

-- "file:line in function" when a stack trace line is in one of sources, else nil.
local function frame_in(line, sources)
  local func, file, lineno = line:match("#%d+ 0x%x+ in (%S+) (%S+):(%d+)")
  if func then
    for _, source in ipairs(sources or {}) do
      if file == source or file:sub(-#source - 1) == "/" .. source then
        return string.format("%s:%s in %s", file, lineno, func)
      end
    end
  end
  return nil
end

-- Where in the code under test a sanitizer report points: the first stack frame in a
-- file whose name ends with one of opts.sources (e.g. {"digits.c"}).
function M.where(stderr, sources)
  for line in stderr:gmatch("[^\n]+") do
    local where = frame_in(line, sources)
    if where then
      return where
    end
  end
  return nil
end

-- Every stack trace of a sanitizer report with the first frame in sources: a list of
-- { kind = "error" | "allocated" | "freed", where = "file:line in function" }. A report
-- has the error's own stack first, then maybe where the memory was allocated and freed
-- (a leak report has only "allocated from").
function M.stacks(stderr, sources)
  local list, kind, current, previous = {}, nil, nil, ""
  for line in (stderr .. "\n"):gmatch("([^\n]*)\n") do
    if line:match("^%s*#0 ") then
      kind = (previous:find("freed", 1, true) and "freed")
        or (previous:find("allocated", 1, true) and "allocated") or "error"
      current = { kind = kind }
      list[#list + 1] = current
    end
    if current and line:match("^%s*#%d+ ") then
      current.where = current.where or frame_in(line, sources)
    elseif not line:match("^%s*$") then
      current = nil
    end
    previous = line
  end
  local found = {}
  for _, stack in ipairs(list) do
    if stack.where then
      found[#found + 1] = stack
    end
  end
  return found
end

-- Fills in result r (its status set) of case `name` from the case's files ({ results, stdout,
-- stderr }, texts or nil), and its kind from its status and its answers.
local function settle(r, name, files, sources)
  local stderr = files.stderr or ""
  r.name, r.func = name, name:match("^([^.]+)") or name
  r.items, r.stdout, r.stderr = answers.parse(files.results or ""), files.stdout or "", stderr
  r.where, r.stacks = M.where(stderr, sources), M.stacks(stderr, sources)
  r.kind = sandbox.kind(r.status)
  if r.kind == "ok" and not r.items.finished then
    r.kind, r.status = "exit", M.STOPPED_EARLY
  end
  return r
end

-- ------------------------------------------------------------------ the student's run

-- The result of one case from its status and its child's files ({ results, stdout, stderr,
-- usage }, texts or nil): out is the answers as written; from a packed run, cpu (seconds) and
-- memory (peak resident MB) when its child's usage came back.
local function case_result(name, status, files, sources)
  local usage = files.usage or ""
  local r = { status = status, out = files.results or "" }
  r.cpu, r.memory = tonumber(usage:match("^cpu (%d+%.?%d*)\n")), tonumber(usage:match("\nmemory (%d+)\n$"))
  return settle(r, name, files, sources)
end

-- The suffixes of a forked case's files (DIR/NAME.SUFFIX), as checker.c's --pack sends them
-- (with NAME.usage after them).
local CASE_FILES = { "results", "stdout", "stderr" }

-- The result of one case from its status and the files its child left in workdir.
local function child_result(opts, name, status)
  local files = {}
  for _, suffix in ipairs(CASE_FILES) do
    files[suffix] = wb.read_file(opts.workdir .. "/" .. name .. "." .. suffix)
  end
  return case_result(name, status, files, opts.sources)
end

-- Runs every case of the cases file, each in its own forked child. opts: checker, cases (the
-- cases file), workdir (absolute, existing), limits (chapter.lua's), jobs, sources (for
-- where), on_result (called as each case ends). Returns the results in the cases' order, or
-- nil and why the checker could not run. (Callers pick the cases by writing the cases file.)
function M.run_each(opts)
  local l = opts.limits
  -- The answers get the room the grader's results channel gives them (limits.results), not the
  -- output's: the same case must not be an output limit here and answers there.
  local argv = { opts.checker, "--cases", opts.cases, "--each", opts.workdir, "--cpu", l.cpu, "--wall", l.wall,
    "--memory", l.memory, "--output", l.output, "--results-limit", l.results, "--jobs", opts.jobs or 1,
    "--status-fd", 3 } -- numbers too: wb.command quotes each word's tostring
  -- The checker itself only forks and waits; each child has the case's limits, so its own are
  -- wide (a wall clock only). Its fd 3 is our pipe.
  local command = sandbox.command({ isolation = "none", wall = 3600, memory = l.memory * ((opts.jobs or 1) + 1),
    output = 1 << 20, file_size = math.max(l.output, l.results),
    procs = 4096, stdout = opts.workdir .. "/checker.stdout", stderr = opts.workdir .. "/checker.stderr",
    argv = argv })
  local pipe = io.popen(command .. " 3>&1", "r")
  local by_index, order, checker_status = {}, {}, ""
  for line in pipe:lines() do
    local index, name, status = line:match("^(%d+)\t([^\t]+)\t(.*)$")
    if index then
      local result = child_result(opts, name, status)
      by_index[tonumber(index)] = result
      order[#order + 1] = tonumber(index)
      if opts.on_result then
        opts.on_result(result)
      end
    else
      checker_status = line
    end
  end
  pipe:close()
  if checker_status ~= "ok" then
    return nil, string.format("%s: %s\n%s", opts.checker, checker_status,
      wb.read_file(opts.workdir .. "/checker.stderr") or "")
  end
  table.sort(order)
  local results = {}
  for i, index in ipairs(order) do
    results[i] = by_index[index]
  end
  return results
end

-- ------------------------------------------------------------------ every case, one box

-- The files of a checker's --pack stream ("NAME.SUFFIX<TAB>BYTES\n" and the bytes, repeated)
-- as { [NAME] = { results = TEXT, stdout = TEXT, stderr = TEXT } }, for the names in the set
-- `wanted` only. The stream comes from a process that ran the code under test: a name or
-- suffix it was not asked for is dropped, and a malformed header ends the reading.
function M.unpack(text, wanted)
  local files, at = {}, 1
  local known = { usage = true }
  for _, suffix in ipairs(CASE_FILES) do
    known[suffix] = true
  end
  while at <= #text do
    local name, suffix, bytes, body = text:match("^([^\t\n]+)%.(%a+)\t(%d+)\n()", at)
    if not name then
      break
    end
    local after = body + tonumber(bytes)
    if wanted[name] and known[suffix] then
      files[name] = files[name] or {}
      files[name][suffix] = text:sub(body, after - 1)
    end
    at = after
  end
  return files
end

-- Runs every case of a cases file in one sandbox, each in a child the checker forks (as the
-- student's run does) and with the per-case limits there; their files come back on the
-- results channel (--pack), since the box's folder goes with the box. opts: program, cases,
-- names (the cases' names), dir and tag (files DIR/TAG.*), limits (per case: cpu, wall,
-- memory, output, results, file_size, procs; results_total: the channel's room), jobs,
-- sources, sealed (one case at a time, none able to leave anything for the next: fork_tests.c).
-- Returns { [NAME] = result } (a case that never reported has the box's status) and the
-- box's own result.
function M.run_packed(opts)
  local l, jobs, n = opts.limits, opts.sealed and 1 or opts.jobs or 1, #opts.names
  local argv = { "./check", "--cases", M.CASES, "--pack", "/dev/fd/3", "--cpu", math.ceil(l.cpu), "--wall", l.wall,
    "--memory", l.memory, "--output", l.output, "--results-limit", l.results, "--jobs", jobs,
    opts.sealed and "--sealed" or nil }
  local base = opts.dir .. "/" .. opts.tag
  local box = sandbox.run({ argv = argv, files = { { "check", opts.program }, { M.CASES, opts.cases } },
    cpu = l.cpu * n + 1, wall = l.wall * n, memory = l.memory * (jobs + 1), output = 1 << 20,
    file_size = math.max(l.output, l.results, l.file_size), procs = l.procs * jobs + 1,
    tmp_size = l.results_total, results = base .. ".out", results_limit = l.results_total,
    stdout = base .. ".stdout", stderr = base .. ".stderr", usage = base .. ".usage" })
  local wanted, status = {}, {}
  for _, name in ipairs(opts.names) do
    wanted[name] = true
  end
  for line in (wb.read_file(base .. ".stdout") or ""):gmatch("[^\n]+") do
    local name, said = line:match("^%d+\t([^\t]+)\t(.*)$")
    if name and wanted[name] then
      status[name] = said
    end
  end
  local files = M.unpack(wb.read_file(base .. ".out") or "", wanted)
  local results = {}
  for _, name in ipairs(opts.names) do
    local said = status[name] or (box.ok and "error: the checker never reported this case" or box.status)
    results[name] = case_result(name, said, files[name] or {}, opts.sources)
  end
  return results, box
end

-- ------------------------------------------------------------------ one case, one process

-- The cases file's name in the box.
M.CASES = "cases.tsv"

-- The checker's command line in the box for case `name` (after any prefix).
function M.checker_argv(name)
  return { "./check", "--cases", M.CASES, "--run", name, "--results", "/dev/fd/3" }
end

-- Starts case `name` of the cases file under the sandbox (see finish). opts: program (the
-- checker), cases, name, dir and tag (its files are DIR/TAG.*), limits (cpu, wall, memory,
-- output, results, file_size, procs), prefix (words before the checker: valgrind's), tool_log
-- (a file: the sandbox's tool-log channel), tool_out (sandbox.start's), sources (for where).
function M.start(opts)
  local l = opts.limits
  local base = opts.dir .. "/" .. opts.tag
  local prefix, words = opts.prefix or {}, M.checker_argv(opts.name)
  local argv = table.move(words, 1, #words, #prefix + 1, { table.unpack(prefix) })
  local handle = sandbox.start({ argv = argv, files = { { "check", opts.program }, { M.CASES, opts.cases } },
    cpu = l.cpu, wall = l.wall, memory = l.memory, output = l.output, file_size = l.file_size, procs = l.procs,
    results = base .. ".out", results_limit = l.results, tool_log = opts.tool_log, tool_out = opts.tool_out,
    stdout = base .. ".stdout",
    stderr = base .. ".stderr", usage = base .. ".usage" })
  handle.base, handle.opts = base, opts
  return handle
end

-- Waits for a started case; returns its result (see the top) with cpu and wall seconds.
function M.finish(handle)
  local r, base = sandbox.finish(handle), handle.base
  local files = { results = wb.read_file(base .. ".out"), stdout = wb.read_file(base .. ".stdout"),
    stderr = wb.read_file(base .. ".stderr") }
  return settle(r, handle.opts.name, files, handle.opts.sources)
end

function M.run(opts)
  return M.finish(M.start(opts))
end

return M
