-- check_edition.lua: is a student edition fit to publish? (make student-edition runs it
-- on every edition it writes; test-edition runs it, and on planted leaks.)
--
--   lua5.4 grader/edition/check_edition.lua EDITION
--
-- Run from the instructor's workbook root: the reference (solutions/) and the grader
-- (grader/) are read from there. Findings go to stdout, one a line; exit 0 when there
-- is none, 1 when there are, 2 on a usage error. Five checks, from coarse to fine:
--
--   layout     the top level holds only README.md, .git and what ships.txt names,
--              and all of README.md, Makefile, .gitignore (ignoring /build/),
--              chapters/, exercises/ and vm/;
--   outputs    nothing built: no build/ folder, object files, executables (ELF),
--              callgrind.out.* or core files anywhere;
--   copies     no file has the bytes of a file of solutions/ or grader/ (the
--              reference, mutants, fixtures, expected answers), unless the same bytes
--              are published on purpose (profile.h in exercises/ as committed, the README);
--   lines      no line of the reference's C code of 40 characters or more appears in
--              any file, unless it is in exercises/ too (the function signatures) or in
--              the workbook's own shipped code (a reference may use a line the tools have);
--   functions  no C function is close to a function of the reference (similar.lua:
--              token runs, names or no names), but for reference functions that are
--              close to the workbook's own shipped code (its tools and checkers: a
--              helper both have is no answer).
--              Calibrated on this workbook: its own code reaches at most 0.48 of a
--              longer reference function's structure, a copy with every name changed
--              at least 0.95.
-- What is published is taken as committed (git HEAD): exercises/ for what a student gets to
-- start from, the other shipped folders for the workbook's own code.
--
-- The point is that the solution cannot be recovered from the edition: copied files,
-- copied lines, or copied-and-renamed functions. Prose about the exercise (the chapter,
-- the handout) is meant to be there.
local wb = require("vm.lib.workbook")
local similar = require("grader.edition.similar")

local REFERENCE = "solutions"
local PRIVATE = { "solutions", "grader" }
local PUBLIC = "exercises"
-- Published on purpose although it lives in grader/: the edition's README.
local README = "grader/edition/student-README.md"
local REQUIRED = { "README.md", "Makefile", ".gitignore", "chapters", "exercises", "vm" }
local MIN_LINE = 40

local findings = {}
local function finding(text)
  findings[#findings + 1] = text
end

-- Files below dir (relative paths, sorted), skipping .git.
local function files_below(dir)
  local text = wb.capture("cd " .. wb.quote(dir) .. " && find . -name .git -prune -o -type f -print | LC_ALL=C sort")
  local list = {}
  for path in text:gmatch("%./([^\n]+)") do
    list[#list + 1] = path
  end
  return list
end

local function shipped_names()
  local names = { ["README.md"] = true, [".git"] = true }
  for line in (wb.read_file("grader/edition/ships.txt") or ""):gmatch("[^\n]+") do
    local name = line:match("^%s*([^#%s][^%s]*)")
    if name then
      names[name] = true
    end
  end
  return names
end

local function check_layout(edition)
  local allowed = shipped_names()
  for _, name in ipairs(wb.list_dir(edition) or {}) do
    if not allowed[name] then
      finding("layout: " .. name .. " is not in grader/edition/ships.txt")
    end
  end
  for _, name in ipairs(REQUIRED) do
    if not wb.exists(edition .. "/" .. name) and not wb.is_dir(edition .. "/" .. name) then
      finding("layout: " .. name .. " is missing")
    end
  end
  local ignore = wb.read_file(edition .. "/.gitignore") or ""
  if not ignore:match("\n/build/\n") and not ignore:match("^/build/\n") then
    finding("layout: .gitignore does not ignore /build/")
  end
end

local function check_outputs(edition, files)
  local built = wb.capture("cd " .. wb.quote(edition) ..
    " && find . -name .git -prune -o \\( -name build -o -name '*.o' -o -name '*.a' -o -name '*.so'" ..
    " -o -name 'callgrind.out.*' -o -name core -o -name 'core.[0-9]*' \\) -print")
  for path in built:gmatch("%./([^\n]+)") do
    finding("outputs: " .. path .. " is a build output")
  end
  for _, path in ipairs(files) do
    local f = io.open(edition .. "/" .. path, "rb")
    if f and f:read(4) == "\127ELF" then
      finding("outputs: " .. path .. " is an executable or object file")
    end
    if f then
      f:close()
    end
  end
end

-- Files as published on purpose, as a list of { path, text, sha256 }: in a git checkout, the
-- files of HEAD below the given paths; a leftover beside them (profile.c~, profile.c.orig
-- holding a filled-in copy) or a stub somebody filled in must not make the reference's bytes
-- and lines look public. Outside git, the files there.
local function committed_files(paths)
  local list = {}
  if wb.capture("git rev-parse --show-toplevel 2>/dev/null"):gsub("\n$", "") == wb.realpath(".") then
    for path in wb.capture("git ls-tree -r -z --name-only HEAD -- " .. wb.command(paths)):gmatch("([^%z]+)%z") do
      local show = "git show " .. wb.quote("HEAD:" .. path)
      list[#list + 1] = { path = path, text = wb.capture(show), sha256 = wb.capture(show .. " | sha256sum"):match("^%x+") }
    end
    return list
  end
  for _, dir in ipairs(paths) do
    for _, path in ipairs(wb.is_dir(dir) and files_below(dir) or {}) do
      path = dir .. "/" .. path
      list[#list + 1] = { path = path, text = wb.read_file(path) or "", sha256 = wb.sha256(path) }
    end
  end
  return list
end

-- What exercises/ publishes on purpose.
local function public_files()
  return committed_files({ PUBLIC })
end

-- The workbook's own shipped code: the C files of the shipped folders (exercises/ too: its
-- checkers), as committed.
local function tool_files()
  local folders = {}
  for name in pairs(shipped_names()) do
    if wb.is_dir(name) and name ~= ".git" then
      folders[#folders + 1] = name
    end
  end
  table.sort(folders)
  local list = {}
  for _, f in ipairs(committed_files(folders)) do
    if f.path:match("%.[ch]$") then
      list[#list + 1] = f
    end
  end
  return list
end

local function hashes_below(dir)
  local paths = {}
  for _, path in ipairs(files_below(dir)) do
    paths[#paths + 1] = dir .. "/" .. path
  end
  return wb.sha256_many(paths)
end

local function check_copies(edition)
  local public = { [wb.sha256(README)] = true }
  for _, f in ipairs(public_files()) do
    public[f.sha256] = true
  end
  local private = {}
  for _, dir in ipairs(PRIVATE) do
    for path, hex in pairs(hashes_below(dir)) do
      if not public[hex] then
        private[hex] = path
      end
    end
  end
  for path, hex in pairs(hashes_below(edition)) do
    if private[hex] then
      finding("copies: " .. path:sub(#edition + 2) .. " has the same bytes as " .. private[hex])
    end
  end
end

local function c_files(dir)
  local list = {}
  for _, path in ipairs(files_below(dir)) do
    if path:match("%.[ch]$") then
      list[#list + 1] = path
    end
  end
  return list
end

-- Lines of the reference's C code that say something of their own: not in exercises/, not in
-- the workbook's own shipped code.
local function telling_lines()
  local public = {}
  local files = public_files()
  for _, f in ipairs(tool_files()) do
    files[#files + 1] = f
  end
  for _, f in ipairs(files) do
    for line in f.text:gmatch("[^\n]+") do
      public[line:match("^%s*(.-)%s*$")] = true
    end
  end
  local telling = {}
  for _, path in ipairs(c_files(REFERENCE)) do
    for line in wb.read_file(REFERENCE .. "/" .. path):gmatch("[^\n]+") do
      local text = line:match("^%s*(.-)%s*$")
      if #text >= MIN_LINE and not public[text] then
        telling[text] = REFERENCE .. "/" .. path
      end
    end
  end
  return telling
end

local function check_lines(edition, files)
  local telling = telling_lines()
  for _, path in ipairs(files) do
    local text = wb.read_file(edition .. "/" .. path) or ""
    if not text:find("\0", 1, true) then
      local number = 0
      for line in (text .. "\n"):gmatch("([^\n]*)\n") do
        number = number + 1
        local source = telling[line:match("^%s*(.-)%s*$")]
        if source then
          finding(string.format("lines: %s:%d is a line of %s", path, number, source))
        end
      end
    end
  end
end

-- True when function r of the reference is close to a function of the workbook's own code.
local function shared_with_tools(r, tools)
  for _, t in ipairs(tools) do
    if similar.close(t, r) then
      return true
    end
  end
  return false
end

local function check_functions(edition)
  local tools = {}
  for _, f in ipairs(tool_files()) do
    for _, t in ipairs(similar.functions(f.text)) do
      tools[#tools + 1] = t
    end
  end
  local reference = {}
  for _, path in ipairs(c_files(REFERENCE)) do
    for _, f in ipairs(similar.functions(wb.read_file(REFERENCE .. "/" .. path))) do
      f.path = REFERENCE .. "/" .. path
      if not shared_with_tools(f, tools) then
        reference[#reference + 1] = f
      end
    end
  end
  local compared = 0
  for _, path in ipairs(c_files(edition)) do
    for _, e in ipairs(similar.functions(wb.read_file(edition .. "/" .. path))) do
      compared = compared + 1
      for _, r in ipairs(reference) do
        local close, shape, named = similar.close(e, r)
        if close then
          finding(string.format("functions: %s:%d-%d %s is close to %s:%d %s (structure %.2f, names %.2f)",
            path, e.first_line, e.last_line, e.name, r.path, r.first_line, r.name, shape, named))
        end
      end
    end
  end
  return compared, #reference
end

local parser = wb.parser("check_edition.lua", "Is a student edition fit to publish? (from the workbook root)")
parser:argument("edition", "the edition's folder")
local edition = wb.parse(parser, arg).edition
if not wb.is_dir(edition) then
  io.stderr:write("check_edition: " .. edition .. " is not a folder\n")
  os.exit(2)
end
if not wb.is_dir(REFERENCE) or not wb.exists("grader/edition/ships.txt") then
  io.stderr:write("check_edition: run it from the instructor's workbook (no " .. REFERENCE .. "/ here)\n")
  os.exit(2)
end
edition = edition:gsub("/+$", "")
local files = files_below(edition)
check_layout(edition)
check_outputs(edition, files)
check_copies(edition)
check_lines(edition, files)
local compared, references = check_functions(edition)
table.sort(findings)
for _, text in ipairs(findings) do
  print("check_edition: " .. text)
end
if #findings > 0 then
  print(string.format("check_edition: %s is NOT fit to publish: %d finding(s)", edition, #findings))
  os.exit(1)
end
print(string.format("check_edition: %s: %d files, no build outputs, no copy of solutions/ or grader/; " ..
  "%d C functions compared with %d of the reference, none close", edition, #files, compared, references))
