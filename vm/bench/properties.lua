-- properties.drip's twin: getters and a setter on an object of ten fields.
Record = {}
Record.__index = Record

function Record.new()
  local self = setmetatable({}, Record)
  self.a = 1; self.b = 2; self.c = 3; self.d = 4; self.e = 5
  self.f = 6; self.g = 7; self.h = 8; self.i = 9; self.j = 10
  return self
end
function Record:getA() return self.a end
function Record:getB() return self.b end
function Record:getC() return self.c end
function Record:getD() return self.d end
function Record:getE() return self.e end
function Record:getF() return self.f end
function Record:getG() return self.g end
function Record:getH() return self.h end
function Record:getI() return self.i end
function Record:getJ() return self.j end
function Record:bump()
  self.a = self.a + 1
  self.j = self.j - 1
end

r = Record.new()
local start = os.clock()
sum = 0.0
n = 0
while n < 1000000 do
  sum = sum + r:getA() + r:getB() + r:getC() + r:getD() + r:getE()
            + r:getF() + r:getG() + r:getH() + r:getI() + r:getJ()
  r:bump()
  n = n + 1
end
print(sum)
print(os.clock() - start)
