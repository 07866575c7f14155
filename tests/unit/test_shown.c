/*
** test_shown.c: rg_write_shown (regula.h), the one way a message quotes text
** from outside.  Each expected text is worked out by hand from the bytes.
*/
#include <stdio.h>
#include <string.h>

#include "regula_front.h"
#include "check.h"

/* Checks that rg_write_shown of in (NUL-terminated) with flags writes want
** and consumes `used` bytes. */
static void shown(const char *in, int flags, const char *want, size_t used) {
  rg_buf b;
  size_t got;
  rg_buf_init(&b);
  got = rg_write_shown(&b.out, in, strlen(in), flags);
  CHECK(got == used && b.len == strlen(want) && memcmp(b.data ? b.data : "", want, b.len) == 0,
        "shown(\"%s\", %d): got \"%.*s\" (%zu bytes consumed), want \"%s\" (%zu)", in, flags,
        (int)b.len, b.data ? b.data : "", got, want, used);
  rg_buf_free(&b);
}

int main(void) {
  /* plain text and UTF-8 are copied */
  shown("D\xc3\xa9sert 40%", 0, "D\xc3\xa9sert 40%", 11);
  /* a title and a clear screen: ESC and BEL as \x1b, \x07 */
  shown("a\033]0;t\007\033[2Jb", 0, "a\\x1b]0;t\\x07\\x1b[2Jb", 12);
  /* newline and tab: escaped, kept with RG_SHOWN_LINES; CR and DEL always escaped */
  shown("1\n2\t3\r\177", 0, "1\\x0a2\\x093\\x0d\\x7f", 7);
  shown("1\n2\t3\r\177", RG_SHOWN_LINES, "1\n2\t3\\x0d\\x7f", 7);
  /* a C1 CSI (U+009B, bytes C2 9B) and a lone byte 0x9b */
  shown("x\xc2\x9by\x9bz", 0, "x\\u009by\\x9bz", 6);
  /* a right-to-left override (U+202E) and an isolate (U+2066) */
  shown("a\xe2\x80\xae" "b\xe2\x81\xa6", 0, "a\\u202eb\\u2066", 8);
  /* colours kept with RG_SHOWN_SGR, anything else after ESC still escaped */
  shown("\033[31m-\033[m \033[2J", RG_SHOWN_SGR, "\033[31m-\033[m \\x1b[2J", 14);
  shown("\033[31m", 0, "\\x1b[31m", 5);
  /* a sequence cut at the end: left for the next write with
  ** RG_SHOWN_PARTIAL, escaped byte by byte without it */
  shown("ab\xc3", RG_SHOWN_PARTIAL, "ab", 2);
  shown("ab\xe2\x80", RG_SHOWN_PARTIAL, "ab", 2);
  shown("ab\xc3", 0, "ab\\xc3", 3);
  /* a bad byte inside is escaped even with RG_SHOWN_PARTIAL */
  shown("a\xff" "b", RG_SHOWN_PARTIAL, "a\\xffb", 3);
  /* with RG_SHOWN_SGR: an ESC at the very end, an ESC not before '[', a
  ** colour sequence cut before its m, one with a letter in it: escaped */
  shown("a\033", RG_SHOWN_SGR, "a\\x1b", 2);
  shown("\033(B", RG_SHOWN_SGR, "\\x1b(B", 3);
  shown("\033[1;3", RG_SHOWN_SGR, "\\x1b[1;3", 5);
  shown("\033[1x;3m", RG_SHOWN_SGR, "\\x1b[1x;3m", 7);
  /* with RG_SHOWN_PARTIAL: a continuation byte that starts nothing, a
  ** whole sequence that is not UTF-8 (an overlong E0 80 80) and a cut
  ** 4-byte one followed by text are escaped, not held back; a cut 4-byte
  ** sequence at the end is held back */
  shown("a\x80", RG_SHOWN_PARTIAL, "a\\x80", 2);
  shown("a\xe0\x80\x80", RG_SHOWN_PARTIAL, "a\\xe0\\x80\\x80", 4);
  shown("\xf0\x9f\x98z", RG_SHOWN_PARTIAL, "\\xf0\\x9f\\x98z", 4);
  shown("z\xf0\x9f\x98", RG_SHOWN_PARTIAL, "z", 1);
  /* the edges of the unsafe points: U+00A0 and U+202F are copied */
  shown("\xc2\xa0\xe2\x80\xaf", 0, "\xc2\xa0\xe2\x80\xaf", 5);
  return check_done("shown");
}
