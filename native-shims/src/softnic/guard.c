/* guard.c — see guard.h. Order matters everywhere: credentials are checked BEFORE any byte of
 * the target is read (the cookie included), and /proc is read before the pidfd liveness check,
 * so what was read belongs to the process the pidfd names (its pid cannot have been reused). */
#include "guard.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "direct.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

void guard_init(snic_guard_t *g) {
  memset(g, 0, sizeof *g);
  g->pidfd = g->memfd = -1;
}

void guard_release(snic_guard_t *g) {
  if (g->pidfd >= 0) close(g->pidfd);
  if (g->memfd >= 0) close(g->memfd);
  guard_init(g);
}

static int alive(const snic_guard_t *g) { return syscall(SYS_pidfd_send_signal, g->pidfd, 0, NULL, 0) == 0; }

/* The target as it is now: plain credentials of the socket owner, dumpable, pidfd alive. */
static int creds_ok(const snic_guard_t *g, snic_creds_t *now) {
  return creds_read(g->pid, now) == 0 && creds_plain(now, g->sock_uid) && creds_dumpable(g->pid, now) && alive(g);
}

/* Constant-time compare: the cookie is a secret of the agent. */
static int same_bytes(const uint8_t *a, const uint8_t *b, size_t n) {
  uint8_t d = 0;
  for (size_t i = 0; i < n; i++) d |= (uint8_t)(a[i] ^ b[i]);
  return d == 0;
}

int guard_copy(const snic_guard_t *g, int to_remote, void *local, uint64_t remote, size_t len) {
  if (g->pidfd < 0) return -EPERM;
  return g->memfd >= 0 ? direct_copy_mem(g->memfd, to_remote, local, remote, len)
                       : direct_copy(g->pid, to_remote, local, remote, len);
}

int guard_check(const snic_guard_t *g) {
  snic_creds_t now;
  if (g->pidfd < 0 || !creds_ok(g, &now) || memcmp(&now, &g->creds, sizeof now) != 0) return -EPERM;
  uint8_t cookie[SNIC_COOKIE_LEN];
  if (guard_copy(g, 0, cookie, g->cookie_addr, sizeof cookie) != 0) return -EPERM; /* exec'd: unmapped */
  return same_bytes(cookie, g->cookie, sizeof cookie) ? 0 : -EPERM;
}

static int adopt(snic_guard_t *g, int sockfd, pid_t pid, uint64_t cookie_addr, int direct_privileged) {
  g->pid = pid;
  g->cookie_addr = cookie_addr;
  g->pidfd = pid > 0 ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;
  if (g->pidfd < 0) return -EPERM;
  /* Only the process at the other end of this connection may be proven. */
  if (!direct_peer_is(sockfd, pid, &g->sock_uid) || !creds_ok(g, &g->creds)) return -EPERM;
  /* Privileged, the kernel's ptrace check would not stop a copy into a process that exec'd a
   * setuid program a moment ago: copy through a descriptor bound to THIS address space instead
   * (about a third slower). A root target needs none: nothing to gain over root. */
  if (creds_self_privileged() && g->creds.uid[1] != (uint32_t)geteuid() && !direct_privileged) return -EPERM;
  if (creds_self_privileged() && g->creds.uid[1] != 0) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
    g->memfd = open(path, O_RDWR | O_CLOEXEC);
    if (g->memfd < 0 || !alive(g)) return -EPERM;
  }
  if (guard_copy(g, 0, g->cookie, cookie_addr, sizeof g->cookie) != 0) return -EPERM;
  snic_creds_t now;
  if (!creds_ok(g, &now) || memcmp(&now, &g->creds, sizeof now) != 0) return -EPERM;
  return 0;
}

int guard_adopt(snic_guard_t *g, int sockfd, pid_t pid, uint64_t cookie_addr, int direct_privileged) {
  guard_init(g);
  int rc = adopt(g, sockfd, pid, cookie_addr, direct_privileged);
  if (rc) guard_release(g);
  return rc;
}
