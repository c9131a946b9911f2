-- vm/bench/bench.lua -- runs the Drip benchmarks beside their Lua twins.
--
--   lua5.4 vm/bench/bench.lua [--unfused DRIP_NOFUSE] DRIP BENCH_DIR [REPEAT] [CALLGRIND]
--
-- For every NAME.drip in BENCH_DIR, and its twin NAME.lua when there is one,
-- the three interpreters (DRIP, Lua 5.4, and LuaJIT 2.1 with its compiler
-- off, `luajit -joff`: its interpreter alone) run REPEAT rounds, one run of
-- each per round, the order rotating from round to round. A busy machine
-- slows all three alike within a round, so the ratios are taken per round.
-- A program may have more twins, NAME-VARIANT.lua (fib-local.lua: fib as a
-- Lua local); each gets a row of its own, NAME-VARIANT, with rounds of its own.
--
-- Columns:
--   cpu s       median CPU seconds (user + sys, bash's `time`, to the ms)
--   drip/lua    median over the rounds of Drip's CPU time over Lua's in the
--   drip/jit    same round (below 1.00: Drip is faster)
--   MiB         peak resident memory (GNU time's %M, maximum RSS), median
--   bytecodes   instructions Drip executes (drip --count)
--   Ir, Ir/bc   callgrind's instruction total and Ir per bytecode, for the
--               programs CALLGRIND names ("all" by default, "fib,zoo", or
--               "none"; needs valgrind)
--   unfused Ir  the same for DRIP_NOFUSE, the VM built without the load-time
--   fused       pass that writes superinstructions for the plain loop
--               (make build/drip-nofuse), and Ir over unfused Ir
-- A missing interpreter, twin or tool shows as "-".
--
-- CPU times on a shared machine wobble; Ir and peak memory do not, so the
-- VM's targets are stated in Ir, ratios and MiB (vm/PERFORMANCE.md).

local wb = require("vm.lib.workbook")

local M = {}

local GNU_TIME = "/usr/bin/time"
local shell_quote, read_file = wb.quote, wb.read_file

-- Everything command prints on stdout and stderr.
local function capture(command)
  return (wb.capture(command .. " 2>&1"))
end

local function succeeds(command)
  return wb.run(command .. " >/dev/null 2>&1")
end

local median = wb.median

-- One run of command: CPU seconds and peak memory in KiB (nil without GNU
-- time). Output is thrown away; only the measurements are kept.
local function measure(command, with_rss)
  local rss_file = with_rss and os.tmpname() or nil
  local wrapped = command
  if rss_file then
    wrapped = GNU_TIME .. " -f %M -o " .. shell_quote(rss_file) .. " " .. command
  end
  local script = 'TIMEFORMAT="%3U %3S"; { time ' .. wrapped .. ' >/dev/null 2>&1; } 2>&1'
  local text = capture("bash -c " .. shell_quote(script))
  local user, sys = text:match("([%d.]+)%s+([%d.]+)%s*$")
  local kib
  if rss_file then
    kib = tonumber((read_file(rss_file) or ""):match("(%d+)%s*$"))
    os.remove(rss_file)
  end
  if not user then return nil, kib end
  return tonumber(user) + tonumber(sys), kib
end

local function bytecodes(drip, program)
  local text = wb.capture(shell_quote(drip) .. " --count " .. shell_quote(program) .. " 2>&1 >/dev/null")
  local total = text:match("\ntotal%s+([%d,]+)")
  return total and tonumber((total:gsub(",", ""))) or nil
end

-- Callgrind's total for one run of program (nil without valgrind or drip).
local function callgrind_total(drip, program)
  if drip == nil then return nil end
  local text = capture("valgrind --tool=callgrind --callgrind-out-file=/dev/null " ..
    shell_quote(drip) .. " " .. shell_quote(program))
  return tonumber(text:match("Collected : (%d+)"))
end

local function grouped(n)
  return wb.commas(n) or "-"
end

local function fixed(value, format)
  return value and string.format(format, value) or "-"
end

local function machine_line()
  local cpu = (read_file("/proc/cpuinfo") or ""):match("model name%s*:%s*([^\n]+)") or "?"
  local load = (read_file("/proc/loadavg") or ""):match("^(%S+ %S+ %S+)") or "?"
  local system = capture("uname -srm"):gsub("%s+$", "")
  local cpus = capture("nproc"):gsub("%s+$", "")
  return string.format("machine: %s, %s CPUs (%s); load average %s", system, cpus, cpu, load)
end

-- The interpreters of one benchmark: Drip always, the two Lua ones when
-- they are installed and the program has a twin.
local function contenders(drip, program, twin, available)
  local list = { { key = "drip", command = shell_quote(drip) .. " " .. shell_quote(program) } }
  if wb.exists(twin) then
    if available.lua then
      list[#list + 1] = { key = "lua", command = "lua5.4 " .. shell_quote(twin) }
    end
    if available.jit then
      list[#list + 1] = { key = "jit", command = "luajit -joff " .. shell_quote(twin) }
    end
  end
  return list
end

-- REPEAT rounds; returns per key the list of CPU times and of peak KiB, and
-- per other key the list of per-round ratios drip/other.
local function run_rounds(list, repeat_count, with_rss)
  local cpu, kib, ratios = {}, {}, {}
  for _, c in ipairs(list) do cpu[c.key], kib[c.key], ratios[c.key] = {}, {}, {} end
  for round = 1, repeat_count do
    local this_round = {}
    for i = 0, #list - 1 do
      local c = list[(round - 1 + i) % #list + 1]
      local seconds, peak = measure(c.command, with_rss)
      this_round[c.key] = seconds
      if seconds then table.insert(cpu[c.key], seconds) end
      if peak then table.insert(kib[c.key], peak) end
    end
    for _, c in ipairs(list) do
      local other = this_round[c.key]
      if c.key ~= "drip" and other and other > 0 and this_round.drip then
        table.insert(ratios[c.key], this_round.drip / other)
      end
    end
  end
  return cpu, kib, ratios
end

local function mib(list)
  local k = list and median(list)
  return k and k / 1024 or nil
end

-- The twins of program NAME in dir: NAME.lua first, then NAME-VARIANT.lua, as (row name,
-- path) pairs; NAME.lua is listed even when it is missing (its row shows Drip alone).
local function twins(dir, base, files)
  local list = { { name = base, path = dir .. "/" .. base .. ".lua" } }
  for _, file in ipairs(files) do
    local variant = file:sub(1, #base + 1) == base .. "-" and file:match("^(.-)%.lua$")
    if variant then list[#list + 1] = { name = variant, path = dir .. "/" .. file } end
  end
  return list
end

function M.main(argv)
  local parser = wb.parser("bench.lua", "Runs the Drip benchmarks beside their Lua twins (make bench-vm).")
  parser:option("--unfused", "the VM built without superinstructions, for the unfused Ir column")
  parser:argument("drip", "the VM to measure")
  parser:argument("dir", "the folder of NAME.drip and NAME.lua programs")
  parser:argument("repeat_count", "rounds per program", "5"):args("?"):convert(wb.to_integer)
  parser:argument("which", "the programs measured under callgrind: NAME,NAME, all or none", "all"):args("?")
  local opts = wb.parse(parser, argv)
  local drip, dir, repeat_count, which = opts.drip, opts.dir, opts.repeat_count, opts.which
  local unfused = opts.unfused and wb.exists(opts.unfused) and opts.unfused or nil
  local available = {
    valgrind = succeeds("command -v valgrind"),
    lua = succeeds("command -v lua5.4"),
    jit = succeeds("command -v luajit"),
    rss = succeeds("test -x " .. GNU_TIME),
  }
  local programs, files = {}, wb.list_dir(dir) or {}
  for _, name in ipairs(files) do
    local base = name:match("^(.-)%.drip$")
    if base then programs[#programs + 1] = base end
  end

  print(machine_line())
  print(string.format("%d rounds per program; Lua 5.4 %s, LuaJIT -joff %s, peak memory %s",
    repeat_count, available.lua and "lua5.4" or "missing", available.jit and "luajit" or "missing",
    available.rss and GNU_TIME or "missing (Debian package time)"))
  local row = "%-15s %7s %7s %8s %7s %8s %8s %8s %8s %14s %15s %6s %15s %6s"
  print(string.format(row, "program", "drip s", "lua s", "drip/lua", "jit s", "drip/jit", "drip MiB",
    "lua MiB", "jit MiB", "bytecodes", "Ir (callgrind)", "Ir/bc", "unfused Ir", "fused"))
  for _, name in ipairs(programs) do
    local program = dir .. "/" .. name .. ".drip"
    local count = bytecodes(drip, program)
    local ir, ir_unfused
    if available.valgrind and (which == "all" or ("," .. which .. ","):find("," .. name .. ",", 1, true)) then
      ir, ir_unfused = callgrind_total(drip, program), callgrind_total(unfused, program)
    end
    local per_bytecode = (ir and count and count > 0) and string.format("%.1f", ir / count) or "-"
    local share = (ir and ir_unfused) and string.format("%.2f", ir / ir_unfused) or "-"
    for _, twin in ipairs(twins(dir, name, files)) do
      local list = contenders(drip, program, twin.path, available)
      local cpu, kib, ratios = run_rounds(list, repeat_count, available.rss)
      print(string.format(row, twin.name,
        fixed(median(cpu.drip), "%.3f"), fixed(median(cpu.lua or {}), "%.3f"),
        fixed(median(ratios.lua or {}), "%.2f"), fixed(median(cpu.jit or {}), "%.3f"),
        fixed(median(ratios.jit or {}), "%.2f"), fixed(mib(kib.drip), "%.1f"),
        fixed(mib(kib.lua), "%.1f"), fixed(mib(kib.jit), "%.1f"),
        grouped(count), grouped(ir), per_bytecode, grouped(ir_unfused), share))
      io.stdout:flush()
    end
  end
  print((machine_line():gsub("^machine: .*; load average", "after the runs: load average")))
  return 0
end

os.exit(M.main(arg))
