/* direct.c — process_vm_readv/writev wrapper (see direct.h). */
#include "direct.h"

#include <errno.h>
#include <sys/uio.h>

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
