/*
 * auth.h — the softnic handshake's proofs (wire v2, SOFTNIC.md): both sides show that they
 * know the DC key without sending it. The gateway sends a fresh nonce Ns; the agent answers
 * with its own nonce Na and HMAC-SHA256(K, "agent" | Ns | Na); only when that is right does the
 * gateway answer HMAC-SHA256(K, "server" | Na | Ns), and only when THAT is right does the agent
 * serve anything. K = the DC key as 8 little-endian bytes.
 */
#ifndef SOFTNIC_AUTH_H
#define SOFTNIC_AUTH_H

#include <stdint.h>

#define SNIC_NONCE_LEN 32u
#define SNIC_MAC_LEN 32u

/* A fresh random nonce (getrandom). 0 or -EIO. */
int snic_nonce(uint8_t out[SNIC_NONCE_LEN]);
/* The agent's proof: HMAC(K, "agent" | ns | na). */
void snic_mac_agent(uint64_t dc_key, const uint8_t ns[SNIC_NONCE_LEN], const uint8_t na[SNIC_NONCE_LEN],
                    uint8_t out[SNIC_MAC_LEN]);
/* The gateway's proof: HMAC(K, "server" | na | ns). */
void snic_mac_server(uint64_t dc_key, const uint8_t na[SNIC_NONCE_LEN], const uint8_t ns[SNIC_NONCE_LEN],
                     uint8_t out[SNIC_MAC_LEN]);
/* Constant-time compare of two MACs: 1 equal. */
int snic_mac_equal(const uint8_t a[SNIC_MAC_LEN], const uint8_t b[SNIC_MAC_LEN]);

#endif
