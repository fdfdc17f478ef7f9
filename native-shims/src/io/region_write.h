/* Writing a region of a file through a shared mapping instead of pwrite(2).
 *
 * Why: a buffered pwrite holds the file's inode lock for the whole write, so many threads writing
 * disjoint regions of ONE file (a multipart upload's parts written in place) take turns. A write
 * through a MAP_SHARED mapping takes no inode lock: each thread faults in its own pages and copies.
 * On the H200 host's ext4, sixteen writers into one preallocated file: pwrite 4.9-5.1 GB/s,
 * mapping 8.9-10.1 GB/s (bench/device/one-file-writers.c, docs/performance.md).
 *
 * Safety: the pages are populated first with MADV_POPULATE_WRITE (Linux 5.14+), which answers an
 * error where touching the page would raise SIGBUS (past the end of the file, no space to back a
 * page). The copy itself runs under a SIGBUS guard (a thread-local jump point), so a page that
 * still cannot be backed (an I/O error reading it back after reclaim, a file truncated meanwhile)
 * fails this call with -EFAULT instead of killing the process. Any SIGBUS outside a guarded copy
 * goes to the handler that was installed before, or to the default action. */
#ifndef VGW_REGION_WRITE_H
#define VGW_REGION_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "vgw_shim_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies src[0..len) to the file `fd` (open for reading and writing) at byte `at`, through a
 * shared mapping of those pages. The region must lie inside the file (preallocate it first: this
 * call never grows a file). Returns 0, -EOPNOTSUPP where the kernel lacks MADV_POPULATE_WRITE
 * (use pwrite), -EFAULT where a page could not be backed (past the end, no space, an I/O error:
 * pwrite the same bytes to learn the errno), or another negative errno of mmap/madvise. Blocking:
 * call it off the event loop (koffi's async call). Thread-safe. */
VGW_API int vgw_region_write(int fd, int64_t at, const void *src, size_t len);

/* Internal (tests): memcpy under the SIGBUS guard; 0, or -EFAULT when the copy faulted. */
int vgw_guarded_copy(void *dst, const void *src, size_t len);

#ifdef __cplusplus
}
#endif

#endif
