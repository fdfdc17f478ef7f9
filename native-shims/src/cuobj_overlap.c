/*
 * cuobj_overlap.c — ABI 1.9: staging of a CUDA_DEVICE registration overlapped with the
 * transfer, through the host twin's progress gate (softnic/progress.h). Upload: device → twin
 * chunk by chunk, publishing "bytes staged" after each, while the gateway already reads the
 * chunks before (the agent holds back a READ until its bytes are staged). Download: twin →
 * device of each chunk as soon as the agent's "bytes landed" word passes it, the rest once the
 * caller publishes that the reply came. SYSTEM registrations have nothing to stage.
 */
#include <errno.h>

#include "cuobj_client_impl.h"
#include "host_client_gate.h"
#include "last_error.h"

#define OVERLAP_DEFAULT_CHUNK ((size_t)8 << 20)
#define OVERLAP_MIN_CHUNK ((size_t)64 << 10)

static snic_progress_t *gate(cuobj_client_t *c, cuobj_client_mr_t *mr) {
  if (c == NULL || mr == NULL) return vgw_fail_null(-EINVAL, "progress: NULL argument");
  return vgw_host_mr_gate(c->host, mr->host_mr);
}

int cuobj_client_progress_arm(cuobj_client_t *c, cuobj_client_mr_t *mr, uint32_t mode, uint32_t stall_ms) {
  if (c == NULL || mr == NULL) return vgw_fail(-EINVAL, "progress: NULL argument");
  return rdma_host_client_progress_arm(c->host, mr->host_mr, mode, stall_ms);
}

int cuobj_client_progress_publish(cuobj_client_t *c, cuobj_client_mr_t *mr, uint64_t bytes) {
  if (c == NULL || mr == NULL) return vgw_fail(-EINVAL, "progress: NULL argument");
  return rdma_host_client_progress_publish(c->host, mr->host_mr, bytes);
}

int64_t cuobj_client_progress(cuobj_client_t *c, cuobj_client_mr_t *mr) {
  if (c == NULL || mr == NULL) return vgw_fail(-EINVAL, "progress: NULL argument");
  return rdma_host_client_progress(c->host, mr->host_mr);
}

int64_t cuobj_client_progress_served(cuobj_client_t *c, cuobj_client_mr_t *mr) {
  if (c == NULL || mr == NULL) return vgw_fail(-EINVAL, "progress: NULL argument");
  return rdma_host_client_progress_served(c->host, mr->host_mr);
}

uint64_t *cuobj_client_progress_word(cuobj_client_t *c, cuobj_client_mr_t *mr) {
  if (c == NULL || mr == NULL) return vgw_fail_null(-EINVAL, "progress: NULL argument");
  return rdma_host_client_progress_word(c->host, mr->host_mr);
}

static int check_size(cuobj_client_mr_t *mr, size_t size, size_t *chunk) {
  if (size == 0 || size > mr->size)
    return vgw_fail(-EINVAL, "stage: %zu bytes is not in 1..%zu (the registration)", size, mr->size);
  if (*chunk == 0) *chunk = OVERLAP_DEFAULT_CHUNK;
  if (*chunk < OVERLAP_MIN_CHUNK) return vgw_fail(-EINVAL, "stage: chunk %zu < 64 KiB", *chunk);
  return 0;
}

static int publish_staged(void *ctx, size_t upto) { return progress_publish(ctx, upto); }

int cuobj_client_stage_to_host_overlapped(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t size, size_t chunk) {
  snic_progress_t *p = gate(c, mr);
  if (p == NULL) return vgw_shim_last_error(NULL, 0);
  int rc = check_size(mr, size, &chunk);
  if (rc == 0 && mr->staging == NULL) return progress_publish(p, size); /* host memory: all there */
  if (rc == 0) rc = vgw_staging_copy_paced(mr->staging, VGW_STAGE_TO_HOST, size, chunk, publish_staged, p);
  if (rc < 0) {
    (void)progress_arm(p, SNIC_PROGRESS_FAILED, 0); /* READs waiting for the rest fail now */
    vgw_cuobj_keep_stage_error(c, mr);
  }
  return rc;
}

typedef struct follow {
  snic_progress_t *p;
  uint32_t generation;
} follow_t;

static int wait_landed(void *ctx, size_t upto) {
  follow_t *f = ctx;
  int rc = progress_wait_landed(f->p, upto, f->generation);
  if (rc == -ECANCELED) return vgw_fail(rc, "stage: the download was abandoned (the gate was re-armed)");
  if (rc == -ETIME) return vgw_fail(rc, "stage: nothing landed for the stall timeout (at %zu bytes)", upto);
  return rc;
}

int cuobj_client_stage_to_device_overlapped(cuobj_client_t *c, cuobj_client_mr_t *mr, size_t size, size_t chunk) {
  follow_t f = {gate(c, mr), 0};
  if (f.p == NULL) return vgw_shim_last_error(NULL, 0);
  f.generation = atomic_load(&f.p->generation);
  int rc = check_size(mr, size, &chunk);
  if (rc == 0 && atomic_load(&f.p->mode) != SNIC_PROGRESS_DOWNLOAD)
    rc = vgw_fail(-EINVAL, "stage: the registration is not armed for a download");
  if (rc == 0 && mr->staging == NULL) return 0; /* host memory: the bytes land where they belong */
  if (rc == 0)
    rc = vgw_staging_copy_paced(mr->staging, VGW_STAGE_TO_DEVICE, size, chunk, wait_landed, &f);
  if (rc < 0) vgw_cuobj_keep_stage_error(c, mr);
  return rc;
}
