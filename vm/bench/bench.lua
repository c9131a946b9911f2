-- vm/bench/bench.lua -- runs the Drip benchmarks and prints one row each.
--
--   lua5.4 vm/bench/bench.lua DRIP BENCH_DIR [REPEAT] [CALLGRIND]
--
-- Columns: best wall time of REPEAT runs; bytecodes executed (drip --count);
-- callgrind's instruction total (Ir) and Ir per bytecode, for the programs
-- CALLGRIND names ("fib,zoo" by default, "all", or "none"; needs valgrind);
-- and, where BENCH_DIR has a Lua twin (fib.lua beside fib.drip), Lua 5.4's
-- best time measured in the same run, alternating with Drip's, and the ratio
-- drip/lua (below 1.00 means Drip is faster).
--
-- Times on a shared machine wobble; Ir does not, so Ir is what the VM's
-- performance targets are stated in (vm/PERFORMANCE.md).

local M = {}

local function shellQuote(text)
  return "'" .. text:gsub("'", "'\\''") .. "'"
end

-- stdout and stderr of command, together.
local function capture(command, keepRedirects)
  local pipe = io.popen(keepRedirects and command or (command .. " 2>&1"))
  local text = pipe:read("a")
  pipe:close()
  return text
end

-- Wall-clock seconds of one run, by bash's time keyword.
local function timeOnce(command)
  local text = capture("bash -c " .. shellQuote("TIMEFORMAT=%3R; time (" .. command .. " >/dev/null 2>&1)"))
  return tonumber(text:match("([%d%.]+)%s*$"))
end

local function bytecodes(drip, program)
  local text = capture(shellQuote(drip) .. " --count " .. shellQuote(program) .. " 2>&1 >/dev/null", true)
  local total = text:match("\ntotal%s+([%d,]+)")
  return total and tonumber((total:gsub(",", ""))) or nil
end

local function callgrindTotal(drip, program)
  local text = capture("valgrind --tool=callgrind --callgrind-out-file=/dev/null " ..
    shellQuote(drip) .. " " .. shellQuote(program))
  local total = text:match("Collected : (%d+)")
  return total and tonumber(total) or nil
end

local function grouped(n)
  if n == nil then return "-" end
  local text = string.format("%d", n)
  local result = text:reverse():gsub("(%d%d%d)", "%1,"):reverse()
  return (result:gsub("^,", ""))
end

local function fileExists(path)
  local file = io.open(path, "r")
  if file then file:close() return true end
  return false
end

function M.main(argv)
  local drip, dir = argv[1], argv[2]
  local repeat_ = tonumber(argv[3] or "3") or 3
  local which = argv[4] or "fib,zoo"
  if not drip or not dir then
    io.stderr:write("usage: bench.lua DRIP BENCH_DIR [REPEAT] [CALLGRIND]\n")
    return 2
  end
  local hasValgrind = os.execute("command -v valgrind >/dev/null 2>&1")
  local hasLua = os.execute("command -v lua5.4 >/dev/null 2>&1")
  local programs = {}
  local listing = io.popen("ls " .. shellQuote(dir) .. " | LC_ALL=C sort")
  for name in listing:lines() do
    local base = name:match("^(.-)%.drip$")
    if base then programs[#programs + 1] = base end
  end
  listing:close()

  print(string.format("%-16s %9s %15s %16s %8s %9s %7s", "program", "drip s", "bytecodes",
    "Ir (callgrind)", "Ir/bc", "lua s", "ratio"))
  for _, name in ipairs(programs) do
    local program = dir .. "/" .. name .. ".drip"
    local twin = dir .. "/" .. name .. ".lua"
    local hasTwin = hasLua and fileExists(twin)
    local best, bestLua
    for _ = 1, repeat_ do
      local t = timeOnce(shellQuote(drip) .. " " .. shellQuote(program))
      if t and (best == nil or t < best) then best = t end
      if hasTwin then
        local l = timeOnce("lua5.4 " .. shellQuote(twin))
        if l and (bestLua == nil or l < bestLua) then bestLua = l end
      end
    end
    local count = bytecodes(drip, program)
    local ir
    if hasValgrind and (which == "all" or ("," .. which .. ","):find("," .. name .. ",", 1, true)) then
      ir = callgrindTotal(drip, program)
    end
    local perBytecode = (ir and count and count > 0) and string.format("%.1f", ir / count) or "-"
    local ratio = (best and bestLua and bestLua > 0) and string.format("%.2f", best / bestLua) or "-"
    print(string.format("%-16s %9s %15s %16s %8s %9s %7s", name,
      best and string.format("%.3f", best) or "-", grouped(count), grouped(ir), perBytecode,
      bestLua and string.format("%.3f", bestLua) or "-", ratio))
    io.stdout:flush()
  end
  return 0
end

os.exit(M.main(arg))
