-- speed.lua: the speed check's count and rule, one source for the grader's speed check
-- (grader/engine.lua) and the student's budget run (make exercise-N BUDGET=1).
--
-- A chapter with a speed check describes its input in exercises/N/chapter.lua (`speed`: func,
-- lines (the graded size), sizes (those the handout publishes), seed, and fields(lines, seed),
-- the case's fields). A count is the instructions of the checker's whole run on that case
-- under cachegrind, less those of the same run told to call nothing (it only reads the input).
-- The rule: full marks up to `limit` times the reference's count, half up to `half_limit`
-- times, else none (grader/N/rubric.lua holds the figures). The student has no reference, so
-- `make expected` writes the reference's count per published size, with the rule, into
-- exercises/N/tests/expected/speed.txt (data: counts, and a hash of the answers that says
-- only whether the student's are the same), and the budgets into the handout's table between
-- the BEGIN and END lines. The budget run runs the student's fast build (no sanitizers) under
-- the sandbox, like every local run.

local wb = require("vm.lib.workbook")
local cases = require("exercises.harness.cases")
local answers = require("exercises.harness.answers")
local runner = require("exercises.harness.runner")

local M = {}

-- The valgrind to use; GRADE_VALGRIND names another (the tests name a missing one).
function M.valgrind()
  local v = os.getenv("GRADE_VALGRIND")
  return (v and v ~= "") and v or "valgrind"
end

-- Whether that valgrind is installed (asked once per run).
local valgrind_found = {}
function M.have_valgrind()
  local program = M.valgrind()
  if valgrind_found[program] == nil then
    valgrind_found[program] = wb.run("command -v " .. wb.quote(program) .. " >/dev/null 2>&1")
  end
  return valgrind_found[program]
end

-- A counted run's limits besides CPU time: valgrind needs room; one process (an exec would
-- start a second valgrind).
M.LIMITS = { memory = 16384, output = 1 << 20, file_size = 1 << 20, procs = 1, results = 64 << 20 }
-- The reference's counted runs: ours, so bounded only in case of a bug.
M.REFERENCE_CPU = 3600

-- The count is of cachegrind. A client request (valgrind.h's preamble, an instruction
-- sequence valgrind's translator looks for) could still steer it: valgrind's core answers
-- VALGRIND_NON_SIMD_CALL under every tool by running a function natively, uncounted. So no
-- preamble may be reachable: the build searches the program for one and refuses it; the
-- program is static (build.lua's "fast" flavour), so nothing else of the client's is mapped
-- (valgrind's own code is not the client's to run, and the one page of it that is, its
-- signal trampoline, holds none: a test checks); and it may not make or change code at run
-- time. That last rule is read from valgrind's trace of every system call the program makes
-- (--trace-syscalls=yes, on the log): nothing mapped or protected executable, no file opened
-- but the cases (/proc/self/mem writes into code), no call outside SYSCALLS (see
-- syscall_refusal). Every option is ours: --command-line-only=yes ignores VALGRIND_OPTS and
-- any .valgrindrc the program writes. The count is read from cachegrind's output file,
-- which goes to a FIFO in the box (the sandbox's --tool-out) that the program may write but
-- not read, remove or replace: a forged copy comes on top of cachegrind's own, never instead
-- of it.
local COUNT_FILE = "count.out"

-- The caches are named though none is simulated: cachegrind still sets up the one it would
-- simulate, and the host's last-level cache as a VM reports it (512 MB here) costs 175 ms of
-- start-up in every counted run. The instruction count does not depend on them.
local function count_prefix()
  return { M.valgrind(), "--tool=cachegrind", "--cache-sim=no", "--branch-sim=no", "--I1=32768,8,64",
    "--D1=32768,8,64", "--LL=1048576,16,64", "--command-line-only=yes", "--vgdb=no", "--trace-children=yes",
    "--trace-syscalls=yes", "--cachegrind-out-file=" .. COUNT_FILE, "--log-fd=1020" }
end

-- Names count_prefix's options where figures measured with them are kept (the reference's CPU
-- seconds depend on them): a new name with every change there.
M.COUNTER = "cachegrind-small-caches"

-- The system calls a counted run may make, by the names valgrind's trace gives them: what the
-- checker, the C library and an allocator need, and nothing that reaches code, other files or
-- other processes, or valgrind's log (no dup or shutdown of it, no flag on it: a log socket
-- made non-blocking would drop valgrind's lines while the program floods it). mmap and
-- mprotect are checked further (never PROT_EXEC), openat (only the cases file), fcntl (only
-- reading flags and close-on-exec) and ioctl (only asking whether a descriptor is a terminal).
-- "unimplemented" is a call valgrind refused without making it.
M.SYSCALLS = {}
for name in ([[sys_brk sys_mmap sys_munmap sys_mremap sys_madvise sys_mprotect sys_openat sys_close sys_read
  sys_pread64 sys_write sys_writev sys_lseek sys_fstat sys_newfstat sys_newfstatat sys_statx
  sys_fcntl sys_ioctl sys_readlink sys_readlinkat sys_rseq sys_getrandom sys_sysinfo sys_uname
  sys_prlimit64 sys_getrlimit arch_prctl sys_set_tid_address sys_set_robust_list sys_rt_sigaction
  sys_rt_sigprocmask sys_sigaltstack sys_rt_sigreturn sys_getpid sys_gettid sys_tgkill
  sys_clock_gettime sys_gettimeofday sys_time sys_futex sys_exit exit_group unimplemented]]):gmatch("%S+") do
  M.SYSCALLS[name] = true
end

local PROT_EXEC = 4
-- fcntl's F_GETFD, F_SETFD and F_GETFL; ioctl's TCGETS.
local FCNTL_READ = { ["1"] = true, ["2"] = true, ["3"] = true }
local TCGETS = "0x5401"
-- openat's "this folder", as valgrind prints it (unsigned on amd64).
local AT_FDCWD = { ["-100"] = true, ["4294967196"] = true }

-- The arguments of the call traced on `line` after its name: from "( " to the first " )" (an
-- argument holding " )", a path, ends early and is refused as another file).
local function arguments(line)
  local args = line:match("^ ?%( ?(.-) %)")
  local fields = {}
  for field in ((args or "") .. ","):gmatch("%s*([^,]-)%s*,") do
    fields[#fields + 1] = field
  end
  return fields
end

-- The first call in valgrind's trace (log) that the rules above refuse, as a phrase, or nil.
-- `cases`: the one file the run may open. A line the program writes to the log can only add
-- a call: valgrind writes each of its lines whole before the call runs.
function M.syscall_refusal(log, cases)
  for name, rest in log:gmatch("SYSCALL%[%d+,%d+%]%(%d+%) ([^%s(%[]*)%S-([ (][^\n]*)") do
    local args = arguments(rest)
    local prot = (name == "sys_mmap" or name == "sys_mprotect") and tonumber(args[3] or "")
    if name == "..." then
      -- the second half of a call valgrind traced in two (it blocked): its first is above
    elseif not M.SYSCALLS[name] then
      return name .. "()"
    elseif (name == "sys_mmap" or name == "sys_mprotect") and not (prot and prot & PROT_EXEC == 0) then
      return string.format("%s() of executable memory", name)
    elseif name == "sys_openat" and (not AT_FDCWD[args[1]] or (args[2] or ""):match("^0x%x+%((.*)%)$") ~= cases) then
      return "sys_openat() of " .. wb.shorten(args[2] or "?", 60)
    elseif (name == "sys_fcntl" and not FCNTL_READ[args[2]]) or (name == "sys_ioctl" and args[2] ~= TCGETS) then
      return string.format("%s(%s)", name, wb.shorten(args[2] or "?", 20))
    end
  end
end

local function occurrences(text, pattern)
  return select(2, text:gsub(pattern, ""))
end

-- The instruction count of a run, or nil plus why not, from cachegrind's log (on the tool-log
-- socket) and output file (out), which must both be whole (not cut: r.tool_cut) and be one
-- valgrind's, of `command`: one header and one "Command:" in the log (an exec starts a second
-- valgrind), one "cmd:", "events:" and "summary:" in the output file (a second copy is a
-- forgery, or a second program), and the log's closing "I refs" line with the same count (a
-- log cut short, by shutdown() say, has none); and no system call in the log's trace that
-- syscall_refusal refuses (cases_file: the one file the run may open). What the program
-- writes can only add lines.
function M.read_count(log, out, command, cut, cases_file)
  if cut then
    return nil, "more was written to valgrind's log or output file than valgrind writes"
  end
  local pid = log:match("^==(%d+)== Cachegrind, ")
  if not pid or occurrences(log, "== Cachegrind, ") ~= 1 then
    return nil, "valgrind's log is missing or has a second header"
  end
  if occurrences(log, "==%d+== Command: ") ~= 1 then
    return nil, "the speed run started another program, so its count would not be the whole run's"
  end
  -- Each line read as "\nWORD: ": valgrind 3.21 and later start the file with "cmd:", not "desc:".
  local lines = "\n" .. out
  local count = lines:match("\nsummary: (%d+)\n")
  if occurrences(lines, "\ncmd: ") ~= 1 or occurrences(lines, "\nevents: ") ~= 1
    or occurrences(lines, "\nsummary: ") ~= 1 or not lines:find("\ncmd: " .. command .. "\n", 1, true)
    or not (out:match("^desc: ") or out:match("^cmd: ")) or not count then
    return nil, "valgrind's output file is missing, or holds more than one run's count"
  end
  local refused = M.syscall_refusal(log, cases_file)
  if refused then
    return nil, "the speed run asked the kernel for " .. refused .. ", which a counted run may not do: it "
      .. "may read its cases, write its answers and allocate memory, so that no code is made or changed at "
      .. "run time, where it would run uncounted"
  end
  local refs = {}
  for p, n in log:gmatch("==(%d+)== I%s+refs:%s+([%d,]+)") do
    refs[#refs + 1] = p == pid and n:gsub(",", "") or "other"
  end
  if #refs ~= 1 or refs[1] ~= count then
    return nil, "valgrind's log does not end with the count of its output file (the run did not end normally)"
  end
  return tonumber(count)
end

-- One whole run of `program` on case c under cachegrind, in the sandbox; baseline: the same
-- case told to call nothing. opts: program, case, dir, tag (its files are DIR/TAG.*), cpu
-- (seconds), sources, baseline. Returns the count (or nil), why not, and the run's result.
function M.count(opts)
  local c = opts.case
  if opts.baseline then
    local fields = { { "call", "no" } }
    table.move(c.fields, 1, #c.fields, 2, fields)
    c = { name = c.name, func = c.func, fields = fields }
  end
  local base = opts.dir .. "/" .. opts.tag
  cases.write_tsv(base .. ".tsv", { c })
  local r = runner.run({ program = opts.program, cases = base .. ".tsv", name = c.name, dir = opts.dir,
    tag = opts.tag, limits = setmetatable({ cpu = opts.cpu }, { __index = M.LIMITS }), sources = opts.sources,
    prefix = count_prefix(), tool_log = base .. ".cachegrind", tool_out = COUNT_FILE .. "=" .. base .. ".count" })
  local ir, why = M.read_count(wb.read_file(base .. ".cachegrind") or "", wb.read_file(base .. ".count") or "",
    table.concat(runner.checker_argv(c.name), " "), r.tool_cut, runner.CASES)
  return ir, why, r
end

-- The reference's measure of case c: { ir (the whole run), base (the run calling nothing),
-- cpu and base_cpu (their CPU seconds), items (its answers) }; raises when it fails.
function M.measure(opts)
  local ir, why, r = M.count(opts)
  local base, why_base, rb = M.count(setmetatable({ baseline = true, tag = opts.tag .. "-baseline" },
    { __index = opts }))
  if not r.ok or not ir or not base or ir <= base then
    local detail = r.stderr:match("[^\n]*[Ee]rror[^\n]*") or r.stderr:match("[^\n]+") or ""
    wb.fail("the reference failed under cachegrind: " .. r.status .. " " .. (why or why_base or "")
      .. " " .. detail)
  end
  return { ir = ir, base = base, cpu = r.cpu or 0, base_cpu = rb.cpu or 0, items = r.items }
end

-- The share of the speed points for a count `ratio` times the reference's (rule: limit,
-- half_limit): 1, 0.5 or 0.
function M.share(ratio, rule)
  return ratio <= rule.limit and 1 or (ratio <= rule.half_limit and 0.5 or 0)
end

-- The CPU seconds a counted run of the student's may take: cpu_factor times the reference's
-- (at least cpu_floor); one still going then would be far past the limit.
function M.cpu_limit(reference_cpu, rule)
  return math.max(rule.cpu_floor, reference_cpu * rule.cpu_factor)
end

-- The CPU-time witness: a second opinion on a count, from the kernel. Under cachegrind a
-- run's CPU time is close to a fixed start-up plus a cost per counted instruction (measured at
-- 200,000 stacks for the reference and for quadratic code, idle and loaded: 1.0 to 1.75 ns),
-- so a count that is `ratio` times the reference's predicts the run's CPU time from the
-- reference's two runs (ref: measure's cpu, base_cpu): base_cpu plus ratio times the
-- difference. A run that took more than `witness_factor` times that, plus `witness_slack`
-- seconds (rule: the rubric's speed figures), did work its count does not show. Returns
-- whether the run's `cpu` agrees with its count, and the most it may take.
function M.witness(ref, ratio, cpu, rule)
  local predicted = ref.base_cpu + ratio * math.max(ref.cpu - ref.base_cpu, 0)
  local allowed = rule.witness_factor * predicted + rule.witness_slack
  return cpu <= allowed, allowed
end

-- ------------------------------------------------------------------ the published budget

-- The chapter's speed case for `lines` stacks.
function M.case(ch, lines)
  return { name = ch.speed.func .. ".speed", func = ch.speed.func, fields = ch.speed.fields(lines, ch.speed.seed) }
end

-- What the answers of a run are, as a hash (the table may hold this, not the answers).
local function answers_hash(items)
  return wb.sha256_text(answers.text(items))
end

-- The input's hash: a table written for another input (other fields, another seed) is stale.
local function input_hash(ch, lines, dir)
  local path = dir .. "/input.tsv"
  cases.write_tsv(path, { M.case(ch, lines) })
  return wb.sha256(path)
end

function M.table_path(ch)
  return ch.dir .. "/tests/expected/speed.txt"
end

local TABLE_WORDS = { "lines", "reference", "cpu", "answers", "input" }

-- The table of chapter ch's speed.txt: { limit, half_limit, rows = { { lines, reference, cpu,
-- answers, input } } }, or nil and "FILE:LINE: why".
function M.read_table(ch)
  local path = M.table_path(ch)
  local text = wb.read_file(path)
  if not text then
    return nil, path .. ": missing; " .. answers.fix(ch)
  end
  local t = { rows = {} }
  for number, line in ipairs(wb.split_lines(text)) do
    local limit, half = line:match("^rule (%d+%.?%d*) (%d+%.?%d*)$")
    local row = { line:match("^size (%d+) (%d+) ([%d.]+) (%x+) (%x+)$") }
    if limit then
      t.limit, t.half_limit = tonumber(limit), tonumber(half)
    elseif #row == #TABLE_WORDS then
      local entry = {}
      for i, word in ipairs(TABLE_WORDS) do
        entry[word] = i <= 3 and tonumber(row[i]) or row[i]
      end
      t.rows[#t.rows + 1] = entry
    elseif line ~= "" and not line:match("^#") then
      return nil, string.format("%s:%d: not a line of the table: %s", path, number, wb.shorten(line, 80))
    end
  end
  if not t.limit or #t.rows == 0 then
    return nil, path .. ": no rule line or no size line; " .. answers.fix(ch)
  end
  return t
end

local BEGIN = "<!-- BEGIN speed budget: written from the reference, do not edit -->"
local END = "<!-- END speed budget -->"

-- The handout's table: the budgets per size, as instruction counts.
local function budget_table(ch, t)
  local out = { BEGIN, string.format("| stacks | full speed points up to (%gx) | half of them up to (%gx) |", t.limit,
    t.half_limit), "|---:|---:|---:|" }
  for _, row in ipairs(t.rows) do
    out[#out + 1] = string.format("| %s%s | %s | %s |", wb.commas(row.lines),
      row.lines == ch.speed.lines and " (graded)" or "", wb.commas(row.reference * t.limit),
      wb.commas(row.reference * t.half_limit))
  end
  out[#out + 1] = END
  return table.concat(out, "\n")
end

-- make expected: measures the reference (program: its fast build) on every published size,
-- writes speed.txt and the handout's table. rule: the rubric's speed figures; dir: scratch.
function M.write_budgets(ch, program, rule, dir)
  local t = { limit = rule.limit, half_limit = rule.half_limit, rows = {} }
  local lines = { "# " .. M.table_path(ch) .. ": the speed budget, written by make expected from the reference",
    "# and the rubric; make exercise-" .. ch.id .. " BUDGET=1 reads it. rule LIMIT HALF_LIMIT, then per size:",
    "# size STACKS REFERENCE_INSTRUCTIONS CPU_LIMIT ANSWERS_SHA256 INPUT_SHA256",
    string.format("rule %s %s", rule.limit, rule.half_limit) }
  for _, n in ipairs(ch.speed.sizes) do
    local m = M.measure({ program = program, case = M.case(ch, n), dir = dir, tag = "size-" .. n,
      cpu = M.REFERENCE_CPU, sources = ch.student_files })
    -- Rounded (to 1,000 instructions, 10 s), so that the table changes only when the reference's
    -- count does: its last digits and its CPU time differ a little from run to run.
    local row = { lines = n, reference = (m.ir - m.base + 500) // 1000 * 1000,
      cpu = math.ceil(M.cpu_limit(m.cpu, rule) / 10) * 10, answers = answers_hash(m.items),
      input = input_hash(ch, n, dir) }
    t.rows[#t.rows + 1] = row
    lines[#lines + 1] = string.format("size %d %d %d %s %s", n, row.reference, row.cpu, row.answers, row.input)
  end
  wb.write_file(M.table_path(ch), table.concat(lines, "\n") .. "\n")
  local handout = ch.dir .. "/" .. (ch.handout or "README.md")
  local text = wb.read_file(handout) or ""
  local from, to = text:find(BEGIN, 1, true), select(2, text:find(END, 1, true))
  if not from or not to then
    wb.fail(string.format("%s: no speed budget table to rewrite (a line %s and one %s)", handout, BEGIN,
      END))
  end
  wb.write_file(handout, text:sub(1, from - 1) .. budget_table(ch, t) .. text:sub(to + 1))
  return t
end

-- ------------------------------------------------------------------ the student's run

-- make exercise-N BUDGET=1 (or BUDGET=STACKS, a published size): program (the student's fast
-- build) on the size's input, counted, against the table's budget. Exit status: 0 within the
-- budget for full marks, 1 over it or wrong, 2 when it cannot run.
function M.budget(ch, program, out, size)
  local t = wb.must(M.read_table(ch))
  local lines = size == 1 and ch.speed.lines or size
  local row, sizes = nil, {}
  for _, r in ipairs(t.rows) do
    row = r.lines == lines and r or row
    sizes[#sizes + 1] = tostring(r.lines)
  end
  if not row then
    wb.fail(string.format("%s has no budget for %d stacks; it has one for %s (BUDGET=1: %d)",
      M.table_path(ch), lines, table.concat(sizes, ", "), ch.speed.lines))
  end
  if input_hash(ch, lines, out) ~= row.input then
    wb.fail(M.table_path(ch) .. " was written for another input; " .. answers.fix(ch))
  end
  io.write(string.format("Counting the instructions of %s() on %s generated stacks%s under valgrind (%.0f s of CPU"
    .. " time at most)...\n", ch.speed.func, wb.commas(lines), lines == ch.speed.lines and ", the graded size," or "",
    row.cpu))
  io.stdout:flush()
  local opts = { program = program, case = M.case(ch, lines), dir = out, tag = "budget", cpu = row.cpu,
    sources = ch.student_files }
  local ir, why_not, r = M.count(opts)
  if r.kind ~= "ok" then
    io.write("The run ", r.status, ", so there is no count. make exercise-", ch.id, " shows what goes wrong.\n")
    return 1
  elseif r.items[1] and r.items[1].result == ch.stub then
    io.write(string.format("%s() returned %s, what the shipped stub returns: not written yet? Nothing to count.\n",
      ch.speed.func, ch.stub))
    return 1
  end
  local base = M.count(setmetatable({ baseline = true, tag = "budget-baseline" }, { __index = opts }))
  if not ir or not base then
    io.write("No count: ", why_not or "the run that calls nothing failed", ".\n")
    return 1
  end
  local ratio = math.max(ir - base, 1) / row.reference
  local share = M.share(ratio, t)
  io.write(string.format("Your %s(): %s instructions (the run's, less %s of the same run calling nothing).\n",
    ch.speed.func, wb.commas(ir - base), wb.commas(base)))
  io.write(string.format("Budget for %s stacks: full marks up to %s, half up to %s (%gx and %gx the reference's).\n",
    wb.commas(lines), wb.commas(row.reference * t.limit), wb.commas(row.reference * t.half_limit), t.limit,
    t.half_limit))
  local verdict = share == 1 and "within the budget for full marks"
    or (share == 0.5 and "over the budget for full marks: half the speed points" or "over budget: no speed points")
  io.write(string.format("That is %.2fx the reference's count: %s.\n", ratio, verdict))
  local right = answers_hash(r.items) == row.answers
  if not right then
    io.write("But its answers differ from the reference's, and wrong answers earn no speed points: make exercise-",
      ch.id, " shows the cases that fail.\n")
  end
  return (right and share == 1) and 0 or 1
end

return M
