/*
 * bench.c — ceiling probes for the softnic benchmark: plain memcpy, and process_vm_writev /
 * readv into / out of a forked child (the syscalls the same-host direct path uses). Medians of
 * `iterations` timed passes after one untimed warm-up pass that also faults every page in.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vgw_shim_common.h"

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void *map_buf(size_t n) {
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return NULL;
  memset(p, 0x5a, n); /* fault every page in: measure copying, not page faults */
  return p;
}

typedef int (*pass_fn)(void *ctx, size_t bytes);

static double median_gbps(pass_fn pass, void *ctx, size_t bytes, uint32_t iterations) {
  if (bytes == 0 || iterations == 0 || iterations > 1000) return -EINVAL;
  double *rates = calloc(iterations, sizeof *rates);
  if (rates == NULL) return -ENOMEM;
  int rc = pass(ctx, bytes); /* warm-up */
  for (uint32_t i = 0; rc == 0 && i < iterations; i++) {
    double t0 = now_s();
    rc = pass(ctx, bytes);
    double dt = now_s() - t0;
    rates[i] = (double)bytes / (dt > 0 ? dt : 1e-9) / 1e9;
  }
  double out = rc;
  if (rc == 0) {
    qsort(rates, iterations, sizeof *rates, cmp_double);
    out = rates[iterations / 2];
  }
  free(rates);
  return out;
}

typedef struct memcpy_ctx {
  void *src, *dst;
} memcpy_ctx_t;

static int memcpy_pass(void *ctx, size_t bytes) {
  memcpy_ctx_t *m = ctx;
  memcpy(m->dst, m->src, bytes);
  __asm__ __volatile__("" ::: "memory"); /* keep the copy */
  return 0;
}

double vgw_shim_bench_memcpy_gbps(size_t bytes, uint32_t iterations) {
  if (bytes == 0 || iterations == 0) return -EINVAL;
  memcpy_ctx_t m = {map_buf(bytes), map_buf(bytes)};
  double r = m.src && m.dst ? median_gbps(memcpy_pass, &m, bytes, iterations) : -ENOMEM;
  if (m.src) munmap(m.src, bytes);
  if (m.dst) munmap(m.dst, bytes);
  return r;
}

typedef struct pvm_ctx {
  pid_t pid;
  void *local;
  void *remote; /* same address in the child: the mapping existed before fork */
  int write;
} pvm_ctx_t;

static int pvm_pass(void *ctx, size_t bytes) {
  pvm_ctx_t *p = ctx;
  size_t done = 0;
  while (done < bytes) {
    struct iovec l = {(uint8_t *)p->local + done, bytes - done};
    struct iovec r = {(uint8_t *)p->remote + done, bytes - done};
    ssize_t n = p->write ? process_vm_writev(p->pid, &l, 1, &r, 1, 0) : process_vm_readv(p->pid, &l, 1, &r, 1, 0);
    if (n <= 0) return n < 0 ? -errno : -EIO;
    done += (size_t)n;
  }
  return 0;
}

/* The child owns its copy of `remote` (private mapping, touched after fork so its pages are its
 * own, not shared copy-on-write with ours), signals readiness, then waits to be killed. */
static double pvm_bench(size_t bytes, uint32_t iterations, int to_child) {
  if (bytes == 0 || iterations == 0) return -EINVAL;
  void *local = map_buf(bytes), *remote = map_buf(bytes);
  if (!local || !remote) {
    if (local) munmap(local, bytes);
    if (remote) munmap(remote, bytes);
    return -ENOMEM;
  }
  int ready[2];
  if (pipe(ready) != 0) return -errno;
  pid_t pid = fork();
  if (pid == 0) {
    memset(remote, 0xa5, bytes);
    char ok = 1;
    if (write(ready[1], &ok, 1) != 1) _exit(1);
    for (;;) pause();
  }
  double r = -ECHILD;
  char ok = 0;
  if (pid > 0 && read(ready[0], &ok, 1) == 1) {
    pvm_ctx_t ctx = {pid, local, remote, to_child};
    r = median_gbps(pvm_pass, &ctx, bytes, iterations);
  }
  if (pid > 0) {
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
  }
  close(ready[0]);
  close(ready[1]);
  munmap(local, bytes);
  munmap(remote, bytes);
  return r;
}

double vgw_shim_bench_process_vm_writev_gbps(size_t bytes, uint32_t iterations) {
  return pvm_bench(bytes, iterations, 1);
}

double vgw_shim_bench_process_vm_readv_gbps(size_t bytes, uint32_t iterations) {
  return pvm_bench(bytes, iterations, 0);
}
