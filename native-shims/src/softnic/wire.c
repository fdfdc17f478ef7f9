/* wire.c — pack/unpack of the softnic frame header (explicit little-endian, no struct casts). */
#include "wire.h"

#include <errno.h>
#include <string.h>

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static uint32_t get32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}
static uint64_t get64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

void snic_hdr_pack(const snic_hdr_t *h, uint8_t out[SNIC_HDR_LEN]) {
  put32(out + 0, h->magic);
  out[4] = h->version;
  out[5] = h->type;
  out[6] = (uint8_t)h->flags;
  out[7] = (uint8_t)(h->flags >> 8);
  put32(out + 8, (uint32_t)h->status);
  put32(out + 12, h->rkey);
  put64(out + 16, h->addr);
  put64(out + 24, h->length);
  put64(out + 32, h->arg);
}

int snic_hdr_unpack(const uint8_t in[SNIC_HDR_LEN], snic_hdr_t *h) {
  h->magic = get32(in + 0);
  h->version = in[4];
  h->type = in[5];
  h->flags = (uint16_t)(in[6] | (in[7] << 8));
  h->status = (int32_t)get32(in + 8);
  h->rkey = get32(in + 12);
  h->addr = get64(in + 16);
  h->length = get64(in + 24);
  h->arg = get64(in + 32);
  if (h->magic != SNIC_MAGIC || h->version != SNIC_VERSION) return -EPROTO;
  return 0;
}

snic_hdr_t snic_hdr_make(uint8_t type) {
  snic_hdr_t h;
  memset(&h, 0, sizeof h);
  h.magic = SNIC_MAGIC;
  h.version = SNIC_VERSION;
  h.type = type;
  return h;
}
