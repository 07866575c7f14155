/*
** svg.h: pictures as SVG.
**
** A run reports each shape statement of the rules (canvas, rect, line,
** circle, polygon, label) through its sink as a SHAPE event; an rg_svg
** collects them into pictures and writes each as a self-contained SVG file.
** It knows shapes and styles, nothing of any game.
**
**   - `canvas(name, width, height, title)` starts a new picture; the shapes
**     after it belong to it.  Width and height are in the sheet's own units
**     (a distance counts in its unit, an int or a percent as a whole one).
**   - The SVG's viewBox is 0 0 width height in those units, and its size in
**     pixels is scaled so the longer side is RG_SVG_PIXELS.  The y axis goes
**     down, as SVG's does: coordinates are written as the rules give them.
**   - A style is passed through as a `style` attribute after it is checked:
**     only the characters [a-zA-Z0-9#:;.,%()_ -], and no `url(`.  A shape
**     without a style is drawn with a thin black outline (labels in black).
**   - A label (any value) is shown as <text>, XML-escaped, centred on its
**     shape (for rect, circle and polygon), or starting at (x, y) for
**     `label`, in a generic font-family list: no fonts or images are linked.
**   - Numbers are written exactly, as thousandths ("12.5", not "12.500000"),
**     so the same shapes give byte-identical files.
*/
#ifndef RG_SVG_H
#define RG_SVG_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#include "module.h"
#include "regula_front.h"

/* The longer side of every picture, in pixels. */
#define RG_SVG_PIXELS 960

typedef struct rg_svg rg_svg;

/* A new, empty collection of pictures; NULL when out of memory. */
rg_svg *rgi_svg_new(void);

/* Frees s and its pictures (NULL is fine). */
void rgi_svg_free(rg_svg *s);

/* Adds the shape of a SHAPE event: note entry `note` of m names the kind
** (its text) and the types of vals; lists (polygon points) and other values
** are read from heap[0..nheap) (the VM's heap at the time of the event); pc
** is where the event came from.  Returns 0, or -1 when the shape is wrong
** (a style with a forbidden character, a shape before any canvas, a canvas
** of no size, a bad point list) or memory ran out: the first such error is
** kept (rgi_svg_error) and later shapes are ignored. */
int rgi_svg_add(rg_svg *s, const rgi_module *m, uint32_t note, const rgi_value *vals,
               const rgi_value *heap, uint32_t nheap, uint32_t pc);

/* The first error, or NULL; *pc (when pc is not NULL) is its instruction. */
const char *rgi_svg_error(const rg_svg *s, uint32_t *pc);

/* The module of the shapes added last (its error's pc is in it), or NULL. */
const rgi_module *rgi_svg_module(const rg_svg *s);

/* How many pictures were started, and the name of picture i. */
uint32_t rgi_svg_count(const rg_svg *s);
const char *rgi_svg_name(const rg_svg *s, uint32_t i);

/* The index of the first picture called name, or -1. */
int rgi_svg_find(const rg_svg *s, const char *name);

/* Writes picture i as an SVG document to out.  Returns 0, or -1 when out
** of memory or out has failed. */
int rgi_svg_write(const rg_svg *s, uint32_t i, rg_out *out);

/* Writes picture i to path through a temporary file in the same folder,
** renamed into place: a failure never leaves a partial file.  Returns 0, or
** -1 with a message in err. */
int rgi_svg_save(const rg_svg *s, uint32_t i, const char *path, char *err, size_t errlen);

#endif
