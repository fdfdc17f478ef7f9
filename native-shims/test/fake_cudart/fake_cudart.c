/*
 * fake_cudart.c — a fake CUDA runtime (libvgw_fake_cudart.so) for machines without a GPU: the
 * same cudaXxx symbols the shims dlopen, over host memory. Test-only; never shipped.
 *
 * What makes it a useful fake rather than an alias for memcpy:
 * - "device" pointers are NOT CPU-addressable: they live in non-canonical x86-64 address space
 *   (0x4000... + slot << 36 + offset), so a CPU read, a softnic process_vm_* or socket read of
 *   a device pointer faults or fails, exactly as with real device memory;
 * - cudaMemcpyAsync is deferred: the bytes move only at cudaStreamSynchronize (or stream
 *   destroy), so a caller that forgets to wait sees stale data;
 * - faults on demand, from the environment: FAKE_CUDART_FAIL=<call>:<n>:<code> makes the n-th
 *   call of <call> (malloc, memcpy_async, memcpy, sync, stream_create) return cudaError <code>;
 *   FAKE_CUDART_DEVICES=<n> sets the device count (default 1); FAKE_CUDART_NO_PIN=1 refuses
 *   cudaHostRegister; FAKE_CUDART_MAX_ALLOC=<bytes> caps one cudaMalloc.
 * Introspection for leak checks: fake_cudart_live() = device allocations + streams + pinned
 * ranges still held; fake_cudart_calls(name) = how often a call ran.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))
#define DEV_BASE 0x4000000000000000ull
#define SLOT_SHIFT 36
#define SLOTS 256
#define PINS 64

typedef struct pending {
  void *dst;
  const void *src;
  size_t n;
  struct pending *next;
} pending_t;

typedef struct stream {
  pending_t *head, *tail;
} stream_t;

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static struct {
  uint8_t *mem;
  size_t size;
} g_slots[SLOTS];
static struct {
  void *p;
  size_t n;
} g_pins[PINS];
static int g_streams;
static int g_device;
static unsigned g_calls[8];

enum { C_MALLOC, C_MEMCPY_ASYNC, C_MEMCPY, C_SYNC, C_STREAM_CREATE, C_HOST_REGISTER, C_COUNT };
static const char *const k_call_names[C_COUNT] = {"malloc", "memcpy_async", "memcpy", "sync", "stream_create",
                                                  "host_register"};

/* The injected error for this call, or 0. Counts the call. */
static int injected(int call) {
  unsigned n = ++g_calls[call];
  const char *spec = getenv("FAKE_CUDART_FAIL");
  if (spec == NULL) return 0;
  size_t len = strlen(k_call_names[call]);
  if (strncmp(spec, k_call_names[call], len) != 0 || spec[len] != ':') return 0;
  char *end;
  unsigned long at = strtoul(spec + len + 1, &end, 10);
  if (*end != ':' || at != n) return 0;
  return (int)strtol(end + 1, NULL, 10);
}

/* Host address behind a device pointer range, or NULL when [p, p+n) is not inside one allocation. */
static uint8_t *dev_to_host(const void *p, size_t n) {
  uint64_t a = (uint64_t)(uintptr_t)p;
  if (a < DEV_BASE) return NULL;
  uint64_t slot = (a - DEV_BASE) >> SLOT_SHIFT, off = (a - DEV_BASE) & ((1ull << SLOT_SHIFT) - 1);
  if (slot >= SLOTS || g_slots[slot].mem == NULL || off > g_slots[slot].size || n > g_slots[slot].size - off)
    return NULL;
  return g_slots[slot].mem + off;
}

static int is_dev(const void *p) { return (uint64_t)(uintptr_t)p >= DEV_BASE; }

EXPORT unsigned fake_cudart_calls(const char *name) {
  for (int i = 0; i < C_COUNT; i++)
    if (strcmp(name, k_call_names[i]) == 0) return g_calls[i];
  return 0;
}

EXPORT int fake_cudart_live(void) {
  pthread_mutex_lock(&g_mu);
  int n = g_streams;
  for (int i = 0; i < SLOTS; i++) n += g_slots[i].mem != NULL;
  for (int i = 0; i < PINS; i++) n += g_pins[i].p != NULL;
  pthread_mutex_unlock(&g_mu);
  return n;
}

EXPORT int cudaRuntimeGetVersion(int *v) {
  *v = 13000;
  return 0;
}
EXPORT int cudaDriverGetVersion(int *v) {
  *v = 13000;
  return 0;
}
EXPORT int cudaGetDeviceCount(int *n) {
  const char *e = getenv("FAKE_CUDART_DEVICES");
  *n = e ? atoi(e) : 1;
  return *n == 0 ? 100 : 0; /* the real runtime answers cudaErrorNoDevice */
}
EXPORT int cudaSetDevice(int dev) {
  int n = 0;
  cudaGetDeviceCount(&n);
  if (dev < 0 || dev >= n) return 101;
  g_device = dev;
  return 0;
}
EXPORT int cudaGetDeviceProperties_v2(void *prop, int dev) {
  (void)dev;
  strcpy((char *)prop, "Fake CUDA Device (vgwrdma tests)");
  return 0;
}

EXPORT int cudaMalloc(void **p, size_t n) {
  int e = injected(C_MALLOC);
  if (e) return e;
  const char *cap = getenv("FAKE_CUDART_MAX_ALLOC");
  if (n == 0 || n >= (1ull << SLOT_SHIFT) || (cap && n > strtoull(cap, NULL, 10))) return 2;
  pthread_mutex_lock(&g_mu);
  int slot = -1;
  for (int i = 0; i < SLOTS && slot < 0; i++)
    if (g_slots[i].mem == NULL) slot = i;
  uint8_t *mem = slot < 0 ? NULL : malloc(n);
  if (mem) {
    memset(mem, 0xA5, n); /* device memory is not zeroed */
    g_slots[slot].mem = mem;
    g_slots[slot].size = n;
    *p = (void *)(uintptr_t)(DEV_BASE + ((uint64_t)slot << SLOT_SHIFT));
  }
  pthread_mutex_unlock(&g_mu);
  return mem ? 0 : 2;
}

EXPORT int cudaFree(void *p) {
  if (p == NULL) return 0;
  uint64_t a = (uint64_t)(uintptr_t)p;
  pthread_mutex_lock(&g_mu);
  uint64_t slot = (a - DEV_BASE) >> SLOT_SHIFT;
  int ok = a >= DEV_BASE && slot < SLOTS && ((a - DEV_BASE) & ((1ull << SLOT_SHIFT) - 1)) == 0 && g_slots[slot].mem;
  if (ok) {
    free(g_slots[slot].mem);
    g_slots[slot].mem = NULL;
  }
  pthread_mutex_unlock(&g_mu);
  return ok ? 0 : 1;
}

EXPORT int cudaHostRegister(void *p, size_t n, unsigned flags) {
  (void)flags;
  int e = injected(C_HOST_REGISTER);
  if (e) return e;
  if (getenv("FAKE_CUDART_NO_PIN")) return 801; /* cudaErrorNotSupported */
  pthread_mutex_lock(&g_mu);
  int done = 0;
  for (int i = 0; i < PINS && !done; i++) {
    if (g_pins[i].p == p) break; /* already registered */
    if (g_pins[i].p == NULL) {
      g_pins[i].p = p;
      g_pins[i].n = n;
      done = 1;
    }
  }
  pthread_mutex_unlock(&g_mu);
  return done ? 0 : 712;
}

EXPORT int cudaHostUnregister(void *p) {
  pthread_mutex_lock(&g_mu);
  int done = 0;
  for (int i = 0; i < PINS && !done; i++) {
    if (g_pins[i].p == p) {
      g_pins[i].p = NULL;
      done = 1;
    }
  }
  pthread_mutex_unlock(&g_mu);
  return done ? 0 : 713;
}

EXPORT int cudaStreamCreateWithFlags(void **s, unsigned flags) {
  (void)flags;
  int e = injected(C_STREAM_CREATE);
  if (e) return e;
  stream_t *st = calloc(1, sizeof *st);
  if (st == NULL) return 2;
  pthread_mutex_lock(&g_mu);
  g_streams++;
  pthread_mutex_unlock(&g_mu);
  *s = st;
  return 0;
}

static void drain(stream_t *st) {
  while (st && st->head) {
    pending_t *p = st->head;
    st->head = p->next;
    memcpy(p->dst, p->src, p->n);
    free(p);
  }
  if (st) st->tail = NULL;
}

EXPORT int cudaStreamSynchronize(void *s) {
  int e = injected(C_SYNC);
  drain(s); /* the work completes even when the wait reports an error */
  return e;
}

EXPORT int cudaStreamDestroy(void *s) {
  if (s == NULL) return 400;
  drain(s);
  free(s);
  pthread_mutex_lock(&g_mu);
  g_streams--;
  pthread_mutex_unlock(&g_mu);
  return 0;
}

/* Host addresses for a copy of `kind` (1 = H2D, 2 = D2H); cudaErrorInvalidValue when a side is
 * not what the kind says or a device range leaves its allocation. */
static int resolve(void **dst, const void **src, size_t n, int kind) {
  if (kind == 1 && is_dev(*dst) && !is_dev(*src)) *dst = dev_to_host(*dst, n);
  else if (kind == 2 && is_dev(*src) && !is_dev(*dst)) *src = dev_to_host(*src, n);
  else return 21; /* cudaErrorInvalidMemcpyDirection */
  return *dst && *src ? 0 : 1;
}

EXPORT int cudaMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s) {
  int e = injected(C_MEMCPY_ASYNC);
  if (e) return e;
  if (s == NULL) return 400;
  if ((e = resolve(&dst, &src, n, kind))) return e;
  pending_t *p = malloc(sizeof *p);
  if (p == NULL) return 2;
  *p = (pending_t){dst, src, n, NULL};
  stream_t *st = s;
  if (st->tail) st->tail->next = p;
  else st->head = p;
  st->tail = p;
  return 0;
}

EXPORT int cudaMemcpy(void *dst, const void *src, size_t n, int kind) {
  int e = injected(C_MEMCPY);
  if (e) return e;
  if ((e = resolve(&dst, &src, n, kind))) return e;
  memcpy(dst, src, n);
  return 0;
}

EXPORT int cudaMemset(void *p, int v, size_t n) {
  uint8_t *h = dev_to_host(p, n);
  if (h == NULL) return 1;
  memset(h, v, n);
  return 0;
}

EXPORT int cudaPointerGetAttributes(int *attrs, const void *p) {
  /* struct cudaPointerAttributes { int type; int device; void *devicePointer; void *hostPointer; } */
  memset(attrs, 0, 24);
  if (is_dev(p)) {
    if (dev_to_host(p, 1) == NULL) return 1;
    attrs[0] = 2;
    attrs[1] = g_device;
    memcpy(attrs + 2, &p, sizeof p);
  }
  return 0;
}

EXPORT int cudaGetLastError(void) { return 0; }

EXPORT const char *cudaGetErrorName(int e) {
  switch (e) {
    case 1: return "cudaErrorInvalidValue";
    case 2: return "cudaErrorMemoryAllocation";
    case 21: return "cudaErrorInvalidMemcpyDirection";
    case 100: return "cudaErrorNoDevice";
    case 101: return "cudaErrorInvalidDevice";
    case 700: return "cudaErrorIllegalAddress";
    default: return "cudaErrorUnknown";
  }
}

EXPORT const char *cudaGetErrorString(int e) { return e == 0 ? "no error" : "fake CUDA runtime error"; }
