/* test_cuda_device.c — the GPU client on a REAL CUDA device (libcudart found by the loader):
 * device memory allocated by the client and by the caller, staged and moved through an
 * in-process softnic server in both directions, bytes checked on the device side, also with the
 * staging overlapped with the transfer (ABI 1.9 progress gates). Every case
 * skips (exit 77, reason printed) where no CUDA runtime or device exists — i.e. everywhere
 * but a GPU machine. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_api.h"
#include "cuobjclient_wrapper.h"
#include "cuobjserver_wrapper.h"
#include "harness.h"
#include "harness_softnic.h"

/* The CUDA driver maps memory where ASan keeps its shadow gap; the driver's own allocations
 * outlive the process by design. */
#define VISIBLE __attribute__((visibility("default"), used)) /* the build hides symbols by default */
VISIBLE const char *__asan_default_options(void) { return "protect_shadow_gap=0"; }
VISIBLE const char *__lsan_default_suppressions(void) { return "leak:libcuda\nleak:libcudart\nleak:libnvidia\n"; }

static cuobj_client_t *real_client_or_skip(void) {
  static char why[300];
  unsetenv("VGWRDMA_CUDA_LIB");
  rdma_host_client_config_t cfg;
  rdma_host_client_config_default(&cfg);
  cuobj_client_t *c = cuobj_client_create(&cfg);
  CHECK(c != NULL);
  if (cuobj_client_cuda_configure(c, NULL, 0) != 0) {
    char msg[256];
    vgw_shim_last_error(msg, sizeof msg);
    snprintf(why, sizeof why, "no usable CUDA here: %s", msg);
    cuobj_client_destroy(c);
    skip_case(why);
  }
  char d[256];
  CHECK(cuobj_client_cuda_describe(c, d, sizeof d) > 0);
  printf("device: %s\n", d);
  return c;
}

static void fill_device(cuobj_client_t *c, void *dev, size_t n, uint64_t seed, uint8_t *scratch) {
  test_fill(scratch, n, seed);
  CHECK_EQ_INT(cuobj_client_cuda_memcpy(c, dev, scratch, n, CUOBJ_CUDA_HOST_TO_DEVICE), 0);
}

static uint64_t device_hash(cuobj_client_t *c, const void *dev, size_t n, uint8_t *scratch) {
  CHECK_EQ_INT(cuobj_client_cuda_memcpy(c, scratch, dev, n, CUOBJ_CUDA_DEVICE_TO_HOST), 0);
  return test_hash(scratch, n);
}

static void round_trip(cuobj_client_t *c, void *dev, size_t n) {
  cuobj_client_mr_t *mr = cuobj_client_register(c, dev, n, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(mr != NULL);
  printf("staging pinned: %d\n", cuobj_client_mr_staging_pinned(mr));
  cuobj_server_t *s = test_server(1, 30000);
  uint8_t *smem = cuobj_server_alloc_host_buffer(s, n);
  cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, smem, n);
  uint8_t *scratch = malloc(n);
  CHECK(smem && b && scratch);
  char tok[TOKEN_CAP];
  cuobj_token_t t;
  /* upload: device -> twin -> gateway */
  fill_device(c, dev, n, 77, scratch);
  uint64_t want = test_hash(scratch, n);
  CHECK_EQ_INT(cuobj_client_stage_to_host(c, mr, 0, n), 0);
  CHECK_EQ_INT(cuobj_client_token(c, mr, 0, n, CUOBJ_OP_PUT, tok, sizeof tok), 81);
  CHECK_EQ_INT(cuobj_token_parse(tok, &t), 0);
  CHECK_EQ_INT(cuobj_server_handle_put(s, "k", b, t.addr, n, tok, 0), n);
  CHECK(test_hash(smem, n) == want);
  /* download: gateway -> twin -> device, checked on the device after zeroing it */
  CHECK_EQ_INT(cuobj_client_cuda_memset(c, dev, 0, n), 0);
  test_fill(smem, n, 78);
  want = test_hash(smem, n);
  CHECK_EQ_INT(cuobj_client_token(c, mr, 0, n, CUOBJ_OP_GET, tok, sizeof tok), 81);
  CHECK_EQ_INT(cuobj_server_handle_get(s, "k", b, t.addr, n, tok, 0), n);
  CHECK_EQ_INT(cuobj_client_stage_to_device(c, mr, 0, n), 0);
  CHECK(device_hash(c, dev, n, scratch) == want);
  free(scratch);
  CHECK_EQ_INT(cuobj_server_deregister_buffer(s, b), 0);
  cuobj_server_free_host_buffer(s, smem);
  cuobj_server_destroy(s);
  CHECK_EQ_INT(cuobj_client_deregister(c, mr), 0);
}

static void client_allocated_round_trip(void) {
  cuobj_client_t *c = real_client_or_skip();
  size_t n = 64u << 20;
  void *dev = cuobj_client_alloc(c, n, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(dev != NULL);
  round_trip(c, dev, n);
  CHECK_EQ_INT(cuobj_client_free(c, dev), 0);
  cuobj_client_destroy(c);
}

static void caller_allocated_round_trip(void) {
  cuobj_client_t *c = real_client_or_skip();
  const vgw_cuda_api_t *api = vgw_cuda_load(NULL); /* the same runtime the client loaded */
  CHECK(api != NULL);
  size_t n = (32u << 20) + 4096 + 3; /* not a multiple of any chunk */
  void *dev = NULL;
  CHECK_EQ_INT(api->malloc_device(&dev, n), 0);
  CHECK_EQ_INT(cuobj_client_cuda_set_staging(c, 1u << 20, 4), 0);
  round_trip(c, dev, n);
  CHECK_EQ_INT(cuobj_client_free(c, dev), -EINVAL); /* the caller's, not the client's */
  CHECK_EQ_INT(api->free_device(dev), 0);
  cuobj_client_destroy(c);
}

static void real_errors_are_clear(void) {
  cuobj_client_t *c = real_client_or_skip();
  char msg[256];
  uint8_t host[4096];
  CHECK(cuobj_client_register(c, host, sizeof host, CUOBJ_MEMORY_CUDA_DEVICE) == NULL);
  CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -EINVAL);
  CHECK(strstr(msg, "not CUDA device memory") != NULL);
  CHECK_EQ_INT(cuobj_client_cuda_configure(c, NULL, 4096), -ENODEV);
  vgw_shim_last_error(msg, sizeof msg);
  printf("device 4096: %s\n", msg);
  CHECK(strstr(msg, "does not exist") != NULL);
  /* more than the card has: the runtime's out-of-memory, mapped */
  CHECK(cuobj_client_alloc(c, (size_t)1 << 32, CUOBJ_MEMORY_CUDA_DEVICE) == NULL); /* > 4 GiB - 64 KiB */
  CHECK_EQ_INT(vgw_shim_last_error(NULL, 0), -EINVAL);
  cuobj_client_destroy(c);
}

typedef struct overlap_job {
  cuobj_client_t *c;
  cuobj_client_mr_t *mr;
  size_t n;
  int to_device, rc;
} overlap_job_t;

static void *overlap_stage(void *arg) {
  overlap_job_t *j = arg;
  j->rc = j->to_device ? cuobj_client_stage_to_device_overlapped(j->c, j->mr, j->n, 8u << 20)
                       : cuobj_client_stage_to_host_overlapped(j->c, j->mr, j->n, 8u << 20);
  return NULL;
}

/* Staging and the gateway's 8 MiB READs / WRITEs at once, both ways, on the real device. */
static void overlapped_round_trip(void) {
  cuobj_client_t *c = real_client_or_skip();
  const size_t n = 256u << 20, step = 8u << 20;
  void *dev = cuobj_client_alloc(c, n, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(dev != NULL);
  cuobj_client_mr_t *mr = cuobj_client_register(c, dev, n, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(mr != NULL);
  cuobj_server_t *s = test_server(1, 30000);
  uint8_t *smem = cuobj_server_alloc_host_buffer(s, n), *scratch = malloc(n);
  cuobj_rdma_buffer_t *b = cuobj_server_register_buffer(s, smem, n);
  CHECK(smem && scratch && b);
  uint64_t twin = (uint64_t)(uintptr_t)cuobj_client_mr_staging_addr(mr);
  char tok[TOKEN_CAP];
  fill_device(c, dev, n, 77, scratch);
  uint64_t want = test_hash(scratch, n);
  CHECK_EQ_INT(cuobj_client_progress_arm(c, mr, RDMA_HOST_PROGRESS_UPLOAD, 10000), 0);
  overlap_job_t j = {c, mr, n, 0, 1};
  pthread_t t;
  CHECK(pthread_create(&t, NULL, overlap_stage, &j) == 0);
  CHECK(cuobj_client_token(c, mr, 0, n, CUOBJ_OP_PUT, tok, sizeof tok) > 0);
  for (size_t off = 0; off < n; off += step)
    CHECK_EQ_INT(cuobj_server_handle_put_ex(s, "k", b, off, twin + off, step, tok, 0), step);
  pthread_join(t, NULL);
  CHECK_EQ_INT(j.rc, 0);
  CHECK(test_hash(smem, n) == want);
  test_fill(smem, n, 78);
  want = test_hash(smem, n);
  CHECK_EQ_INT(cuobj_client_cuda_memset(c, dev, 0, n), 0);
  CHECK_EQ_INT(cuobj_client_progress_arm(c, mr, RDMA_HOST_PROGRESS_DOWNLOAD, 10000), 0);
  j.to_device = 1;
  CHECK(pthread_create(&t, NULL, overlap_stage, &j) == 0);
  CHECK(cuobj_client_token(c, mr, 0, n, CUOBJ_OP_GET, tok, sizeof tok) > 0);
  for (size_t off = 0; off < n; off += step)
    CHECK_EQ_INT(cuobj_server_handle_get_ex(s, "k", b, off, twin + off, step, tok, 0), step);
  CHECK_EQ_INT(cuobj_client_progress_publish(c, mr, n), 0);
  pthread_join(t, NULL);
  CHECK_EQ_INT(j.rc, 0);
  CHECK(device_hash(c, dev, n, scratch) == want);
  CHECK_EQ_INT(cuobj_server_deregister_buffer(s, b), 0);
  cuobj_server_free_host_buffer(s, smem);
  cuobj_server_destroy(s);
  CHECK_EQ_INT(cuobj_client_deregister(c, mr), 0);
  CHECK_EQ_INT(cuobj_client_free(c, dev), 0);
  free(scratch);
  cuobj_client_destroy(c);
}

TEST_MAIN(CASE(client_allocated_round_trip), CASE(caller_allocated_round_trip), CASE(real_errors_are_clear),
          CASE(overlapped_round_trip))
