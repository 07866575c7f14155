/*
** api_int.h: the handles of regula.h as the library sees them, shared by
** api.c (compiled rules, runs) and api_front.c (the regula program's texts
** for other front ends).  Not part of the public interface.
*/
#ifndef RG_API_INT_H
#define RG_API_INT_H
#include "regula_front.h"
#include "arena.h"
#include "compile.h"
#include "diag.h"
#include "evlog.h"
#include "module.h"
#include "outwatch.h"
#include "play.h"
#include "policy.h"
#include "svg.h"
#include "vm.h"

/* What a compile with keep_sources keeps for the sheet: the source files
** (in the diagnostics' arena) and the `assumed` notes.  Heap-allocated, so
** that d's pointer to arena stays right. */
typedef struct rgi_sources {
  rgi_arena arena;
  rgi_diag d;
  rgi_assumption *notes;
} rgi_sources;

struct rg_rules {
  rgi_module m;
  unsigned char *assumed;     /* [ndice + ndecks]: declared with `assumed` (the
                              ** placeholders a run's log names), or NULL */
  rgi_sources *src;            /* keep_sources: the sources, or NULL */
  char *module_path;          /* loaded from a .rbc: its path as named (owned),
                              ** else NULL */
  unsigned char *tables;      /* [m.nfiles]: 1 for a file read for a table's
                              ** `from` (owned); NULL for a module */
  /* a copy set up for runs (rgi_rules_with); NULL and empty otherwise */
  const rg_rules *base;       /* the rules copied: owns m's other arrays, assumed
                              ** and src */
  struct rgi_setup *setup;     /* the dice, decks and which were set (owned) */
  rgi_input *inputs;           /* m.inputs: base's, with the values set (owned) */
  rg_buf sets;                /* each text of rg_rules_set, ended by '\n' */
  char errmsg[1024];          /* rg_rules_errmsg: the last failure's message */
  struct rgi_native *native;   /* rg_rules_native's code (owned), or NULL */
};

/* The native code r's runs use (r's own, or that of the rules r copies),
** or NULL. */
const struct rgi_native *rgi_rules_native_code(const rg_rules *r);

/* Stores the message of a failure on r (rg_rules_errmsg: written through a
** const r too, the message being no part of the rules) and returns st. */
rg_status rgi_api_fail(const rg_rules *r, rg_status st, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;

/* Copies the caller's options opt (NULL, or a struct that starts with its
** own size) into local (a struct of size bytes that starts so too): zeroed,
** its size set, then the fields the caller's size covers.  Returns 0, or
** -1 when opt gives no size. */
int rgi_api_options(void *local, size_t size, const void *opt);

/* Frees r, a copy made by rgi_rules_with (api_setup.c). */
void rgi_rules_setup_free(rg_rules *r);

/* The dice and decks a run of r set ([ndice + ndecks] flags), or NULL. */
const unsigned char *rgi_rules_set_flags(const rg_rules *r);

/* A run wraps the play layer (play.h): its sink answers choices through
** the policy and is wrapped in turn, so that each event reaches the
** caller's callback before the play layer sees it. */
struct rg_run {
  const rg_rules *r;
  rgi_vm *vm;
  rg_run_options opt;
  rgi_policy pol;              /* who answers choices */
  rgi_policy dicepol;          /* who reads dice and cards (opt.dice) */
  rgi_play play;
  rgi_sink inner;              /* the play layer's sink */
  rgi_sink sink;               /* the VM's: inner wrapped (rg_run_call leaves out
                              ** rolls and draws when nobody needs them) */
  const rgi_question *q;       /* the question being asked of the callback */
  int secret_event;           /* the event being delivered is a secret choice */
  rgi_type rtype;              /* the last call's result type */
  int proc;                   /* the last call's procedure when it succeeded, else -1 */
  rgi_value result;
  int failed_expects;
  char err[1024];             /* the last call's error */
  const char *err_path;
  uint32_t err_line, err_col;
  /* the event being delivered: values, and their types (types[i], or one
  ** type for all when types is NULL) */
  const rgi_value *vals;
  const rgi_type *types;
  rgi_type type;
  uint32_t nvals;
  rgi_value pair[2];
  rgi_type pair_types[2];
  rg_event_kind ev_kind;      /* the event being delivered, for rg_run_event_text: */
  uint32_t ev_index;          /*   its note (a note) or expect (a failed expect) */
  uint32_t ev_pc;
  int in_event;               /* 1 while an event callback runs */
  /* rg_run_log: the log of each call (play.log points here when set) */
  rgi_log log;
  const char *log_policy, *log_dice;
  char *answers_name;         /* a copy of opt.answers_name, or NULL */
  /* rg_run_pictures: the shapes drawn (NULL: not collected) */
  rg_svg *svg;
};

/* Parses args[0..nargs) by the parameters of procedure proc of r (called
** name in messages) into *out (rg_malloc'd, at least one value; the caller
** frees it).  Returns RG_OK, or RG_BAD_VALUE / RG_NOMEM with the reason in
** err ("argument 1 (k: int) of 'roll': ...") and *out NULL (api.c). */
rg_status rgi_api_parse_args(const rg_rules *r, int proc, const char *name,
                            const char *const *args, int nargs, rgi_value **out, char *err,
                            size_t errlen);

/* Stores where instruction pc of m is in the rules ("?", 0, 0 when the
** line table does not say) in the pointers that are not NULL (api.c). */
void rgi_api_place(const rgi_module *m, uint32_t pc, const char **path, uint32_t *line,
                  uint32_t *col);

/* Checks what a simulation or exact odds are asked for: procedure name
** (its index in *proc) exists and has a result, policy is random, first or
** answers, strategy (its index in *strat, else -1) is one of r's.
** Returns RG_OK, or RG_NOT_FOUND / RG_BAD_VALUE with the reason in err
** (api.c). */
rg_status rgi_api_counted(const rg_rules *r, const char *name, rg_choose_policy policy,
                         const char *strategy, int *proc, int *strat, char *err, size_t errlen);

/* Writes how a header names a policy into buf ("random", "first",
** "answers:NAME", or "NAME (a strategy of the rules; other choices at
** random)" for strategy NAME, "the default strategy" when it is the one
** rules r (may be NULL) name as their default); returns buf (api_front.c). */
const char *rgi_api_policy_label(char *buf, size_t size, const rg_rules *r,
                                rg_choose_policy policy, const char *answers_name,
                                const char *strategy);

/* api_front.c: the log's first line, before a call of procedure proc, and
** its summary after a successful one (nothing when no log is set). */
void rgi_api_log_begin(rg_run *run, int proc);
void rgi_api_log_end(rg_run *run, int proc);

#endif
