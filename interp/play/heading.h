/*
** heading.h: what a simulation or an exact distribution is of, as its
** header, its chart's title and its JSON name it.
**
** Two tables or charts of different questions must never look the same:
** each names the rule file, the procedure with its arguments, and every
** input, die or deck set for the runs (--set, --inputs), besides the
** policy the caller writes.  "rules/x.rules: weather(7, Summer)" and "set:
** rating[A]=legendary, rating[B]=competent".
*/
#ifndef RG_HEADING_H
#define RG_HEADING_H

#include <stdint.h>

#include "json.h"
#include "module.h"
#include "regula_front.h"

/* The question: procedure proc of m called with args[0..nargs) (values in
** m's constant heap; NULL when none) after the settings `sets` (each
** NAME=VALUE ended by '\n'; NULL or "" when none).  Every pointer is
** borrowed. */
typedef struct rgi_heading {
  const rgi_module *m;
  uint32_t proc;
  const rgi_value *args;
  const char *sets;
} rgi_heading;

/* Returns the rule file of m as the front end named it (its first source
** file; "" when m names none).  Owned by m. */
const char *rgi_heading_file(const rgi_module *m);

/* Writes "PROC(ARG, ...)" of h (its arguments as values print). */
void rgi_heading_call(rg_out *out, const rgi_heading *h);

/* Writes "FILE: PROC(ARG, ...)" of h. */
void rgi_heading_title(rg_out *out, const rgi_heading *h);

/* Writes the settings `sets` as "NAME=VALUE, NAME=VALUE" (each cut after
** 160 bytes, with "..."); returns how many (0: nothing written). */
int rgi_heading_sets(rg_out *out, const char *sets);

/* Adds to the JSON object doc "file" (h's rule file, unless file is 0),
** "arguments" (an array of the arguments' texts) and "sets" (an array of
** the settings' texts).  Returns 0, or -1 when out of memory. */
int rgi_heading_json(json_t *doc, const rgi_heading *h, int file);

/* Writes a chart title into buf (size bytes): "FILE: PROC(ARGS): what"
** and "; set: ..." when there are settings.  Returns buf, or NULL when out
** of memory. */
char *rgi_heading_chart_title(char *buf, size_t size, const rgi_heading *h, const char *what);

/* The same of variants: "CALL of A = NAME, B = NAME: what" (call: "PROC()"
** or "PROC(ARGS)") and, when a
** variant had settings, "; set ..." (once when all had the same, else
** "A: ...; B: ...").  names[0..n), sets[0..n) (entries may be NULL).
** Returns buf, or NULL when out of memory. */
char *rgi_heading_variants_title(char *buf, size_t size, const char *call,
                                const char *const *names, const char *const *sets, uint32_t n,
                                const char *what);

/* Adds "sets" (an array of the settings' texts of `sets`) to object o.
** Returns 0, or -1 when out of memory. */
int rgi_heading_sets_json(json_t *o, const char *sets);

#endif
