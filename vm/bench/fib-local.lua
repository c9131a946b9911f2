-- fib.drip's second twin: fib as a LOCAL function, the way a Lua programmer
-- would write it. The recursive call then reads an upvalue, not a global:
-- no lookup by name, which Drip's GET_GLOBAL still does.
local function fib(n)
  if n < 2 then return n end
  return fib(n - 2) + fib(n - 1)
end

local start = os.clock()
print(fib(35) == 9227465)
print(os.clock() - start)
