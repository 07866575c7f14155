/*
** hash.h: the library's one string hash, for its hash tables (the
** compiler's names and locals, diff's name index and source keys, a
** variant comparison's values).
**
** FNV-1a of 32 bits, and MurmurHash3's finalizer to mix a hash under a key:
** a table that buckets by rgi_hash_mix(h ^ key) spreads names crafted to
** share FNV-1a's low bits once it redraws its key (see compile_names.c).
** Header-only (static inline): each is a few instructions.
*/
#ifndef RG_HASH_H
#define RG_HASH_H

#include <stdint.h>

/* FNV-1a's offset basis: the hash of nothing. */
#define RGI_HASH_START 2166136261u

/* Returns h with byte c added (FNV-1a's step). */
static inline uint32_t rgi_hash_byte(uint32_t h, unsigned char c) {
  return (h ^ c) * 16777619u;
}

/* Returns h with the bytes of the string s added (s NULL: none). */
static inline uint32_t rgi_hash_more(uint32_t h, const char *s) {
  for (; s && *s; s++) h = rgi_hash_byte(h, (unsigned char)*s);
  return h;
}

/* Returns the FNV-1a hash of the string s. */
static inline uint32_t rgi_hash_text(const char *s) {
  return rgi_hash_more(RGI_HASH_START, s);
}

/* Returns h mixed (MurmurHash3's finalizer: every bit of h moves every
** bit of the result). */
static inline uint32_t rgi_hash_mix(uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

#endif
