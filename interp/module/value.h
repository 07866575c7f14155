/*
** value.h: values as people read and write them.
**
** Printing: an enum member by its display name (its code when it has none),
** a number as digits, a percent with %, a distance with its unit ("6 BW",
** "2.5 BW"), a bool as true/false, a set as display names joined by ", "
** ("none" when empty), text as itself, a list as its elements joined by
** ", " in brackets ("[Standard, Coastal]", "[]"), a record as one
** "field: value" line per field (a field holding a non-empty list of
** records as "field:" and then one "  - {...}" line per element).
**
** Parsing (command-line arguments and table keys): an enum member by code or
** display name, case-insensitive; numbers in decimal; percents with or
** without %; distances with or without their unit; sets as members joined by
** commas; true/false.
*/
#ifndef RG_VALUE_H
#define RG_VALUE_H

#include <stddef.h>

#include "lex.h"
#include "module.h"
#include "regula_front.h"

/* The most values one print of a value shows (each list, record and scalar
** in it counts one); past it the printers write "..." and stop. */
#define RG_PRINT_MAX_VALUES 100000L

/* Writes v of type t to out as a block that ends with exactly one newline:
** a record as one "field: value" line per field, anything else as one line.
** Records and lists are read from heap[0..nheap) (pass the VM's heap for
** values built at run time, else the module's). */
void rgi_value_print(rg_out *out, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                    rgi_type t, rgi_value v);

/* Writes v of type t to out inline, without a newline: records on one line
** as "{field: value, ...}", lists as "[a, b]". */
void rgi_value_write(rg_out *out, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                    rgi_type t, rgi_value v);

/* Writes record v (of records[rec]) by form, as a record's shown form is
** written: {FIELD} the field's value (a bool field: its name when true),
** {FIELD:TEXT} the form TEXT when the field is set (a bool true, a number
** not 0), {{ a brace, spaces at either end dropped. */
void rgi_value_form(rg_out *out, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                   uint32_t rec, const char *form, rgi_value v);

/* The deepest {FIELD:TEXT} inside another that a form may hold. */
#define RG_FORM_MAX_NEST 4

/* One {FIELD} or {FIELD:TEXT} of a form. */
typedef struct rgi_form_part {
  const char *name;         /* the field's name, nlen bytes */
  size_t nlen;
  const char *text;         /* TEXT, up to close; NULL for {FIELD} */
  const char *close;        /* the '}' that closes it (nested {...} and {{ skipped) */
} rgi_form_part;

/* Reads the part whose '{' is at s (not "{{") in a form ending before end.
** Returns 0, or -1 when the '{' does not close. */
int rgi_form_part_at(const char *s, const char *end, rgi_form_part *p);

/* Returns 1 when a field of kind k may show a text of its own in a form,
** {FIELD:TEXT}: a bool (when true) or a number (when not 0). */
int rgi_form_flag_kind(rgi_kind k);

/* Writes v of type t into buf as rgi_value_write does; returns buf.
** Truncates to size (always NUL-terminated when size > 0). */
char *rgi_value_format(char *buf, size_t size, const rgi_module *m, const rgi_value *heap,
                      uint32_t nheap, rgi_type t, rgi_value v);

/* Parses text as a value of type t.  Returns 0 and *v, or -1 with a message
** in err that lists the valid choices for an enum. */
int rgi_value_parse(const rgi_module *m, rgi_type t, const char *text, rgi_value *v,
                   char *err, size_t errlen);

/* Finds member `text` of enum e by code or display name, case-insensitive
** (NFC, case-folded).  Returns the member's index or -1. */
int rgi_enum_lookup(const rgi_module *m, uint32_t e, const char *text);

/* Parses a decimal number with up to 3 decimals ("6", "-2.5") into
** thousandths.  Returns the characters used, or 0 when s does not start with
** one (or it does not fit in an int64_t, or has more than 3 decimals). */
size_t rgi_parse_milli(const char *s, int64_t *out);

/* Parses a whole number ("-12", "+3", "6.0") of the full int64_t range into
** *out.  Returns the characters used, or 0 when s does not start with one
** (or it does not fit). */
size_t rgi_parse_int(const char *s, int64_t *out);

/* Writes the name of type t ("int", "set colour", "distance BW",
** "list int"); safe on any module, verified or not.  A buffer of
** RGI_TYPE_NAME_SIZE holds the name of any type of a compiled rule file
** whole (8 "list " at most, "distance ", a name of at most RG_MAX_NAME
** bytes, the NUL): what compares types by name needs no less. */
char *rgi_type_name(char *buf, size_t size, const rgi_module *m, rgi_type t);
#define RGI_TYPE_NAME_SIZE (8 * 5 + 9 + RG_MAX_NAME + 1)

/* Writes dimension d of a table as its declaration names it into buf and
** returns buf: "score: 0..14", "ground" (the label only when it says more
** than the enum's name or the range). */
char *rgi_dim_name(char *buf, size_t size, const rgi_module *m, const rgi_dim *d);

/* Finds the cell of table ti of m at keys[0..nkeys) (texts, as a user
** types them: enum members by code or name, ints).  Stores the cell in
** *cell and returns 0; or returns -1 with the reason in err ("table 't'
** takes 2 keys (score: 0..14, ground), got 1", "key 2 of table 't'
** (ground): ...", "... is outside 0..14").  The one lookup behind `regula
** query` and rg_rules_query. */
int rgi_table_cell(const rgi_module *m, uint32_t ti, const char *const *keys, int nkeys,
                  rgi_value *cell, char *err, size_t errlen);

#endif
