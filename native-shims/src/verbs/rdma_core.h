/*
 * rdma_core.h — internal: the rdma-core functions the verbs client uses, loaded with dlopen
 * (libibverbs.so.1, libmlx5.so.1) on first use, so the shim library has no link-time dependency
 * on rdma-core and runs unchanged on hosts without it. The prototypes come from the rdma-core
 * headers this file is compiled against (only where they exist: VGW_HAVE_VERBS); the pointers
 * are called through this table, never through verbs.h's inline wrappers (which would reference
 * symbols at link time).
 */
#ifndef VGW_VERBS_RDMA_CORE_H
#define VGW_VERBS_RDMA_CORE_H

#include <infiniband/mlx5dv.h>
#include <infiniband/verbs.h>

typedef struct vgw_rdma_core {
  struct ibv_device **(*get_device_list)(int *num);
  void (*free_device_list)(struct ibv_device **list);
  const char *(*get_device_name)(struct ibv_device *dev);
  struct ibv_context *(*open_device)(struct ibv_device *dev);
  int (*close_device)(struct ibv_context *ctx);
  int (*query_port)(struct ibv_context *ctx, uint8_t port, struct ibv_port_attr *attr);
  int (*query_gid)(struct ibv_context *ctx, uint8_t port, int index, union ibv_gid *gid);
  struct ibv_pd *(*alloc_pd)(struct ibv_context *ctx);
  int (*dealloc_pd)(struct ibv_pd *pd);
  struct ibv_mr *(*reg_mr)(struct ibv_pd *pd, void *addr, size_t length, int access);
  int (*dereg_mr)(struct ibv_mr *mr);
  struct ibv_cq *(*create_cq)(struct ibv_context *ctx, int cqe, void *cq_context, struct ibv_comp_channel *ch,
                              int comp_vector);
  int (*destroy_cq)(struct ibv_cq *cq);
  struct ibv_srq *(*create_srq)(struct ibv_pd *pd, struct ibv_srq_init_attr *attr);
  int (*destroy_srq)(struct ibv_srq *srq);
  int (*modify_qp)(struct ibv_qp *qp, struct ibv_qp_attr *attr, int mask);
  int (*destroy_qp)(struct ibv_qp *qp);
  bool (*mlx5dv_is_supported)(struct ibv_device *dev);
  struct ibv_qp *(*mlx5dv_create_qp)(struct ibv_context *ctx, struct ibv_qp_init_attr_ex *attr,
                                     struct mlx5dv_qp_init_attr *dv_attr);
} vgw_rdma_core_t;

/* The loaded table (thread-safe, loaded once), or NULL with vgw_fail(-ENODEV, "verbs provider:
 * libibverbs.so.1 ... cannot be loaded: <dlerror>"). */
const vgw_rdma_core_t *vgw_rdma_core(void);

#endif
