/* The 64 steps of MD5's compression function (RFC 1321 section 3.4), written once and expanded by
 * each kernel (scalar, AVX2, AVX-512) with its own STEP(fn, a, b, c, d, k, i, s):
 *   a = b + ((a + fn(b, c, d) + X[k] + K[i]) <<< s)
 * where fn is one of F G H I, X the block's sixteen little-endian words and K the sine table. */
#ifndef VGW_MD5_ROUNDS_H
#define VGW_MD5_ROUNDS_H

#include <stdint.h>

/* K[i] = floor(|sin(i + 1)| * 2^32). */
static const uint32_t k_md5_sine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* Four steps: the a,b,c,d rotation, the message words k0..k3, the round's four shifts. */
#define MD5_QUAD(STEP, fn, i, k0, k1, k2, k3, s0, s1, s2, s3) \
  STEP(fn, a, b, c, d, k0, (i) + 0, s0);                       \
  STEP(fn, d, a, b, c, k1, (i) + 1, s1);                       \
  STEP(fn, c, d, a, b, k2, (i) + 2, s2);                       \
  STEP(fn, b, c, d, a, k3, (i) + 3, s3)

/* All 64 steps over variables a, b, c, d (the caller adds them into the state afterwards). */
#define MD5_ALL_STEPS(STEP)                                 \
  MD5_QUAD(STEP, F, 0, 0, 1, 2, 3, 7, 12, 17, 22);          \
  MD5_QUAD(STEP, F, 4, 4, 5, 6, 7, 7, 12, 17, 22);          \
  MD5_QUAD(STEP, F, 8, 8, 9, 10, 11, 7, 12, 17, 22);        \
  MD5_QUAD(STEP, F, 12, 12, 13, 14, 15, 7, 12, 17, 22);     \
  MD5_QUAD(STEP, G, 16, 1, 6, 11, 0, 5, 9, 14, 20);         \
  MD5_QUAD(STEP, G, 20, 5, 10, 15, 4, 5, 9, 14, 20);        \
  MD5_QUAD(STEP, G, 24, 9, 14, 3, 8, 5, 9, 14, 20);         \
  MD5_QUAD(STEP, G, 28, 13, 2, 7, 12, 5, 9, 14, 20);        \
  MD5_QUAD(STEP, H, 32, 5, 8, 11, 14, 4, 11, 16, 23);       \
  MD5_QUAD(STEP, H, 36, 1, 4, 7, 10, 4, 11, 16, 23);        \
  MD5_QUAD(STEP, H, 40, 13, 0, 3, 6, 4, 11, 16, 23);        \
  MD5_QUAD(STEP, H, 44, 9, 12, 15, 2, 4, 11, 16, 23);       \
  MD5_QUAD(STEP, I, 48, 0, 7, 14, 5, 6, 10, 15, 21);        \
  MD5_QUAD(STEP, I, 52, 12, 3, 10, 1, 6, 10, 15, 21);       \
  MD5_QUAD(STEP, I, 56, 8, 15, 6, 13, 6, 10, 15, 21);       \
  MD5_QUAD(STEP, I, 60, 4, 11, 2, 9, 6, 10, 15, 21)

#endif
