-- trees.drip's twin: a five-way tree built once, then walked many times.
Tree = {}
Tree.__index = Tree

function Tree.new(depth)
  local self = setmetatable({}, Tree)
  self.depth = depth
  if depth > 0 then
    self.c0 = Tree.new(depth - 1)
    self.c1 = Tree.new(depth - 1)
    self.c2 = Tree.new(depth - 1)
    self.c3 = Tree.new(depth - 1)
    self.c4 = Tree.new(depth - 1)
  end
  return self
end

function Tree:walk()
  if self.depth == 0 then return 1 end
  return 1 + self.c0:walk() + self.c1:walk() + self.c2:walk()
           + self.c3:walk() + self.c4:walk()
end

tree = Tree.new(6)
local start = os.clock()
nodes = 0
for _ = 0, 299 do nodes = tree:walk() end
print(nodes)
print(os.clock() - start)
