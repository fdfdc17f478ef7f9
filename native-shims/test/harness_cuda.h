/*
 * harness_cuda.h — helpers for the CUDA tests: the fake runtime built next to the test binaries
 * (fake_cudart/fake_cudart.c, libvgw_fake_cudart.so) and its introspection calls.
 */
#ifndef VGW_TEST_HARNESS_CUDA_H
#define VGW_TEST_HARNESS_CUDA_H

#include <stddef.h>

/* Absolute path of libvgw_fake_cudart.so beside this test binary. */
const char *fake_cudart_path(void);
/* Points VGWRDMA_CUDA_LIB at the fake runtime (call before the first CUDA use in the case). */
void use_fake_cudart(void);
/* The fake's counters (after use_fake_cudart and a first CUDA call): held allocations +
 * streams + pinned ranges, and how often a call ran. */
int fake_live(void);
unsigned fake_calls(const char *name);
/* The fake's own cudaMalloc, for "memory the caller allocated itself". */
void *fake_cuda_malloc(size_t n);
void fake_cuda_free(void *p);

#endif
