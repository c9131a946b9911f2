-- zip.lua: writes a .zip archive with stored (uncompressed) entries.
--
-- Gradescope takes the autograder as a zip file. The workbook depends on no
-- zip tool, and the archive is small text, so compression buys nothing: the
-- "stored" method needs only the headers and a CRC-32, written here with
-- string.pack. Unix permissions go in the external attributes, so
-- run_autograder and setup.sh stay executable.

local M = {}

local crc_table = {}
for i = 0, 255 do
  local c = i
  for _ = 1, 8 do
    c = (c & 1) ~= 0 and (0xEDB88320 ~ (c >> 1)) or (c >> 1)
  end
  crc_table[i] = c
end

function M.crc32(data)
  local c = 0xFFFFFFFF
  for i = 1, #data do
    c = crc_table[(c ~ data:byte(i)) & 0xFF] ~ (c >> 8)
  end
  return c ~ 0xFFFFFFFF
end

-- DOS date and time of t (os.time()).
local function dos_stamp(t)
  local d = os.date("*t", t)
  local time = (d.hour << 11) | (d.min << 5) | (d.sec // 2)
  local date = ((d.year - 1980) << 9) | (d.month << 5) | d.day
  return time, date
end

-- Writes path from entries { name = "a/b.txt", data = "...", mode = 493 }.
function M.write(path, entries)
  local out = assert(io.open(path, "wb"))
  local central, offset = {}, 0
  local time, date = dos_stamp(os.time())
  for _, e in ipairs(entries) do
    local crc = M.crc32(e.data)
    local header = string.pack("<I4I2I2I2I2I2I4I4I4I2I2", 0x04034b50, 20, 0, 0, time, date, crc, #e.data, #e.data,
      #e.name, 0)
    out:write(header, e.name, e.data)
    local mode = (e.mode or 420) | 0x8000 -- a regular file
    central[#central + 1] = string.pack("<I4I2I2I2I2I2I2I4I4I4I2I2I2I2I2I4I4", 0x02014b50, (3 << 8) | 20, 20, 0, 0,
      time, date, crc, #e.data, #e.data, #e.name, 0, 0, 0, 0, mode << 16, offset) .. e.name
    offset = offset + #header + #e.name + #e.data
  end
  local directory = table.concat(central)
  out:write(directory)
  out:write(string.pack("<I4I2I2I2I2I4I4I2", 0x06054b50, 0, 0, #entries, #entries, #directory, offset, 0))
  out:close()
end

return M
