-- listings.lua: finds the C listings of a chapter and what they must print.
--
-- A fenced block whose info string is exactly `c` is a complete program. The
-- next fenced block whose info string is `output` holds what it prints; a C
-- block followed by another C block (or by nothing) before an output block has
-- no expected output and must still compile and exit 0. Blocks marked
-- `c fragment` are pieces of a larger program and are not built.
local M = {}

-- Returns a list of {line = N, code = "...", output = "..." or nil}. A block that is never
-- closed is the error, before an output block with no listing (orphan, its first line).
function M.extract(text)
  local listings, open, info, start, body, orphan = {}, false, nil, 0, {}, nil
  local n = 0
  for line in (text .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    local fence = line:match("^```%s*(.-)%s*$")
    if fence and not open then
      open, info, start, body = true, fence, n, {}
    elseif fence and open and fence == "" then
      open = false
      local last, code = listings[#listings], table.concat(body, "\n") .. "\n"
      if info == "c" then
        listings[#listings + 1] = {line = start, code = code}
      elseif info == "output" and last and not last.output then
        last.output = code
      elseif info == "output" then
        orphan = orphan or start
      end
    elseif open then
      body[#body + 1] = line
    end
  end
  if open then
    error("line " .. start .. ": code block never closed", 0)
  elseif orphan then
    error("line " .. orphan .. ": an output block with no C listing before it", 0)
  end
  return listings
end

return M
