/* Fast CRCs for S3 checksums: CRC64NVME (carry-less-multiply folding on x86-64 with PCLMULQDQ)
 * and CRC32C (the SSE4.2 crc32 instruction), each with a portable slice-by-8 fallback chosen at
 * run time. Used by @vgwrdma/backend-contract's checksum registry through koffi, so a PUT's default
 * CRC64NVME costs a fraction of its MD5.
 *
 * Both follow zlib's crc32() convention: pass 0 to start, pass the previous result to continue;
 * the value is the finished CRC (init and xorout applied), so update(update(0, a), b) equals
 * update(0, a || b). The state is passed by pointer so that JavaScript keeps full 64 bits. */
#ifndef VGW_CRC_FAST_H
#define VGW_CRC_FAST_H

#include <stddef.h>
#include <stdint.h>

#include "vgw_shim_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *crc = CRC64NVME of (the bytes *crc already covers) || buf[0..len). */
VGW_API void vgw_crc64nvme_update(uint64_t *crc, const void *buf, size_t len);

/* *crc = CRC32C of (the bytes *crc already covers) || buf[0..len). */
VGW_API void vgw_crc32c_update(uint32_t *crc, const void *buf, size_t len);

/* 1 when the carry-less-multiply / SSE4.2 paths are in use on this CPU, 0 for the portable ones. */
VGW_API int vgw_crc_accelerated(void);

#ifdef __cplusplus
}
#endif

#endif
