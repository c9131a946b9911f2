-- string_equality.drip's twin: Lua interns short strings only (up to 40
-- bytes), so its == compares the long pair byte by byte where Drip compares
-- pointers.
long1 = "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789"
long2 = "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz012345678X"
long3 = "abcdefghijklmnopqrstuvwxyz0123456789" .. "abcdefghijklmnopqrstuvwxyz0123456789"
short1 = "a"
short2 = "b"

local start = os.clock()
equal = 0.0
i = 0
while i < 5000000 do
  if long1 == long3 then equal = equal + 1 end
  if long1 == long2 then equal = equal + 1 end
  if short1 == short2 then equal = equal + 1 end
  if short1 == "a" then equal = equal + 1 end
  i = i + 1
end
print(equal)
print(os.clock() - start)
