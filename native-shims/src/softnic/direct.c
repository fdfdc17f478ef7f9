/* direct.c — process_vm_readv/writev wrapper (see direct.h). */
#include "direct.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

/* One syscall moves at most this much, so a huge copy cannot starve a signal or mask a death
 * of the peer for long. */
#define DIRECT_STEP ((size_t)256 << 20)

int direct_copy(pid_t pid, int to_remote, void *local, uint64_t remote, size_t len) {
  uint8_t *p = local;
  while (len > 0) {
    size_t step = len < DIRECT_STEP ? len : DIRECT_STEP;
    struct iovec l = {p, step};
    struct iovec r = {(void *)(uintptr_t)remote, step};
    ssize_t n = to_remote ? process_vm_writev(pid, &l, 1, &r, 1, 0) : process_vm_readv(pid, &l, 1, &r, 1, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno == EPERM ? -EPERM : -EIO;
    }
    if (n == 0) return -EIO; /* nothing moved: the remote range is not mapped */
    p += n;
    remote += (uint64_t)n;
    len -= (size_t)n;
  }
  return 0;
}

int direct_copy_mem(int memfd, int to_remote, void *local, uint64_t remote, size_t len) {
  uint8_t *p = local;
  if (remote > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - remote) return -EIO;
  while (len > 0) {
    size_t step = len < DIRECT_STEP ? len : DIRECT_STEP;
    ssize_t n = to_remote ? pwrite(memfd, p, step, (off_t)remote) : pread(memfd, p, step, (off_t)remote);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno == EPERM || errno == EACCES ? -EPERM : -EIO;
    }
    if (n == 0) return -EIO; /* unmapped there, or the address space is gone (exec, exit) */
    p += n;
    remote += (uint64_t)n;
    len -= (size_t)n;
  }
  return 0;
}

/* The inode and owner uid of the TCP socket in pid's network namespace whose local end is
 * `local` and remote end is `remote` (/proc/<pid>/net/tcp prints addresses as the raw u32 and
 * ports in host order). */
static unsigned long tcp_inode(pid_t pid, const struct sockaddr_in *local, const struct sockaddr_in *remote,
                               uint32_t *uid) {
  char path[64], line[512];
  snprintf(path, sizeof path, "/proc/%d/net/tcp", (int)pid);
  FILE *f = fopen(path, "re");
  if (f == NULL) return 0;
  unsigned long inode = 0;
  while (inode == 0 && fgets(line, sizeof line, f)) {
    unsigned la, lp, ra, rp, owner;
    unsigned long ino;
    if (sscanf(line, " %*u: %8X:%4X %8X:%4X %*X %*X:%*X %*X:%*X %*X %u %*u %lu", &la, &lp, &ra, &rp, &owner,
               &ino) != 6)
      continue; /* the header line */
    if (la == local->sin_addr.s_addr && lp == ntohs(local->sin_port) && ra == remote->sin_addr.s_addr &&
        rp == ntohs(remote->sin_port)) {
      inode = ino;
      *uid = owner;
    }
  }
  fclose(f);
  return inode;
}

int direct_peer_is(int fd, pid_t pid, uint32_t *sock_uid) {
  struct sockaddr_in me, peer;
  socklen_t ml = sizeof me, pl = sizeof peer;
  if (pid <= 0 || getsockname(fd, (struct sockaddr *)&me, &ml) != 0 ||
      getpeername(fd, (struct sockaddr *)&peer, &pl) != 0 || me.sin_family != AF_INET)
    return 0;
  unsigned long inode = tcp_inode(pid, &peer, &me, sock_uid);
  if (inode == 0) return 0;
  char dir[64], link[320], target[64], want[64];
  snprintf(dir, sizeof dir, "/proc/%d/fd", (int)pid);
  snprintf(want, sizeof want, "socket:[%lu]", inode);
  DIR *d = opendir(dir);
  if (d == NULL) return 0;
  int owns = 0;
  for (struct dirent *e; !owns && (e = readdir(d)) != NULL;) {
    snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n > 0) {
      target[n] = '\0';
      owns = strcmp(target, want) == 0;
    }
  }
  closedir(d);
  return owns;
}
