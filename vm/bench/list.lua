-- list.drip's twin: a class of two fields set one at a time, as Drip's init
-- does, and a million-node list built, walked and dropped five times.
Node = {}
Node.__index = Node

function Node.new(value, next)
  local self = setmetatable({}, Node)
  self.value = value
  self.next = next
  return self
end

local start = os.clock()
total = 0.0 -- a float, like every Drip number
for _ = 0, 4 do
  local head = nil
  for i = 0, 999999 do head = Node.new(i, head) end
  local node = head
  while node ~= nil do
    total = total + node.value
    node = node.next
  end
end
print(total)
print(os.clock() - start)
