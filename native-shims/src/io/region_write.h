/* Writing a region of a file through a shared mapping instead of pwrite(2).
 *
 * Why: a buffered pwrite holds the file's inode lock for the whole write, so many threads writing
 * disjoint regions of ONE file (a multipart upload's parts written in place) take turns, and on a
 * busy host the waiters spin on that lock. A write through a MAP_SHARED mapping takes no inode
 * lock: each thread faults in its own pages and copies. On the H200 host's ext4, sixteen writers
 * of 64 MiB parts into one preallocated 4 GiB file, eight more threads burning CPU: pwrite
 * 2.2-3.4 GB/s, mapped 5.8-8.0 GB/s (bench/device/one-file-writers.c, docs/performance.md).
 *
 * How: a region (a part) is mapped once (vgw_region_map); each write into it populates its pages
 * (MADV_POPULATE_WRITE), copies, and drops its pages from the mapping again (MADV_DONTNEED: the
 * bytes stay in the page cache, dirty, exactly as after a pwrite). So at most the bytes of the
 * writes in flight are mapped at any moment (the process's RSS does not grow with the region),
 * and the mapping itself never changes between map and unmap (no mmap lock taken for writing per
 * write, which would stall every other thread's page faults).
 *
 * Safety: MADV_POPULATE_WRITE answers an error where touching a page would raise SIGBUS (past the
 * end of the file, no space to back a page). The copy itself runs under a SIGBUS guard (a
 * thread-local jump point), so a page that still cannot be backed (the file truncated meanwhile,
 * an I/O error) fails the write with -EFAULT instead of killing the process. Any SIGBUS outside a
 * guarded copy goes to the handler that was installed before, or to the default action. */
#ifndef VGW_REGION_WRITE_H
#define VGW_REGION_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "vgw_shim_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vgw_region vgw_region_t;

/* Maps bytes [at, at + len) of `fd` (open for reading and writing) for writes; *out receives the
 * region. The bytes should lie inside the file (preallocate first: a write never grows a file; a
 * write past the end answers -EFAULT). Returns 0, -EOPNOTSUPP where this kernel cannot populate
 * a mapping for writing (Linux before 5.14: use pwrite), -EINVAL for bad arguments, or mmap's
 * negative errno (-EACCES: fd not open for writing; -ENODEV: a filesystem without mappings). */
VGW_API int vgw_region_map(int fd, int64_t at, uint64_t len, vgw_region_t **out);

/* Copies src[0..len) to file offset `at`, which with len must lie inside the mapped region.
 * Returns 0, -ERANGE (outside the region), -EFAULT (a page could not be backed: past the end of
 * the file, no space, an I/O error; pwrite the same bytes to learn the errno), or another negative
 * errno of madvise. Blocking: call it off the event loop. Thread-safe; writes into disjoint
 * ranges of one region may run at once. */
VGW_API int vgw_region_write(vgw_region_t *r, int64_t at, const void *src, size_t len);

/* Unmaps the region and frees it. No write into it may be running. NULL is a no-op. */
VGW_API void vgw_region_unmap(vgw_region_t *r);

/* Internal (tests): memcpy under the SIGBUS guard; 0, or -EFAULT when the copy faulted. */
int vgw_guarded_copy(void *dst, const void *src, size_t len);

#ifdef __cplusplus
}
#endif

#endif
