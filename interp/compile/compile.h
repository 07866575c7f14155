/*
** compile.h: from a rule file to a module.
**
** rgi_compile reads the rule file and the TSV tables it imports (through a
** loader, regula.h), parses it,
** checks it (names, types, arity, table keys and coverage), and generates
** the module.  All errors found are reported through the diagnostics; the
** compiler goes on after an error to find more, without cascades.
*/
#ifndef RG_COMPILE_H
#define RG_COMPILE_H

#include "diag.h"
#include "module.h"

/* Compiles the rule file text[0..len), named name (in diagnostics, and as
** the file its `extends` and `from` are resolved against), into *m (zeroed
** first).  The files it names come from loader ld (NULL: rg_file_loader,
** the disk).  Diagnostics go to d; memory for the syntax tree comes from
** d->arena.  When assumptions is not NULL, stores the list of `assumed`
** notes there (in d->arena).  Returns 0, or -1 when errors were reported
** (m is then freed; d->arena->failed tells out of memory). */
int rgi_compile_source(rgi_diag *d, const char *name, const char *text, size_t len,
                      const rg_loader *ld, rgi_module *m, rgi_assumption **assumptions);

/* rgi_compile_source on the file `path` as loader ld (NULL: the disk) finds
** it, asked with no including file. */
int rgi_compile_path(rgi_diag *d, const char *path, const rg_loader *ld, rgi_module *m,
                    rgi_assumption **assumptions);

/* rgi_compile_path from the disk. */
int rgi_compile(rgi_diag *d, const char *path, rgi_module *m, rgi_assumption **assumptions);

#endif
