-- equality.drip's twin: == on mixed types in a loop, less an empty loop.
-- Globals and float counters, as in the Drip program.
n = 5000000
local start = os.clock()
i = 0.0
while i < n do
  i = i + 1
end
local loopTime = os.clock() - start

start = os.clock()
hits = 0.0
i = 0.0
while i < n do
  i = i + 1
  if 1 == 1 then hits = hits + 1 end
  if 1 == 2 then hits = hits + 1 end
  if nil == nil then hits = hits + 1 end
  if true == false then hits = hits + 1 end
  if "drip" == "drip" then hits = hits + 1 end
  if "drip" == "drop" then hits = hits + 1 end
  if 1 == "1" then hits = hits + 1 end
  if nil == false then hits = hits + 1 end
  if i == i then hits = hits + 1 end
end
print(hits)
print(os.clock() - start - loopTime)
