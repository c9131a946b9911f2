-- render.lua: fills a chapter template with numbers from committed data.
--
-- A chapter is written as NAME.md.in and rendered to NAME.md. Every figure
-- the text quotes comes from a data file, so refreshing the data without
-- re-rendering (and rereading) the chapter makes `make test` fail.
--
-- Placeholders:
--   {{key}}             the value of key, as written in the data file
--   {{key|commas}}      an integer with thousands separators: 358,328,431
--   {{key|%.1f}}        any Lua string.format pattern
--   {{a/b|%.1f}}        the quotient of two keys (a ratio, per-call cost, ...)
--   {{a-b|commas}}      the difference of two keys
--   {{include:PATH}}    the lines of a file (relative to the template), verbatim
-- Data files hold `key = value` lines; `#` starts a comment line. Keys from
-- several files share one namespace, prefixed by the file's given prefix.
local M = {}

local function fail(where, msg)
    error(where .. ": " .. msg, 0)
end

-- Reads `key = value` lines into t, each key prefixed with prefix.
function M.load_data(t, path, prefix)
    local f, err = io.open(path, "r")
    if not f then
        fail(path, "cannot read data file (" .. err .. ")")
    end
    local n = 0
    for line in f:lines() do
        n = n + 1
        line = line:gsub("\r$", "")
        if line ~= "" and not line:match("^%s*#") then
            local k, v = line:match("^%s*([%w_.]+)%s*=%s*(.-)%s*$")
            if not k then
                fail(path .. ":" .. n, "expected 'key = value', got '" .. line .. "'")
            end
            t[prefix .. k] = v
        end
    end
    f:close()
    return t
end

local function with_commas(s, where)
    local sign, digits = tostring(s):match("^(%-?)(%d+)$")
    if not digits then
        fail(where, "commas needs a whole number, got '" .. tostring(s) .. "'")
    end
    local out = digits:reverse():gsub("(%d%d%d)", "%1,"):reverse()
    return sign .. out:gsub("^,", "")
end

local function number_of(data, key, where)
    local v = data[key]
    if v == nil then
        fail(where, "unknown key '" .. key .. "'")
    end
    local x = tonumber(v)
    if not x then
        fail(where, "key '" .. key .. "' is not a number: '" .. v .. "'")
    end
    return x
end

local function value_of(data, expr, where)
    local a, op, b = expr:match("^([%w_.]+)%s*([/%-])%s*([%w_.]+)$")
    if a and data[expr] == nil then
        local x, y = number_of(data, a, where), number_of(data, b, where)
        if op == "/" then
            if y == 0 then
                fail(where, "division by zero in '" .. expr .. "'")
            end
            return x / y
        end
        return x - y
    end
    local v = data[expr]
    if v == nil then
        fail(where, "unknown key '" .. expr .. "'")
    end
    return v
end

local function format_value(v, filter, where)
    if filter == nil then
        if type(v) == "number" then
            fail(where, "a computed value needs a format, such as |%.1f")
        end
        return v
    elseif filter == "commas" then
        if type(v) == "number" then
            v = string.format("%.0f", v)
        end
        return with_commas(v, where)
    elseif filter:match("^%%[%d.]*[dfgs]$") then
        local x = tonumber(v)
        if filter:match("[dfg]$") and not x then
            fail(where, "format " .. filter .. " needs a number, got '" .. tostring(v) .. "'")
        end
        if filter:match("d$") then
            x = math.floor(x + 0.5)
        end
        return string.format(filter, x or v)
    end
    fail(where, "unknown filter '" .. filter .. "'")
end

local function read_lines(path, where)
    local f = io.open(path, "r")
    if not f then
        fail(where, "cannot read included file '" .. path .. "'")
    end
    local text = f:read("a")
    f:close()
    return (text:gsub("\n$", ""))
end

-- Renders template text; name and dir are for messages and includes.
function M.render(text, data, name, dir)
    local out, n = {}, 0
    for line in (text .. "\n"):gmatch("(.-)\n") do
        n = n + 1
        local where = name .. ":" .. n
        line = line:gsub("{{(.-)}}", function(inner)
            local path = inner:match("^include:(.+)$")
            if path then
                return read_lines(dir .. "/" .. path, where)
            end
            local expr, filter = inner:match("^%s*(.-)%s*|%s*(.-)%s*$")
            expr = expr or inner:match("^%s*(.-)%s*$")
            return format_value(value_of(data, expr, where), filter, where)
        end)
        out[#out + 1] = line
    end
    if out[#out] == "" then
        out[#out] = nil
    end
    return table.concat(out, "\n") .. "\n"
end

return M
