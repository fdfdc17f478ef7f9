/* Region writes through a shared mapping, with a SIGBUS guard (region_write.h says why). */
#include "io/region_write.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
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

struct vgw_region {
  char *map;    /* the mapping: page-aligned, covers [base, base + span) of the file */
  int64_t base; /* file offset of map[0] */
  size_t span;
  int64_t at, len; /* the bytes writes may go to */
};

/* MADV_POPULATE_WRITE's verdict on this kernel: 0 unknown, 1 works, -1 missing (EINVAL). */
static atomic_int populate_state;

int vgw_region_map(int fd, int64_t at, uint64_t len, vgw_region_t **out) {
  if (out == NULL) return -EINVAL;
  *out = NULL;
  if (fd < 0 || at < 0 || len == 0 || len > (uint64_t)INT64_MAX - (uint64_t)at) return -EINVAL;
  if (atomic_load(&populate_state) < 0) return -EOPNOTSUPP;
  const int64_t page = (int64_t)sysconf(_SC_PAGESIZE);
  const int64_t base = at - at % page;
  const uint64_t span = (uint64_t)(at - base) + len;
  if (span > SIZE_MAX) return -EINVAL;
  vgw_region_t *r = malloc(sizeof *r);
  if (r == NULL) return -ENOMEM;
  r->map = mmap(NULL, (size_t)span, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)base);
  if (r->map == MAP_FAILED) {
    int rc = -errno;
    free(r);
    return rc;
  }
  r->base = base;
  r->span = (size_t)span;
  r->at = at;
  r->len = (int64_t)len;
  *out = r;
  return 0;
}

int vgw_region_write(vgw_region_t *r, int64_t at, const void *src, size_t len) {
  if (r == NULL || (src == NULL && len > 0)) return -EINVAL;
  if (at < r->at || (uint64_t)len > (uint64_t)(r->at + r->len - at)) return -ERANGE;
  if (len == 0) return 0;
  const int64_t page = (int64_t)sysconf(_SC_PAGESIZE);
  /* the whole pages the write touches, as offsets into the mapping */
  const size_t first = (size_t)((at - r->base) / page * page);
  const size_t end = (size_t)at - (size_t)r->base + len;
  const size_t pages = (end + (size_t)page - 1) / (size_t)page * (size_t)page - first;
  if (madvise(r->map + first, pages, MADV_POPULATE_WRITE) != 0) {
    if (errno == EINVAL) {
      atomic_store(&populate_state, -1);
      return -EOPNOTSUPP;
    }
    return errno == EFAULT || errno == ENOMEM || errno == EHWPOISON ? -EFAULT : -errno;
  }
  atomic_store(&populate_state, 1);
  int rc = vgw_guarded_copy(r->map + (at - r->base), src, len);
  /* The pages leave the mapping, dirty, in the page cache: the process does not keep them. */
  (void)madvise(r->map + first, pages, MADV_DONTNEED);
  return rc;
}

void vgw_region_unmap(vgw_region_t *r) {
  if (r == NULL) return;
  munmap(r->map, r->span);
  free(r);
}
