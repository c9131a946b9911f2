-- inline_svg.lua: a pandoc filter for the web edition (`make book`).
--
-- The chapters show their flame graphs as Markdown images of SVG files.
-- An <img> would display the picture but run none of its script, so in the
-- web edition every such image is replaced by the SVG itself, inline in the
-- page, inside a <figure> with the image's text as its caption: hover,
-- zoom and search then work in the page (vm/prof/flame_script.c scopes its
-- script to its own <svg> for this). Paths are relative to the chapter's
-- folder, as in the Markdown. An image that is not SVG stays an image; an
-- SVG that cannot be read stops pandoc with its name.
--
-- Ids are one per page: the N-th figure is <figure id="figure-N">, and every id
-- inside its SVG gets the prefix "figure-N-", in the id itself, in the SVG's
-- style sheet and references (#id) and in its script, which finds its elements
-- by '#' + name (vm/prof/flame_script.c's byId). An SVG with ids and a script
-- that does not look them up that way stops pandoc: its script would no longer
-- find them. The SVG sits in a box that scrolls sideways, so the graph keeps a
-- readable size on a narrow screen (style.css).
--
-- This runs inside pandoc (its Lua 5.3), with pandoc's `pandoc` module.
local input = PANDOC_STATE.input_files[1] or "."
local dir = input:match("^(.*)/[^/]*$") or "."

local function read_svg(path)
  local f, err = io.open(path, "r")
  if not f then
    error("inline_svg: cannot read " .. path .. " (" .. tostring(err) .. ")")
  end
  local text = f:read("a")
  f:close()
  -- an XML declaration is not allowed in the middle of an HTML page
  return (text:gsub("^%s*<%?xml[^>]*%?>%s*", ""))
end

local escape = require("vm.lib.html").escape

local function unique_ids(svg, prefix, path)
  local ids = {}
  for id in svg:gmatch(' id="([^"]+)"') do
    ids[#ids + 1] = id
  end
  svg = svg:gsub(' id="([^"]+)"', ' id="' .. prefix .. '%1"')
  for _, id in ipairs(ids) do
    svg = svg:gsub("#" .. id:gsub("%p", "%%%0") .. "%f[^%w_-]", "#" .. prefix .. id)
  end
  local found
  svg, found = svg:gsub("'#' %+ ", "'#" .. prefix .. "' + ")
  if #ids > 0 and svg:find("<script") and found == 0 then
    error("inline_svg: " .. path .. ": its script does not find its ids by '#' + name")
  end
  return svg
end

local figures = 0
local function figure(image)
  local src = image.src
  local caption = escape(pandoc.utils.stringify(image.caption))
  figures = figures + 1
  local id = "figure-" .. figures
  return pandoc.RawBlock("html", '<figure class="flame" id="' .. id .. '" data-src="' .. escape(src) .. '">\n'
    .. '<div class="scroll">' .. unique_ids(read_svg(dir .. "/" .. src), id .. "-", src) .. "</div>"
    .. "<figcaption>" .. caption .. "</figcaption>\n</figure>")
end

return {
  {
    Para = function(para)
      local only = para.content[1]
      if #para.content == 1 and only.t == "Image" and only.src:match("%.svg$") then
        return figure(only)
      end
    end,
  },
}
