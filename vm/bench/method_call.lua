-- method_call.drip's twin: a class and a subclass whose methods call the
-- superclass's, through metatables.
Switch = {}
Switch.__index = Switch

function Switch.init(self, on) self.on = on end
function Switch.new(on)
  local self = setmetatable({}, Switch)
  self:init(on)
  return self
end
function Switch:value() return self.on end
function Switch:flip()
  self.on = not self.on
  return self
end

EveryNth = setmetatable({}, {__index = Switch})
EveryNth.__index = EveryNth

function EveryNth:init(on, period)
  Switch.init(self, on)
  self.period = period
  self.seen = 0
end
function EveryNth.new(on, period)
  local self = setmetatable({}, EveryNth)
  self:init(on, period)
  return self
end
function EveryNth:flip()
  self.seen = self.seen + 1
  if self.seen >= self.period then
    Switch.flip(self)
    self.seen = 0
  end
  return self
end

local start = os.clock()
n = 2000000
plain = Switch.new(true)
state = true
for _ = 0, n - 1 do state = plain:flip():value() end
print(state)
nth = EveryNth.new(true, 3)
for _ = 0, n - 1 do state = nth:flip():value() end
print(state)
print(os.clock() - start)
