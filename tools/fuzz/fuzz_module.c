/*
** fuzz_module.c: the .rbc loader, the verifier and the VM on arbitrary bytes.
**
** rg_module_deserialize reads and verifies the input; a module it accepts
** must survive saving and loading again, and every procedure of it is run
** with zero arguments under small limits, with choices and chances
** answered from the input's bytes.  The verifier's promise is that nothing
** it accepts can make the VM misbehave.
*/
#include "fuzz.h"

#include "module.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  rg_module m;
  char err[256];
  if (rg_module_deserialize(&m, data, size, err, sizeof err) != 0) {
    if (!err[0]) __builtin_trap();        /* refused without saying why */
    return 0;
  }
  fuzz_roundtrip(&m);
  fuzz_run_module(&m, data, size);
  rg_module_free(&m);
  return 0;
}
