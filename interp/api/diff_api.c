/*
** diff_api.c: comparing rule sets behind the public header (regula.h):
** rg_changes_new makes the change list (diff.c), rg_changes_write hands it
** to a renderer (diff_text.c, diff_report.c).
*/
#include "regula_front.h"
#include "diff.h"
#include "outwatch.h"
#include "vm.h"

#include <string.h>

/* The diff's runner (rgi_diff_runner): a small VM with bounded runs for a
** dice key's pure helper (a few hundred short calls). */
static void *runner_open(void *ctx, const rgi_module *m) {
  rgi_limits lim;
  memset(&lim, 0, sizeof lim);
  lim.max_steps = 1000000;
  lim.max_memory = 4u << 20;
  return rgi_vm_new(m, &lim, NULL);
}

static int runner_call(void *runs, uint32_t proc, const rgi_value *args, rgi_value *result) {
  return rgi_vm_call(runs, proc, args, result) == RG_RUN_OK ? 0 : -1;
}

static void runner_close(void *runs) {
  rgi_vm_free(runs);
}

static const rgi_diff_runner runner = { runner_open, runner_call, runner_close, NULL };

/* The opaque list of regula.h. */
struct rg_changes {
  rgi_diff d;
};

int rg_diff_hint_valid(const char *text) {
  rgi_diff_hint h;
  return text && rgi_diff_hint_parse(text, &h) == 0;
}

rg_status rg_changes_new(const rg_rules *a, const rg_rules *b, const rg_diff_options *opt,
                         rg_changes **out) {
  rg_diff_options none;
  rgi_diff_hint *hints = NULL;
  rg_changes *c;
  *out = NULL;
  if (!opt) {
    memset(&none, 0, sizeof none);
    opt = &none;
  }
  if (opt->nodds > 0) {
    hints = rg_malloc((size_t)opt->nodds * sizeof *hints);
    if (!hints) return RG_NOMEM;
    for (int i = 0; i < opt->nodds; i++)
      if (rgi_diff_hint_parse(opt->odds[i], &hints[i]) != 0) {
        rg_free(hints);
        return RG_BAD_VALUE;
      }
  }
  c = rg_malloc(sizeof *c);
  if (!c) {
    rg_free(hints);
    return RG_NOMEM;
  }
  if (rgi_diff_modules(rgi_rules_module(a), rgi_rules_module(b), hints, opt->nodds > 0 ? opt->nodds : 0,
                      &runner, &c->d) != 0) {
    rgi_diff_free(&c->d);
    rg_free(c);
    rg_free(hints);
    return RG_NOMEM;
  }
  rg_free(hints);
  if (opt->with_source && rgi_diff_sources(&c->d, opt->loader) != 0) {
    rgi_diff_free(&c->d);
    rg_free(c);
    return RG_NOMEM;
  }
  *out = c;
  return RG_OK;
}

uint32_t rg_changes_count(const rg_changes *c) {
  return c ? c->d.n : 0;
}

rg_status rg_changes_write(const rg_changes *c, rg_diff_format format, int flags, const char *base,
                           rg_out *out) {
  int rc = 0;
  rgi_watch w;
  rg_out *o = rgi_watch_begin(&w, out);
  if (format == RG_DIFF_STAT) rgi_diff_print_stat(o, &c->d);
  else if (format == RG_DIFF_JSON) rc = rgi_diff_print_json(o, &c->d, base);
  else rc = rgi_diff_print(o, &c->d, base, flags);
  return rgi_watch_end(&w, rc != 0 ? RG_NOMEM : RG_OK);
}

void rg_changes_free(rg_changes *c) {
  if (!c) return;
  rgi_diff_free(&c->d);
  rg_free(c);
}
