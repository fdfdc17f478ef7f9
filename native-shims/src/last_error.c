/*
 * last_error.c — thread-local detail of the last failure (errno + message), read back with
 * vgw_shim_last_error(). Thread-local because transfers run on many threads at once.
 */
#include "last_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vgw_shim_common.h"

static _Thread_local int t_err;
static _Thread_local char t_msg[256];

static void record(int err, const char *fmt, va_list ap) {
  t_err = err;
  vsnprintf(t_msg, sizeof t_msg, fmt, ap);
}

int vgw_fail(int err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record(err, fmt, ap);
  va_end(ap);
  return err;
}

void *vgw_fail_null(int err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  record(err, fmt, ap);
  va_end(ap);
  return NULL;
}

int vgw_shim_last_error(char *msg, size_t cap) {
  if (msg != NULL && cap > 0) {
    strncpy(msg, t_msg, cap - 1);
    msg[cap - 1] = '\0';
  }
  return t_err;
}

void vgw_clear_error(void) {
  t_err = 0;
  t_msg[0] = '\0';
}
