/*
 * load_message.c — pure string work for plugin load failures (see load_message.h). Tested in
 * test/test_cuobj_logic.c with dlerror texts in glibc's format.
 */
#include "load_message.h"

#include <stdio.h>
#include <string.h>

static const char k_missing[] = ": cannot open shared object file";

int vgw_dl_missing_library(const char *dlerr, char *out, size_t cap) {
  if (cap > 0) out[0] = '\0';
  if (dlerr == NULL || cap == 0) return 0;
  const char *end = strstr(dlerr, k_missing);
  if (end == NULL || end == dlerr) return 0;
  const char *start = end;
  while (start > dlerr && start[-1] != '/' && start[-1] != ' ') start--;
  size_t n = (size_t)(end - start);
  if (n == 0 || n >= cap) return 0;
  memcpy(out, start, n);
  out[n] = '\0';
  return 1;
}

void vgw_plugin_load_message(const char *plugin_path, int plugin_exists, const char *dlerr, const char *vendor_lib,
                             char *out, size_t cap) {
  char lib[256];
  if (!plugin_exists) {
    snprintf(out, cap,
             "cuobj transport unavailable: NVIDIA %s is not part of this build (the cuobj provider %s is built only "
             "when native-shims is configured with CUOBJ_HOME=<cuObject prefix>)",
             vendor_lib, plugin_path);
  } else if (vgw_dl_missing_library(dlerr, lib, sizeof lib) && strstr(plugin_path, lib) == NULL) {
    snprintf(out, cap,
             "cuobj transport unavailable: %s is not installed on this machine or not on the library path "
             "(LD_LIBRARY_PATH), so the cuobj provider %s cannot load",
             lib, plugin_path);
  } else {
    snprintf(out, cap, "cuobj transport unavailable: the cuobj provider %s (needs NVIDIA %s) cannot load: %s",
             plugin_path, vendor_lib, dlerr ? dlerr : "unknown error");
  }
}
