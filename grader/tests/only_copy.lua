-- only_copy.lua COMMAND ARGS...: runs COMMAND on a machine where this workbook is the only
-- copy whose solutions the user level would show to student code.
--
-- At the user level the grader rightly refuses to grade while any other copy of the workbook
-- (a clone, an unpacked autograder zip) lets other users read its solutions/
-- (sandbox.readable_copies). A test machine may hold such copies that are not the test's to
-- change: a developer's own clone, a CI machine's earlier checkout. The grader's suites that
-- grade at the user level run through here, so that their verdicts depend on the workbook under
-- test, not on what else the machine holds. The refusal itself has its own test (grader_spec,
-- "another copy of the workbook on the machine"), which makes its copy inside the command.
--
-- As root, with such copies present, COMMAND runs in a private mount namespace (unshare, from
-- util-linux) in which an empty tmpfs of mode 700 lies over each of their solutions/ folders:
-- nothing on disk changes, and the covers end with the command. Otherwise COMMAND runs as it
-- is. Says on stderr which folders it covered. Exit status: COMMAND's.
local wb = require("vm.lib.workbook")
local sandbox = require("exercises.harness.sandbox")

local command = { ... }
if #command == 0 then
  io.stderr:write("usage: only_copy.lua COMMAND ARGS...\n")
  os.exit(2)
end

local function others()
  if not wb.is_root() then
    return {}
  end
  local root = wb.realpath(".") .. "/"
  local list = {}
  for _, path in ipairs(sandbox.readable_copies("user")) do
    if path:sub(1, #root) ~= root then
      list[#list + 1] = path
    end
  end
  return list
end

local run = wb.command(command)
local covered = others()
if #covered > 0 then
  io.stderr:write("only_copy: other readable copies' solutions covered for this run (a private mount namespace): "
    .. table.concat(covered, ", ") .. "\n")
  local mounts = {}
  for i, path in ipairs(covered) do
    mounts[i] = "mount -t tmpfs -o mode=700,size=64k drip-covered " .. wb.quote(path)
  end
  run = "unshare --mount --propagation private -- sh -ec " .. wb.quote(table.concat(mounts, "\n") .. "\nexec " .. run)
end
local ok, how, code = os.execute(run)
os.exit(ok and 0 or (how == "exit" and code or 128 + (code or 0)))
