-- zoo.drip's twin: an object with six fields and six getter methods, and
-- globals for zoo and sum as in the Drip program.
Zoo = {}
Zoo.__index = Zoo

function Zoo.new()
  local self = setmetatable({}, Zoo)
  self.aarvark = 1
  self.baboon = 1
  self.cat = 1
  self.donkey = 1
  self.elephant = 1
  self.fox = 1
  return self
end

function Zoo:ant() return self.aarvark end
function Zoo:banana() return self.baboon end
function Zoo:tuna() return self.cat end
function Zoo:hay() return self.donkey end
function Zoo:grass() return self.elephant end
function Zoo:mouse() return self.fox end

zoo = Zoo.new()
sum = 0.0 -- a float, like every Drip number
local start = os.clock()
while sum < 10000000 do
  sum = sum + zoo:ant()
            + zoo:banana()
            + zoo:tuna()
            + zoo:hay()
            + zoo:grass()
            + zoo:mouse()
end

print(sum)
print(os.clock() - start)
