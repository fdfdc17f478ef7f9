/*
 * guard.h — the direct path's hold on the process it proved. A pid is only a number: the
 * process behind it can exec another program (a setuid one included) or die and be replaced.
 * So at proof time the gateway takes a pidfd and records the process's credentials and the
 * owner of the agent's socket, and before AND after every direct copy it checks that the pidfd
 * still names a live process, that its credentials are unchanged (and still those of the socket
 * owner, no setuid/setgid identity, dumpable) and that the address space is still the proven
 * one (the cookie reads back the same). Any failure: the copy must not be used (TCP instead).
 *
 * Privilege rule: when this process is more privileged than the target (euid 0 or
 * CAP_SYS_PTRACE, target uid != our euid) the kernel would let us reach any process, so the
 * guard refuses unless the operator opted in (direct_privileged). Whenever this process is
 * privileged and the target is not root, copies go through a /proc/<pid>/mem descriptor opened
 * at proof time, which can never reach the address space of a later exec (the kernel's own
 * ptrace check, which stops an unprivileged gateway, would not stop a privileged one).
 */
#ifndef SOFTNIC_GUARD_H
#define SOFTNIC_GUARD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "peer_creds.h"
#include "wire.h"

typedef struct snic_guard {
  pid_t pid;
  int pidfd;          /* -1: nothing adopted */
  int memfd;          /* /proc/<pid>/mem opened at proof (privileged gateway, non-root target), else -1 */
  uint32_t sock_uid;  /* owner of the agent's end of the connection */
  snic_creds_t creds; /* the target's credentials at proof time */
  uint64_t cookie_addr;
  uint8_t cookie[SNIC_COOKIE_LEN];
} snic_guard_t;

void guard_init(snic_guard_t *g);
void guard_release(snic_guard_t *g); /* closes the descriptors; guard_init state again */

/* Proof time: adopt `pid` as the process behind connection `sockfd` (pidfd, socket owner,
 * credentials, privilege rule) and read its cookie at `cookie_addr` into g->cookie.
 * 0, or -EPERM (any rule failed: stay on TCP; nothing is held). */
int guard_adopt(snic_guard_t *g, int sockfd, pid_t pid, uint64_t cookie_addr, int direct_privileged);

/* Before/after every copy: 0 while the adopted process is still the one proven, else -EPERM. */
int guard_check(const snic_guard_t *g);

/* One copy to/from the adopted process (process_vm_* or the mem descriptor). 0, -EPERM, -EIO. */
int guard_copy(const snic_guard_t *g, int to_remote, void *local, uint64_t remote, size_t len);

#endif
