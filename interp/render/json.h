/*
** json.h: the one door to the JSON library (jansson, Debian's
** libjansson-dev; the page compiles the same version from Debian's source).
** Every JSON regula writes or reads is built or parsed by jansson: nothing
** in regula escapes a string or prints a bracket by hand.
**
** Values of the rule language, typed for machines (format 2):
**
**     int                 42
**     bool                true
**     percent             {"percent":40}
**     distance            {"distance":2.5,"unit":"BW"}
**     member of an enum   {"code":"S","name":"Standard"}   (name: the display
**                                                            name, else the code)
**     set                 [member, ...]            (declaration order)
**     text                "..."
**     list                [value, ...]
**     record              {"field":value, ...}     (declaration order)
**
** A value nested deeper than 16 lists and records, or past the printing
** budget (RG_PRINT_MAX_VALUES), is the string "...".
*/
#ifndef RG_JSON_H
#define RG_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "module.h"
#include "regula_front.h"

/* The version of every JSON document regula writes (the "format" key of a
** run's first line, of sim's object and of the variants line). */
#define RG_JSON_FORMAT 2

/* Returns a new JSON string of s[0..n), an invalid UTF-8 byte replaced by
** U+FFFD (jansson refuses invalid UTF-8).  NULL when out of memory. */
json_t *rgi_json_textn(const char *s, size_t n);

/* rgi_json_textn of the NUL-terminated s (NULL: the empty string). */
json_t *rgi_json_text(const char *s);

/* Returns a new JSON value for v of type t (see the top of the file),
** lists and records read from heap[0..nheap).  NULL when out of memory. */
json_t *rgi_json_value(const rgi_module *m, const rgi_value *heap, uint32_t nheap, rgi_type t,
                      rgi_value v);

/* Writes j (any JSON value, a bare string or number too) to o compactly
** (`{"a":1,"b":[2,3]}`), then a newline when nl,
** and releases j (the caller's reference).  j NULL (a failed build) marks
** o failed.  Returns 0, or -1 when o has failed. */
int rgi_json_put(rg_out *o, json_t *j, int nl);

#endif
