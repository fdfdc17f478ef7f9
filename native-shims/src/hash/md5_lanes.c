/* See md5_lanes.h. Three kernels expand the one step list of md5_rounds.h: scalar C, AVX2 (eight
 * 32-bit lanes) and AVX-512F (sixteen lanes, where ternary logic gives F G H I in one instruction
 * and rotates are native). The lockstep kernels load word k of every lane's block with 64-bit
 * gathers (the lanes' buffers are unrelated addresses). The widest kernel the CPU runs is picked
 * once; VGW_MD5_LANES caps it. */
#include "md5_lanes.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "md5_rounds.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

void vgw_md5_init(uint32_t h[4]) {
  h[0] = 0x67452301;
  h[1] = 0xefcdab89;
  h[2] = 0x98badcfe;
  h[3] = 0x10325476;
}

static uint32_t load_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define ROTL32(x, s) (((x) << (s)) | ((x) >> (32 - (s))))
#define SCALAR_F(b, c, d) ((d) ^ ((b) & ((c) ^ (d))))
#define SCALAR_G(b, c, d) ((c) ^ ((d) & ((b) ^ (c))))
#define SCALAR_H(b, c, d) ((b) ^ (c) ^ (d))
#define SCALAR_I(b, c, d) ((c) ^ ((b) | ~(d)))
#define SCALAR_STEP(fn, a, b, c, d, k, i, s)            \
  a += SCALAR_##fn(b, c, d) + x[k] + k_md5_sine[i]; \
  a = b + ROTL32(a, s)

void vgw_md5_compress(uint32_t h[4], const uint8_t *p, size_t nblocks) {
  for (size_t n = 0; n < nblocks; n++, p += 64) {
    uint32_t x[16];
    for (int j = 0; j < 16; j++) x[j] = load_le32(p + 4 * j);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    MD5_ALL_STEPS(SCALAR_STEP);
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
  }
}

#if defined(__x86_64__)

/* Lane-major states (h[lane][word]) to word-major rows (s[word * lanes + lane]) a vector loads,
 * and back. */
static void states_to_rows(const uint32_t (*h)[4], uint32_t *s, int lanes) {
  for (int l = 0; l < lanes; l++)
    for (int w = 0; w < 4; w++) s[w * lanes + l] = h[l][w];
}

static void rows_to_states(const uint32_t *s, uint32_t (*h)[4], int lanes) {
  for (int l = 0; l < lanes; l++)
    for (int w = 0; w < 4; w++) h[l][w] = s[w * lanes + l];
}

/* ---- AVX2: eight lanes ---- */
#define V8_F(b, c, d) _mm256_xor_si256(d, _mm256_and_si256(b, _mm256_xor_si256(c, d)))
#define V8_G(b, c, d) _mm256_xor_si256(c, _mm256_and_si256(d, _mm256_xor_si256(b, c)))
#define V8_H(b, c, d) _mm256_xor_si256(_mm256_xor_si256(b, c), d)
#define V8_I(b, c, d) _mm256_xor_si256(c, _mm256_or_si256(b, _mm256_xor_si256(d, ones)))
#define V8_STEP(fn, a, b, c, d, k, i, s)                                                                 \
  a = _mm256_add_epi32(                                                                                \
      a, _mm256_add_epi32(V8_##fn(b, c, d), _mm256_add_epi32(x[k], _mm256_set1_epi32((int)k_md5_sine[i])))); \
  a = _mm256_add_epi32(b, _mm256_or_si256(_mm256_slli_epi32(a, s), _mm256_srli_epi32(a, 32 - (s))))

__attribute__((target("avx2"))) static void compress_x8(uint32_t (*h)[4], const uint8_t *const *p,
                                                         size_t nblocks) {
  uint32_t s[4][8];
  states_to_rows((const uint32_t (*)[4])h, &s[0][0], 8);
  __m256i sa = _mm256_loadu_si256((const __m256i *)s[0]), sb = _mm256_loadu_si256((const __m256i *)s[1]);
  __m256i sc = _mm256_loadu_si256((const __m256i *)s[2]), sd = _mm256_loadu_si256((const __m256i *)s[3]);
  __m256i lo = _mm256_loadu_si256((const __m256i *)p), hi = _mm256_loadu_si256((const __m256i *)(p + 4));
  const __m256i ones = _mm256_set1_epi32(-1), step = _mm256_set1_epi64x(64);
  for (size_t n = 0; n < nblocks; n++) {
    __m256i x[16];
    for (int j = 0; j < 16; j++) {
      const __m256i off = _mm256_set1_epi64x(4 * j);
      __m128i wl = _mm256_i64gather_epi32(NULL, _mm256_add_epi64(lo, off), 1);
      __m128i wh = _mm256_i64gather_epi32(NULL, _mm256_add_epi64(hi, off), 1);
      x[j] = _mm256_set_m128i(wh, wl);
    }
    __m256i a = sa, b = sb, c = sc, d = sd;
    MD5_ALL_STEPS(V8_STEP);
    sa = _mm256_add_epi32(sa, a);
    sb = _mm256_add_epi32(sb, b);
    sc = _mm256_add_epi32(sc, c);
    sd = _mm256_add_epi32(sd, d);
    lo = _mm256_add_epi64(lo, step);
    hi = _mm256_add_epi64(hi, step);
  }
  _mm256_storeu_si256((__m256i *)s[0], sa);
  _mm256_storeu_si256((__m256i *)s[1], sb);
  _mm256_storeu_si256((__m256i *)s[2], sc);
  _mm256_storeu_si256((__m256i *)s[3], sd);
  rows_to_states(&s[0][0], h, 8);
}

/* ---- AVX-512F: sixteen lanes; F G H I as ternary-logic truth tables ---- */
#define TL_F 0xca
#define TL_G 0xe4
#define TL_H 0x96
#define TL_I 0x39
#define V16_STEP(fn, a, b, c, d, k, i, s)                                                                   \
  a = _mm512_add_epi32(a, _mm512_add_epi32(_mm512_ternarylogic_epi32(b, c, d, TL_##fn),                   \
                                           _mm512_add_epi32(x[k], _mm512_set1_epi32((int)k_md5_sine[i])))); \
  a = _mm512_add_epi32(b, _mm512_rol_epi32(a, s))

__attribute__((target("avx512f"))) static void compress_x16(uint32_t (*h)[4], const uint8_t *const *p,
                                                            size_t nblocks) {
  uint32_t s[4][16];
  states_to_rows((const uint32_t (*)[4])h, &s[0][0], 16);
  __m512i sa = _mm512_loadu_si512(s[0]), sb = _mm512_loadu_si512(s[1]);
  __m512i sc = _mm512_loadu_si512(s[2]), sd = _mm512_loadu_si512(s[3]);
  __m512i lo = _mm512_loadu_si512((const void *)p), hi = _mm512_loadu_si512((const void *)(p + 8));
  const __m512i step = _mm512_set1_epi64(64);
  for (size_t n = 0; n < nblocks; n++) {
    __m512i x[16];
    for (int j = 0; j < 16; j++) {
      const __m512i off = _mm512_set1_epi64(4 * j);
      __m256i wl = _mm512_i64gather_epi32(_mm512_add_epi64(lo, off), NULL, 1);
      __m256i wh = _mm512_i64gather_epi32(_mm512_add_epi64(hi, off), NULL, 1);
      x[j] = _mm512_inserti64x4(_mm512_castsi256_si512(wl), wh, 1);
    }
    __m512i a = sa, b = sb, c = sc, d = sd;
    MD5_ALL_STEPS(V16_STEP);
    sa = _mm512_add_epi32(sa, a);
    sb = _mm512_add_epi32(sb, b);
    sc = _mm512_add_epi32(sc, c);
    sd = _mm512_add_epi32(sd, d);
    lo = _mm512_add_epi64(lo, step);
    hi = _mm512_add_epi64(hi, step);
  }
  _mm512_storeu_si512(s[0], sa);
  _mm512_storeu_si512(s[1], sb);
  _mm512_storeu_si512(s[2], sc);
  _mm512_storeu_si512(s[3], sd);
  rows_to_states(&s[0][0], h, 16);
}

#endif /* __x86_64__ */

static int g_lanes;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void pick_kernel(void) {
  int lanes = 0;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) lanes = 16;
  else if (__builtin_cpu_supports("avx2")) lanes = 8;
#endif
  const char *cap = getenv("VGW_MD5_LANES");
  if (cap && *cap) {
    int want = atoi(cap);
    if (want < lanes) lanes = want >= 8 ? 8 : 0;
  }
  g_lanes = lanes;
}

int vgw_md5_lanes(void) {
  pthread_once(&g_once, pick_kernel);
  return g_lanes;
}

void vgw_md5_compress_lanes(uint32_t (*h)[4], const uint8_t *const *p, size_t nblocks) {
  int lanes = vgw_md5_lanes();
#if defined(__x86_64__)
  if (lanes == 16) {
    compress_x16(h, p, nblocks);
    return;
  }
  if (lanes == 8) {
    compress_x8(h, p, nblocks);
    return;
  }
#endif
  for (int l = 0; l < (lanes > 0 ? lanes : 1); l++) vgw_md5_compress(h[l], p[l], nblocks);
}
