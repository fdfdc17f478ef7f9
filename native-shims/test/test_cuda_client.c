/* test_cuda_client.c — the GPU client's CUDA_DEVICE kind end to end over softnic, on the fake
 * runtime (fake_cudart/: device pointers are not CPU-addressable, async copies land only when
 * waited for): a gateway-side server reads the staged twin after stage_to_host and writes it
 * before stage_to_device; caller-owned device pointers; clear errors for missing runtime or
 * device, out of memory, host pointers, managed memory; destroy releases every CUDA resource. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuobjclient_wrapper.h"
#include "cuobjserver_wrapper.h"
#include "harness.h"
#include "harness_channel.h"
#include "harness_cuda.h"
#include "harness_softnic.h"

#define SIZE (6u << 20)


static cuobj_client_t *client(int direct) {
  rdma_host_client_config_t c;
  rdma_host_client_config_default(&c);
  c.allow_direct = (uint32_t)direct;
  cuobj_client_t *g = cuobj_client_create(&c);
  CHECK(g != NULL);
  return g;
}

static uint64_t device_hash(cuobj_client_t *c, void *dev, size_t n) {
  uint8_t *h = malloc(n);
  CHECK(h != NULL);
  CHECK_EQ_INT(cuobj_client_cuda_memcpy(c, h, dev, n, CUOBJ_CUDA_DEVICE_TO_HOST), 0);
  uint64_t x = test_hash(h, n);
  free(h);
  return x;
}

static void device_fill(cuobj_client_t *c, void *dev, size_t n, uint64_t seed) {
  uint8_t *h = malloc(n);
  CHECK(h != NULL);
  test_fill(h, n, seed);
  CHECK_EQ_INT(cuobj_client_cuda_memcpy(c, dev, h, n, CUOBJ_CUDA_HOST_TO_DEVICE), 0);
  free(h);
}

/* Upload: stage_to_host, then the gateway READs the twin (handle_put). Download: the gateway
 * WRITEs the twin (handle_get), then stage_to_device. Bytes are checked on the device side. */
static void round_trip(int direct) {
  use_fake_cudart();
  cuobj_client_t *c = client(direct);
  CHECK_EQ_INT(cuobj_client_cuda_set_staging(c, 1u << 20, 3), 0); /* several chunks per copy */
  served_t g;
  served_open(&g, direct, 5000, SIZE);
  void *dev = cuobj_client_alloc(c, SIZE, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(dev != NULL);
  cuobj_client_mr_t *mr = cuobj_client_register(c, dev, SIZE, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(mr != NULL);
  CHECK(cuobj_client_mr_addr(mr) == dev);
  CHECK_EQ_INT(cuobj_client_mr_memory_kind(mr), CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK_EQ_INT(cuobj_client_mr_staging_pinned(mr), 1);
  char tok[TOKEN_CAP];
  CHECK_EQ_INT(cuobj_client_token(c, mr, 0, SIZE, CUOBJ_OP_PUT, tok, sizeof tok), 81);
  cuobj_token_t t;
  CHECK_EQ_INT(cuobj_token_parse(tok, &t), 0);
  CHECK(t.addr != (uint64_t)(uintptr_t)dev); /* the token names the host twin, not the device */

  /* upload */
  device_fill(c, dev, SIZE, 41);
  uint64_t want = device_hash(c, dev, SIZE);
  CHECK_EQ_INT(cuobj_client_stage_to_host(c, mr, 0, SIZE), 0);
  memset(g.mem, 0, SIZE);
  CHECK_EQ_INT(cuobj_server_handle_put(g.s, "k", g.b, t.addr, SIZE, tok, 0), SIZE);
  CHECK(test_hash(g.mem, SIZE) == want);
  uint8_t *twin = cuobj_client_mr_staging_addr(mr);
  CHECK(twin != NULL && (uint64_t)(uintptr_t)twin == t.addr); /* the twin is what tokens name */
  CHECK(test_hash(twin, SIZE) == want);

  /* download of a window, at an offset */
  size_t off = 4096 + 7, n = SIZE / 2;
  test_fill(g.mem, n, 42);
  uint64_t sent = test_hash(g.mem, n);
  CHECK_EQ_INT(cuobj_client_token(c, mr, off, n, CUOBJ_OP_GET, tok, sizeof tok), 81);
  CHECK_EQ_INT(cuobj_token_parse(tok, &t), 0);
  CHECK_EQ_INT(cuobj_server_handle_get(g.s, "k", g.b, t.addr, n, tok, 0), n);
  uint8_t *back = malloc(SIZE);
  CHECK(back != NULL);
  /* not on the device until staged */
  CHECK_EQ_INT(cuobj_client_cuda_memcpy(c, back, dev, SIZE, CUOBJ_CUDA_DEVICE_TO_HOST), 0);
  CHECK(test_hash(back + off, n) != sent);
  CHECK_EQ_INT(cuobj_client_stage_to_device(c, mr, off, n), 0);
  CHECK_EQ_INT(cuobj_client_cuda_memcpy(c, back, dev, SIZE, CUOBJ_CUDA_DEVICE_TO_HOST), 0);
  CHECK(test_hash(back + off, n) == sent);
  /* the bytes around the window are the upload's, untouched */
  uint8_t *ref = malloc(SIZE);
  CHECK(ref != NULL);
  test_fill(ref, SIZE, 41);
  CHECK(memcmp(back, ref, off) == 0);
  CHECK(memcmp(back + off + n, ref + off + n, SIZE - off - n) == 0);
  free(ref);
  free(back);

  CHECK_EQ_INT(cuobj_client_stage_to_device(c, mr, SIZE - 1, 2), -EINVAL);
  CHECK_EQ_INT(cuobj_client_free(c, dev), -EBUSY); /* still registered */
  CHECK_EQ_INT(cuobj_client_deregister(c, mr), 0);
  CHECK_EQ_INT(cuobj_client_free(c, dev), 0);
  CHECK_EQ_INT(fake_live(), 0);
  cuobj_server_stats_t st = stats_of(g.s);
  CHECK_EQ_INT(direct ? st.direct_transfers : st.tcp_transfers, 2);
  CHECK_EQ_INT(served_close(&g), 0);
  cuobj_client_destroy(c);
}

static void round_trip_direct(void) { round_trip(1); }
static void round_trip_tcp(void) { round_trip(0); }

static void caller_device_pointer(void) {
  use_fake_cudart();
  cuobj_client_t *c = client(1);
  CHECK_EQ_INT(cuobj_client_cuda_configure(c, NULL, 0), 0);
  void *dev = fake_cuda_malloc(1u << 20); /* the caller's own cudaMalloc */
  cuobj_client_mr_t *mr = cuobj_client_register(c, dev, 1u << 20, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(mr != NULL);
  device_fill(c, dev, 1u << 20, 3);
  CHECK_EQ_INT(cuobj_client_stage_to_host(c, mr, 0, 1u << 20), 0);
  CHECK_EQ_INT(cuobj_client_free(c, dev), -EINVAL); /* not the client's to free */
  CHECK_EQ_INT(cuobj_client_deregister(c, mr), 0);
  fake_cuda_free(dev);
  /* host memory is not device memory */
  uint8_t host[4096];
  CHECK(cuobj_client_register(c, host, sizeof host, CUOBJ_MEMORY_CUDA_DEVICE) == NULL);
  char msg[256];
  CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -EINVAL);
  CHECK(strstr(msg, "not CUDA device memory") != NULL);
  CHECK(cuobj_client_alloc(c, 4096, CUOBJ_MEMORY_CUDA_MANAGED) == NULL);
  CHECK_EQ_INT(vgw_shim_last_error(NULL, 0), -ENOTSUP);
  CHECK_EQ_INT(fake_live(), 0);
  cuobj_client_destroy(c);
}

static void clear_errors(void) {
  char msg[256];
  /* no runtime at all */
  setenv("VGWRDMA_CUDA_LIB", "/nonexistent/libcudart.so", 1);
  cuobj_client_t *c = client(1);
  CHECK(cuobj_client_alloc(c, 4096, CUOBJ_MEMORY_CUDA_DEVICE) == NULL);
  CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -ENODEV);
  CHECK(strstr(msg, "no CUDA runtime") != NULL);
  /* SYSTEM memory still works on that client, and staging it is a no-op */
  void *m = cuobj_client_alloc(c, 4096, CUOBJ_MEMORY_SYSTEM);
  cuobj_client_mr_t *mr = cuobj_client_register(c, m, 4096, CUOBJ_MEMORY_SYSTEM);
  CHECK(mr != NULL);
  CHECK_EQ_INT(cuobj_client_stage_to_host(c, mr, 0, 4096), 0);
  CHECK_EQ_INT(cuobj_client_stage_to_device(c, mr, 0, 4097), -EINVAL);
  CHECK_EQ_INT(cuobj_client_mr_staging_pinned(mr), 0);
  CHECK(cuobj_client_mr_staging_addr(mr) == NULL); /* host memory has no twin */
  cuobj_client_destroy(c);
  /* a runtime without devices, a device that does not exist, out of device memory */
  use_fake_cudart();
  setenv("FAKE_CUDART_DEVICES", "0", 1);
  c = client(1);
  CHECK_EQ_INT(cuobj_client_cuda_configure(c, NULL, 0), -ENODEV);
  vgw_shim_last_error(msg, sizeof msg);
  CHECK(strstr(msg, "no CUDA device") != NULL);
  setenv("FAKE_CUDART_DEVICES", "1", 1);
  CHECK_EQ_INT(cuobj_client_cuda_configure(c, NULL, 3), -ENODEV);
  vgw_shim_last_error(msg, sizeof msg);
  CHECK(strstr(msg, "device 3 does not exist (1 present)") != NULL);
  CHECK_EQ_INT(cuobj_client_cuda_configure(c, NULL, -1), -EINVAL);
  setenv("FAKE_CUDART_MAX_ALLOC", "1048576", 1);
  CHECK(cuobj_client_alloc(c, 2u << 20, CUOBJ_MEMORY_CUDA_DEVICE) == NULL);
  CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -ENOMEM);
  CHECK(strstr(msg, "cudaMalloc(2097152) on device 0") && strstr(msg, "cudaErrorMemoryAllocation"));
  CHECK_EQ_INT(cuobj_client_cuda_set_staging(c, 1000, 2), -EINVAL);
  CHECK_EQ_INT(cuobj_client_cuda_set_staging(c, 0, 9), -EINVAL);
  CHECK_EQ_INT(cuobj_client_cuda_describe(c, msg, sizeof msg) > 0, 1);
  CHECK(strstr(msg, "Fake CUDA Device (vgwrdma tests) (device 0 of 1), runtime 13000") != NULL);
  cuobj_client_destroy(c);
}

static void copy_fault_mid_stage(void) {
  use_fake_cudart();
  setenv("FAKE_CUDART_FAIL", "memcpy_async:2:700", 1); /* the 2nd chunk of the first stage */
  cuobj_client_t *c = client(1);
  CHECK_EQ_INT(cuobj_client_cuda_set_staging(c, 1u << 20, 2), 0);
  void *dev = cuobj_client_alloc(c, 4u << 20, CUOBJ_MEMORY_CUDA_DEVICE);
  cuobj_client_mr_t *mr = cuobj_client_register(c, dev, 4u << 20, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(mr != NULL);
  CHECK_EQ_INT(cuobj_client_stage_to_host(c, mr, 0, 4u << 20), -EFAULT);
  char msg[256];
  vgw_shim_last_error(msg, sizeof msg);
  CHECK(strstr(msg, "cudaErrorIllegalAddress") && strstr(msg, "device->host, 4194304 bytes at 0"));
  char kept[256];
  CHECK_EQ_INT(cuobj_client_mr_last_stage_error(c, mr, kept, sizeof kept), -EFAULT);
  CHECK(strcmp(kept, msg) == 0); /* the same detail, kept on the handle for other threads */
  CHECK_EQ_INT(cuobj_client_stage_to_host(c, mr, 0, 4u << 20), 0); /* the next one is clean */
  cuobj_client_destroy(c);
}

static void unpinned_twin_still_moves_bytes(void) {
  use_fake_cudart();
  setenv("FAKE_CUDART_NO_PIN", "1", 1);
  cuobj_client_t *c = client(1);
  served_t g;
  served_open(&g, 1, 5000, SIZE);
  void *dev = cuobj_client_alloc(c, SIZE, CUOBJ_MEMORY_CUDA_DEVICE);
  cuobj_client_mr_t *mr = cuobj_client_register(c, dev, SIZE, CUOBJ_MEMORY_CUDA_DEVICE);
  CHECK(mr != NULL);
  CHECK_EQ_INT(cuobj_client_mr_staging_pinned(mr), 0);
  device_fill(c, dev, SIZE, 9);
  CHECK_EQ_INT(cuobj_client_stage_to_host(c, mr, 0, SIZE), 0);
  char tok[TOKEN_CAP];
  cuobj_token_t t;
  CHECK_EQ_INT(cuobj_client_token(c, mr, 0, SIZE, CUOBJ_OP_PUT, tok, sizeof tok), 81);
  CHECK_EQ_INT(cuobj_token_parse(tok, &t), 0);
  CHECK_EQ_INT(cuobj_server_handle_put(g.s, "k", g.b, t.addr, SIZE, tok, 0), SIZE);
  CHECK(test_hash(g.mem, SIZE) == device_hash(c, dev, SIZE));
  CHECK_EQ_INT(served_close(&g), 0);
  cuobj_client_destroy(c);
}

static void destroy_releases_cuda_resources(void) {
  use_fake_cudart();
  cuobj_client_t *c = client(1);
  for (int i = 0; i < 3; i++) {
    void *dev = cuobj_client_alloc(c, 1u << 20, CUOBJ_MEMORY_CUDA_DEVICE);
    CHECK(cuobj_client_register(c, dev, 1u << 20, CUOBJ_MEMORY_CUDA_DEVICE) != NULL);
  }
  CHECK(cuobj_client_alloc(c, 1u << 20, CUOBJ_MEMORY_CUDA_DEVICE) != NULL); /* never registered */
  CHECK_EQ_INT(fake_live(), 4 + 3 * (1 + 1)); /* allocations + (1 stream + 1 pin) per registration */
  cuobj_client_destroy(c);
  CHECK_EQ_INT(fake_live(), 0);
}

TEST_MAIN(CASE(round_trip_direct), CASE(round_trip_tcp), CASE(caller_device_pointer), CASE(clear_errors),
          CASE(copy_fault_mid_stage), CASE(unpinned_twin_still_moves_bytes), CASE(destroy_releases_cuda_resources))
