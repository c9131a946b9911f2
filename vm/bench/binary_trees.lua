-- binary_trees.drip's twin: a metatable class whose constructor sets the two
-- fields one at a time (as Drip's init does), and build as a global function.
-- (A leaf's fields are nil, which a Lua table does not store.)
Node = {}
Node.__index = Node

function Node.new(left, right)
  local self = setmetatable({}, Node)
  self.left = left
  self.right = right
  return self
end

function Node:count()
  if self.left == nil then return 1 end
  return 1 + self.left:count() + self.right:count()
end

function build(depth)
  if depth == 0 then return Node.new(nil, nil) end
  return Node.new(build(depth - 1), build(depth - 1))
end

local start = os.clock()
maxDepth = 16
longLived = build(maxDepth)
checksum = 0.0 -- a float, like every Drip number
for depth = 4, maxDepth, 2 do
  local rounds = 1
  for _ = depth, maxDepth - 1 do rounds = rounds * 2 end
  for _ = 0, rounds - 1 do
    checksum = checksum + build(depth):count()
  end
end
checksum = checksum + longLived:count()
print(checksum)
print(os.clock() - start)
