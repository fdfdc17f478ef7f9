/* peer_creds.c — process credentials from /proc (see peer_creds.h). */
#include "peer_creds.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define CAP_SYS_PTRACE_BIT 19

/* The value of a "Name:\t..." line of a /proc status file, or NULL. */
static const char *status_field(const char *text, const char *name) {
  size_t n = strlen(name);
  for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
    if (strncmp(p, name, n) == 0 && p[n] == ':') return p + n + 1;
  return NULL;
}

static int read_status(pid_t pid, char *buf, size_t cap) {
  char path[64];
  if (pid > 0)
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
  else
    snprintf(path, sizeof path, "/proc/self/status");
  FILE *f = fopen(path, "re");
  if (f == NULL) return -ESRCH;
  size_t n = fread(buf, 1, cap - 1, f);
  fclose(f);
  buf[n] = '\0';
  return n > 0 ? 0 : -ESRCH;
}

static int four_ids(const char *v, uint32_t out[4]) {
  unsigned a, b, c, d;
  if (v == NULL || sscanf(v, " %u %u %u %u", &a, &b, &c, &d) != 4) return -EPROTO;
  out[0] = a, out[1] = b, out[2] = c, out[3] = d;
  return 0;
}

int creds_read(pid_t pid, snic_creds_t *out) {
  char buf[4096];
  int rc = read_status(pid, buf, sizeof buf);
  if (rc == 0) rc = four_ids(status_field(buf, "Uid"), out->uid);
  if (rc == 0) rc = four_ids(status_field(buf, "Gid"), out->gid);
  return rc;
}

int creds_plain(const snic_creds_t *c, uint32_t uid) {
  for (int i = 0; i < 4; i++)
    if (c->uid[i] != uid || c->gid[i] != c->gid[0]) return 0;
  return 1;
}

int creds_dumpable(pid_t pid, const snic_creds_t *c) {
  char path[64];
  struct statx st;
  snprintf(path, sizeof path, "/proc/%d/status", (int)pid); /* (the /proc/<pid> dir itself is not updated) */
  /* statx (glibc 2.28) rather than stat, which binds to stat@GLIBC_2.33 (src/glibc_floor.h). */
  if (statx(AT_FDCWD, path, 0, STATX_UID | STATX_GID, &st) != 0) return 0;
  return st.stx_uid == c->uid[1] && st.stx_gid == c->gid[1];
}

int creds_self_privileged(void) {
  if (geteuid() == 0) return 1;
  char buf[4096];
  if (read_status(0, buf, sizeof buf) != 0) return 1; /* cannot tell: assume the worst */
  const char *v = status_field(buf, "CapEff");
  uint64_t caps;
  if (v == NULL || sscanf(v, " %" SCNx64, &caps) != 1) return 1;
  return (caps >> CAP_SYS_PTRACE_BIT) & 1;
}
