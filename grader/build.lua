-- build.lua: compiles a submission, in the sandbox, together with pristine grader files.
--
-- A build happens in a fresh folder. The student's files are copied in from the submission
-- only when each is a regular file (not a symbolic link: a link to solutions/ or
-- /etc/shadow would otherwise be read by the grader on the student's behalf; nor a file
-- with more than one hard link, another name of a file elsewhere) of at most
-- M.max_source bytes. Every other file (headers, the chapter's checker, shared readers)
-- comes from the repository, so editing a header or the checker in a submission changes
-- nothing.
--
-- Our own C files are trusted: they are compiled outside the sandbox, once, with the
-- project's strict flags (a build takes their objects from spec.prebuilt, the reference's
-- build folder). The student's files are compiled and linked INSIDE the sandbox, at the
-- run's isolation level, by a short shell script: the compiler sees only the student's
-- files, the pristine header and our objects, so `#include "../../solutions/165/profile.c"`,
-- `.incbin` of a grader file or `#include "/proc/..."` tricks find nothing to read, and a
-- compile that never ends (`#include "/dev/zero"`) meets the CPU and memory limits. The
-- binary comes back through the sandbox's results channel.
--
-- The script also lists the object's external symbols (nm). A submission that defines a
-- sanitizer hook (__lsan_is_turned_off, __asan_default_options, ...) or the allocator the
-- sanitizers watch (malloc, free, ...), or that calls LeakSanitizer's or the sanitizers'
-- runtime interface (__lsan_disable, ...), would switch the grader's memory checks off: it
-- is refused, with a status that names the symbol.
--
-- The linked program is also searched for valgrind's client-request preamble (the
-- instruction sequence valgrind.h and callgrind.h expand to). A request can switch the speed
-- check's count off (CALLGRIND_TOGGLE_COLLECT, _ZERO_STATS, _STOP_INSTRUMENTATION) or run a
-- function natively, uncounted (VALGRIND_NON_SIMD_CALL1, answered by valgrind whatever the
-- tool): a program that holds one is refused. Code generated at run time escapes the search
-- (README.md, "What the sandbox cannot stop").
--
-- A compile error is returned as data for the report; it never stops the grader.

local wb = require("vm.lib.workbook")
local sandbox = require("grader.sandbox")

local M = {}

M.cc = os.getenv("CC") or "cc"
-- The student's warnings, as the Makefile's STUDENT_WARN (a spec keeps the two equal): the two
-- that always end in a crash stop the build, as they do in `make exercise-165`, so a submission
-- compiles here exactly when it compiled for the student.
M.warn = "-std=c11 -Wall -Wextra -Werror=implicit-function-declaration -Werror=int-conversion"
M.sanitize = "-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
M.max_source = 1 << 20

-- The build flavours: "asan" for correctness checks, "fast" (no sanitizers,
-- optimised) for instruction counts under callgrind, where ASan cannot run.
M.flavours = {
  asan = "-g -O1 " .. M.sanitize,
  fast = "-g -O2",
}

-- The sandbox's limits for one compile-and-link script.
M.limits = { cpu = 60, memory = 2048, output = 256 << 10, results_limit = 256 << 20,
  file_size = 256 << 20, procs = 16, tmp_size = 512 << 20 }

-- Symbols a submission may not define, and may not call.
M.refused_definitions = { "^__asan_", "^__lsan_", "^__ubsan_", "^__sanitizer_", "^__msan_", "^__tsan_",
  "^__hwasan_", "^__interceptor_", "^malloc$", "^free$", "^calloc$", "^realloc$", "^reallocarray$",
  "^aligned_alloc$", "^posix_memalign$", "^memalign$", "^valloc$", "^pvalloc$", "^malloc_usable_size$" }
M.refused_calls = { "^__lsan_", "^__sanitizer_" }

-- valgrind's client-request preambles (valgrind.h): amd64's four `rol $N, %rdi`, arm64's
-- four `ror x12, x12, #N`. No compiler emits either for ordinary code.
M.client_request_preambles = {
  amd64 = "\x48\xc1\xc7\x03\x48\xc1\xc7\x0d\x48\xc1\xc7\x3d\x48\xc1\xc7\x33",
  arm64 = "\x8c\x0d\xcc\x93\x8c\x35\xcc\x93\x8c\xcd\xcc\x93\x8c\xf5\xcc\x93",
}

local function first_error(log)
  for line in log:gmatch("[^\n]+") do
    if line:match("[Ee]rror:") or line:match("undefined reference") then
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

-- "regular file", its size and its number of hard links, without following a symbolic link.
local function file_kind(path)
  local text = wb.capture("stat -c '%F %s %h' -- " .. wb.quote(path) .. " 2>/dev/null")
  local kind, size, links = text:match("^(.-) (%d+) (%d+)\n?$")
  return kind, tonumber(size), tonumber(links)
end

-- Lays out a fresh build directory. spec: dir, submission (folder),
-- student_files (names), pristine ({repo path, name} pairs), trusted (the reference: its
-- files may have other hard links). Returns ok, or
-- nil plus a message naming the problem.
function M.prepare(spec)
  wb.rm_rf(spec.dir)
  wb.mkdir_p(spec.dir)
  for _, name in ipairs(spec.student_files) do
    local src = spec.submission .. "/" .. name
    local kind, size, links = file_kind(src)
    if not kind then
      return nil, "the submission has no " .. name .. " (looked for " .. src .. ")"
    elseif kind ~= "regular file" and kind ~= "regular empty file" then
      return nil, string.format("the submission's %s is a %s, not a regular file; submit the file itself", name,
        kind)
    elseif links > 1 and not spec.trusted then
      -- A hard link is another name of someone else's file (solutions/165/profile.c, another
      -- student's): the grader, as root, would read it on the student's behalf.
      return nil, string.format("the submission's %s has %d hard links (another name of a file elsewhere); "
        .. "submit a copy of your own file", name, links)
    elseif size > M.max_source then
      return nil, string.format("the submission's %s has %d bytes; the limit is %d", name, size, M.max_source)
    end
    -- -P: should the file turn into a link after the check above, the link is copied (and
    -- the sandbox, which never follows one, refuses it), not what it points to.
    wb.run("cp -P -- " .. wb.quote(src) .. " " .. wb.quote(spec.dir .. "/" .. name))
  end
  for _, pair in ipairs(spec.pristine) do
    if not wb.exists(pair[1]) then
      return nil, "missing grader file " .. pair[1]
    end
    wb.copy(pair[1], spec.dir .. "/" .. pair[2])
  end
  return true
end

-- Compiles one of our files to an object, outside the sandbox; returns ok, log.
local function compile_ours(dir, source, object, flags)
  local log_path = dir .. "/" .. object .. ".log"
  local cmd = string.format("cd %s && timeout 300 %s %s -I. -c %s -o %s > %s 2>&1",
    wb.quote(dir), M.cc, flags, wb.quote(source), wb.quote(object), wb.quote(wb.basename(log_path)))
  local ok = wb.run(cmd)
  return ok, wb.read_file(log_path) or ""
end

-- Our objects for a flavour: from spec.prebuilt when there, else compiled with -Werror.
-- Returns the list of object names, or nil plus the error.
local function our_objects(spec, flavour, out)
  local objects = {}
  for _, name in ipairs(spec.ours) do
    local object = out .. "-" .. name:gsub("%.c$", ".o")
    local prebuilt = spec.prebuilt and (spec.prebuilt .. "/" .. object)
    if not (prebuilt and wb.exists(prebuilt) and wb.copy(prebuilt, spec.dir .. "/" .. object)) then
      local ok, log = compile_ours(spec.dir, name, object, M.warn .. " -Werror " .. M.flavours[flavour])
      if not ok then
        return nil, "grader file " .. name .. " does not compile: " .. first_error(log)
      end
    end
    objects[#objects + 1] = object
  end
  return objects
end

-- The shell script run in the sandbox: compile each student file, list its symbols, link,
-- send the binary to fd 3. Exit 10: a compile error, 11: nm failed, 12: a link error.
-- Objects go to the box's own temporary folder, $TMPDIR (/tmp is private only inside
-- bubblewrap).
local function script(spec, flavour, objects)
  local flags = M.warn .. " " .. M.flavours[flavour]
  local lines, linked = { "set -u" }, {}
  for _, name in ipairs(spec.student_files) do
    if name:match("%.c$") then
      local object = '"$TMPDIR"/' .. name:gsub("%.c$", ".o")
      lines[#lines + 1] = string.format("%s %s -I. -c %s -o %s || exit 10", M.cc, flags, wb.quote(name), object)
      lines[#lines + 1] = string.format("nm -g -P %s || exit 11", object)
      linked[#linked + 1] = object
    end
  end
  for _, object in ipairs(objects) do
    linked[#linked + 1] = wb.quote(object)
  end
  lines[#lines + 1] = string.format('%s %s %s -o "$TMPDIR"/program || exit 12', M.cc, flags,
    table.concat(linked, " "))
  lines[#lines + 1] = 'cat "$TMPDIR"/program >&3'
  return table.concat(lines, "\n")
end

-- The first refused symbol in nm's output ("NAME TYPE [VALUE SIZE]" lines), as a message.
function M.refusal(symbols, file)
  for line in symbols:gmatch("[^\n]+") do
    local name, kind = line:match("^(%S+) (%a)")
    if name then
      local defined = kind ~= "U" and kind ~= "w" and kind ~= "v"
      for _, pattern in ipairs(defined and M.refused_definitions or M.refused_calls) do
        if name:match(pattern) then
          return string.format("refused: %s %s %s, which would switch off the grader's memory checks "
            .. "(sanitizer hooks and the allocator are off limits)", file, defined and "defines" or "calls", name)
        end
      end
    end
  end
end

-- A message when the linked program holds a valgrind client request (see the top).
function M.client_request_refusal(program, file)
  for _, preamble in pairs(M.client_request_preambles) do
    if program:find(preamble, 1, true) then
      return string.format("refused: %s issues valgrind client requests (valgrind.h, callgrind.h), which "
        .. "would switch off or bypass the speed check's instruction count", file)
    end
  end
end

-- Builds program `out` in spec.dir with the given flavour from the student's
-- C files and our C files (spec.ours). Returns a result table:
-- { ok, warnings, log, error (first error line), program (path), refused, ours }.
function M.link(spec, flavour, out)
  local objects, why = our_objects(spec, flavour, out)
  if not objects then
    return { ok = false, error = why, log = why, warnings = 0, ours = true }
  end
  local files = {}
  for _, name in ipairs(spec.student_files) do
    files[#files + 1] = { name, spec.dir .. "/" .. name }
  end
  for _, pair in ipairs(spec.pristine) do
    if pair[2]:match("%.h$") then
      files[#files + 1] = { pair[2], spec.dir .. "/" .. pair[2] }
    end
  end
  for _, object in ipairs(objects) do
    files[#files + 1] = { object, spec.dir .. "/" .. object }
  end
  local base = spec.dir .. "/" .. out
  local r = sandbox.run(setmetatable({ argv = { "sh", "-c", script(spec, flavour, objects) }, files = files,
    stdout = base .. ".symbols", stderr = base .. ".log", results = base }, { __index = M.limits }))
  local log = wb.read_file(base .. ".log") or ""
  local result = { ok = false, log = log, warnings = count_warnings(log) }
  local sources = table.concat(spec.student_files, ", ")
  if r.status == "exit 10" or (r.class == "output" and log:match(": error:")) then
    result.error = sources .. " does not compile: " .. first_error(log)
    return result
  elseif r.status == "exit 12" then
    result.error = "linking failed: " .. first_error(log)
    return result
  elseif not r.ok then
    result.error = "the compiler did not finish: " .. r.status
    return result
  end
  result.refused = M.refusal(wb.read_file(base .. ".symbols") or "", sources)
    or M.client_request_refusal(wb.read_file(base) or "", sources)
  if result.refused then
    result.error = result.refused
    return result
  end
  wb.run("chmod 755 " .. wb.quote(base))
  result.ok, result.program = true, base
  return result
end

return M
