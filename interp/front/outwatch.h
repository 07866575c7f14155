/*
** outwatch.h: how a writer of regula.h and regula_front.h tells the
** caller's failure from its own (out.c).  The rule of regula.h ("Text
** out, files in"): a function that returns an rg_status and writes to the
** caller's rg_out returns RG_IO when that out failed and RG_NOMEM when the
** library's own memory ran out, RG_NOMEM winning when both did.
**
** The library marks an rg_out failed for either reason (rg_printf's heap
** buffer, a renderer's allocation, its JSON), so a writer does not hand
** the caller's out to its renderers: it hands them a watch over it, whose
** writes go through to the caller's out and never fail themselves.  Once
** the caller's out has failed nothing more reaches it, but the renderers
** go on, so a failed flag on the watch means memory, whatever happened to
** the caller's out.
*/
#ifndef RG_OUTWATCH_H
#define RG_OUTWATCH_H

#include "regula_front.h"

/* A watch over the caller's rg_out `to`: write to `out`. */
typedef struct rgi_watch {
  rg_out out;               /* failed: the library's own failure (memory) */
  rg_out *to;               /* the caller's (borrowed); its failed: its write's */
} rgi_watch;

/* Sets w up over the caller's to (which must outlive w's use) and returns
** &w->out, what the renderers write to. */
rg_out *rgi_watch_begin(rgi_watch *w, rg_out *to);

/* The status of a writer that wrote through w, its own being st (RG_NOMEM
** when its memory ran out; another failure of its own, such as a wrong
** shape, as it is): RG_NOMEM when st is RG_NOMEM or w's out failed; else
** st when it is not RG_OK; else RG_IO when the caller's out has failed
** (during the writer or before it); else RG_OK. */
rg_status rgi_watch_end(const rgi_watch *w, rg_status st);

#endif
