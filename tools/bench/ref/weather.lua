-- Benchmark "weather" by hand in Lua 5.4 and LuaJIT 2.1 (see
-- tools/bench/README.md): the same code, with LuaJIT's uint64_t generator.
-- usage: lua5.4 weather.lua N   or   luajit weather.lua N
package.path = (arg[0]:match("(.*/)") or "./") .. "?.lua;" .. package.path
local rng = require(jit and "rng_jit" or "rng")
local below = rng.below
local grid = {
  {0, 0, 0, 0, 0, 1, 7},
  {1, 1, 1, 0, 1, 1, 7},
  {2, 2, 2, 1, 2, 3, 3},
  {2, 3, 2, 2, 2, 3, 3},
  {2, 3, 2, 2, 2, 3, 3},
  {3, 4, 3, 3, 3, 4, 4},
  {4, 4, 3, 4, 4, 4, 4},
  {4, 4, 4, 4, 4, 4, 4},
  {4, 4, 4, 4, 4, 5, 5},
  {4, 4, 4, 4, 4, 5, 5},
  {4, 5, 4, 4, 4, 5, 5},
  {5, 5, 5, 5, 5, 6, 6},
  {5, 5, 5, 5, 5, 6, 6},
  {5, 6, 5, 5, 5, 6, 6},
  {5, 6, 5, 5, 5, 6, 6}
}
local season = { [0] = -2, 0, 2 }
local n = tonumber(arg[1] or "1000000")
local c = { 0, 0, 0, 0, 0, 0, 0, 0 }
local r = rng.stream(0, 0)
for i = 0, n - 1 do
  local s = below(r, 6) + 1
  s = s + below(r, 6) + 1 + season[i % 3]
  if s < 0 then s = 0 elseif s > 14 then s = 14 end
  local w = grid[s + 1][i % 7 + 1] + 1
  c[w] = c[w] + 1
end
print("[" .. table.concat(c, ", ") .. "]")
