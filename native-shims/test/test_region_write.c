/* test_region_write.c — file regions written through a shared mapping (src/io/region_write.c):
 * the bytes land where pwrite would put them (unaligned region and offsets too), a written page
 * leaves the mapping (the process's RSS does not grow with the region), sixteen threads writing
 * disjoint parts of one region at once, a region past the end of the file answers -EFAULT with
 * no signal and the file unchanged, a file truncated under a region answers -EFAULT, a copy that
 * faults inside the guard returns -EFAULT (the SIGBUS guard), a SIGBUS outside any guarded copy
 * still reaches the handler installed before, and bad arguments are refused. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "io/region_write.h"

static int temp_file(char *path, size_t cap, off_t size) {
  snprintf(path, cap, "/tmp/vgw-region-XXXXXX");
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  unlink(path);
  if (size > 0) CHECK(ftruncate(fd, size) == 0);
  return fd;
}

static void skip_if_unsupported(int rc) {
  if (rc == -EOPNOTSUPP) skip_case("this kernel has no MADV_POPULATE_WRITE");
}

/* Maps [at, at + len) of fd, skipping the case where this kernel cannot populate for writing. */
static vgw_region_t *map_or_skip(int fd, int64_t at, uint64_t len) {
  vgw_region_t *r = NULL;
  int rc = vgw_region_map(fd, at, len, &r);
  if (rc == 0) {
    uint8_t probe = 0;
    rc = vgw_region_write(r, at, &probe, 0); /* nothing written: len 0 is a no-op */
  }
  skip_if_unsupported(rc);
  CHECK_EQ_INT(rc, 0);
  CHECK(r != NULL);
  return r;
}

/* Resident pages of [p, p + len) in this process (mincore on a file mapping says whether the
 * page is in the page cache, so read RSS from /proc instead). */
static long rss_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f != NULL && fgets(line, sizeof line, f) != NULL)
    if (sscanf(line, "RssFile: %ld kB", &kib) == 1) break;
  if (f != NULL) fclose(f);
  return kib;
}

static void writes_like_pwrite(void) {
  char path[64];
  enum { SIZE = 3 << 20, LEAD = 4096 + 17 };
  int fd = temp_file(path, sizeof path, SIZE + LEAD);
  uint8_t *data = malloc(SIZE), *back = malloc(SIZE);
  test_fill(data, SIZE, 7);
  /* a region that does not start on a page, written in pieces at unaligned offsets */
  vgw_region_t *r = map_or_skip(fd, LEAD, SIZE);
  const size_t cuts[] = {0, 1, 4095, 4097, 65536 + 13, (1 << 20) + 5, SIZE};
  for (size_t i = 0; i + 1 < sizeof cuts / sizeof cuts[0]; i++)
    CHECK_EQ_INT(vgw_region_write(r, LEAD + (int64_t)cuts[i], data + cuts[i], cuts[i + 1] - cuts[i]), 0);
  vgw_region_unmap(r);
  CHECK(pread(fd, back, SIZE, LEAD) == SIZE);
  CHECK(memcmp(back, data, SIZE) == 0);
  uint8_t head[LEAD];
  CHECK(pread(fd, head, LEAD, 0) == LEAD);
  for (size_t i = 0; i < LEAD; i++) CHECK(head[i] == 0); /* nothing before the region changed */
  struct stat st;
  CHECK(fstat(fd, &st) == 0);
  CHECK(st.st_size == SIZE + LEAD); /* never grown */
  free(data);
  free(back);
  close(fd);
}

static void written_pages_leave_the_mapping(void) {
  char path[64];
  enum { SIZE = 64 << 20 };
  int fd = temp_file(path, sizeof path, SIZE);
  uint8_t *data = malloc(1 << 20);
  test_fill(data, 1 << 20, 3);
  long before = rss_kib();
  vgw_region_t *r = map_or_skip(fd, 0, SIZE);
  for (size_t o = 0; o < SIZE; o += 1 << 20) CHECK_EQ_INT(vgw_region_write(r, (int64_t)o, data, 1 << 20), 0);
  long after = rss_kib();
  vgw_region_unmap(r);
  /* 64 MiB written; at most a few pages of it may still count as this process's */
  CHECK(before >= 0 && after >= 0);
  CHECK(after - before < 4096);
  uint8_t back[1 << 12];
  CHECK(pread(fd, back, sizeof back, SIZE - (1 << 20)) == (ssize_t)sizeof back);
  CHECK(memcmp(back, data, sizeof back) == 0);
  free(data);
  close(fd);
}

enum { WRITERS = 16, REGION = 1 << 20 };
static vgw_region_t *shared_region;
static uint8_t *shared_data;
static void *writer(void *arg) {
  long i = (long)arg;
  for (size_t o = 0; o < REGION; o += 65536) {
    int rc = vgw_region_write(shared_region, (int64_t)(i * REGION + o), shared_data + i * REGION + o, 65536);
    if (rc != 0) return (void *)(intptr_t)rc;
  }
  return NULL;
}

static void many_writers_one_region(void) {
  char path[64];
  int fd = temp_file(path, sizeof path, (off_t)WRITERS * REGION);
  shared_data = malloc((size_t)WRITERS * REGION);
  test_fill(shared_data, (size_t)WRITERS * REGION, 11);
  shared_region = map_or_skip(fd, 0, (uint64_t)WRITERS * REGION);
  pthread_t th[WRITERS];
  for (long i = 0; i < WRITERS; i++) CHECK(pthread_create(&th[i], NULL, writer, (void *)i) == 0);
  for (int i = 0; i < WRITERS; i++) {
    void *rc;
    CHECK(pthread_join(th[i], &rc) == 0);
    CHECK(rc == NULL);
  }
  vgw_region_unmap(shared_region);
  uint8_t *back = malloc((size_t)WRITERS * REGION);
  CHECK(pread(fd, back, (size_t)WRITERS * REGION, 0) == (ssize_t)WRITERS * REGION);
  CHECK(memcmp(back, shared_data, (size_t)WRITERS * REGION) == 0);
  free(back);
  free(shared_data);
  close(fd);
}

static void past_the_end_is_an_error(void) {
  char path[64];
  int fd = temp_file(path, sizeof path, 4096);
  uint8_t data[8192];
  memset(data, 0x5a, sizeof data);
  vgw_region_t *r = map_or_skip(fd, 0, 3 * 4096);
  CHECK_EQ_INT(vgw_region_write(r, 4096, data, sizeof data), -EFAULT);
  /* straddling the end: refused as a whole, and the process lives */
  CHECK_EQ_INT(vgw_region_write(r, 2048, data, 4096), -EFAULT);
  vgw_region_unmap(r);
  struct stat st;
  CHECK(fstat(fd, &st) == 0);
  CHECK(st.st_size == 4096);
  close(fd);
}

static void truncated_underneath_is_an_error(void) {
  /* Another request truncates the file while a region of it is mapped (what a hostile client's
   * Complete racing its own UploadPart could do): the write fails, the process lives. */
  char path[64];
  enum { SIZE = 1 << 20 };
  int fd = temp_file(path, sizeof path, SIZE);
  uint8_t *data = malloc(SIZE);
  test_fill(data, SIZE, 5);
  vgw_region_t *r = map_or_skip(fd, 0, SIZE);
  CHECK_EQ_INT(vgw_region_write(r, 0, data, 4096), 0);
  CHECK(ftruncate(fd, 4096) == 0);
  CHECK_EQ_INT(vgw_region_write(r, 8192, data, SIZE - 8192), -EFAULT);
  vgw_region_unmap(r);
  free(data);
  close(fd);
}

static void guard_turns_sigbus_into_efault(void) {
  char path[64];
  long page = sysconf(_SC_PAGESIZE);
  int fd = temp_file(path, sizeof path, page);
  char *map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  CHECK(map != MAP_FAILED);
  char src[64];
  memset(src, 1, sizeof src);
  CHECK_EQ_INT(vgw_guarded_copy(map, src, sizeof src), 0);
  CHECK(map[0] == 1);
  /* the second page lies past the end of the file: touching it raises SIGBUS */
  CHECK_EQ_INT(vgw_guarded_copy(map + page, src, sizeof src), -EFAULT);
  /* and the guard is still armed for the next one */
  CHECK_EQ_INT(vgw_guarded_copy(map + page + 8, src, sizeof src), -EFAULT);
  munmap(map, (size_t)page * 2);
  close(fd);
}

static sigjmp_buf outside_jump;
static volatile sig_atomic_t outside_seen;
static void outside_handler(int sig) {
  (void)sig;
  outside_seen = 1;
  siglongjmp(outside_jump, 1);
}

static void other_sigbus_reaches_the_previous_handler(void) {
  /* A handler installed before the guard's: the guard keeps it for faults that are not its own. */
  signal(SIGBUS, outside_handler);
  char path[64];
  long page = sysconf(_SC_PAGESIZE);
  int fd = temp_file(path, sizeof path, page);
  char *map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  CHECK(map != MAP_FAILED);
  char src[8] = {0};
  CHECK_EQ_INT(vgw_guarded_copy(map + page, src, sizeof src), -EFAULT); /* installs the guard */
  if (sigsetjmp(outside_jump, 1) == 0) {
    volatile char *p = map + page;
    *p = 1; /* not in a guarded copy */
    CHECK(0 && "the store past the end did not fault");
  }
  CHECK(outside_seen == 1);
  munmap(map, (size_t)page * 2);
  close(fd);
}

static void refuses_bad_arguments(void) {
  uint8_t b[4] = {0};
  vgw_region_t *r = (vgw_region_t *)1;
  CHECK_EQ_INT(vgw_region_map(-1, 0, 4, &r), -EINVAL);
  CHECK(r == NULL);
  CHECK_EQ_INT(vgw_region_map(0, -1, 4, &r), -EINVAL);
  CHECK_EQ_INT(vgw_region_map(0, 0, 0, &r), -EINVAL);
  CHECK_EQ_INT(vgw_region_map(0, 0, 4, NULL), -EINVAL);
  CHECK_EQ_INT(vgw_region_write(NULL, 0, b, 4), -EINVAL);
  vgw_region_unmap(NULL);
  char path[64];
  int fd = temp_file(path, sizeof path, 3 * 4096);
  r = map_or_skip(fd, 4096, 4096);
  CHECK_EQ_INT(vgw_region_write(r, 4096, NULL, 4), -EINVAL);
  CHECK_EQ_INT(vgw_region_write(r, 4095, b, 4), -ERANGE); /* starts before the region */
  CHECK_EQ_INT(vgw_region_write(r, 8190, b, 4), -ERANGE); /* ends after it */
  CHECK_EQ_INT(vgw_region_write(r, 8188, b, 4), 0);
  vgw_region_unmap(r);
  /* a descriptor not open for writing cannot be mapped for writing */
  int ro = open("/proc/self/exe", O_RDONLY);
  CHECK(ro >= 0);
  CHECK_EQ_INT(vgw_region_map(ro, 0, 4, &r), -EACCES);
  close(ro);
  close(fd);
}

TEST_MAIN(CASE(writes_like_pwrite), CASE(written_pages_leave_the_mapping), CASE(many_writers_one_region),
          CASE(past_the_end_is_an_error), CASE(truncated_underneath_is_an_error),
          CASE(guard_turns_sigbus_into_efault), CASE(other_sigbus_reaches_the_previous_handler),
          CASE(refuses_bad_arguments))
