// @vgwrdma/rdma-protocol: the wire protocol, pure (no koffi, no Node APIs).
export * from './byte-size.js';
export * from './errors.js';
