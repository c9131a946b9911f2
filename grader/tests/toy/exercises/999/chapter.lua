-- chapter.lua: chapter 999's exercise, as the workbook's engine needs to know it
-- (exercises/harness/chapter.lua says what each field means). Chapter 999 is the toy chapter
-- of the grader's tests (grader/tests/toy/): one function, group_digits (digits.h).

local M = {
  title = "Grouping digits (the engine's toy chapter)",
  student_files = { "digits.c" },
  headers = { "digits.h" },
  checker = { "tests/check.c" },
  cases = { "tests/group_digits.txt" },
  handout = "README.md",
  stub = "-1",
  calls = { group_digits = "group_digits(value, out, size)" },
}

-- An answer of tests/check.c in words (exercises/harness/chapter.lua, `words`).
function M.words(_, key, answer)
  local size = key:match("size=(%d+)$") or "?"
  local n, text = answer:match('^(%d+) "(.*)"$')
  if n then
    return string.format('returns %s with out = "%s"', n, text)
  end
  n = answer:match("^(%d+) unterminated$")
  if n then
    return string.format("returns %s, but the %s bytes of out hold no '\\0'", n, size)
  elseif answer == "-1" then
    return "returns -1 (the text and its '\\0' do not fit; the shipped stub returns -1 too)"
  elseif answer == "-1 but-out-changed" then
    return "returns -1, but wrote into out: leave it as it was when the text does not fit"
  end
  local other = answer:match("^returned%-(%-?%d+)$")
  return other and string.format("returns %s, not a value group_digits may return", other) or answer
end

return M
