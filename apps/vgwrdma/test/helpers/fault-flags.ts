// Gateway flags the fault tests share.

/**
 * One 8 MiB pool buffer, one RDMA channel and no wait for either: a transfer right after a fault
 * succeeds only if the failed one gave both back (else it is declined at once).
 */
export const ONE_BUFFER_NO_WAIT: readonly string[] = [
  '--pool-buf-size',
  '8MiB',
  '--pool-buf-count',
  '1',
  '--rdma-num-dcis',
  '1',
  '--rdma-pool-wait-ms',
  '0',
];
