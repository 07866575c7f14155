-- Benchmark "buildup" by hand in LuaJIT 2.1 (see tools/bench/README.md).
-- usage: luajit buildup_jit.lua N [SEED]   -> "square count" lines
package.path = (arg[0]:match("(.*/)") or "./") .. "?.lua;" .. package.path
local ffi = require("ffi")
local rng = require("rng_jit")
local below, stream = rng.below, rng.stream
local allowed = {
  { true, true, false, true, true },
  { true, true, true, false, true },
  { false, true, true, true, true },
  { true, false, true, true, false },
  { true, true, true, true, true },
}
local n = tonumber(arg[1] or "1000000")
-- The seed as a uint64_t (all 64 bits, as the C reference's strtoull).
local seed = 0ULL
for d in (arg[2] or "1"):gmatch("%d") do seed = seed * 10 + (d:byte() - 48) end
local r = ffi.new("uint64_t[4]")   -- reseeded in place for each run
local full, cards, hand, tally = {}, {}, {}, {}
for c, count in ipairs({ 8, 12, 14, 10, 6 }) do
  for _ = 1, count do full[#full + 1] = c - 1 end
end
for s = 0, 24 do tally[s] = 0 end
for i = 0, n - 1 do
  stream(seed, i, r)
  for k = 1, 50 do cards[k] = full[k] end
  local left = 50
  for h = 1, 10 do
    local x = below(r, left) + 1
    hand[h] = cards[x]
    cards[x] = cards[left]
    left = left - 1
  end
  local row, col = 2, 2
  for d = 1, 5 do
    local diff = hand[d] - hand[5 + d]
    if diff ~= 0 then
      local ad = diff < 0 and -diff or diff
      local dir = diff > 0 and -1 or 1
      local diag = ad % 2 == 0
      for s = math.floor((ad + 1) / 2), 1, -1 do
        local nc = col + dir * s
        local nr = diag and (row + s) % 5 or row
        if nc >= 0 and nc <= 4 and allowed[nr + 1][nc + 1] then
          row, col = nr, nc
          break
        end
      end
    end
  end
  local sq = row * 5 + col
  tally[sq] = tally[sq] + 1
end
for s = 0, 24 do
  if tally[s] > 0 then print(s .. " " .. tally[s]) end
end
