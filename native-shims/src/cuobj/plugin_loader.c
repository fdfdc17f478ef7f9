/*
 * plugin_loader.c — loads the cuobj provider plugin (libvgwrdma_cuobj.so) on first use, from
 * the directory of this library (or VGWRDMA_PROVIDER_DIR), checks its plugin ABI and keeps it
 * for the life of the process. A failed attempt is remembered too (the same message is given
 * again), so a machine without the vendor library pays for one dlopen only.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../last_error.h"
#include "../provider.h"
#include "load_message.h"

#define PLUGIN_FILE "libvgwrdma_cuobj.so"
#define VENDOR_LIB "libcuobjserver.so"
#define VENDOR_CLIENT_LIB "libcuobjclient.so"

static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static const vgw_plugin_t *g_plugin;
static char g_why[PATH_MAX + 512];        /* for the server side: names libcuobjserver.so */
static char g_why_client[PATH_MAX + 512]; /* for the client side: names libcuobjclient.so */

static const vgw_plugin_host_t k_host = {
    .plugin_abi = VGW_PLUGIN_ABI, .fail = vgw_fail, .token_parse = cuobj_token_parse};

/* Directory of this library (or of the executable it is linked into). */
static void own_dir(char *out, size_t cap) {
  const char *env = getenv("VGWRDMA_PROVIDER_DIR");
  if (env && env[0]) {
    snprintf(out, cap, "%s", env);
    return;
  }
  Dl_info info;
  snprintf(out, cap, ".");
  if (dladdr((void *)&vgw_provider_cuobj_plugin, &info) && info.dli_fname) {
    snprintf(out, cap, "%s", info.dli_fname);
    char *slash = strrchr(out, '/');
    if (slash) *slash = '\0';
    else snprintf(out, cap, ".");
  }
}

static void load_once(void) {
  char dir[PATH_MAX], path[PATH_MAX + sizeof PLUGIN_FILE + 1];
  own_dir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/%s", dir, PLUGIN_FILE);
  int exists = access(path, F_OK) == 0;
  void *h = exists ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
  if (h == NULL) {
    const char *err = exists ? dlerror() : NULL; /* names the missing dependency, if that is it */
    vgw_plugin_load_message(path, exists, err, VENDOR_LIB, g_why, sizeof g_why);
    vgw_plugin_load_message(path, exists, err, VENDOR_CLIENT_LIB, g_why_client, sizeof g_why_client);
    return;
  }
  vgw_plugin_init_fn init = (vgw_plugin_init_fn)dlsym(h, VGW_PLUGIN_ENTRY);
  const vgw_plugin_t *p = init ? init(&k_host) : NULL;
  if (p == NULL || p->plugin_abi != VGW_PLUGIN_ABI) {
    if (snprintf(g_why, sizeof g_why, "cuobj transport unavailable: %s is not a cuobj provider of plugin ABI %u "
                 "(rebuild native-shims)", path, VGW_PLUGIN_ABI) >= (int)sizeof g_why)
      g_why[sizeof g_why - 2] = '.'; /* truncated path: still one sentence */
    memcpy(g_why_client, g_why, sizeof g_why);
    dlclose(h);
    return;
  }
  g_plugin = p; /* the handle stays open for the life of the process */
}

const vgw_plugin_t *vgw_provider_cuobj_plugin(void) {
  pthread_once(&g_once, load_once);
  if (g_plugin == NULL) return vgw_fail_null(-ENODEV, "%s", g_why);
  return g_plugin;
}

const vgw_plugin_t *vgw_provider_cuobj_client_plugin(void) {
  pthread_once(&g_once, load_once);
  if (g_plugin == NULL) return vgw_fail_null(-ENODEV, "%s", g_why_client);
  return g_plugin;
}

const char *vgw_provider_cuobj_why(void) {
  pthread_once(&g_once, load_once);
  return g_why;
}
