/* See digest.h. The EVP entry points are looked up once: first in the process's global scope
 * (Node's statically linked OpenSSL, exported by the node binary), then in a system libcrypto.
 * Their signatures are declared here (opaque pointers only), so no OpenSSL header is needed. */
#include "digest.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "../last_error.h"

typedef void evp_ctx;
typedef void evp_md;

typedef struct evp_api {
  evp_ctx *(*ctx_new)(void);
  void (*ctx_free)(evp_ctx *);
  const evp_md *(*md5)(void);
  const evp_md *(*sha256)(void);
  int (*init)(evp_ctx *, const evp_md *, void *engine);
  int (*update)(evp_ctx *, const void *, size_t);
  int (*final)(evp_ctx *, unsigned char *, unsigned int *);
} evp_api_t;

typedef struct symbol_row {
  const char *name;
  size_t offset;
} symbol_row_t;

#define SYM(field, name) {name, offsetof(evp_api_t, field)}

static const symbol_row_t k_symbols[] = {
    SYM(ctx_new, "EVP_MD_CTX_new"),   SYM(ctx_free, "EVP_MD_CTX_free"),
    SYM(md5, "EVP_md5"),              SYM(sha256, "EVP_sha256"),
    SYM(init, "EVP_DigestInit_ex"),   SYM(update, "EVP_DigestUpdate"),
    SYM(final, "EVP_DigestFinal_ex"),
};

static const char *const k_libraries[] = {"libcrypto.so.3", "libcrypto.so"};

static evp_api_t g_api;
static const char *g_source;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* Fills api from handle; 1 when every symbol was found. */
static int resolve(void *handle, evp_api_t *api) {
  for (size_t i = 0; i < sizeof k_symbols / sizeof k_symbols[0]; i++) {
    void *fn = dlsym(handle, k_symbols[i].name);
    if (!fn) return 0;
    /* POSIX guarantees a function pointer round-trips through void *. */
    *(void **)((char *)api + k_symbols[i].offset) = fn;
  }
  return 1;
}

static void load(void) {
  evp_api_t api;
  if (resolve(RTLD_DEFAULT, &api)) {
    g_api = api;
    g_source = "process";
    return;
  }
  for (size_t i = 0; i < sizeof k_libraries / sizeof k_libraries[0]; i++) {
    /* Kept open for the process's life: contexts may outlive any one caller. */
    void *h = dlopen(k_libraries[i], RTLD_NOW | RTLD_LOCAL);
    if (!h) continue;
    if (resolve(h, &api)) {
      g_api = api;
      g_source = k_libraries[i];
      return;
    }
    dlclose(h);
  }
}

int vgw_digest_available(void) {
  pthread_once(&g_once, load);
  return g_source != NULL;
}

const char *vgw_digest_source(void) {
  pthread_once(&g_once, load);
  return g_source;
}

struct vgw_digest {
  evp_ctx *ctx;
  unsigned size;
  int finished;
};

vgw_digest_t *vgw_digest_new(int alg) {
  if (!vgw_digest_available()) return vgw_fail_null(-ENOSYS, "no OpenSSL EVP digest API in this process");
  const evp_md *md = alg == VGW_DIGEST_MD5      ? g_api.md5()
                     : alg == VGW_DIGEST_SHA256 ? g_api.sha256()
                                                : NULL;
  if (!md) return vgw_fail_null(-EINVAL, "unknown digest algorithm %d", alg);
  vgw_digest_t *d = calloc(1, sizeof *d);
  if (!d) return vgw_fail_null(-ENOMEM, "out of memory for a digest context");
  d->ctx = g_api.ctx_new();
  if (!d->ctx || g_api.init(d->ctx, md, NULL) != 1) {
    vgw_digest_free(d);
    return vgw_fail_null(-EIO, "EVP_DigestInit_ex failed");
  }
  d->size = alg == VGW_DIGEST_MD5 ? 16 : 32;
  return d;
}

int vgw_digest_update(vgw_digest_t *d, const void *buf, size_t len) {
  if (!d || (!buf && len > 0)) return vgw_fail(-EINVAL, "digest update: null argument");
  if (d->finished) return vgw_fail(-EINVAL, "digest update after final");
  if (len == 0) return 0;
  return g_api.update(d->ctx, buf, len) == 1 ? 0 : vgw_fail(-EIO, "EVP_DigestUpdate failed");
}

int vgw_digest_final(vgw_digest_t *d, uint8_t *out, size_t cap) {
  if (!d || !out) return vgw_fail(-EINVAL, "digest final: null argument");
  if (d->finished) return vgw_fail(-EINVAL, "digest final called twice");
  if (cap < d->size) return vgw_fail(-ENOSPC, "digest needs %u bytes, %zu given", d->size, cap);
  unsigned n = 0;
  d->finished = 1;
  if (g_api.final(d->ctx, out, &n) != 1 || n != d->size) return vgw_fail(-EIO, "EVP_DigestFinal_ex failed");
  return (int)n;
}

void vgw_digest_free(vgw_digest_t *d) {
  if (!d) return;
  if (d->ctx) g_api.ctx_free(d->ctx);
  free(d);
}
