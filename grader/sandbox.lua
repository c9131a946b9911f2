-- sandbox.lua: runs one check program under build/harness/sandbox.
--
-- The sandbox (exercises/harness/sandbox.c) does the hard part: a process group,
-- rlimits, a wall-clock kill, an output cap, and one status line that says how
-- the program ended ("ok", "crashed: SIGSEGV", "timed out after 2 s",
-- "leaked 48 bytes", ...). This module runs a check through the command line
-- that runner.sandbox_command builds (the harness's, shared with
-- `make exercise-N`) and reads that line back, so every check in every
-- chapter is isolated the same way.

local util = require("util")
local runner = require("runner")

local M = {}

M.program = "build/harness/sandbox"

-- Runs opts.argv under the sandbox. opts: argv (list), timeout (s), memory
-- (MB), output (bytes), file_size (bytes), procs, stdout, stderr (files).
-- Returns { status = "ok" | the sandbox's line, ok = bool }.
function M.run(opts)
  local command = runner.sandbox_command(setmetatable({ sandbox = M.program }, { __index = opts }),
                                         opts.argv)
  local text = util.capture(command .. " 2>&1")
  local status = text:match("([^\n]*)\n?$") or ""
  if status == "" then
    status = "sandbox printed nothing"
  end
  return { status = status, ok = status == "ok" }
end

-- The grader's class of each verdict of the harness's runner.classify (the one
-- reader of the sandbox's status lines). The grader scores by class.
local CLASS_OF_VERDICT = { passed = "ok", crashed = "crash", timeout = "timeout", output = "output",
                           leak = "leak", sanitizer = "sanitizer", exit = "exit", failed = "exit" }

-- Classifies a status line: "ok", "leak", "timeout", "sanitizer", "crash",
-- "exit", "output" or "other".
function M.class(status)
  return CLASS_OF_VERDICT[runner.classify(status, "", "")] or "other"
end

return M
