/*
 * wire.h — the softnic frame format (documented in native-shims/SOFTNIC.md). Every message is a
 * fixed 40-byte little-endian header, optionally followed by `length` payload bytes (HELLO,
 * HELLO_ACK, AUTH, PROVE and DATA carry one). Version 2: the DC key never crosses the wire.
 */
#ifndef SOFTNIC_WIRE_H
#define SOFTNIC_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define SNIC_MAGIC 0x43494e53u /* "SNIC" little-endian */
#define SNIC_VERSION 2u
#define SNIC_HDR_LEN 40u
#define SNIC_COOKIE_LEN 32u
#define SNIC_MAX_FRAME (64u << 20) /* largest DATA payload either side accepts */

/* Message types. S = server (gateway, initiator), A = agent (client side). */
enum snic_type {
  SNIC_HELLO = 1,        /* S->A: payload = nonce Ns (32); flags bit0 = server may use the direct path */
  SNIC_HELLO_ACK = 2,    /* A->S: payload = nonce Na (32) | HMAC(K, "agent"|Ns|Na) (32) (auth.h) */
  SNIC_PROVE = 3,        /* S->A: payload = the cookie bytes the server read from the agent */
  SNIC_PROVE_ACK = 4,    /* A->S: status 0 = direct path enabled on this connection */
  SNIC_READ_REQ = 5,     /* S->A: rkey, addr, length: send me these bytes */
  SNIC_READ_RESP = 6,    /* A->S: status; then DATA frames covering length when status == 0 */
  SNIC_WRITE_REQ = 7,    /* S->A: rkey, addr, length: I will write these bytes */
  SNIC_WRITE_READY = 8,  /* A->S: status; when 0 the server sends DATA frames */
  SNIC_WRITE_ACK = 9,    /* A->S: status; sent only after every byte is in memory */
  SNIC_DATA = 10,        /* either way: arg = offset from the request's addr; length = bytes */
  SNIC_DIRECT_BEGIN = 11,/* S->A: rkey, addr, length, flags bit0 = write; pins the region */
  SNIC_DIRECT_ACK = 12,  /* A->S: status */
  SNIC_DIRECT_END = 13,  /* S->A: the direct copy is over; unpin */
  SNIC_DIRECT_DONE = 14, /* A->S: status */
  SNIC_ERROR = 15,       /* A->S: status; the agent closes the connection after it */
  SNIC_AUTH = 16,        /* S->A: payload = HMAC(K, "server"|Na|Ns) (32) */
  SNIC_AUTH_ACK = 17     /* A->S: status (-EACCES wrong proof, then close); addr = agent pid;
                            arg = cookie address; length = cookie length (no payload);
                            flags bit0 = direct path offered */
};

#define SNIC_FLAG_DIRECT 0x1u
#define SNIC_FLAG_WRITE 0x1u

typedef struct snic_hdr {
  uint32_t magic;
  uint8_t version;
  uint8_t type;
  uint16_t flags;
  int32_t status; /* 0 or a negative errno */
  uint32_t rkey;
  uint64_t addr;
  uint64_t length;
  uint64_t arg;
} snic_hdr_t;

/* Serialise / parse one header. parse returns 0, or -EPROTO for a bad magic or version. */
void snic_hdr_pack(const snic_hdr_t *h, uint8_t out[SNIC_HDR_LEN]);
int snic_hdr_unpack(const uint8_t in[SNIC_HDR_LEN], snic_hdr_t *h);
/* A zeroed header of a type with magic and version set. */
snic_hdr_t snic_hdr_make(uint8_t type);

#endif
