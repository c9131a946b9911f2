-- instantiation.drip's twin: a class with an empty initializer; each new
-- object is garbage at once.
Thing = {}
Thing.__index = Thing

function Thing:init() end

function Thing.new()
  local self = setmetatable({}, Thing)
  self:init()
  return self
end

local start = os.clock()
i = 0
while i < 1000000 do
  Thing.new(); Thing.new(); Thing.new(); Thing.new(); Thing.new()
  Thing.new(); Thing.new(); Thing.new(); Thing.new(); Thing.new()
  i = i + 1
end
print(i * 10)
print(os.clock() - start)
