/*
** fuzz.h: what the fuzz harnesses share.
**
** Each harness (fuzz_*.c) defines LLVMFuzzerTestOneInput and is built two
** ways: with libFuzzer (`make fuzz`: clang -fsanitize=fuzzer,address,
** undefined) and with replay.c's main, which feeds it the files named on the
** command line (`make test` replays tests/fuzz/NAME/ so a crash once found
** stays fixed).  A harness must not leak, must not depend on earlier inputs,
** and must be quiet: diagnostics go to /dev/null.
*/
#ifndef RG_FUZZ_H
#define RG_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A stream that swallows what is written to it (opened once). */
FILE *fuzz_devnull(void);

/* An rg_out that swallows what is written to it (the library's printers). */
struct rg_out;
struct rg_out *fuzz_null_out(void);

/* The fuzz input served as files: a loader (rg_loader) whose every file is
** data[0..size) under the name asked, or, when tables_only, only the
** tables (`from`), other names being "not in the harness". */
typedef struct fuzz_input {
  const uint8_t *data;
  size_t size;
  int tables_only;
} fuzz_input;
struct rg_loader fuzz_loader(fuzz_input *in);

/* Disassembles the verified module m to /dev/null, then runs every one of
** its procedures with zero arguments under small limits (2000 steps, 64 KiB),
** with a sink that touches every value reported and answers choices and
** chances from the bytes of data (the fuzz input), now and then refusing.
** Any status is fine, but each run is made again with fusion off (see
** rgi_vm_set_fusion) and must end the same way: status, error message and
** pc, and a scalar result; a difference aborts. */
struct rgi_module;
void fuzz_run_module(const struct rgi_module *m, const uint8_t *data, size_t size);

/* Serializes m, deserializes the bytes, and serializes that again: both
** must succeed and give the same bytes (aborts otherwise: the writer and
** the verifier disagree). */
void fuzz_roundtrip(const struct rgi_module *m);

/* libFuzzer's hook for a harness with its own mutator (fuzz_module.c). */
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* libFuzzer's byte mutator; absent (NULL) when a harness is linked with
** replay.c, which never calls a custom mutator. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size) __attribute__((weak));

#endif
