-- vm/tests/support.lua -- small helpers the VM's test scripts share.
local M = {}

-- text quoted for /bin/sh.
function M.shellQuote(text)
  return "'" .. text:gsub("'", "'\\''") .. "'"
end

-- The whole file, or nil when it cannot be read.
function M.readFile(path)
  local file = io.open(path, "rb")
  if not file then return nil end
  local text = file:read("a")
  file:close()
  return text
end

-- Prints the summary line and, with a path, writes "PASSED FAILED" there
-- (the format `make test` sums). Returns the exit status.
function M.finish(label, passed, failed, resultPath)
  print(string.format("[%s] %d passed, %d failed", label, passed, failed))
  if resultPath then
    local file = assert(io.open(resultPath, "w"))
    file:write(string.format("%d %d\n", passed, failed))
    file:close()
  end
  return failed == 0 and 0 or 1
end

return M
