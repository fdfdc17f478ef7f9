/*
 * vendor_map.h — internal, pure C (no vendor headers): what differs between cuObjServer's 1.x and
 * 2.x ABIs, as data, so the C++ provider stays a thin caller and the rules are unit-tested here
 * (test/test_cuobj_logic.c) on machines without the library:
 *   - result mapping: handleGetObject/handlePutObject return bytes, 0 (async accepted; we never
 *     submit async, so 0 is a failed transfer) or -ENODEV/-EIO/-ENOMEM/-EAFNOSUPPORT; 2.0 adds
 *     -EPROTO, 2.1 -EBUSY. Anything else is reported as -EIO naming the unexpected value;
 *   - telemetry: 1.x has one mask (setTelemFlags(flags)); 2.x two (log flags, op flags);
 *   - which API an installed library speaks is decided at build time (cmake/cuobj.cmake probes
 *     the headers for the two-mask setTelemFlags) and passed as VGW_CUOBJ_SERVER_API (1 or 2).
 */
#ifndef VGW_CUOBJ_VENDOR_MAP_H
#define VGW_CUOBJ_VENDOR_MAP_H
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* cuObject telemetry flag bits (NVIDIA's cuObject API). */
#define VGW_CUOBJ_LOG_PATH_INFO 0x1u
#define VGW_CUOBJ_LOG_DEBUG 0x2u
#define VGW_CUOBJ_LOG_ERROR 0x4u
/* 2.x op mask "every operation": our choice, see vgw_cuobj_telemetry_masks. */
#define VGW_CUOBJ_LOG_OPS_ALL 0xffffffffu

/* API level: major * 100 + minor (100 = 1.0, 200 = 2.0, 210 = 2.1). */
typedef struct vgw_cuobj_result {
  ssize_t value;    /* bytes moved (== expected) or a negative errno */
  const char *what; /* message for a failure, NULL on success */
} vgw_cuobj_result_t;

/* Maps a handle*Object return for a transfer of `expected` bytes on a library of api level. */
vgw_cuobj_result_t vgw_cuobj_map_result(int api, ssize_t vendor_ret, size_t expected);

/* Telemetry flags for the gateway's log level: --debug → path info + debug + errors, else errors. */
uint32_t vgw_cuobj_telemetry_flags(int debug);

/* Splits our one mask for the library: 1.x: *log = flags, *ops = 0 (unused); 2.x: *log = flags,
 * *ops = VGW_CUOBJ_LOG_OPS_ALL when DEBUG is set, else 0. Returns the number of masks the
 * library's setTelemFlags takes (1 or 2), or -EINVAL for an unknown api / flag bit. */
int vgw_cuobj_telemetry_masks(int api, uint32_t flags, uint32_t *log, uint32_t *ops);

/* Whether tunables may be set after construction (1.x initRDMAConfigParams); 2.x: only through
 * the constructor. The provider always uses the constructor, so both behave alike; this is what
 * a caller asking to change tunables on a live server is told. */
int vgw_cuobj_tunables_after_create(int api);

#ifdef __cplusplus
}
#endif
#endif
