-- fib.drip's twin: fib as a GLOBAL function, so each recursive call looks
-- fib up by name in a hash table, as Drip does.
function fib(n)
  if n < 2 then return n end
  return fib(n - 2) + fib(n - 1)
end

local start = os.clock()
print(fib(35) == 9227465)
print(os.clock() - start)
