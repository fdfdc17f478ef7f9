/*
 * initiator.c — gateway-side softnic transfers (see initiator.h and SOFTNIC.md).
 * Invariants: a connection carries one request at a time (the caller owns it); a connection
 * that saw any I/O or protocol error is closed, never cached; a clean refusal from the agent
 * (rkey, bounds) leaves it reusable.
 */
#include "initiator.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "auth.h"
#include "guard.h"
#include "last_error.h"
#include "sock.h"
#include "wire.h"

int initiator_init(snic_initiator_t *in, const snic_initiator_config_t *cfg) {
  in->cfg = *cfg;
  memset(&in->counters, 0, sizeof in->counters);
  return conn_cache_init(&in->cache);
}

void initiator_destroy(snic_initiator_t *in) { conn_cache_destroy(&in->cache); }

/* The statuses an agent may answer with (SOFTNIC.md). Anything else — a positive value, or a
 * number that is no errno the ABI documents — is a malformed reply: -EPROTO, never passed on,
 * since callers map these values to HTTP answers. */
static const int32_t k_agent_statuses[] = {-EACCES, -ERANGE, -EPERM, -EPROTO, -ETIME, -ENODATA};

static int agent_errno(int32_t status) {
  for (size_t i = 0; i < sizeof k_agent_statuses / sizeof k_agent_statuses[0]; i++)
    if (status == k_agent_statuses[i]) return status;
  return -EPROTO;
}

/* Adopt the process the agent names (guard.h: pidfd, socket owner, credentials, privilege
 * rule), read its cookie and send it back: proves we may access that very process. Any failure
 * just leaves the connection on TCP. */
static int prove(snic_initiator_t *in, snic_conn_t *c, pid_t pid, uint64_t cookie_addr) {
  if (guard_adopt(&c->guard, c->fd, pid, cookie_addr, in->cfg.direct_privileged) != 0) return 0;
  snic_hdr_t p = snic_hdr_make(SNIC_PROVE);
  p.length = SNIC_COOKIE_LEN;
  int rc = sock_send_hdr(c->fd, &p, c->guard.cookie, SNIC_COOKIE_LEN);
  snic_hdr_t ack;
  if (rc == 0) rc = sock_recv_hdr(c->fd, &ack);
  if (rc) return rc;
  if (ack.type != SNIC_PROVE_ACK) return -EPROTO;
  c->direct = ack.status == 0;
  if (!c->direct) guard_release(&c->guard);
  return 0;
}

/* Wire v2 (auth.h): send a nonce, check the agent's proof that it knows the DC key BEFORE
 * sending anything derived from the key, then prove ours; the agent then names its pid and
 * offers the cookie. A peer that is no agent of ours sees one nonce and nothing else. */
static int handshake(snic_initiator_t *in, snic_conn_t *c) {
  uint8_t ns[SNIC_NONCE_LEN], theirs[SNIC_NONCE_LEN + SNIC_MAC_LEN], mac[SNIC_MAC_LEN];
  if (snic_nonce(ns) != 0) return -EIO;
  snic_hdr_t h = snic_hdr_make(SNIC_HELLO);
  h.flags = in->cfg.allow_direct ? SNIC_FLAG_DIRECT : 0;
  h.length = sizeof ns;
  int rc = sock_send_hdr(c->fd, &h, ns, sizeof ns);
  snic_hdr_t ack;
  if (rc == 0) rc = sock_recv_hdr(c->fd, &ack);
  if (rc) return rc;
  if (ack.type == SNIC_ERROR) return agent_errno(ack.status);
  if (ack.type != SNIC_HELLO_ACK || ack.status != 0 || ack.length != sizeof theirs) return -EPROTO;
  rc = sock_recv_all(c->fd, theirs, sizeof theirs);
  if (rc) return rc;
  snic_mac_agent(in->cfg.dc_key, ns, theirs, mac);
  if (!snic_mac_equal(mac, theirs + SNIC_NONCE_LEN)) return -EACCES; /* no agent of ours: wrong DC key */
  snic_mac_server(in->cfg.dc_key, theirs, ns, mac);
  h = snic_hdr_make(SNIC_AUTH);
  h.length = sizeof mac;
  rc = sock_send_hdr(c->fd, &h, mac, sizeof mac);
  if (rc == 0) rc = sock_recv_hdr(c->fd, &ack);
  if (rc) return rc;
  if (ack.type != SNIC_AUTH_ACK) return -EPROTO;
  if (ack.status != 0) return agent_errno(ack.status); /* -EACCES: the agent has another key */
  if ((ack.flags & SNIC_FLAG_DIRECT) && in->cfg.allow_direct && ack.length == SNIC_COOKIE_LEN) {
    rc = prove(in, c, (pid_t)ack.addr, ack.arg);
    if (rc) return rc;
    atomic_fetch_add(c->direct ? &in->counters.proofs_ok : &in->counters.proofs_failed, 1);
  }
  return 0;
}

void snic_cancel_fire(snic_cancel_t *cx) {
  cx->canceled = 1;
  if (cx->fd >= 0) shutdown(cx->fd, SHUT_RDWR); /* the fd stays open until the transfer closes it */
}

/* Publishes the connection's socket for snic_cancel_fire; 0 when the transfer was canceled. */
static int cancel_attach(snic_cancel_t *cx, int fd) {
  if (cx == NULL) return 1;
  pthread_mutex_lock(cx->mu);
  int live = !cx->canceled;
  if (live) cx->fd = fd;
  pthread_mutex_unlock(cx->mu);
  return live;
}

/* Withdraws the socket (before it is cached or closed); whether the transfer was canceled. */
static int cancel_detach(snic_cancel_t *cx) {
  if (cx == NULL) return 0;
  pthread_mutex_lock(cx->mu);
  cx->fd = -1;
  int canceled = cx->canceled;
  pthread_mutex_unlock(cx->mu);
  return canceled;
}

/* Connects and handshakes; the socket is published on cx from the start, so a cancel also cuts a
 * handshake that an agent trickles. On success it stays published (the caller moves data on it). */
static int open_conn(snic_initiator_t *in, uint32_t ip, uint16_t port, snic_conn_t **out, snic_cancel_t *cx) {
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = ip};
  const struct sockaddr_in *from = in->cfg.bind.sin_addr.s_addr != htonl(INADDR_ANY) ? &in->cfg.bind : NULL;
  int fd = sock_connect(&to, from, in->cfg.connect_timeout_ms);
  if (fd < 0) return fd;
  if (!cancel_attach(cx, fd)) {
    close(fd);
    return -ECANCELED;
  }
  snic_conn_t *c = calloc(1, sizeof *c);
  if (c == NULL) {
    cancel_detach(cx);
    close(fd);
    return -ENOMEM;
  }
  guard_init(&c->guard);
  c->fd = fd;
  c->ip = ip;
  c->port = port;
  atomic_fetch_add(&in->counters.connects, 1);
  int rc = sock_set_timeouts(fd, in->cfg.connect_timeout_ms);
  if (rc == 0) rc = handshake(in, c);
  if (rc == 0) rc = sock_set_timeouts(fd, in->cfg.io_timeout_ms);
  if (rc) {
    int canceled = cancel_detach(cx);
    conn_close(c);
    return canceled ? -ECANCELED : rc;
  }
  *out = c;
  return 0;
}

/* Outcome of one attempt: rc, and whether the connection is still in a clean state. */
typedef struct attempt {
  int rc;
  int conn_ok;    /* may go back to the cache */
  int before_reply; /* failed before the agent answered: safe to retry on a fresh connection */
} attempt_t;

static attempt_t request(snic_conn_t *c, uint8_t type, uint8_t want, uint32_t rkey, uint64_t remote, size_t len,
                         uint64_t arg, uint16_t flags) {
  attempt_t a = {0, 0, 1};
  snic_hdr_t h = snic_hdr_make(type);
  h.rkey = rkey;
  h.addr = remote;
  h.length = len;
  h.arg = arg;
  h.flags = flags;
  snic_hdr_t r;
  a.rc = sock_send_hdr(c->fd, &h, NULL, 0);
  if (a.rc == 0) a.rc = sock_recv_hdr(c->fd, &r);
  if (a.rc) return a;
  a.before_reply = 0;
  if (r.type != want) {
    a.rc = r.type == SNIC_ERROR ? agent_errno(r.status) : -EPROTO;
    return a;
  }
  a.rc = r.status == 0 ? 0 : agent_errno(r.status);
  a.conn_ok = a.rc < 0 && a.rc != -EPROTO; /* a refusal is a complete exchange; success continues below */
  return a;
}

static attempt_t tcp_write(snic_initiator_t *in, snic_conn_t *c, uint32_t rkey, uint64_t remote, uint8_t *src,
                           size_t len) {
  uint32_t frame = in->cfg.frame_size;
  attempt_t a = request(c, SNIC_WRITE_REQ, SNIC_WRITE_READY, rkey, remote, len, frame, 0);
  if (a.rc || a.conn_ok) return a;
  for (size_t off = 0; a.rc == 0 && off < len; off += frame) {
    size_t n = len - off < frame ? len - off : frame;
    snic_hdr_t d = snic_hdr_make(SNIC_DATA);
    d.arg = off;
    d.length = n;
    a.rc = sock_send_hdr(c->fd, &d, src + off, n);
  }
  snic_hdr_t ack;
  if (a.rc == 0) a.rc = sock_recv_hdr(c->fd, &ack);
  if (a.rc) return a;
  if (ack.type != SNIC_WRITE_ACK || ack.status != 0 || ack.length != len) {
    a.rc = ack.status != 0 ? agent_errno(ack.status) : -EPROTO;
    return a;
  }
  a.conn_ok = 1;
  return a;
}

static attempt_t tcp_read(snic_initiator_t *in, snic_conn_t *c, uint32_t rkey, uint64_t remote, uint8_t *dst,
                          size_t len) {
  attempt_t a = request(c, SNIC_READ_REQ, SNIC_READ_RESP, rkey, remote, len, in->cfg.frame_size, 0);
  if (a.rc || a.conn_ok) return a;
  size_t done = 0;
  while (a.rc == 0 && done < len) {
    snic_hdr_t d;
    a.rc = sock_recv_hdr(c->fd, &d);
    if (a.rc) break;
    if (d.type != SNIC_DATA || d.arg != done || d.length == 0 || d.length > len - done) {
      a.rc = d.type == SNIC_ERROR ? agent_errno(d.status) : -EPROTO;
      break;
    }
    a.rc = sock_recv_all(c->fd, dst + done, (size_t)d.length);
    done += (size_t)d.length;
  }
  a.conn_ok = a.rc == 0;
  return a;
}

/* Same-host path: pin (BEGIN), check the proven process is still the same (guard.h), copy,
 * check again, unpin (END). rc -EPERM = fall back to TCP; *revoked = the guard said no. A read
 * whose after-check fails is wiped: bytes that may come from another process are never used. */
static attempt_t direct_move(snic_conn_t *c, int to_client, uint32_t rkey, uint64_t remote, uint8_t *local,
                             size_t len, int *revoked) {
  attempt_t a = request(c, SNIC_DIRECT_BEGIN, SNIC_DIRECT_ACK, rkey, remote, len, 0,
                        to_client ? SNIC_FLAG_WRITE : 0);
  if (a.rc || a.conn_ok) return a;
  int copy_rc = guard_check(&c->guard);
  if (copy_rc == 0) {
    copy_rc = guard_copy(&c->guard, to_client, local, remote, len);
    if (guard_check(&c->guard) != 0) copy_rc = -EPERM;
  }
  *revoked = copy_rc == -EPERM;
  if (*revoked && !to_client) explicit_bzero(local, len);
  snic_hdr_t end = snic_hdr_make(SNIC_DIRECT_END), done;
  end.status = copy_rc; /* the agent counts a write as landed only when this is 0 */
  a.rc = sock_send_hdr(c->fd, &end, NULL, 0);
  if (a.rc == 0) a.rc = sock_recv_hdr(c->fd, &done);
  if (a.rc == 0 && (done.type != SNIC_DIRECT_DONE || done.status != 0)) a.rc = -EPROTO;
  a.conn_ok = a.rc == 0;
  if (a.rc == 0) a.rc = copy_rc;
  return a;
}

static attempt_t move(snic_initiator_t *in, snic_conn_t *c, int to_client, uint32_t rkey, uint64_t remote,
                      uint8_t *local, size_t len) {
  if (c->direct) {
    int revoked = 0;
    attempt_t a = direct_move(c, to_client, rkey, remote, local, len, &revoked);
    if (revoked) atomic_fetch_add(&in->counters.direct_revoked, 1);
    if (a.rc != -EPERM || !a.conn_ok) {
      if (a.rc == 0) {
        atomic_fetch_add(&in->counters.direct_transfers, 1);
        atomic_fetch_add(&in->counters.direct_bytes, len);
      }
      return a;
    }
    c->direct = 0; /* the agent withdrew it, the guard or the kernel refused: TCP from now on */
    guard_release(&c->guard);
  }
  attempt_t a = to_client ? tcp_write(in, c, rkey, remote, local, len) : tcp_read(in, c, rkey, remote, local, len);
  if (a.rc == 0) {
    atomic_fetch_add(&in->counters.tcp_transfers, 1);
    atomic_fetch_add(&in->counters.tcp_bytes, len);
  }
  return a;
}

/* Counts a failed transfer and records why, naming the agent and the window: this is the text
 * a gateway sees in the transfer's completion (cuobj_server_poll_completions_ex). */
static ssize_t transfer_failed(snic_initiator_t *in, int rc, uint32_t ip, uint16_t port, int to_client,
                               uint64_t remote, size_t len, const char *why) {
  atomic_fetch_add(&in->counters.failed_transfers, 1);
  char host[INET_ADDRSTRLEN] = "?";
  (void)inet_ntop(AF_INET, &ip, host, sizeof host);
  return vgw_fail(rc, "softnic %s of %zu bytes at %#llx, agent %s:%u: %s", to_client ? "WRITE" : "READ", len,
                  (unsigned long long)remote, host, (unsigned)port, why);
}

/* What a failed step's errno says, for the message above: while connecting, and while moving. */
static const struct {
  int rc;
  const char *connecting, *moving;
} FAILURE_TEXT[] = {
    {-ENODEV, "the agent is unreachable (connect refused or no route)", "the agent is unreachable"},
    {-ETIMEDOUT, "connecting to the agent timed out", "the agent stopped answering (I/O timeout)"},
    {-EACCES, "the agent refused the DC key", "the agent refused the rkey"},
    {-ERANGE, "the agent refused the bounds", "the agent refused the bounds (outside its registered region)"},
    {-EPROTO, "malformed frame from the agent", "malformed frame from the agent"},
    {-EIO, "the connection to the agent was lost", "the connection to the agent was lost"},
    {-ECANCELED, "canceled (transfer deadline)", "canceled (transfer deadline)"},
    {-ENOMEM, "out of memory", "out of memory"},
    {-ETIME, "the client's staging stalled", "the client's staging stalled (its progress word did not advance within its stall timeout)"},
    {-ENODATA, "the client gave up staging", "the client gave up staging (staging failed, or its progress word went backwards or past the region)"},
};

static const char *failure_text(int rc, int connecting) {
  for (size_t i = 0; i < sizeof FAILURE_TEXT / sizeof FAILURE_TEXT[0]; i++)
    if (FAILURE_TEXT[i].rc == rc) return connecting ? FAILURE_TEXT[i].connecting : FAILURE_TEXT[i].moving;
  return connecting ? "cannot open a connection to the agent" : "the transfer failed";
}

ssize_t initiator_transfer(snic_initiator_t *in, uint32_t ip, uint16_t port, uint32_t rkey, int to_client,
                           uint64_t remote, void *local, size_t len, snic_cancel_t *cx) {
  for (int attempt = 0;; attempt++) {
    snic_conn_t *c = attempt == 0 ? conn_cache_take(&in->cache, ip, port) : NULL;
    int reused = c != NULL;
    if (c == NULL) {
      int rc = open_conn(in, ip, port, &c, cx);
      if (rc) return transfer_failed(in, rc, ip, port, to_client, remote, len, failure_text(rc, 1));
    }
    if (!cancel_attach(cx, c->fd)) { /* (a fresh connection is attached already: no-op then) */
      cancel_detach(cx);
      conn_close(c); /* a cancel may have shut its socket down: never cached */
      return transfer_failed(in, -ECANCELED, ip, port, to_client, remote, len, failure_text(-ECANCELED, 0));
    }
    attempt_t a = move(in, c, to_client, rkey, remote, local, len);
    int canceled = cancel_detach(cx);
    if (a.conn_ok && !canceled) /* a shut-down socket is never cached */
      conn_cache_give(&in->cache, c);
    else
      conn_close(c);
    if (a.rc == 0) return (ssize_t)len;
    if (canceled) return transfer_failed(in, -ECANCELED, ip, port, to_client, remote, len, failure_text(-ECANCELED, 0));
    /* A cached connection the agent dropped while idle fails before any reply: retry once. */
    if (reused && a.before_reply && a.rc == -EIO) continue;
    return transfer_failed(in, a.rc, ip, port, to_client, remote, len, failure_text(a.rc, 0));
  }
}
