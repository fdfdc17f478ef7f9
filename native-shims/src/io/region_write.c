/* Region writes through a shared mapping, with a SIGBUS guard (region_write.h says why). */
#include "io/region_write.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/* The copy running on this thread jumps here on SIGBUS. Read by the handler only while `guards`
 * is non-zero, so a thread that never guarded a copy never touches its TLS from the handler. */
static __thread sigjmp_buf *volatile tls_jump;
static atomic_int guards;
static struct sigaction previous;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_errno;

static void on_sigbus(int sig, siginfo_t *info, void *uctx) {
  if (atomic_load(&guards) > 0) {
    sigjmp_buf *jump = tls_jump;
    if (jump != NULL) {
      tls_jump = NULL;
      siglongjmp(*jump, 1);
    }
  }
  /* Not ours: what was there before decides. */
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL) {
    previous.sa_sigaction(sig, info, uctx);
    return;
  }
  if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(sig);
    return;
  }
  /* The default action: returning re-runs the faulting access, which now dies of SIGBUS. */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGBUS, &dfl, NULL);
}

static void install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigbus;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGBUS, &sa, &previous) != 0) install_errno = errno;
}

int vgw_guarded_copy(void *dst, const void *src, size_t len) {
  pthread_once(&install_once, install);
  if (install_errno != 0) return -install_errno;
  sigjmp_buf jump;
  atomic_fetch_add(&guards, 1);
  if (sigsetjmp(jump, 1) != 0) {
    atomic_fetch_sub(&guards, 1);
    return -EFAULT;
  }
  tls_jump = &jump;
  memcpy(dst, src, len);
  tls_jump = NULL;
  atomic_fetch_sub(&guards, 1);
  return 0;
}

int vgw_region_write(int fd, int64_t at, const void *src, size_t len) {
  if (fd < 0 || at < 0 || (src == NULL && len > 0)) return -EINVAL;
  if (len == 0) return 0;
  const int64_t page = (int64_t)sysconf(_SC_PAGESIZE);
  const int64_t base = at - at % page;
  const size_t lead = (size_t)(at - base);
  const size_t span = lead + len;
  char *map = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)base);
  if (map == MAP_FAILED) return -errno;
  int rc = 0;
  if (madvise(map, span, MADV_POPULATE_WRITE) != 0)
    rc = errno == EINVAL ? -EOPNOTSUPP : -errno;
  else
    rc = vgw_guarded_copy(map + lead, src, len);
  munmap(map, span);
  return rc;
}
