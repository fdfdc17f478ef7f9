/*
 * agent_conn.c — the agent's side of one gateway connection: handshake (mutual DC key proof,
 * cookie offer), then requests in a loop, dispatched through a table. Every request re-checks rkey and
 * bounds (regions_pin); a WRITE is acknowledged only after its last byte was received into
 * memory; any malformed or truncated frame closes the connection (no partial state survives:
 * pins are released on every exit path).
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "agent.h"
#include "auth.h"
#include "sock.h"

#define AGENT_DEFAULT_FRAME (4u << 20)
#define AGENT_MIN_FRAME (4u << 10)

/* A handler returns 0 to keep serving, a negative errno to close the connection. */
typedef int (*handler_fn)(snic_agent_conn_t *c, const snic_hdr_t *h);

static int reply(snic_agent_conn_t *c, uint8_t type, int32_t status, uint64_t length) {
  snic_hdr_t r = snic_hdr_make(type);
  r.status = status;
  r.length = length;
  return sock_send_hdr(c->fd, &r, NULL, 0);
}

/* Tell the peer why we hang up, best effort, then close. */
static int protocol_error(snic_agent_conn_t *c) {
  reply(c, SNIC_ERROR, -EPROTO, 0);
  return -EPROTO;
}

/* Constant-time compare: the cookie is a secret. */
static int same_bytes(const uint8_t *a, const uint8_t *b, size_t n) {
  uint8_t d = 0;
  for (size_t i = 0; i < n; i++) d |= (uint8_t)(a[i] ^ b[i]);
  return d == 0;
}

static int on_prove(snic_agent_conn_t *c, const snic_hdr_t *h) {
  uint8_t got[SNIC_COOKIE_LEN];
  if (h->length != SNIC_COOKIE_LEN) return protocol_error(c);
  int rc = sock_recv_all(c->fd, got, sizeof got);
  if (rc) return rc;
  int ok = c->direct_offered && atomic_load(&c->agent->allow_direct) &&
           same_bytes(got, c->agent->cookie, SNIC_COOKIE_LEN);
  c->proven = ok;
  return reply(c, SNIC_PROVE_ACK, ok ? 0 : -EACCES, 0);
}

static uint32_t frame_size_of(const snic_hdr_t *h) {
  uint64_t f = h->arg;
  if (f == 0) return AGENT_DEFAULT_FRAME;
  if (f < AGENT_MIN_FRAME) return AGENT_MIN_FRAME;
  if (f > SNIC_MAX_FRAME) return SNIC_MAX_FRAME;
  return (uint32_t)f;
}

/* A READ of a region whose client is still staging it (progress.h) waits for the bytes; the
 * gateway's request gets no answer before they are there. -ECONNABORTED: close, no reply. */
static int gate(snic_agent_conn_t *c, snic_region_t *r, const snic_hdr_t *h) {
  return progress_wait_staged(&r->progress, h->addr - r->base, h->length, c->fd, c->agent->stop_fd);
}

static int on_read(snic_agent_conn_t *c, const snic_hdr_t *h) {
  snic_region_t *r;
  int rc = regions_pin(&c->agent->regions, h->rkey, h->addr, h->length, &r);
  if (rc) return reply(c, SNIC_READ_RESP, rc, 0);
  rc = gate(c, r, h);
  if (rc) {
    regions_unpin(&c->agent->regions, r);
    return rc == -ECONNABORTED ? rc : reply(c, SNIC_READ_RESP, rc, 0);
  }
  rc = reply(c, SNIC_READ_RESP, 0, h->length);
  uint32_t frame = frame_size_of(h);
  for (uint64_t off = 0; rc == 0 && off < h->length; off += frame) {
    uint64_t n = h->length - off < frame ? h->length - off : frame;
    snic_hdr_t d = snic_hdr_make(SNIC_DATA);
    d.arg = off;
    d.length = n;
    rc = sock_send_hdr(c->fd, &d, (const void *)(uintptr_t)(h->addr + off), (size_t)n);
  }
  if (rc == 0) progress_served(&r->progress, h->length);
  regions_unpin(&c->agent->regions, r);
  return rc;
}

static int on_write(snic_agent_conn_t *c, const snic_hdr_t *h) {
  snic_region_t *r;
  int rc = regions_pin(&c->agent->regions, h->rkey, h->addr, h->length, &r);
  if (rc) return reply(c, SNIC_WRITE_READY, rc, 0);
  rc = reply(c, SNIC_WRITE_READY, 0, h->length);
  uint64_t done = 0;
  while (rc == 0 && done < h->length) {
    snic_hdr_t d;
    rc = sock_recv_hdr(c->fd, &d);
    if (rc) break;
    /* DATA frames must arrive in order and stay inside the pinned window. */
    if (d.type != SNIC_DATA || d.arg != done || d.length == 0 || d.length > h->length - done ||
        d.length > SNIC_MAX_FRAME) {
      rc = protocol_error(c);
      break;
    }
    rc = sock_recv_all(c->fd, (void *)(uintptr_t)(h->addr + done), (size_t)d.length);
    done += d.length;
  }
  if (rc == 0) progress_landed(&r->progress, h->addr - r->base, done); /* before the pin goes */
  regions_unpin(&c->agent->regions, r);
  if (rc) return rc;
  return reply(c, SNIC_WRITE_ACK, 0, done); /* every byte is in memory now */
}

/* Wait for the next frame while the direct pin is held: bounded, so a gateway that vanishes
 * between BEGIN and END cannot keep a region pinned (and its deregistration waiting) forever. */
static int on_direct_begin(snic_agent_conn_t *c, const snic_hdr_t *h) {
  /* -EPERM (not -EACCES): tells the gateway "use TCP", not "your rkey is wrong". */
  if (!c->proven || !atomic_load(&c->agent->allow_direct)) return reply(c, SNIC_DIRECT_ACK, -EPERM, 0);
  snic_region_t *r;
  int rc = regions_pin(&c->agent->regions, h->rkey, h->addr, h->length, &r);
  if (rc) return reply(c, SNIC_DIRECT_ACK, rc, 0);
  int to_client = (h->flags & SNIC_FLAG_WRITE) != 0;
  /* The gateway copies only after this ACK: a read waits here for the client's staging. */
  rc = to_client ? 0 : gate(c, r, h);
  if (rc) {
    regions_unpin(&c->agent->regions, r);
    return rc == -ECONNABORTED ? rc : reply(c, SNIC_DIRECT_ACK, rc, 0);
  }
  rc = reply(c, SNIC_DIRECT_ACK, 0, h->length);
  snic_hdr_t end;
  if (rc == 0) rc = sock_recv_hdr(c->fd, &end); /* SO_RCVTIMEO bounds this wait */
  /* END's status is the gateway's copy result (ABI 1.9; older gateways send 0): only a copy
   * that succeeded counts as landed. */
  if (rc == 0 && end.type == SNIC_DIRECT_END && end.status == 0) {
    if (to_client) progress_landed(&r->progress, h->addr - r->base, h->length);
    else progress_served(&r->progress, h->length);
  }
  regions_unpin(&c->agent->regions, r);
  if (rc) return rc;
  if (end.type != SNIC_DIRECT_END) return protocol_error(c);
  return reply(c, SNIC_DIRECT_DONE, 0, h->length);
}

static const handler_fn k_handlers[] = {
    [SNIC_PROVE] = on_prove,
    [SNIC_READ_REQ] = on_read,
    [SNIC_WRITE_REQ] = on_write,
    [SNIC_DIRECT_BEGIN] = on_direct_begin,
};
#define N_HANDLERS (sizeof k_handlers / sizeof k_handlers[0])

/* Receive one handshake frame of `type` whose payload is exactly `len` bytes into `out`.
 * Anything else is a protocol error (ERROR frame, close). */
static int recv_auth_frame(snic_agent_conn_t *c, uint8_t type, snic_hdr_t *h, uint8_t *out, size_t len) {
  int rc = sock_recv_hdr(c->fd, h);
  if (rc == -EPROTO || (rc == 0 && (h->type != type || h->length != len))) return protocol_error(c);
  return rc ? rc : sock_recv_all(c->fd, out, len);
}

/* Wire v2 (auth.h): prove that we know the DC key (HELLO_ACK), check that the gateway does too
 * (AUTH), and only then name our pid and, when asked for, the cookie (AUTH_ACK). The key itself
 * never crosses the wire; a gateway that fails its proof gets AUTH_ACK(-EACCES) and is dropped. */
static int handshake(snic_agent_conn_t *c) {
  snic_agent_t *a = c->agent;
  snic_hdr_t h;
  uint8_t ns[SNIC_NONCE_LEN], mine[SNIC_NONCE_LEN + SNIC_MAC_LEN], theirs[SNIC_MAC_LEN], want[SNIC_MAC_LEN];
  int rc = recv_auth_frame(c, SNIC_HELLO, &h, ns, sizeof ns);
  if (rc) return rc;
  int wants_direct = (h.flags & SNIC_FLAG_DIRECT) != 0;
  if (snic_nonce(mine) != 0) return -EIO;
  snic_mac_agent(a->cfg.dc_key, ns, mine, mine + SNIC_NONCE_LEN);
  snic_hdr_t hello_ack = snic_hdr_make(SNIC_HELLO_ACK);
  hello_ack.length = sizeof mine;
  rc = sock_send_hdr(c->fd, &hello_ack, mine, sizeof mine);
  if (rc == 0) rc = recv_auth_frame(c, SNIC_AUTH, &h, theirs, sizeof theirs);
  if (rc) return rc;
  snic_mac_server(a->cfg.dc_key, mine, ns, want);
  snic_hdr_t ack = snic_hdr_make(SNIC_AUTH_ACK);
  if (!snic_mac_equal(theirs, want)) {
    ack.status = -EACCES;
    sock_send_hdr(c->fd, &ack, NULL, 0);
    return -EACCES;
  }
  c->direct_offered = wants_direct && atomic_load(&a->allow_direct);
  ack.addr = (uint64_t)getpid();
  if (c->direct_offered) {
    ack.flags = SNIC_FLAG_DIRECT;
    ack.arg = (uint64_t)(uintptr_t)a->cookie;
    ack.length = SNIC_COOKIE_LEN;
  }
  return sock_send_hdr(c->fd, &ack, NULL, 0);
}

/* Idle wait for the next request: unbounded (cached gateway connections sit idle), but it
 * ends at once when the agent stops. Returns 1 readable, 0 stop/error. */
static int wait_request(snic_agent_conn_t *c) {
  struct pollfd p[2] = {{.fd = c->fd, .events = POLLIN}, {.fd = c->agent->stop_fd, .events = POLLIN}};
  for (;;) {
    int n = poll(p, 2, -1);
    if (n < 0 && errno == EINTR) continue;
    return n > 0 && !p[1].revents && p[0].revents;
  }
}

void *agent_conn_main(void *arg) {
  snic_agent_conn_t *c = arg;
  int rc = handshake(c);
  while (rc == 0 && wait_request(c)) {
    snic_hdr_t h;
    rc = sock_recv_hdr(c->fd, &h);
    if (rc == -EPROTO) rc = protocol_error(c);
    if (rc) break;
    handler_fn fn = h.type < N_HANDLERS ? k_handlers[h.type] : NULL;
    rc = fn ? fn(c, &h) : protocol_error(c);
  }
  shutdown(c->fd, SHUT_RDWR); /* the fd itself is closed by the reaper */
  atomic_store(&c->done, 1);
  return NULL;
}
