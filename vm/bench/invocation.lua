-- invocation.drip's twin: ten distinct empty methods called on one object.
Calls = {}
Calls.__index = Calls
function Calls:m0() end
function Calls:m1() end
function Calls:m2() end
function Calls:m3() end
function Calls:m4() end
function Calls:m5() end
function Calls:m6() end
function Calls:m7() end
function Calls:m8() end
function Calls:m9() end

c = setmetatable({}, Calls)
local start = os.clock()
i = 0
while i < 2000000 do
  c:m0(); c:m1(); c:m2(); c:m3(); c:m4()
  c:m5(); c:m6(); c:m7(); c:m8(); c:m9()
  i = i + 1
end
print(i * 10)
print(os.clock() - start)
