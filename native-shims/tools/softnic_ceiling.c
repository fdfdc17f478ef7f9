/*
 * softnic_ceiling.c — prints the memcpy / process_vm_writev / process_vm_readv ceilings as one
 * JSON line, for the softnic benchmark and for humans:
 *   build/linux-x64/softnic-ceiling [bytes=268435456] [iterations=5]
 */
#include <stdio.h>
#include <stdlib.h>

#include "vgw_shim_common.h"

int main(int argc, char **argv) {
  size_t bytes = argc > 1 ? strtoull(argv[1], NULL, 0) : (size_t)256 << 20;
  unsigned iters = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 5;
  double m = vgw_shim_bench_memcpy_gbps(bytes, iters);
  double w = vgw_shim_bench_process_vm_writev_gbps(bytes, iters);
  double r = vgw_shim_bench_process_vm_readv_gbps(bytes, iters);
  printf("{\"sizeBytes\":%zu,\"iterations\":%u,\"memcpyGBps\":%.3f,\"processVmWritevGBps\":%.3f,"
         "\"processVmReadvGBps\":%.3f}\n",
         bytes, iters, m, w, r);
  return m > 0 && w > 0 && r > 0 ? 0 : 1;
}
