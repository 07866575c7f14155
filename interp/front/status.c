/*
** status.c: the names of the status codes (see rg_status in regula.h).
*/
#include "regula_front.h"

const char *rg_status_name(rg_status s) {
  switch (s) {
  case RG_OK: return "ok";
  case RG_RUN_ERROR: return "runtime error";
  case RG_RUN_LIMIT: return "limit reached";
  case RG_NOMEM: return "out of memory";
  case RG_BAD_RULES: return "errors in the rules";
  case RG_BAD_MODULE: return "bad bytecode module";
  case RG_NOT_FOUND: return "not found";
  case RG_BAD_VALUE: return "bad value";
  case RG_IO: return "input/output error";
  }
  return "unknown status";
}
