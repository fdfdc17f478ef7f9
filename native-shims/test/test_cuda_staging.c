/* test_cuda_staging.c — the staging logic (src/cuda/staging.c) against a recording fake device
 * table: chunks cover the range exactly once, round-robin over the streams, every stream used
 * is waited for; failures stop issuing, still wait, and map to errnos with the runtime's names;
 * pinned and pageable twins; plus the CUDA error table and the run-time loader's refusals. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/cuda_api.h"
#include "cuda/staging.h"
#include "harness.h"
#include "harness_cuda.h"
#include "vgw_shim_common.h"

#define MAX_OPS 256

typedef struct op {
  char what; /* 'c' copy, 's' sync */
  int kind;
  uintptr_t dst, src;
  size_t n;
  int stream;
} op_t;

static struct {
  op_t ops[MAX_OPS];
  int nops;
  int streams_created, streams_destroyed, pinned, unpinned;
  int fail_copy_at, fail_copy_code; /* 1-based copy index to fail */
  int fail_sync_code, fail_register, fail_stream_at;
  int dummy_streams[16];
} R;

static int stream_index(void *s) { return (int)((int *)s - R.dummy_streams); }
static int r_ok_int(int *v) { return *v = 1, 0; }
static int r_set_device(int d) { return d == 0 ? 0 : 101; }
static int r_register(void *p, size_t n, unsigned f) {
  (void)p, (void)n, (void)f;
  if (R.fail_register) return 801;
  R.pinned++;
  return 0;
}
static int r_unregister(void *p) { return (void)p, R.unpinned++, 0; }
static int r_stream_create(void **s, unsigned flags) {
  CHECK(flags == VGW_CUDA_STREAM_NON_BLOCKING);
  if (R.fail_stream_at && R.streams_created + 1 == R.fail_stream_at) return 2;
  *s = &R.dummy_streams[R.streams_created++];
  return 0;
}
static int r_stream_destroy(void *s) { return (void)s, R.streams_destroyed++, 0; }
static int r_sync(void *s) {
  CHECK(R.nops < MAX_OPS);
  R.ops[R.nops++] = (op_t){'s', 0, 0, 0, 0, stream_index(s)};
  return R.fail_sync_code;
}
static int r_copy(void *dst, const void *src, size_t n, int kind, void *s) {
  CHECK(R.nops < MAX_OPS);
  int copies = 0;
  for (int i = 0; i < R.nops; i++) copies += R.ops[i].what == 'c';
  if (R.fail_copy_at && copies + 1 == R.fail_copy_at) return R.fail_copy_code;
  R.ops[R.nops++] = (op_t){'c', kind, (uintptr_t)dst, (uintptr_t)src, n, stream_index(s)};
  return 0;
}
static int r_last_error(void) { return 0; }
static const char *r_name(int e) { return e == 700 ? "cudaErrorIllegalAddress" : "cudaErrorOther"; }
static const char *r_string(int e) { return e == 700 ? "an illegal memory access was encountered" : "other"; }

static vgw_cuda_api_t recording_api(void) {
  vgw_cuda_api_t a;
  memset(&a, 0, sizeof a);
  strcpy(a.origin, "recording fake");
  a.runtime_get_version = r_ok_int;
  a.get_device_count = r_ok_int;
  a.set_device = r_set_device;
  a.host_register = r_register;
  a.host_unregister = r_unregister;
  a.stream_create = r_stream_create;
  a.stream_destroy = r_stream_destroy;
  a.stream_synchronize = r_sync;
  a.memcpy_async = r_copy;
  a.get_last_error = r_last_error;
  a.error_name = r_name;
  a.error_string = r_string;
  return a;
}

/* Fake addresses: only their arithmetic matters, the table never dereferences them. */
#define DEV ((void *)(uintptr_t)0x100000000ull)
#define HOST ((void *)(uintptr_t)0x200000000ull)

static vgw_staging_t *make(const vgw_cuda_api_t *api, size_t size, size_t chunk, unsigned streams) {
  vgw_staging_params_t p = {chunk, streams};
  vgw_staging_t *s = vgw_staging_create(api, 0, DEV, HOST, size, &p);
  CHECK(s != NULL);
  return s;
}

/* Copies recorded since `from` cover [off, off+size) once, in order, each <= chunk, stream k =
 * (index % streams), in the given direction; then exactly the used streams are synced once. */
static void expect_plan(int from, size_t off, size_t size, size_t chunk, unsigned streams, int to_host) {
  size_t at = 0;
  int i = from, idx = 0;
  for (; i < R.nops && R.ops[i].what == 'c'; i++, idx++) {
    const op_t *o = &R.ops[i];
    uintptr_t dev = (uintptr_t)DEV + off + at, host = (uintptr_t)HOST + off + at;
    CHECK_EQ_INT(o->kind, to_host ? VGW_CUDA_D2H : VGW_CUDA_H2D);
    CHECK(to_host ? (o->dst == host && o->src == dev) : (o->dst == dev && o->src == host));
    CHECK(o->n > 0 && o->n <= chunk);
    CHECK_EQ_INT(o->stream, idx % (int)streams);
    at += o->n;
  }
  CHECK_EQ_INT(at, size);
  int used = idx < (int)streams ? idx : (int)streams;
  for (int k = 0; k < used; k++, i++) {
    CHECK(i < R.nops && R.ops[i].what == 's');
    CHECK_EQ_INT(R.ops[i].stream, k);
  }
  CHECK_EQ_INT(i, R.nops);
}

static void chunks_cover_range_round_robin(void) {
  vgw_cuda_api_t api = recording_api();
  vgw_staging_t *s = make(&api, 10u << 20, 1u << 20, 3);
  CHECK_EQ_INT(R.streams_created, 3);
  CHECK_EQ_INT(vgw_staging_pinned(s), 1);
  /* unaligned offset and a size that leaves a short last chunk */
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_HOST, 12345, (7u << 20) + 77), 0);
  expect_plan(0, 12345, (7u << 20) + 77, 1u << 20, 3, 1);
  int mark = R.nops;
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_DEVICE, 0, 10u << 20), 0);
  expect_plan(mark, 0, 10u << 20, 1u << 20, 3, 0);
  mark = R.nops;
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_DEVICE, 5, 1), 0); /* one byte: one copy, one sync */
  expect_plan(mark, 5, 1, 1u << 20, 3, 0);
  vgw_staging_destroy(s);
  CHECK_EQ_INT(R.streams_destroyed, 3);
  CHECK_EQ_INT(R.unpinned, 1);
}

static void even_split_when_chunk_is_zero(void) {
  vgw_cuda_api_t api = recording_api();
  vgw_staging_t *s = make(&api, 1000, 0, 4);
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_HOST, 0, 1000), 0);
  expect_plan(0, 0, 1000, 250, 4, 1);
  CHECK_EQ_INT(R.nops, 8); /* 4 copies of 250 + 4 syncs */
  int mark = R.nops;
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_HOST, 0, 3), 0); /* fewer bytes than streams */
  expect_plan(mark, 0, 3, 1, 4, 1);
  vgw_staging_destroy(s);
}

static void copy_failure_stops_waits_and_maps(void) {
  vgw_cuda_api_t api = recording_api();
  vgw_staging_t *s = make(&api, 8u << 20, 1u << 20, 2);
  R.fail_copy_at = 4;
  R.fail_copy_code = 700;
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_HOST, 0, 8u << 20), -EFAULT);
  char msg[256];
  CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -EFAULT);
  CHECK(strstr(msg, "cudaMemcpyAsync") && strstr(msg, "cudaErrorIllegalAddress") && strstr(msg, "device->host"));
  /* three copies went out, none after the failure, and both streams that got work were waited for */
  int copies = 0, syncs = 0;
  for (int i = 0; i < R.nops; i++) copies += R.ops[i].what == 'c', syncs += R.ops[i].what == 's';
  CHECK_EQ_INT(copies, 3);
  CHECK_EQ_INT(syncs, 2);
  vgw_staging_destroy(s);
}

static void sync_failure_is_reported(void) {
  vgw_cuda_api_t api = recording_api();
  vgw_staging_t *s = make(&api, 4096, 0, 2);
  R.fail_sync_code = 2;
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_DEVICE, 0, 4096), -ENOMEM);
  char msg[256];
  vgw_shim_last_error(msg, sizeof msg);
  CHECK(strstr(msg, "cudaStreamSynchronize") && strstr(msg, "host->device"));
  vgw_staging_destroy(s);
}

static void range_and_argument_checks(void) {
  vgw_cuda_api_t api = recording_api();
  vgw_staging_t *s = make(&api, 4096, 0, 1);
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_HOST, 0, 4097), -EINVAL);
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_HOST, 4096, 1), -EINVAL);
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_HOST, SIZE_MAX, 2), -EINVAL);
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_HOST, 0, 0), -EINVAL);
  CHECK_EQ_INT(vgw_staging_copy(s, (vgw_stage_dir_t)7, 0, 1), -EINVAL);
  CHECK_EQ_INT(R.nops, 0); /* nothing reached the device */
  vgw_staging_params_t p = {0, 0};
  CHECK(vgw_staging_create(&api, 0, DEV, HOST, 4096, &p) == NULL);
  p.streams = VGW_STAGING_MAX_STREAMS + 1;
  CHECK(vgw_staging_create(&api, 0, DEV, HOST, 4096, &p) == NULL);
  vgw_staging_destroy(s);
}

static void pageable_twin_when_pinning_fails(void) {
  vgw_cuda_api_t api = recording_api();
  R.fail_register = 1;
  vgw_staging_t *s = make(&api, 1u << 20, 0, 1);
  CHECK_EQ_INT(vgw_staging_pinned(s), 0);
  CHECK_EQ_INT(vgw_staging_copy(s, VGW_STAGE_TO_HOST, 0, 1u << 20), 0);
  vgw_staging_destroy(s);
  CHECK_EQ_INT(R.unpinned, 0); /* nothing to unpin */
}

static void stream_failure_releases_what_was_made(void) {
  vgw_cuda_api_t api = recording_api();
  R.fail_stream_at = 3;
  vgw_staging_params_t p = {0, 4};
  CHECK(vgw_staging_create(&api, 0, DEV, HOST, 4096, &p) == NULL);
  char msg[256];
  CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -ENOMEM);
  CHECK(strstr(msg, "cudaStreamCreateWithFlags") != NULL);
  CHECK_EQ_INT(R.streams_created, 2);
  CHECK_EQ_INT(R.streams_destroyed, 2);
  CHECK_EQ_INT(R.pinned, R.unpinned);
}

static void error_table(void) {
  CHECK_EQ_INT(vgw_cuda_errno(2), -ENOMEM);
  CHECK_EQ_INT(vgw_cuda_errno(100), -ENODEV);
  CHECK_EQ_INT(vgw_cuda_errno(35), -ENODEV);
  CHECK_EQ_INT(vgw_cuda_errno(700), -EFAULT);
  CHECK_EQ_INT(vgw_cuda_errno(1), -EINVAL);
  CHECK_EQ_INT(vgw_cuda_errno(123456), -EIO);
}

static void loader_names_what_it_tried(void) {
  CHECK(setenv("VGWRDMA_CUDA_LIB", "/nonexistent/libcudart.so.99", 1) == 0);
  CHECK(vgw_cuda_load(NULL) == NULL);
  char msg[256];
  CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -ENODEV);
  CHECK(strstr(msg, "no CUDA runtime") && strstr(msg, "/nonexistent/libcudart.so.99"));
  /* a library without the CUDA symbols is refused, naming the first missing one */
  CHECK(vgw_cuda_load("libc.so.6") == NULL);
  vgw_shim_last_error(msg, sizeof msg);
  CHECK(strstr(msg, "lacks cudaRuntimeGetVersion") != NULL);
  /* the fake runtime binds, and is cached */
  const vgw_cuda_api_t *a = vgw_cuda_load(fake_cudart_path());
  CHECK(a != NULL && a == vgw_cuda_load(fake_cudart_path()));
  CHECK(a->device_properties != NULL && a->driver_get_version != NULL);
  /* a test table wins over every library */
  vgw_cuda_api_t rec = recording_api();
  vgw_cuda_set_test_api(&rec);
  CHECK(vgw_cuda_load("/nonexistent") == &rec);
  vgw_cuda_set_test_api(NULL);
  unsetenv("VGWRDMA_CUDA_LIB");
  if (vgw_cuda_load(NULL) == NULL) { /* no real runtime here: the defaults are named */
    vgw_shim_last_error(msg, sizeof msg);
    CHECK(strstr(msg, "libcudart.so") && strstr(msg, "VGWRDMA_CUDA_LIB"));
  }
}

TEST_MAIN(CASE(chunks_cover_range_round_robin), CASE(even_split_when_chunk_is_zero),
          CASE(copy_failure_stops_waits_and_maps), CASE(sync_failure_is_reported), CASE(range_and_argument_checks),
          CASE(pageable_twin_when_pinning_fails), CASE(stream_failure_releases_what_was_made), CASE(error_table),
          CASE(loader_names_what_it_tried))
