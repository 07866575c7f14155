-- Benchmark "fight" by hand in LuaJIT 2.1 (see tools/bench/README.md).
-- usage: luajit fight_jit.lua N
package.path = (arg[0]:match("(.*/)") or "./") .. "?.lua;" .. package.path
local rng = require("rng_jit")
local below = rng.below
local rshift = require("bit").rshift
local r = rng.stream(0, 0)
local function hits(n, need)
  local h = 0
  for _ = 1, n do
    -- h + 1 if the die (1..6) >= need, without a branch (as the C's
    -- h += die >= need): need - die - 1 < 0 exactly then.
    h = h + rshift(need - (below(r, 6) + 1) - 1, 31)
  end
  return h
end
local n = tonumber(arg[1] or "1000000")
local routs, waverers, dlost, alost = 0, 0, 0, 0
for i = 0, n - 1 do
  local ah = hits(6 + 2 * (i % 3), 4)
  local dh = hits(5, i % 5 == 0 and 5 or 4)
  local dl = ah - 3 > 0 and ah - 3 or 0
  local al = dh - 2 > 0 and dh - 2 or 0
  dlost, alost = dlost + dl, alost + al
  local c = 4 - dl
  if c <= 0 then
    routs = routs + 1
  elseif c <= 2 then
    local failed = false
    for _ = 1, (c == 1 and 2 or 1) do
      local x = below(r, 6) + 1
      local y = below(r, 6) + 1
      if x < 4 and y < 4 then failed = true end
    end
    if failed then waverers = waverers + 1 end
  end
end
print(string.format("[%d, %d, %d, %d]", routs, waverers, dlost, alost))
