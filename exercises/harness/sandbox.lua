-- sandbox.lua: runs code under test (a checker, a compiler) under build/harness/sandbox.
--
-- The sandbox (exercises/harness/sandbox*.c) does the hard part: rlimits, CPU time of the
-- whole process tree, an output cap, nothing left running afterwards, and one status line
-- that says how the program ended (exercises/harness/status.h has the words). This module
-- builds its command lines, reads the line back (kind(): the one reader of status lines, for
-- the sandbox's and for fork_tests.c's), and chooses the isolation once per run:
--
--   bwrap  bubblewrap: the program gets new user, PID, network, IPC and mount namespaces,
--          an unprivileged uid, /usr read-only, its own inputs read-only at /box and a
--          private /tmp. It sees nothing of the repository, the reference, the answers,
--          other submissions or the results.
--   user   where bubblewrap cannot create namespaces (Gradescope's Docker): as root, an
--          unprivileged uid of its own in a private folder, with RLIMIT_NPROC in force. It
--          sees the machine through ordinary permissions, so the grader makes sure the
--          repository (and a batch's submissions) are unreadable to other users first.
--   none   neither is possible (not root, no user namespaces): limits only. The student's
--          own laptop (`make exercise-N` always runs here); the report says so.
--
-- GRADE_ISOLATION=auto (default) takes the best level available and warns on stderr when
-- it is not bwrap; bwrap, user or none demand that level (the tests force `user` to run
-- the attack suite without bubblewrap).
--
-- Every program runs in the box's folder: argv names files by their name in the box
-- ("./check", "cases.tsv"), and opts.files says where each comes from on the host.
-- Answers come back on the sandbox's results channel (fd 3, --results), written to a file
-- by the sandbox after every process of the run is gone.

local wb = require("vm.lib.workbook")

local M = {}

M.program = "build/harness/sandbox"

-- What each level keeps the student's code from, for the report and results.json.
M.describe = {
  bwrap = "bubblewrap (own user, PID, network, IPC and mount namespaces; unprivileged uid; "
    .. "sees /usr read-only, its inputs read-only and a private /tmp; nothing survives the check)",
  user = "unprivileged user (own uid and private folder, process limit in force; no namespaces: "
    .. "the grader's files are kept unreadable by permissions)",
  none = "none (runs as you: time, memory, output and process limits only; "
    .. "a submission can read and change your files)",
}

M.level = "none"

-- The sandbox's options, and the opts field of each.
local OPTIONS = { { "--cpu", "cpu" }, { "--timeout", "wall" }, { "--idle", "idle" }, { "--memory", "memory" },
  { "--output", "output" }, { "--file-size", "file_size" }, { "--procs", "procs" }, { "--stdout", "stdout" },
  { "--stderr", "stderr" }, { "--results", "results" }, { "--results-limit", "results_limit" },
  { "--tool-log", "tool_log" }, { "--tool-out", "tool_out" }, { "--usage", "usage" }, { "--tmp-size", "tmp_size" } }

-- The shell command that runs opts.argv under the sandbox (options left out when nil).
function M.command(opts)
  local words = { M.program, "--isolate", opts.isolation or M.level }
  for _, o in ipairs(OPTIONS) do
    if opts[o[2]] ~= nil then
      words[#words + 1] = o[1]
      words[#words + 1] = tostring(opts[o[2]])
    end
  end
  for _, pair in ipairs(opts.files or {}) do
    words[#words + 1] = "--file"
    words[#words + 1] = pair[1] .. "=" .. pair[2]
  end
  words[#words + 1] = "--"
  return wb.command(table.move(opts.argv, 1, #opts.argv, #words + 1, words))
end

-- Starts opts.argv under the sandbox and returns a handle for finish(), so several runs
-- can go at once. opts: argv, files ({name, host path} pairs), cpu (s), wall (s, a
-- backstop), memory (MB), output (bytes), results (file), results_limit, tool_log (file),
-- tool_out ("NAME=FILE": a FIFO NAME in the box the tool writes its output file to), usage (file), file_size, procs, stdout, stderr, tmp_size, isolation (default M.level).
function M.start(opts)
  return { pipe = io.popen(M.command(opts) .. " 2>&1", "r"), usage = opts.usage }
end

-- Waits for a started run. Returns { status, ok, kind, cpu, wall, tool_cut (the tool's log or
-- output was longer than the sandbox keeps) }. A sandbox that could
-- not run at all (exit status 2) is the grader's problem, not the student's: it raises.
function M.finish(handle)
  local text = handle.pipe:read("a") or ""
  local _, _, code = handle.pipe:close()
  local status = text:match("([^\n]*)\n?$") or ""
  if code == 2 or status:match("^sandbox error") or status == "" then
    wb.fail("the sandbox failed: " .. (text ~= "" and text:gsub("\n+$", "") or "no output"))
  end
  local r = { status = status, ok = status == "ok", kind = M.kind(status) }
  local usage = handle.usage and wb.read_file(handle.usage) or ""
  r.cpu = tonumber(usage:match("cpu ([%d.]+)"))
  r.wall = tonumber(usage:match("wall ([%d.]+)"))
  r.tool_cut = usage:match("\ntool cut\n") ~= nil
  return r
end

function M.run(opts)
  return M.finish(M.start(opts))
end

-- The kind of a status line (status.h): "ok", "crashed", "timeout", "output", "memory",
-- "leak", "sanitizer", "exit", or "error" for a line in no other words.
function M.kind(status)
  if status == "ok" then
    return "ok"
  end
  for _, k in ipairs({ { "^crashed", "crashed" }, { "^timed out", "timeout" }, { "^output limit", "output" },
    { "^memory limit", "memory" }, { "^leaked", "leak" }, { "Sanitizer", "sanitizer" }, { "^exit %d+$", "exit" } }) do
    if status:match(k[1]) then
      return k[2]
    end
  end
  return "error"
end

-- ------------------------------------------------------------------ choosing the level

-- The limits of the runs that probe a level (ours: a shell listing paths).
M.PROBE = { cpu = 10, memory = 256, output = 65536 }

-- The paths of `paths` a program at `level` can see (test -e), as a list; nil plus why not when
-- the level cannot run it. The run that finds out whether a level works at all is this one.
local function probe(level, paths)
  local dir = wb.temp_dir("build/grade", "tmp.probe")
  local out = dir .. "/visible.txt"
  local argv = { "sh", "-c", 'for f; do [ -e "$f" ] && echo "$f"; done; exit 0', "sh", table.unpack(paths) }
  local ok, r = pcall(M.run, setmetatable({ isolation = level, argv = argv, stdout = out }, { __index = M.PROBE }))
  local seen = wb.split_lines(wb.read_file(out) or "") -- one path a line, none empty
  wb.rm_rf(dir)
  if ok and r.ok then
    return seen
  end
  return nil, ok and r.status or (type(r) == "table" and r.message or tostring(r))
end

-- probe(), at the level already chosen: one that fails now is the grader's problem.
local function visible_to_student(level, paths)
  local seen, why = probe(level, paths)
  if not seen then
    wb.fail("the sandbox could not check what student code can see: " .. why)
  end
  return seen
end

-- What probe() looks for to see into each of folders (seeing that one exists is allowed).
local function secrets_of(folders)
  local secrets = {}
  for i, f in ipairs(folders) do
    secrets[i] = f .. "/."
  end
  return secrets
end

-- Student code must not see the repository (solutions, grader, answers, results) nor, in a
-- batch, the other submissions. Inside bubblewrap it cannot, unless they live under a folder
-- the sandbox shows (/usr); at the user level root makes each folder private (chmod 700)
-- when it is not. seen: what the level's probe of them found (probe()). Returns the list of
-- folders it changed; raises when they stay visible.
local function protect(level, folders, seen)
  local changed = {}
  local secrets = secrets_of(folders)
  for round = 1, 2 do
    seen = round == 1 and seen or visible_to_student(level, secrets)
    if #seen == 0 then
      return changed
    end
    local list = table.concat(seen, ", "):gsub("/%.", "")
    if level ~= "user" then
      wb.fail("at the " .. level .. " isolation level, student code could read " .. list
        .. " (a folder the sandbox shows, such as /usr): move it elsewhere")
    elseif #changed > 0 or not wb.is_root() then
      wb.fail("at the user isolation level, student code could read " .. list
        .. "; make these folders private to their owner (chmod 700)")
    end
    for _, f in ipairs(folders) do
      if wb.run("chmod go-rwx " .. wb.quote(f)) then
        changed[#changed + 1] = f
      end
    end
  end
  return changed
end

-- Where copies of a workbook usually are (a clone, an unpacked autograder zip): the whole tree,
-- six levels down, less the system's own folders. Each copy's solutions/ holds a reference.
local SYSTEM_DIRS = { "/proc", "/sys", "/dev", "/run", "/usr", "/boot", "/etc", "/var/lib", "/var/cache" }

local function workbook_solutions()
  local prune = {}
  for _, d in ipairs(SYSTEM_DIRS) do
    prune[#prune + 1] = "-path " .. d
  end
  local found = wb.capture("find / -maxdepth 6 \\( " .. table.concat(prune, " -o ")
    .. " \\) -prune -o -type d -name solutions -print0 2>/dev/null")
  local list = {}
  for path in found:gmatch("[^%z]+") do
    if #list < 1000 and wb.exists(wb.dirname(path) .. "/grader") then
      list[#list + 1] = path .. "/."
    end
  end
  return list
end

-- The solutions/ folders of other copies of the workbook that student code at `level` could
-- read: at the user level it reads whatever other users may.
function M.readable_copies(level)
  local seen = level == "user" and visible_to_student(level, workbook_solutions()) or {}
  for i, path in ipairs(seen) do
    seen[i] = path:gsub("/%.$", "")
  end
  return seen
end

-- Whether level can run student code here: what its probe of secrets saw (an empty list for
-- none, which runs nothing in a box), or nil plus why not.
local function available(level, secrets)
  if level == "none" then
    return {}
  end
  if level == "user" and not wb.is_root() then
    return nil, "needs root (to run student code under an unprivileged uid)"
  end
  return probe(level, secrets)
end

-- Chooses the isolation level once per run (GRADE_ISOLATION, see the top) and sets
-- M.level. opts.private: folders the student must not see at the user level (the
-- repository root, a batch's submissions). Returns { level, text, warning }.
function M.choose(opts)
  local wanted = os.getenv("GRADE_ISOLATION") or ""
  wanted = wanted ~= "" and wanted or "auto"
  if not (wanted == "auto" or M.describe[wanted]) then
    wb.fail("GRADE_ISOLATION is auto, bwrap, user or none, not " .. wanted)
  end
  local why_not, seen = {}, nil
  for _, candidate in ipairs(wanted == "auto" and { "bwrap", "user", "none" } or { wanted }) do
    local why
    seen, why = available(candidate, secrets_of(opts.private or {}))
    if seen then
      M.level = candidate
      break
    end
    why_not[#why_not + 1] = candidate .. ": " .. tostring(why)
  end
  if wanted ~= "auto" and M.level ~= wanted then
    wb.fail("GRADE_ISOLATION=" .. wanted .. " is not possible here (" .. why_not[1] .. ")")
  end
  local result = { level = M.level, text = M.level .. ": " .. M.describe[M.level] }
  if M.level == "bwrap" and not wb.is_root() then
    result.text = result.text:gsub("unprivileged uid", "your own uid, in a user namespace")
  end
  if M.level ~= "none" then
    local changed = protect(M.level, opts.private or {}, seen)
    -- Root could hide them too, but they are somebody else's files: say where they are.
    local copies = M.readable_copies(M.level)
    if #copies > 0 then
      wb.fail("at the user isolation level, student code could read the reference solutions in "
        .. wb.shorten(table.concat(copies, ", "), 400) .. " (copies of the workbook that other users may read):"
        .. " make them private (chmod 700) or remove them")
    end
    if #changed > 0 then
      result.text = result.text .. "; made private: " .. table.concat(changed, ", ")
    end
  end
  if M.level ~= "bwrap" and wanted == "auto" then
    result.warning = "isolation is " .. M.level .. ", not bubblewrap (" .. table.concat(why_not, "; ")
      .. "). Set GRADE_ISOLATION=" .. M.level .. " to accept it without this warning."
  end
  return result
end

-- Sets the level chosen elsewhere (a batch chooses once for all its jobs).
function M.use(level)
  if not M.describe[level] then
    wb.fail("unknown isolation level " .. tostring(level))
  end
  M.level = level
end

return M
