/* auth.c — handshake proofs (see auth.h). */
#include "auth.h"

#include <errno.h>
#include <sys/random.h>

#include "hash/sha256.h"

int snic_nonce(uint8_t out[SNIC_NONCE_LEN]) {
  return getrandom(out, SNIC_NONCE_LEN, 0) == (ssize_t)SNIC_NONCE_LEN ? 0 : -EIO;
}

static void mac(uint64_t dc_key, const char *label, size_t label_len, const uint8_t *first, const uint8_t *second,
                uint8_t out[SNIC_MAC_LEN]) {
  uint8_t key[8];
  for (int i = 0; i < 8; i++) key[i] = (uint8_t)(dc_key >> (8 * i));
  const void *parts[] = {label, first, second};
  const size_t lens[] = {label_len, SNIC_NONCE_LEN, SNIC_NONCE_LEN};
  vgw_hmac_sha256(key, sizeof key, parts, lens, 3, out);
}

void snic_mac_agent(uint64_t dc_key, const uint8_t ns[SNIC_NONCE_LEN], const uint8_t na[SNIC_NONCE_LEN],
                    uint8_t out[SNIC_MAC_LEN]) {
  mac(dc_key, "agent", 5, ns, na, out);
}

void snic_mac_server(uint64_t dc_key, const uint8_t na[SNIC_NONCE_LEN], const uint8_t ns[SNIC_NONCE_LEN],
                     uint8_t out[SNIC_MAC_LEN]) {
  mac(dc_key, "server", 6, na, ns, out);
}

int snic_mac_equal(const uint8_t a[SNIC_MAC_LEN], const uint8_t b[SNIC_MAC_LEN]) {
  uint8_t d = 0;
  for (unsigned i = 0; i < SNIC_MAC_LEN; i++) d |= (uint8_t)(a[i] ^ b[i]);
  return d == 0;
}
