-- listings.lua: finds the C listings of a chapter and what they must print.
--
-- A fenced block whose info string is exactly `c` is a complete program. The
-- next fenced block whose info string is `output` holds what it prints; a C
-- block followed by another C block (or by nothing) before an output block has
-- no expected output and must still compile and exit 0. Blocks marked
-- `c fragment` are pieces of a larger program and are not built.
local M = {}

-- Returns a list of {line = N, code = "...", output = "..." or nil}.
function M.extract(text)
  local blocks, open, info, start, body = {}, false, nil, 0, {}
  local n = 0
  for line in (text .. "\n"):gmatch("(.-)\n") do
    n = n + 1
    local fence = line:match("^```%s*(.-)%s*$")
    if fence and not open then
      open, info, start, body = true, fence, n, {}
    elseif fence and open and fence == "" then
      open = false
      blocks[#blocks + 1] = {info = info, line = start, text = table.concat(body, "\n") .. "\n"}
    elseif open then
      body[#body + 1] = line
    end
  end
  if open then
    error("line " .. start .. ": code block never closed", 0)
  end
  local listings = {}
  for _, b in ipairs(blocks) do
    if b.info == "c" then
      listings[#listings + 1] = {line = b.line, code = b.text}
    elseif b.info == "output" then
      local last = listings[#listings]
      if not last or last.output then
        error("line " .. b.line .. ": an output block with no C listing before it", 0)
      end
      last.output = b.text
    end
  end
  return listings
end

return M
