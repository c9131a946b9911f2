-- build.lua: the one way the workbook builds a chapter's checker with code under test, for
-- `make exercise-N` (the student's files, at the isolation level none) as for `make grade`
-- (a submission, in the sandbox at the grader's level) and `make expected` (the reference).
--
-- A build happens in a fresh folder. The student's files are copied in from the submission
-- only when each is a regular file (not a symbolic link: a link to solutions/ or
-- /etc/shadow would otherwise be read by the grader on the student's behalf; nor a file
-- with more than one hard link, another name of a file elsewhere) of at most
-- M.max_source bytes. The chapter's headers come from the repository, so editing a header in
-- a submission changes nothing.
--
-- Our own C (the checker kit, the chapter's checker, the platform files it uses) is trusted:
-- compiled outside the sandbox with the project's strict flags, once per content, into a
-- folder named by the hash of everything that goes into it (M.objects). The student's files
-- are compiled and linked INSIDE the sandbox by a short shell script: the compiler sees only
-- the student's files, the pristine headers and our objects, so `#include
-- "../../solutions/N/FILE.c"`, `.incbin` of a grader file or `#include "/proc/..."`
-- tricks find nothing to read, and a compile that never ends (`#include "/dev/zero"`) meets
-- the CPU and memory limits. The program comes back through the sandbox's results channel.
--
-- The script also lists the object's external symbols (readelf). A submission that defines a
-- sanitizer hook (__lsan_is_turned_off, __asan_default_options, ...) or the allocator the
-- sanitizers watch (malloc, free, ...), or that calls the sanitizers' runtime interface
-- (__lsan_disable, __asan_unpoison_memory_region, ...), glibc's allocator underneath
-- (__libc_malloc) or the dynamic linker's lookup (dlsym: a name built at run time), would
-- switch the memory checks off: it is refused, with a status that names the symbol.
--
-- The linked program is also searched for valgrind's client-request preamble (the
-- instruction sequence valgrind.h and callgrind.h expand to). A request can switch the speed
-- check's count off (CALLGRIND_TOGGLE_COLLECT, _ZERO_STATS, _STOP_INSTRUMENTATION) or run a
-- function natively, uncounted (VALGRIND_NON_SIMD_CALL1, answered by valgrind whatever the
-- tool): a program that holds one is refused. Code generated at run time escapes the search
-- (grader/README.md, "What the sandbox cannot stop").
--
-- A compile error is returned as data for the report; it never stops the caller.

local lfs = require("lfs")
local wb = require("vm.lib.workbook")
local sandbox = require("exercises.harness.sandbox")

local M = {}

-- The compiler and the flags every build shares come from the top-level Makefile, which
-- exports them (CC, CWARN for our code, SANITIZE): one definition for make's own builds and
-- for these.
local function from_make(name)
  local value = os.getenv(name)
  if not value or value == "" then
    error(name .. " is not set: run this through make, or first eval \"$(make -s lua-path)\"", 0)
  end
  return value
end

M.cc = from_make("CC")
M.ours = from_make("CWARN")
-- The student's warnings: warnings, not -Werror, so a half-written function still runs; but
-- two warnings always mean a crash later, so they stop the build with the line to fix: a
-- function called without its declaration (strdup without _POSIX_C_SOURCE: its pointer is
-- taken for an int and loses its upper half) and an integer used as a pointer.
M.warn = "-std=c11 -Wall -Wextra -Werror=implicit-function-declaration -Werror=int-conversion"
M.max_source = 1 << 20
-- The largest built program (the checker with the student's code) accepted: the reference's is
-- about 0.5 MB; a big initialised array would be copied into every check's box.
M.max_program = 16 << 20

-- The checker kit every chapter's checker links, and where its headers are.
M.kit = { "exercises/harness/checker.c", "exercises/harness/alloc_fail.c", "exercises/harness/fork_tests.c",
  "exercises/harness/seal.c", "exercises/harness/status.c", "vm/prof/tsv.c" }
M.kit_includes = { "exercises/harness", "vm/prof" }
-- Every allocation call goes through alloc_fail.c, so a case can make them fail.
M.wrap = "-Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup,--wrap=strndup"

local function pkg_config(what)
  return (wb.capture("pkg-config " .. what .. " cmocka 2>/dev/null"):gsub("%s+$", ""))
end
M.cmocka_cflags = pkg_config("--cflags")
M.cmocka_libs = pkg_config("--libs")
if M.cmocka_libs == "" then
  M.cmocka_libs = "-lcmocka"
end

-- The build flavours, each with its flags for every file (cflags), for ours only (ours), for
-- the link (ldflags) and its libraries: "asan" for every answer (the student's run and the
-- grader's checks); "fast" (no sanitizers, optimised) for instruction counts under
-- cachegrind, where ASan cannot run. The fast program is static: under valgrind nothing
-- but the program itself is mapped (no loader, no libraries, no valgrind preload library,
-- whose client requests a jump could reach: speed.lua), and without cmocka, which Debian ships
-- only as a shared library (checker.c calls the case itself there). Its debug information is
-- DWARF 4: valgrind 3.19 gives up on clang 14's default, DWARF 5 ("possibly corrupted").
--
-- Both link with gold where binutils has it (ld.gold on PATH), in half the time of ld.bfd: 45
-- and 65 ms against 90 and 145 here. The sanitized program binds every library call at start
-- (-z now): its cases run in children forked from one process, and a call bound lazily would
-- be looked up again in each child that makes it (and its table page copied there).
-- Looked up in Lua, not with `command -v`: this module loads in every grade and student run,
-- and a shell for it would cost each of them a process.
local function on_path(name)
  for dir in (os.getenv("PATH") or ""):gmatch("[^:]+") do
    if wb.exists(dir .. "/" .. name) then
      return true
    end
  end
end
local linker = on_path("ld.gold") and "-fuse-ld=gold" or ""
M.flavours = {
  asan = { cflags = "-g -O1 " .. from_make("SANITIZE"), ours = M.cmocka_cflags,
    ldflags = linker .. " -Wl,-z,now", libs = M.cmocka_libs },
  fast = { cflags = "-gdwarf-4 -O2", ours = "-DCHECKER_COUNTED", ldflags = "-static " .. linker, libs = "" },
}

-- The sandbox's limits for one compile-and-link script (the program comes back as its results).
M.limits = { cpu = 60, memory = 2048, output = 256 << 10, results_limit = M.max_program,
  file_size = 256 << 20, procs = 16, tmp_size = 512 << 20 }

-- Symbols a submission may not define, and may not call.
M.refused_definitions = { "^__asan_", "^__lsan_", "^__ubsan_", "^__sanitizer_", "^__msan_", "^__tsan_",
  "^__hwasan_", "^__interceptor_", "^malloc$", "^free$", "^calloc$", "^realloc$", "^reallocarray$",
  "^aligned_alloc$", "^posix_memalign$", "^memalign$", "^valloc$", "^pvalloc$", "^malloc_usable_size$" }
-- Calls: LeakSanitizer's and the sanitizers' interface, AddressSanitizer's (none of these is one
-- the compiler's instrumentation calls, so a weak declaration is no way round), glibc's own
-- allocator beside the one the sanitizers intercept, and a symbol looked up at run time.
M.refused_calls = { "^__lsan_", "^__sanitizer_", "^__asan_poison_", "^__asan_unpoison_", "^__asan_set_",
  "^__asan_region_", "^__asan_address_", "^__asan_describe_", "^__asan_get_", "^__asan_locate_", "^__asan_print_",
  "^__asan_report_present$", "^__asan_on_error$", "^__asan_update_", "^__asan_addr_is_", "^__libc_",
  "^dlsym$", "^dlvsym$", "^dlopen$", "^dlmopen$", "^_dl_", "^dl_iterate_phdr$" }

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

-- What a file is, in the words of stat(1)'s %F, its size and its number of hard links, without
-- following a symbolic link; nil when it is not there.
local KINDS = { file = "regular file", directory = "directory", link = "symbolic link", socket = "socket",
  ["named pipe"] = "fifo", ["char device"] = "character special file", ["block device"] = "block special file" }
local function file_kind(path)
  local a = lfs.symlinkattributes(path)
  if not a then
    return nil
  end
  return KINDS[a.mode] or "weird file", a.size, a.nlink
end

-- Lays out a fresh build folder. spec: dir, submission (folder), student_files (names),
-- headers ({repository path, name} pairs), trusted (the reference: its files may have other
-- hard links), display (the folder a report names the student's files in; default "."). Returns true, or nil plus a message naming the problem.
function M.prepare(spec)
  wb.rm_rf(spec.dir)
  wb.mkdir_p(spec.dir)
  for _, name in ipairs(spec.student_files) do
    local src = spec.submission .. "/" .. name
    local kind, size, links = file_kind(src)
    if not kind then
      return nil, "the submission has no " .. name .. " (looked for " .. src .. ")"
    elseif kind ~= "regular file" then
      return nil, string.format("the submission's %s is a %s, not a regular file; submit the file itself", name,
        kind)
    elseif links > 1 and not spec.trusted then
      -- A hard link is another name of someone else's file (solutions/N/FILE.c, another
      -- student's): the grader, as root, would read it on the student's behalf.
      return nil, string.format("the submission's %s has %d hard links (another name of a file elsewhere); "
        .. "submit a copy of your own file", name, links)
    elseif size > M.max_source then
      return nil, string.format("the submission's %s has %d bytes; the limit is %d", name, size, M.max_source)
    end
    -- Copied by this process, not by cp: a cp's command line, which every uid can read in
    -- /proc, would name the submission's folder while other submissions run. Nobody but the
    -- grader writes the folder meanwhile (at the user level it is private), so the file
    -- checked above is the file read.
    local text = wb.read_file(src)
    if not text then
      return nil, "the submission's " .. name .. " cannot be read (" .. src .. ")"
    end
    wb.write_file(spec.dir .. "/" .. name, text)
  end
  for _, pair in ipairs(spec.headers) do
    if not wb.exists(pair[1]) then
      return nil, "missing file " .. pair[1]
    end
    wb.write_file(spec.dir .. "/" .. pair[2], wb.read_file(pair[1]))
  end
  return true
end

-- Every file our objects are made from, for the hash that names their folder: the sources,
-- and the headers of the folders they include.
local function object_inputs(ours)
  local inputs = { table.unpack(ours.sources) }
  for _, dir in ipairs(ours.includes) do
    for _, name in ipairs(wb.list_dir(dir) or {}) do
      if name:match("%.h$") then
        inputs[#inputs + 1] = dir .. "/" .. name
      end
    end
  end
  return inputs
end

-- Our objects for a flavour, compiled once per content into build/harness/objects/HASH/.
-- ours: { sources = {...}, includes = {...} } (repository paths). Returns the list of object
-- paths, or nil plus the first error. Parallel builders each compile into a private folder
-- and rename it into place, so nobody sees half a folder.
local object_dirs = {} -- by flags and sources: hashed once per process (our sources stay as they are)
function M.objects(ours, flavour)
  local f = M.flavours[flavour]
  local flags = table.concat({ M.ours, f.cflags, f.ours }, " ")
  for _, dir in ipairs(ours.includes) do
    flags = flags .. " -I" .. wb.quote(dir)
  end
  local parent = "build/harness/objects"
  wb.mkdir_p(parent)
  local same = flags .. "\0" .. table.concat(ours.sources, "\0")
  object_dirs[same] = object_dirs[same]
    or parent .. "/" .. flavour .. "-" .. wb.content_hash({ M.cc, flags }, object_inputs(ours)):sub(1, 16)
  local dir = object_dirs[same]
  local objects = {}
  for i, source in ipairs(ours.sources) do
    objects[i] = string.format("%s/%d-%s", dir, i, wb.basename(source):gsub("%.c$", ".o"))
  end
  if wb.is_dir(dir) then
    return objects
  end
  local private = wb.temp_dir(parent, "tmp")
  for i, source in ipairs(ours.sources) do
    local object = private .. "/" .. wb.basename(objects[i])
    local log = private .. "/compile.log"
    if not wb.run(string.format("%s %s -c %s -o %s > %s 2>&1", M.cc, flags, wb.quote(source), wb.quote(object),
      wb.quote(log))) then
      local why = first_error(wb.read_file(log) or "")
      wb.rm_rf(private)
      return nil, source .. " does not compile: " .. why
    end
  end
  wb.move_into_place(private, dir) -- or another builder got there first; its objects are the same
  return objects
end

-- The shell script run in the sandbox: for each build of builds (flavour; objects, our
-- objects' names in the box), in order, compile each student file, list its symbols, link, and
-- send the program to fd 3. Build k exits with 10k on a compile error, 10k + 1 when readelf
-- failed, 10k + 2 on a link error, so a build that fails stops the ones after it. Before build
-- k the script writes the line "MARK k" on stdout and on stderr, and after it "MARK size k
-- BYTES" on stdout, each after a line end of its own (what came before may not have ended its
-- line): MARK is a random word of this run (see M.link_all). Objects go to the box's own
-- temporary folder, $TMPDIR (/tmp is private only inside bubblewrap).
local function script(spec, builds, mark)
  local lines = { "set -u" }
  for k, b in ipairs(builds) do
    -- The box's folder is a temporary one: the debug information (and so a sanitizer's report)
    -- names the student's files where the student keeps them.
    local flags = string.format('%s %s -fdebug-prefix-map="$PWD"=%s', M.warn, M.flavours[b.flavour].cflags,
      wb.quote(spec.display or "."))
    local linked, program = {}, string.format('"$TMPDIR"/program-%d', k)
    lines[#lines + 1] = string.format("printf '\\n%%s %%d\\n' %s %d; printf '\\n%%s %%d\\n' %s %d >&2", mark, k, mark,
      k)
    for _, name in ipairs(spec.student_files) do
      if name:match("%.c$") then
        local object = string.format('"$TMPDIR"/%d-%s', k, name:gsub("%.c$", ".o"))
        lines[#lines + 1] = string.format("%s %s -I. -c %s -o %s || exit %d", M.cc, flags, wb.quote(name), object,
          10 * k)
        lines[#lines + 1] = string.format("readelf -W -S -s -r %s || exit %d", object, 10 * k + 1)
        linked[#linked + 1] = object
      end
    end
    for _, object in ipairs(b.objects) do
      linked[#linked + 1] = wb.quote(object)
    end
    lines[#lines + 1] = string.format("%s %s %s %s %s %s -lm -o %s || exit %d", M.cc, flags,
      M.flavours[b.flavour].ldflags, table.concat(linked, " "), M.wrap, M.flavours[b.flavour].libs, program,
      10 * k + 2)
    lines[#lines + 1] = string.format('printf \'\\n%%s size %%d %%s\\n\' %s %d "$(wc -c < %s)"; cat %s >&3', mark, k,
      program, program)
  end
  return table.concat(lines, "\n")
end

-- The global and weak symbols of an object from `readelf -W -s`'s table ("NUM: VALUE SIZE
-- TYPE BIND VIS NDX NAME" lines; binutils' nm would say the same, but it loads every linker
-- plugin the machine has first, LLVM's among them, which costs more than the compile): a list
-- of { name, type, section, value, defined }. A local symbol cannot reach anything outside its
-- file: only with_locals lists those too.
local function symbols_of(table_text, with_locals)
  local list = {}
  for line in table_text:gmatch("[^\n]+") do
    local value, kind, bind, section, name =
      line:match("^%s*%d+:%s+(%x+)%s+%S+%s+(%S+)%s+(%u+)%s+%S+%s+(%S+)%s+(%S+)$")
    if name and (with_locals or bind ~= "LOCAL") then
      list[#list + 1] = { name = name, type = kind, section = section, value = tonumber(value, 16),
        defined = section ~= "UND" }
    end
  end
  return list
end

-- The first refused symbol of the student's objects (their readelf output), as a message.
function M.refusal(symbols, file)
  for _, symbol in ipairs(symbols_of(symbols)) do
    if wb.matches_any(symbol.name, symbol.defined and M.refused_definitions or M.refused_calls) then
      return string.format("refused: %s %s %s, which would switch off the grader's memory checks "
        .. "(sanitizer hooks, the allocator and run-time symbol lookup are off limits)", file,
        symbol.defined and "defines" or "calls", symbol.name)
    end
  end
end

-- Sections whose code runs outside any call of the checker's (before main, at exit), by the
-- names the linker gathers and by type.
local RUNS_ON_ITS_OWN = { "^%.init_array", "^%.fini_array", "^%.preinit_array", "^%.ctors", "^%.dtors", "^%.init$",
  "^%.fini$", "^INIT_ARRAY$", "^FINI_ARRAY$", "^PREINIT_ARRAY$" }
-- What the compiler itself puts there: the sanitizers' module constructor and destructor
-- (which register the object's globals), one of each per object, by gcc's and clang's names.
local COMPILER_ENTRIES = { [".init_array"] = { "^_sub_I_%d+_%d+$", "^asan%.module_ctor$" },
  [".fini_array"] = { "^_sub_D_%d+_%d+$", "^asan%.module_dtor$" } }

local function runs_on_its_own(name, kind)
  return wb.matches_any(name, RUNS_ON_ITS_OWN) or wb.matches_any(kind, RUNS_ON_ITS_OWN)
end

-- One object's (readelf -S -s -r output) run-on-its-own sections as a list of { section, entry }:
-- for an array, the function each relocated entry points to (by name); for anything else, or an
-- array without relocations, entry is nil.
local function own_entries(text)
  local sections, index_of, symbols = {}, {}, symbols_of(text, true)
  for line in text:gmatch("[^\n]+") do
    local index, name, kind = line:match("^%s*%[%s*(%d+)%]%s+(%S+)%s+(%S+)")
    if name then
      index_of[name] = index
      sections[#sections + 1] = { name = name, kind = kind }
    end
  end
  local entries, relocated, current = {}, {}, nil
  for line in text:gmatch("[^\n]+") do
    local section = line:match("^Relocation section '%.rela?(%S-)'")
    if section then
      current = runs_on_its_own(section, "") and section or nil
      relocated[section] = true
    elseif current then
      local target, addend = line:match("^%x+%s+%x+%s+%S+%s+%x+%s+(%S+) %+ (%x+)$")
      local entry = target
      if target and index_of[target] then -- a section's symbol: the function at that offset
        entry = nil
        for _, symbol in ipairs(symbols) do
          if symbol.section == index_of[target] and symbol.value == tonumber(addend, 16) and symbol.type == "FUNC" then
            entry = symbol.name
          end
        end
      end
      if target then
        entries[#entries + 1] = { section = current, entry = entry or "?" }
      end
    end
  end
  for _, section in ipairs(sections) do
    if runs_on_its_own(section.name, section.kind) and not (section.name:match("_array") and relocated[section.name]) then
      entries[#entries + 1] = { section = section.name }
    end
  end
  return entries
end

-- Whether one object's run-on-its-own code is the compiler's own and no more.
local function only_compilers(text)
  local seen = {}
  for _, e in ipairs(own_entries(text)) do
    local kind = e.section:match("^(%.%a+_array)")
    if not (e.entry and wb.matches_any(e.entry, COMPILER_ENTRIES[kind] or {})) or seen[kind] then
      return false, e.entry or e.section
    end
    seen[kind] = true
  end
  return true
end

-- The global names an object's readelf output defines, as a set.
function M.defined(text)
  local set = {}
  for _, symbol in ipairs(symbols_of(text)) do
    set[symbol.name] = symbol.defined or nil
  end
  return set
end

-- Why a build may not have its cases sealed in one box (fork_tests.c's --sealed), or nil when it
-- may: there only the checker's own code runs in the process that forks the cases, and it runs
-- as written. So the student's objects (build: build.link's result) must have no code that
-- runs by itself (a constructor, a destructor, an ifunc resolver) but the compiler's, and
-- define no symbol our objects use but the exercise's own functions (api: a set of names, what
-- the reference defines), which would take their place in our code.
function M.unsealable(build, api)
  local text, references = build.symbols, build.references
  local starts = {}
  for at in ("\n" .. text):gmatch("\n()There are %d+ section headers") do
    starts[#starts + 1] = at - 1
  end
  if #starts == 0 then
    return "its objects' sections could not be read"
  end
  for i, at in ipairs(starts) do
    local ok, which = only_compilers(text:sub(at, (starts[i + 1] or #text + 1) - 1))
    if not ok then
      return "its code runs by itself (" .. which .. ")"
    end
  end
  for _, symbol in ipairs(symbols_of(text)) do
    if symbol.type == "IFUNC" then
      return "it has an ifunc resolver (" .. symbol.name .. ")"
    elseif symbol.defined and references[symbol.name] and not api[symbol.name] then
      return "it defines " .. symbol.name .. ", which the checker itself uses"
    end
  end
  return nil
end

-- The names our objects (a list of paths, in one folder) use but do not define, as a set:
-- read with readelf once per folder and kept there as "references", one name per line.
function M.references(objects)
  local path = wb.dirname(objects[1]) .. "/references"
  local text = wb.read_file(path)
  if not text then
    local names = {}
    for _, symbol in ipairs(symbols_of(wb.capture("readelf -W -s " .. wb.command(objects)))) do
      if not symbol.defined then
        names[#names + 1] = symbol.name
      end
    end
    text = table.concat(names, "\n") .. "\n"
    wb.write_file(path, text)
  end
  local set = {}
  for name in text:gmatch("[^\n]+") do
    set[name] = true
  end
  return set
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

-- A random word (32 hex digits): what the build script marks its sections with, which nothing
-- the student's files make the compiler, readelf or the linker print can foresee.
local function random_mark()
  local f = assert(io.open("/dev/urandom", "rb"))
  local bytes = f:read(16)
  f:close()
  return (bytes:gsub(".", function(c)
    return string.format("%02x", c:byte())
  end))
end

-- The parts of a build script's stream (script() says how it is marked): { [k] = text }, each
-- with the line ends it has (an empty part is "").
local function sections(text, mark)
  text = "\n" .. text
  local marks, from = {}, 1
  while true do
    local first, last, k = text:find("\n" .. mark .. " (%d+)\n", from)
    if not first then
      break
    end
    marks[#marks + 1] = { first = first, last = last, k = tonumber(k) }
    from = last -- its line end may begin the next mark's line
  end
  local parts = {}
  for i, m in ipairs(marks) do
    parts[m.k] = text:sub(m.last + 1, marks[i + 1] and marks[i + 1].first or #text)
  end
  return parts
end

-- Builds the programs spec.dir/NAME, one for each { flavour, name } of builds, from the
-- student's C files and our objects (spec.ours), in order and in one box (a box costs as much
-- as a small build), stopping at the first that fails. Returns a result for each build tried:
-- { ok, warnings, log, error (first error line), program (path), refused, symbols (the readelf
-- output of the student's objects), references (what our objects use: M.references), ours
-- (true when our own code failed: the caller's problem, not the student's) }; NAME.symbols and
-- NAME.log are beside the program.
function M.link_all(spec, builds)
  local files, todo, results = {}, {}, {}
  for _, file in ipairs(spec.student_files) do
    files[#files + 1] = { file, spec.dir .. "/" .. file }
  end
  for _, pair in ipairs(spec.headers) do
    files[#files + 1] = { pair[2], spec.dir .. "/" .. pair[2] }
  end
  for k, b in ipairs(builds) do
    local objects, why = M.objects(spec.ours, b.flavour)
    if not objects then
      results[k] = { ok = false, error = why, log = why, warnings = 0, ours = true }
      break
    end
    todo[k] = { flavour = b.flavour, name = b.name, paths = objects, objects = {} }
    for i, object in ipairs(objects) do
      todo[k].objects[i] = b.flavour .. "-" .. wb.basename(object)
      files[#files + 1] = { todo[k].objects[i], object }
    end
  end
  if #todo == 0 then
    return results
  end
  local mark, base = random_mark(), spec.dir .. "/build"
  local r = sandbox.run(setmetatable({ argv = { "sh", "-c", script(spec, todo, mark) }, files = files,
    stdout = base .. ".out", stderr = base .. ".log", results = base .. ".programs",
    output = M.limits.output * #todo, results_limit = M.max_program * #todo }, { __index = M.limits }))
  local out = sections(wb.read_file(base .. ".out") or "", mark)
  local logs = sections(wb.read_file(base .. ".log") or "", mark)
  local programs, offset = wb.read_file(base .. ".programs") or "", 0
  local sources = table.concat(spec.student_files, ", ")
  local made = {}
  for k, b in ipairs(todo) do
    if not out[k] then -- not started: an earlier build failed, or the box ended first
      if k == 1 or results[k - 1].ok then
        results[k] = { ok = false, log = "", warnings = 0, error = "the compiler did not finish: " .. r.status }
      end
      break
    end
    local path, log = spec.dir .. "/" .. b.name, logs[k] or ""
    local size = tonumber(("\n" .. out[k]):match("\n" .. mark .. " size " .. k .. " (%d+)\n") or "")
    local symbols = (("\n" .. out[k]):gsub("\n" .. mark .. " size %d+ %d+\n", "\n")):sub(2)
    wb.write_file(path .. ".symbols", symbols)
    wb.write_file(path .. ".log", log)
    local result = { ok = false, log = log, warnings = select(2, log:gsub("warning:", "")) }
    results[k] = result
    local whole = size and size <= M.max_program and #programs >= offset + size
    if r.status == "exit " .. 10 * k or (r.kind == "output" and not size and log:match(": error:")) then
      result.error = sources .. " does not compile: " .. first_error(log)
    elseif r.status == "exit " .. 10 * k + 2 then
      result.error = "linking failed: " .. first_error(log)
    elseif (size or 0) > M.max_program or (not whole and r.kind == "output" and r.status:match("of results")) then
      result.error = string.format("refused: the built program is larger than %d MB, far more than any solution needs",
        M.max_program >> 20)
    elseif not whole then
      result.error = "the compiler did not finish: " .. r.status
    else
      local program = programs:sub(offset + 1, offset + size)
      offset = offset + size
      wb.write_file(path, program)
      result.refused = M.refusal(symbols, sources) or M.client_request_refusal(program, sources)
      result.error = result.refused
    end
    if result.error then
      break
    end
    result.ok, result.program = true, path
    result.symbols, result.references = symbols, M.references(b.paths)
    made[#made + 1] = path
  end
  if #made > 0 then
    wb.run("chmod 755 " .. wb.command(made))
  end
  wb.rm_rf(base .. ".programs")
  return results
end

-- Builds the program spec.dir/NAME with the given flavour (M.link_all, for one build).
function M.link(spec, flavour, name)
  return M.link_all(spec, { { flavour = flavour, name = name } })[1]
end

return M
