/* See crc_fast.h. CRC64NVME folding, in the reflected domain (bit j of a 64-bit word is the
 * coefficient of x^(63-j); bit m of a 128-bit block, loaded little-endian, of x^(127-m)):
 * a block A:B (A = low qword) followed by F more bits is congruent to
 *   clmul(A, x^(64+F-1) mod P) xor clmul(B, x^(F-1) mod P)
 * placed F bits later (the -1 absorbs the one-bit offset of a reflected carry-less product).
 * The constants are computed at start-up from the polynomial, not copied from a table. Four
 * accumulators fold 64 bytes per step (F = 512), are folded into one (F = 128), and the last
 * block and the tail go through the table-driven loop starting from a zero register. */
#include "crc_fast.h"

#include <pthread.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define VGW_CRC_X86 1
#endif

#define CRC64NVME_REFLECTED 0x9a6c9329ac4bc9b5ULL
#define CRC32C_REFLECTED 0x82f63b78u

static uint64_t t64[8][256];
static uint32_t t32[8][256];
static uint64_t k512_a, k512_b, k128_a, k128_b;
static int accelerated;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* x^n mod P in the reflected representation. */
static uint64_t xpow_mod(unsigned n) {
  uint64_t r = 1ULL << 63; /* x^0 */
  for (unsigned i = 0; i < n; i++) r = (r & 1) ? (r >> 1) ^ CRC64NVME_REFLECTED : r >> 1;
  return r;
}

static void init_tables(void) {
  for (unsigned i = 0; i < 256; i++) {
    uint64_t c = i;
    uint32_t d = i;
    for (int b = 0; b < 8; b++) {
      c = (c & 1) ? (c >> 1) ^ CRC64NVME_REFLECTED : c >> 1;
      d = (d & 1) ? (d >> 1) ^ CRC32C_REFLECTED : d >> 1;
    }
    t64[0][i] = c;
    t32[0][i] = d;
  }
  for (int s = 1; s < 8; s++)
    for (unsigned i = 0; i < 256; i++) {
      t64[s][i] = (t64[s - 1][i] >> 8) ^ t64[0][t64[s - 1][i] & 0xff];
      t32[s][i] = (t32[s - 1][i] >> 8) ^ t32[0][t32[s - 1][i] & 0xff];
    }
  k512_a = xpow_mod(64 + 512 - 1);
  k512_b = xpow_mod(512 - 1);
  k128_a = xpow_mod(64 + 128 - 1);
  k128_b = xpow_mod(128 - 1);
#ifdef VGW_CRC_X86
  __builtin_cpu_init();
  accelerated = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.2");
#endif
}

static uint64_t load64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v; /* little-endian hosts only (x86-64, arm64 Linux) */
}

/* Slice-by-8 over a pre-inverted register. */
static uint64_t crc64_table(uint64_t r, const uint8_t *p, size_t n) {
  for (; n >= 8; n -= 8, p += 8) {
    r ^= load64(p);
    r = t64[7][r & 0xff] ^ t64[6][(r >> 8) & 0xff] ^ t64[5][(r >> 16) & 0xff] ^ t64[4][(r >> 24) & 0xff] ^
        t64[3][(r >> 32) & 0xff] ^ t64[2][(r >> 40) & 0xff] ^ t64[1][(r >> 48) & 0xff] ^ t64[0][r >> 56];
  }
  for (; n > 0; n--, p++) r = t64[0][(r ^ *p) & 0xff] ^ (r >> 8);
  return r;
}

static uint32_t crc32c_table(uint32_t r, const uint8_t *p, size_t n) {
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t w = load64(p) ^ r;
    r = t32[7][w & 0xff] ^ t32[6][(w >> 8) & 0xff] ^ t32[5][(w >> 16) & 0xff] ^ t32[4][(w >> 24) & 0xff] ^
        t32[3][(w >> 32) & 0xff] ^ t32[2][(w >> 40) & 0xff] ^ t32[1][(w >> 48) & 0xff] ^ t32[0][w >> 56];
  }
  for (; n > 0; n--, p++) r = t32[0][(r ^ *p) & 0xff] ^ (r >> 8);
  return r;
}

#ifdef VGW_CRC_X86
__attribute__((target("pclmul,sse4.1"))) static __m128i fold(__m128i x, __m128i k) {
  return _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11));
}

/* n >= 64. */
__attribute__((target("pclmul,sse4.1"))) static uint64_t crc64_clmul(uint64_t r, const uint8_t *p, size_t n) {
  const __m128i k512 = _mm_set_epi64x((long long)k512_b, (long long)k512_a);
  const __m128i k128 = _mm_set_epi64x((long long)k128_b, (long long)k128_a);
  __m128i x0 = _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), _mm_cvtsi64_si128((long long)r));
  __m128i x1 = _mm_loadu_si128((const __m128i *)(p + 16));
  __m128i x2 = _mm_loadu_si128((const __m128i *)(p + 32));
  __m128i x3 = _mm_loadu_si128((const __m128i *)(p + 48));
  p += 64;
  n -= 64;
  for (; n >= 64; n -= 64, p += 64) {
    x0 = _mm_xor_si128(fold(x0, k512), _mm_loadu_si128((const __m128i *)p));
    x1 = _mm_xor_si128(fold(x1, k512), _mm_loadu_si128((const __m128i *)(p + 16)));
    x2 = _mm_xor_si128(fold(x2, k512), _mm_loadu_si128((const __m128i *)(p + 32)));
    x3 = _mm_xor_si128(fold(x3, k512), _mm_loadu_si128((const __m128i *)(p + 48)));
  }
  x1 = _mm_xor_si128(x1, fold(x0, k128));
  x2 = _mm_xor_si128(x2, fold(x1, k128));
  x3 = _mm_xor_si128(x3, fold(x2, k128));
  for (; n >= 16; n -= 16, p += 16) x3 = _mm_xor_si128(fold(x3, k128), _mm_loadu_si128((const __m128i *)p));
  uint8_t last[16];
  _mm_storeu_si128((__m128i *)last, x3);
  return crc64_table(crc64_table(0, last, 16), p, n);
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(uint32_t r, const uint8_t *p, size_t n) {
  uint64_t c = r;
  for (; n >= 8; n -= 8, p += 8) c = _mm_crc32_u64(c, load64(p));
  uint32_t v = (uint32_t)c;
  for (; n > 0; n--, p++) v = _mm_crc32_u8(v, *p);
  return v;
}
#endif

VGW_API void vgw_crc64nvme_update(uint64_t *crc, const void *buf, size_t len) {
  pthread_once(&init_once, init_tables);
  uint64_t r = ~*crc;
  const uint8_t *p = buf;
#ifdef VGW_CRC_X86
  if (accelerated && len >= 128) {
    *crc = ~crc64_clmul(r, p, len);
    return;
  }
#endif
  *crc = ~crc64_table(r, p, len);
}

VGW_API void vgw_crc32c_update(uint32_t *crc, const void *buf, size_t len) {
  pthread_once(&init_once, init_tables);
  uint32_t r = ~*crc;
  const uint8_t *p = buf;
#ifdef VGW_CRC_X86
  if (accelerated) {
    *crc = ~crc32c_hw(r, p, len);
    return;
  }
#endif
  *crc = ~crc32c_table(r, p, len);
}

VGW_API int vgw_crc_accelerated(void) {
  pthread_once(&init_once, init_tables);
  return accelerated;
}
