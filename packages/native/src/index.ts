// @vgwrdma/native: the one loader of libvgwrdma_shims.so.
export {};
