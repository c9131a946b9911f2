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
--              are published on purpose (profile.h in exercises/ as committed, a chapter's
--              grader/N/student-README.md);
--   lines      no line of the reference's C code of 40 characters or more appears in
--              any file, unless it is in exercises/ too (the function signatures) or in
--              the workbook's own shipped code (a reference may use a line the tools have);
--   functions  no run of MIN_RUN tokens or more of C code is the reference's, names or no
--              names (sim_c, Debian's similarity-tester, which compares token streams with
--              every identifier alike), but for the reference's code that the workbook's
--              own shipped code shares (its tools and checkers: a helper both have is no
--              answer). Calibrated on this workbook: its own code shares runs of at most
--              30 tokens with the reference (a loop header, a signature); a renamed copy
--              of its smallest telling function, add_frame, is one run of 164.
-- What is published is taken as committed (git HEAD): exercises/ for what a student gets to
-- start from, the other shipped folders for the workbook's own code.
--
-- The point is that the solution cannot be recovered from the edition: copied files,
-- copied lines, or copied-and-renamed functions. Prose about the exercise (the chapter,
-- the handout) is meant to be there.
local wb = require("vm.lib.workbook")

local REFERENCE = "solutions"
local PRIVATE = { "solutions", "grader" }
local PUBLIC = "exercises"
-- Published on purpose although they live in grader/: the edition's README, each chapter's.
local function readmes()
  local list = {}
  for _, name in ipairs(wb.list_dir("grader") or {}) do
    if wb.exists("grader/" .. name .. "/student-README.md") then
      list[#list + 1] = "grader/" .. name .. "/student-README.md"
    end
  end
  return list
end
local REQUIRED = { "README.md", "Makefile", ".gitignore", "chapters", "exercises", "vm" }
local MIN_LINE = 40
local MIN_RUN = 60

local findings = {}
local function finding(text)
  findings[#findings + 1] = text
end

-- C sources and headers, for files_below's pattern.
local C = "%.[ch]$"

-- Files below dir, sorted, skipping .git, that match pattern (all without one): paths relative
-- to dir, or (full) with dir in front.
local function files_below(dir, pattern, full)
  local text = wb.capture("cd " .. wb.quote(dir) .. " && find . -name .git -prune -o -type f -print | LC_ALL=C sort")
  local list = {}
  for path in text:gmatch("%./([^\n]+)") do
    if path:match(pattern or "") then
      list[#list + 1] = full and dir .. "/" .. path or path
    end
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
    if not wb.exists(edition .. "/" .. name) then
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
    if (wb.read_file(edition .. "/" .. path) or ""):sub(1, 4) == "\127ELF" then
      finding("outputs: " .. path .. " is an executable or object file")
    end
  end
end

-- Files as published on purpose, as a list of { path, text, sha256 }: in a git checkout, the
-- files of HEAD below the given paths (one git archive into a scratch folder); a leftover
-- beside them (profile.c~, profile.c.orig holding a filled-in copy) or a stub somebody
-- filled in must not make the reference's bytes and lines look public. Outside git, the
-- files there.
local function committed_files(paths)
  local root, scratch = ".", nil
  if wb.capture("git rev-parse --show-toplevel 2>/dev/null"):gsub("\n$", "") == wb.realpath(".") then
    local tracked = {}
    for name in wb.capture("git ls-tree -z --name-only HEAD -- " .. wb.command(paths)):gmatch("([^%z]+)%z") do
      tracked[#tracked + 1] = name
    end
    scratch = wb.temp_dir("build", "committed")
    root, paths = scratch, tracked
    if #tracked > 0 and not wb.run("git archive HEAD -- " .. wb.command(tracked) .. " | tar -x -C " .. wb.quote(scratch)) then
      error("git archive HEAD failed", 0)
    end
  end
  local full = {}
  for _, dir in ipairs(paths) do
    local below = wb.is_dir(root .. "/" .. dir) and files_below(root .. "/" .. dir, nil, true) or {}
    table.move(below, 1, #below, #full + 1, full)
  end
  local hashes, list = wb.sha256_many(full), {}
  for _, path in ipairs(full) do
    list[#list + 1] = { path = path:sub(#root + 2), text = wb.read_file(path) or "", sha256 = hashes[path] }
  end
  if scratch then
    wb.rm_rf(scratch)
  end
  return list
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
    if f.path:match(C) then
      list[#list + 1] = f
    end
  end
  return list
end

-- The SHA-256 of every file below dir, by path (dir in front).
local function hashes_below(dir)
  return wb.sha256_many(files_below(dir, nil, true))
end

local function check_copies(edition)
  local public = {}
  for _, path in ipairs(readmes()) do
    public[wb.sha256(path)] = true
  end
  for _, f in ipairs(committed_files({ PUBLIC })) do
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

-- Lines of the reference's C code that say something of their own: not in exercises/, not in
-- the workbook's own shipped code.
local function telling_lines()
  local public = {}
  local files, tools = committed_files({ PUBLIC }), tool_files()
  for _, f in ipairs(table.move(tools, 1, #tools, #files + 1, files)) do
    for line in f.text:gmatch("[^\n]+") do
      public[line:match("^%s*(.-)%s*$")] = true
    end
  end
  local telling = {}
  for _, path in ipairs(files_below(REFERENCE, C, true)) do
    for line in wb.read_file(path):gmatch("[^\n]+") do
      local text = line:match("^%s*(.-)%s*$")
      if #text >= MIN_LINE and not public[text] then
        telling[text] = path
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

-- The runs sim_c finds between files (new) and the reference's C files (old), at least
-- MIN_RUN tokens long, as { file, lines = "A-B", ref, first, last, tokens }.
local function runs_against_reference(files)
  local refs = files_below(REFERENCE, C, true)
  local words = { "sim_c", "-n", "-s", "-r", tostring(MIN_RUN), table.unpack(files) }
  words[#words + 1] = "/"
  table.move(refs, 1, #refs, #words + 1, words)
  local text, ok = wb.capture(wb.command(words) .. " 2>&1")
  if not ok then
    error("sim_c failed (Debian package similarity-tester, for the check for renamed copies of the "
      .. "reference; make setup-edition installs it, Debian 13 has none): " .. text, 0)
  end
  local runs = {}
  for file, lines, ref, first, last, tokens in text:gmatch(
    "\n([^\n|]-): line (%d+%-%d+)%s*|([^\n|]-): line (%d+)%-(%d+)%[(%d+)%]") do
    if ref:sub(1, #REFERENCE + 1) == REFERENCE .. "/" then
      runs[#runs + 1] = { file = file, lines = lines, ref = ref, first = tonumber(first), last = tonumber(last),
        tokens = tonumber(tokens) }
    end
  end
  return runs
end

-- The workbook's own shipped C code as committed, in a scratch folder, for sim_c.
local function tool_copies()
  local dir = wb.temp_dir("build", "check-edition")
  local paths = {}
  for i, f in ipairs(tool_files()) do
    paths[i] = dir .. "/" .. i .. "-" .. wb.basename(f.path)
    wb.write_file(paths[i], f.text)
  end
  return dir, paths
end

local function check_functions(edition)
  local dir, tools = tool_copies()
  local shared = runs_against_reference(tools) -- what the tools have in common with it
  wb.rm_rf(dir)
  local edition_files = files_below(edition, C, true)
  for _, run in ipairs(runs_against_reference(edition_files)) do
    local tools_have_it = false
    for _, s in ipairs(shared) do
      tools_have_it = tools_have_it or (s.ref == run.ref and s.first <= run.first and run.last <= s.last)
    end
    if not tools_have_it then
      finding(string.format("functions: %s:%s is the reference's %s:%d-%d (%d tokens, names aside)",
        run.file:sub(#edition + 2), run.lines, run.ref, run.first, run.last, run.tokens))
    end
  end
  return #edition_files
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
local compared = check_functions(edition)
table.sort(findings)
for _, text in ipairs(findings) do
  print("check_edition: " .. text)
end
if #findings > 0 then
  print(string.format("check_edition: %s is NOT fit to publish: %d finding(s)", edition, #findings))
  os.exit(1)
end
print(string.format("check_edition: %s: %d files, no build outputs, no copy of solutions/ or grader/; " ..
  "%d C files compared with the reference (sim_c), no run of %d tokens in common", edition, #files, compared,
  MIN_RUN))
