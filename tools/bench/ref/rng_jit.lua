-- xoshiro256** seeded through splitmix64, exactly as interp/vm/rng.c, for
-- LuaJIT 2.1 (no 64-bit integers in plain Lua: the state and every 64-bit
-- value are FFI uint64_t cdata, whose + - * % wrap mod 2^64 and compare
-- unsigned; LuaJIT's bit library shifts and rotates 64-bit cdata).  The
-- state lives in a uint64_t[4], reseeded in place; the traces keep the
-- intermediate values in registers (no cdata allocated per draw), and a
-- draw is converted to a Lua number with tonumber at the end.
local ffi = require("ffi")
local bit = require("bit")
local bxor, bor, band = bit.bxor, bit.bor, bit.band
local lshift, rshift, rol = bit.lshift, bit.rshift, bit.rol
local tonumber = tonumber
local M = {}

local function splitmix64(x)
  x = x + 0x9E3779B97F4A7C15ULL
  local z = x
  z = bxor(z, rshift(z, 30)) * 0xBF58476D1CE4E5B9ULL
  z = bxor(z, rshift(z, 27)) * 0x94D049BB133111EBULL
  return x, bxor(z, rshift(z, 31))
end

local function seed(r, s)
  local x, a, b, c, d = s
  x, a = splitmix64(x)
  x, b = splitmix64(x)
  x, c = splitmix64(x)
  x, d = splitmix64(x)
  if bor(a, b, c, d) == 0ULL then a = 1ULL end
  r[0], r[1], r[2], r[3] = a, b, c, d
end

-- rg_rng_stream(r, s, stream): the state after mixing is the *updated*
-- splitmix counter xor its output (what interp/vm/rng.c computes).  s and
-- stream: Lua numbers (exact below 2^53) or uint64_t cdata.  Fills r if
-- given (a uint64_t[4]), else a new one; returns it.
function M.stream(s, stream, r)
  r = r or ffi.new("uint64_t[4]")
  local _, m = splitmix64(0ULL + s)
  m = bxor(m, (0ULL + stream) * 0xD1B54A32D192ED03ULL)
  local x, out = splitmix64(m)
  seed(r, bxor(x, out))
  return r
end

-- rg_rng_next: the next 64 random bits (a uint64_t).
local function next64(r)
  local s0, s1, s2, s3 = r[0], r[1], r[2], r[3]
  local x = rol(s1 * 5, 7) * 9
  local t = lshift(s1, 17)
  s2 = bxor(s2, s0)
  s3 = bxor(s3, s1)
  s1 = bxor(s1, s2)
  s0 = bxor(s0, s3)
  s2 = bxor(s2, t)
  s3 = rol(s3, 45)
  r[0], r[1], r[2], r[3] = s0, s1, s2, s3
  return x
end
M.next = next64

-- The rare rejection of rg_rng_below (low half below 2^64 mod n): draws
-- again until accepted; returns the accepted draw.  Kept out of below so
-- that below has no loop: a loop inside it would stop the JIT from
-- inlining below into the callers' traces.
local function redraw(r, n, x, lo)
  local threshold = (0ULL - n) % n
  while lo < threshold do
    x = next64(r)
    lo = x * n
  end
  return x
end

-- rg_rng_below for 1 <= n < 2^32 (a Lua number; returns a Lua number):
-- Lemire's multiply-shift with rejection.  The low half of the 128-bit
-- product x * n is x * n mod 2^64; the high half, from x's 32-bit halves:
-- (hi32(x) * n + lo32(x) * n >> 32) >> 32 (no term overflows as n < 2^32).
function M.below(r, n)
  local x = next64(r)
  local lo = x * n
  if lo < n then x = redraw(r, n, x, lo) end
  return tonumber(rshift(rshift(x, 32) * n + rshift(band(x, 0xFFFFFFFFULL) * n, 32), 32))
end

return M
