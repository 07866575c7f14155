/*
** display.h: a record shown as a card, by the display the rule file gives
** it (`display pre_battle_summary "Result card" { ... }`; module.h,
** rgi_display): lines of text with the record's fields, a list of records
** as an aligned table, a list as numbered lines.
*/
#ifndef RG_DISPLAY_H
#define RG_DISPLAY_H

#include <stdint.h>

#include "module.h"
#include "regula_front.h"

/* Returns the index of the display of values of type t in m, or -1 (t is
** not a record, or its record has none). */
int rgi_display_find(const rgi_module *m, rgi_type t);

/* Writes record v (heap[0..nheap)) by display d of m to o: "== TITLE",
** then its lines, each ending with a newline. */
void rgi_display_print(rg_out *o, const rgi_module *m, const rgi_value *heap, uint32_t nheap,
                      uint32_t d, rgi_value v);

#endif
