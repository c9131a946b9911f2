-- compare.lua: the one comparison of answers with the reference's, for the student's run
-- and for the grade.
--
-- Items are compared by key, byte for byte (both sides are escaped the same way). An item
-- the reference has and the run lacks is a difference ("no answer"); so is one the run has
-- and the reference does not (an answer like changed:WHAT, which only code that wrote into its
-- const input gives), and a key answered twice. The differences come in the reference's
-- order, or by `priority(expected, actual)` first when given (a wrong cost says more than a
-- rank it pushed down). trivial(result) says whether an expected answer is one that code
-- doing nothing would also give (the grader's scoring: grader/engine.lua).

local M = {}

-- Returns { total, matched, matched_trivial, real, differences = { { key, expected, actual,
-- twice } ... }, first = differences[1] }. expected and actual are item lists.
function M.items(expected, actual_items, priority, trivial)
  local actual, twice, known = {}, {}, {}
  for _, item in ipairs(actual_items) do
    if actual[item.key] then
      twice[item.key] = true
    else
      actual[item.key] = item.result
    end
  end
  local c = { total = #expected, matched = 0, matched_trivial = 0, real = 0, differences = {} }
  for position, e in ipairs(expected) do
    known[e.key] = true
    local a = actual[e.key]
    local is_trivial = trivial ~= nil and trivial(e.result)
    if not is_trivial then
      c.real = c.real + 1
    end
    if a == e.result and not twice[e.key] then
      c.matched = c.matched + 1
      c.matched_trivial = c.matched_trivial + (is_trivial and 1 or 0)
    else
      c.differences[#c.differences + 1] = { key = e.key, expected = e.result, actual = a, twice = twice[e.key],
        rank = priority and priority(e.result, a) or 1, position = position }
    end
  end
  for _, item in ipairs(actual_items) do
    if not known[item.key] then
      known[item.key] = true
      c.total, c.real = c.total + 1, c.real + 1
      c.differences[#c.differences + 1] = { key = item.key, actual = item.result, rank = 0,
        position = #expected + #c.differences }
    end
  end
  table.sort(c.differences, function(x, y)
    if x.rank ~= y.rank then
      return x.rank < y.rank
    end
    return x.position < y.position
  end)
  c.first = c.differences[1]
  return c
end

-- Where two answers first differ (1-based), for long ones that are hard to compare by eye;
-- nil when one is missing or they are equal.
function M.first_difference(expected, actual)
  if not expected or not actual or expected == actual then
    return nil
  end
  local i = 1
  while i <= #expected and expected:byte(i) == actual:byte(i) do
    i = i + 1
  end
  return i
end

return M
