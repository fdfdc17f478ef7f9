/* test_region_write.c — file regions written through a shared mapping (src/io/region_write.c):
 * the bytes land where pwrite would put them (unaligned offsets too), sixteen threads writing
 * disjoint regions of one file at once, a region past the end of the file answers -EFAULT with
 * no signal and the file unchanged, a copy that faults inside the guard returns -EFAULT (the
 * SIGBUS guard), a SIGBUS outside any guarded copy still reaches the handler installed before,
 * and bad arguments are refused. */
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

static void writes_like_pwrite(void) {
  char path[64];
  enum { SIZE = 3 << 20 };
  int fd = temp_file(path, sizeof path, SIZE);
  uint8_t *data = malloc(SIZE), *back = malloc(SIZE);
  test_fill(data, SIZE, 7);
  /* pieces at unaligned offsets, covering the file exactly */
  const size_t cuts[] = {0, 1, 4095, 4097, 65536 + 13, (1 << 20) + 5, SIZE};
  for (size_t i = 0; i + 1 < sizeof cuts / sizeof cuts[0]; i++) {
    int rc = vgw_region_write(fd, (int64_t)cuts[i], data + cuts[i], cuts[i + 1] - cuts[i]);
    skip_if_unsupported(rc);
    CHECK_EQ_INT(rc, 0);
  }
  CHECK(pread(fd, back, SIZE, 0) == SIZE);
  CHECK(memcmp(back, data, SIZE) == 0);
  struct stat st;
  CHECK(fstat(fd, &st) == 0);
  CHECK(st.st_size == SIZE); /* never grown */
  CHECK_EQ_INT(vgw_region_write(fd, 5, data, 0), 0);
  free(data);
  free(back);
  close(fd);
}

enum { WRITERS = 16, REGION = 1 << 20 };
static int shared_fd;
static uint8_t *shared_data;
static void *writer(void *arg) {
  long i = (long)arg;
  for (size_t o = 0; o < REGION; o += 65536) {
    int rc = vgw_region_write(shared_fd, (int64_t)(i * REGION + o), shared_data + i * REGION + o, 65536);
    if (rc != 0) return (void *)(intptr_t)rc;
  }
  return NULL;
}

static void many_writers_one_file(void) {
  char path[64];
  shared_fd = temp_file(path, sizeof path, (off_t)WRITERS * REGION);
  shared_data = malloc((size_t)WRITERS * REGION);
  test_fill(shared_data, (size_t)WRITERS * REGION, 11);
  skip_if_unsupported(vgw_region_write(shared_fd, 0, shared_data, 1));
  pthread_t th[WRITERS];
  for (long i = 0; i < WRITERS; i++) CHECK(pthread_create(&th[i], NULL, writer, (void *)i) == 0);
  for (int i = 0; i < WRITERS; i++) {
    void *rc;
    CHECK(pthread_join(th[i], &rc) == 0);
    CHECK(rc == NULL);
  }
  uint8_t *back = malloc((size_t)WRITERS * REGION);
  CHECK(pread(shared_fd, back, (size_t)WRITERS * REGION, 0) == (ssize_t)WRITERS * REGION);
  CHECK(memcmp(back, shared_data, (size_t)WRITERS * REGION) == 0);
  free(back);
  free(shared_data);
  close(shared_fd);
}

static void past_the_end_is_an_error(void) {
  char path[64];
  int fd = temp_file(path, sizeof path, 4096);
  uint8_t data[8192];
  memset(data, 0x5a, sizeof data);
  int rc = vgw_region_write(fd, 4096, data, sizeof data);
  skip_if_unsupported(rc);
  CHECK_EQ_INT(rc, -EFAULT);
  struct stat st;
  CHECK(fstat(fd, &st) == 0);
  CHECK(st.st_size == 4096);
  /* straddling the end: refused as a whole, the part inside the file may or may not be written,
   * and the process lives */
  CHECK_EQ_INT(vgw_region_write(fd, 2048, data, 4096), -EFAULT);
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
  CHECK_EQ_INT(vgw_region_write(-1, 0, b, 4), -EINVAL);
  CHECK_EQ_INT(vgw_region_write(0, -1, b, 4), -EINVAL);
  CHECK_EQ_INT(vgw_region_write(0, 0, NULL, 4), -EINVAL);
  char path[64];
  int fd = temp_file(path, sizeof path, 4096);
  int ro = open("/proc/self/exe", O_RDONLY);
  CHECK(ro >= 0);
  /* a descriptor not open for writing cannot be mapped for writing */
  CHECK_EQ_INT(vgw_region_write(ro, 0, b, 4), -EACCES);
  close(ro);
  close(fd);
}

TEST_MAIN(CASE(writes_like_pwrite), CASE(many_writers_one_file), CASE(past_the_end_is_an_error),
          CASE(guard_turns_sigbus_into_efault), CASE(other_sigbus_reaches_the_previous_handler),
          CASE(refuses_bad_arguments))
