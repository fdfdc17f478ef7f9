/*
 * peer_creds.h — what the kernel says about a process, read from /proc: its uids and gids
 * (real, effective, saved, filesystem), whether it is dumpable, and whether THIS process is
 * privileged for ptrace (euid 0 or CAP_SYS_PTRACE). Used by the direct path's guard (guard.h).
 */
#ifndef SOFTNIC_PEER_CREDS_H
#define SOFTNIC_PEER_CREDS_H

#include <stdint.h>
#include <sys/types.h>

typedef struct snic_creds {
  uint32_t uid[4]; /* real, effective, saved, fs (the order of /proc/<pid>/status) */
  uint32_t gid[4];
} snic_creds_t;

/* The Uid:/Gid: lines of /proc/<pid>/status. 0, or -ESRCH (gone) / -EPROTO (unparsable). */
int creds_read(pid_t pid, snic_creds_t *out);

/* 1 when every uid equals `uid` and the four gids are equal (no setuid/setgid identity). */
int creds_plain(const snic_creds_t *c, uint32_t uid);

/* 0 when the kernel marks pid non-dumpable: /proc/<pid>/status is then owned by root although the
 * process's euid/egid are not root (task_dump_owner). A root-owned process reads as dumpable;
 * for it this check cannot tell, and it needs none: root reaching root gains nothing. */
int creds_dumpable(pid_t pid, const snic_creds_t *c);

/* 1 when this process may ptrace others regardless of their uid: euid 0 or CAP_SYS_PTRACE in
 * its effective capability set. */
int creds_self_privileged(void);

#endif
