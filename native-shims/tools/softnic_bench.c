/*
 * softnic_bench.c — C-level softnic throughput, to check the transport itself against the
 * ceilings (the Node benchmark in packages/rdma-ffi measures the same through koffi):
 *   build/linux-x64/softnic-bench [bytes=268435456] [iterations=5]
 * A forked child holds the client (agent + registered region); this process is the server.
 * Prints one JSON line: direct/tcp put+get GB/s (medians), the process_vm_writev ceiling, and
 * whether every transfer was verified byte-exact (a hash of the child's bytes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuobjserver_wrapper.h"
#include "rdma_host_client_wrapper.h"

static uint64_t hash(const uint8_t *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t v;
    memcpy(&v, p + i, n - i < 8 ? n - i : 8);
    h = (h ^ v) * 1099511628211ull;
  }
  return h;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Child: client with one region; answers 'T' (token) and 'H' (hash) on a pipe. */
static void child(size_t bytes, int cmd, int resp) {
  rdma_host_client_t *c = rdma_host_client_create(NULL);
  uint8_t *m = c ? rdma_host_client_alloc(c, bytes) : NULL;
  rdma_host_mr_t *mr = m ? rdma_host_client_register(c, m, bytes) : NULL;
  if (!mr) _exit(1);
  memset(m, 0x3c, bytes);
  char op;
  while (read(cmd, &op, 1) == 1) {
    char out[128] = {0};
    if (op == 'G' || op == 'P') rdma_host_client_token(c, mr, 0, bytes, op == 'G' ? CUOBJ_OP_GET : CUOBJ_OP_PUT, out, sizeof out);
    if (op == 'H') snprintf(out, sizeof out, "%016llx", (unsigned long long)hash(m, bytes));
    if (op == 'A') snprintf(out, sizeof out, "%016llx", (unsigned long long)(uintptr_t)m);
    if (write(resp, out, sizeof out) != sizeof out) _exit(1);
  }
  rdma_host_client_destroy(c);
  _exit(0);
}

static void ask(int cmd, int resp, char op, char out[128]) {
  if (write(cmd, &op, 1) != 1 || read(resp, out, 128) != 128) exit(2);
}

int main(int argc, char **argv) {
  size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)256 << 20;
  unsigned iters = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 5;
  if (bytes > (1ull << 30)) bytes = 1ull << 30;
  int cp[2], rp[2];
  if (pipe(cp) || pipe(rp)) return 2;
  pid_t pid = fork();
  if (pid == 0) {
    close(cp[1]); /* else our own copy of the write end keeps the read from ever seeing EOF */
    close(rp[0]);
    child(bytes, cp[0], rp[1]);
  }
  close(cp[0]);
  close(rp[1]);
  char addr_s[128], tget[128], tput[128], h[128];
  ask(cp[1], rp[0], 'A', addr_s);
  ask(cp[1], rp[0], 'G', tget);
  ask(cp[1], rp[0], 'P', tput);
  uint64_t addr = strtoull(addr_s, NULL, 16);
  double res[2][2]; /* [direct?][get?] */
  int verified = 1;
  for (int direct = 1; direct >= 0; direct--) {
    cuobj_rdma_tunables_t t;
    cuobj_server_tunables_default(&t);
    t.allow_direct = (uint32_t)direct;
    cuobj_server_t *s = cuobj_server_create_with_config(NULL, 0, CUOBJ_PROTO_RDMA_DC_V1, &t);
    uint8_t *mem = cuobj_server_alloc_host_buffer(s, bytes);
    cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, mem, bytes);
    for (int get = 0; get <= 1; get++) {
      double *r = calloc(iters, sizeof *r);
      for (unsigned i = 0; i <= iters; i++) { /* i == 0: warm-up */
        if (get) memset(mem, (int)(i + 1), bytes);
        double t0 = now_s();
        ssize_t n = get ? cuobj_server_handle_get(s, "b", b, addr, bytes, tget, 0)
                        : cuobj_server_handle_put(s, "b", b, addr, bytes, tput, 0);
        double dt = now_s() - t0;
        if (n != (ssize_t)bytes) {
          fprintf(stderr, "transfer failed: %zd\n", n);
          return 1;
        }
        if (i > 0) r[i - 1] = (double)bytes / dt / 1e9;
        ask(cp[1], rp[0], 'H', h);
        verified &= strtoull(h, NULL, 16) == hash(mem, bytes);
      }
      qsort(r, iters, sizeof *r, cmp);
      res[direct][get] = r[iters / 2];
      free(r);
    }
    cuobj_server_stats_t st;
    cuobj_server_get_stats(s, &st);
    verified &= direct ? st.tcp_transfers == 0 : st.direct_transfers == 0; /* the path named is the path taken */
    cuobj_server_deregister_buffer(s, b);
    cuobj_server_free_host_buffer(s, mem);
    cuobj_server_destroy(s);
  }
  close(cp[1]);
  waitpid(pid, NULL, 0);
  double w = vgw_shim_bench_process_vm_writev_gbps(bytes, iters);
  double m = vgw_shim_bench_memcpy_gbps(bytes, iters);
  printf("{\"transport\":\"softnic\",\"sizeBytes\":%zu,\"direct\":{\"putGBps\":%.3f,\"getGBps\":%.3f},"
         "\"tcp\":{\"putGBps\":%.3f,\"getGBps\":%.3f},\"ceiling\":{\"memcpyGBps\":%.3f,\"processVmWritevGBps\":%.3f},"
         "\"verified\":%s}\n",
         bytes, res[1][0], res[1][1], res[0][0], res[0][1], m, w, verified ? "true" : "false");
  return verified ? 0 : 1;
}
