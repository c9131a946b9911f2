-- build.lua: compiles a submission together with pristine grader sources.
--
-- A build happens in a fresh directory: the student's files are copied in
-- from the submission, and every other file (headers, the chapter's checker,
-- shared readers) is copied from the repository, so editing a header or the
-- checker in a submission changes nothing. The student's files are compiled
-- with warnings but without -Werror (a warning is reported, not fatal); our
-- own files are compiled with the project's strict flags (once: a build may
-- take their objects from spec.prebuilt, the reference's build folder). A compile error is
-- returned as data for the report; it never stops the grader.

local util = require("util")

local M = {}

M.cc = os.getenv("CC") or "cc"
M.warn = "-std=c11 -Wall -Wextra"
M.sanitize = "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"

-- The build flavours: "asan" for correctness checks, "fast" (no sanitizers,
-- optimised) for instruction counts under callgrind, where ASan cannot run.
M.flavours = {
  asan = "-g -O1 " .. M.sanitize,
  fast = "-g -O2",
}

local function first_error(log)
  for line in log:gmatch("[^\n]+") do
    if line:match(": error:") or line:match("undefined reference") then
      return line
    end
  end
  return log:match("[^\n]+") or "the compiler failed without a message"
end

local function count_warnings(log)
  local n = 0
  for _ in log:gmatch("warning:") do
    n = n + 1
  end
  return n
end

-- Compiles one file to an object; returns ok, log.
local function compile(dir, source, object, flags)
  local log_path = dir .. "/" .. object .. ".log"
  local cmd = string.format("cd %s && timeout 120 %s %s -I. -c %s -o %s > %s 2>&1",
    util.quote(dir), M.cc, flags, util.quote(source), util.quote(object), util.quote(util.basename(log_path)))
  local ok = util.run(cmd)
  return ok, util.read_file(log_path) or ""
end

-- Lays out a fresh build directory. spec: dir, submission (folder),
-- student_files (names), pristine ({repo path, name} pairs). Returns ok, or
-- nil plus a message naming the missing file.
function M.prepare(spec)
  util.rm_rf(spec.dir)
  util.mkdir_p(spec.dir)
  for _, name in ipairs(spec.student_files) do
    local src = spec.submission .. "/" .. name
    if not util.exists(src) then
      return nil, "the submission has no " .. name .. " (looked for " .. src .. ")"
    end
    util.copy(src, spec.dir .. "/" .. name)
  end
  for _, pair in ipairs(spec.pristine) do
    if not util.exists(pair[1]) then
      return nil, "missing grader file " .. pair[1]
    end
    util.copy(pair[1], spec.dir .. "/" .. pair[2])
  end
  return true
end

-- Builds program `out` in spec.dir with the given flavour from the student's
-- C files and our C files (spec.ours). Returns a result table:
-- { ok, warnings, log, error (first error line), program (path) }.
function M.link(spec, flavour, out)
  local flags = M.flavours[flavour]
  local objects, logs, warnings = {}, {}, 0
  local function add(source, strict)
    local object = out .. "-" .. source:gsub("%.c$", ".o")
    local extra = strict and (M.warn .. " -Werror ") or (M.warn .. " ")
    local ok, log = compile(spec.dir, source, object, extra .. flags)
    logs[#logs + 1] = log
    warnings = warnings + count_warnings(log)
    objects[#objects + 1] = object
    if not ok then
      return false, string.format("%s does not compile: %s", source, first_error(log))
    end
    return true
  end
  for _, name in ipairs(spec.student_files) do
    if name:match("%.c$") then
      local ok, why = add(name, false)
      if not ok then
        return { ok = false, error = why, log = table.concat(logs), warnings = warnings }
      end
    end
  end
  for _, name in ipairs(spec.ours) do
    -- Our files are the same for every submission: reuse the reference's objects.
    local object = out .. "-" .. name:gsub("%.c$", ".o")
    local prebuilt = spec.prebuilt and (spec.prebuilt .. "/" .. object)
    if prebuilt and util.exists(prebuilt) and util.copy(prebuilt, spec.dir .. "/" .. object) then
      objects[#objects + 1] = object
      goto continue
    end
    local ok, why = add(name, true)
    if not ok then
      return { ok = false, error = "grader file " .. why, log = table.concat(logs), warnings = warnings,
        ours = true }
    end
    ::continue::
  end
  local log_name = out .. ".link.log"
  local cmd = string.format("cd %s && timeout 120 %s %s %s -o %s > %s 2>&1",
    util.quote(spec.dir), M.cc, flags, util.command(objects), util.quote(out), util.quote(log_name))
  local ok = util.run(cmd)
  local log = util.read_file(spec.dir .. "/" .. log_name) or ""
  logs[#logs + 1] = log
  if not ok then
    return { ok = false, error = "linking failed: " .. first_error(log), log = table.concat(logs),
      warnings = warnings }
  end
  return { ok = true, warnings = warnings, log = table.concat(logs), program = spec.dir .. "/" .. out }
end

return M
