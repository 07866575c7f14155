-- xoshiro256** seeded through splitmix64, exactly as interp/vm/rng.c (Lua 5.3+
-- 64-bit integers: + and * wrap, >> is a logical shift), so the Lua
-- references draw the same numbers as regula and the C references.
local M = {}

local function splitmix64(x)
  x = x + 0x9E3779B97F4A7C15
  local z = x
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return x, z ~ (z >> 31)
end

local function seed(s)
  local x, a, b, c, d = s
  x, a = splitmix64(x)
  x, b = splitmix64(x)
  x, c = splitmix64(x)
  x, d = splitmix64(x)
  if a | b | c | d == 0 then a = 1 end
  return { a, b, c, d }
end

-- rg_rng_stream: the state after mixing is the *updated* splitmix counter
-- xor its output (what interp/vm/rng.c computes).
function M.stream(s, stream)
  local _, m = splitmix64(s)
  m = m ~ (stream * 0xD1B54A32D192ED03)
  local x, out = splitmix64(m)
  return seed(x ~ out)
end

-- rg_rng_below for 1 <= n < 2^31: Lemire's multiply-shift with rejection.
function M.below(r, n)
  while true do
    local s0, s1, s2, s3 = r[1], r[2], r[3], r[4]
    local t = s1 * 5
    t = (t << 7) | (t >> 57)
    local x = t * 9
    local u = s1 << 17
    s2 = s2 ~ s0
    s3 = s3 ~ s1
    s1 = s1 ~ s2
    s0 = s0 ~ s3
    s2 = s2 ~ u
    s3 = (s3 << 45) | (s3 >> 19)
    r[1], r[2], r[3], r[4] = s0, s1, s2, s3
    local lo = x * n
    local hi = ((x >> 32) * n + (((x & 0xFFFFFFFF) * n) >> 32)) >> 32
    if not math.ult(lo, n) then return hi end
    local th = (2 * ((math.maxinteger % n + 1) % n)) % n   -- 2^64 mod n
    if not math.ult(lo, th) then return hi end
  end
end

return M
