/* How fast can parts land in one file? T writer threads take 64 MiB parts of a 4 GiB object from a
 * shared counter and write each one in 8 MiB chunks, from a source buffer of their own (as a
 * gateway's pool slices are), in one of several ways; B further threads burn CPU meanwhile (as a
 * gateway's MD5s do), so the writers compete for cores as they do in an upload, and M threads copy
 * memory meanwhile (as its READs do), so the writers compete for memory bandwidth too. Prints GB/s and
 * the CPU the writers spent (user + system, core-seconds per GB): a writer that spins on the
 * file's lock shows up as system time. Files go in DIR (default /tmp). docs/performance.md.
 *   gcc -O2 -Wall -Wextra -Werror -o /tmp/one-file-writers bench/device/one-file-writers.c -lpthread
 *   /tmp/one-file-writers [-t 16] [-b 0] [-d /tmp] [-s 4096] [-f 2048] [-m 0] [-k 3] [mode ...]
 * Modes:
 *   files     one file per part (no shared lock: the ceiling)
 *   pwrite    one file, preallocated (fallocate), pwrite (what the gateway does)
 *   serial    the same, one writer at a time (a user-space mutex instead of the kernel's lock)
 *   mapchunk  one file, preallocated, each chunk through its own shared mapping (MADV_POPULATE_WRITE)
 *   mappart   the same with one mapping per part, populated chunk by chunk
 *   mapwin    one mapping per part, each chunk unmapped once written (at most a chunk mapped)
 *   mapdrop   one mapping per part, each chunk's pages dropped once written (MADV_DONTNEED: no
 *             mapping change, so no mmap lock taken for writing; at most a chunk mapped)
 *   direct    one file, preallocated, O_DIRECT (the disk, not the page cache)
 *   fillwrite one file, preallocated: each chunk's page cache is first filled by readahead(2) (zeroed
 *             folios of the unwritten extent, no inode lock taken), then pwrite copies into it
 *   fillserial the same, the pwrites one at a time (a user-space mutex, as the gateway's gate), the
 *             readaheads outside it, in parallel
 *   fillonly  the readaheads alone (what filling costs)
 *   mixed     one file, preallocated: every K-th part (-k, default 3) by O_DIRECT through a second
 *             descriptor (to the disk, the inode lock shared), the others by pwrite one at a time
 *             (a user-space mutex): can the disk take a share beside the page cache? */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

enum { PART = 64u << 20, CHUNK = 8u << 20, MAXT = 64 };
typedef enum { FILES, PWRITE, SERIAL, MAPCHUNK, MAPPART, MAPWIN, MAPDROP, DIRECT, FILLWRITE, FILLSERIAL, FILLONLY, MIXED } mode_t_;
static const char *NAMES[] = {"files", "pwrite", "serial", "mapchunk", "mappart", "mapwin", "mapdrop", "direct", "fillwrite", "fillserial", "fillonly", "mixed"};

static mode_t_ mode;
static int shared_fd = -1;
static int direct_fd = -1; /* MIXED: the same file opened with O_DIRECT */
static size_t direct_every = 3;
static const char *dir = "/tmp";
static size_t total;
static atomic_size_t next_part;
static atomic_int stop_burn;
static atomic_size_t copied; /* bytes the memory burners moved */
static pthread_mutex_t serial_mu = PTHREAD_MUTEX_INITIALIZER;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double thread_cpu(void) {
  struct rusage u;
  getrusage(RUSAGE_THREAD, &u);
  return (double)u.ru_utime.tv_sec + (double)u.ru_utime.tv_usec * 1e-6 + (double)u.ru_stime.tv_sec +
         (double)u.ru_stime.tv_usec * 1e-6;
}

static void die(const char *what) {
  perror(what);
  exit(1);
}

static void write_chunk(int fd, const char *src, size_t len, off_t at) {
  size_t done = 0;
  while (done < len) {
    ssize_t n = pwrite(fd, src + done, len - done, at + (off_t)done);
    if (n <= 0) die("pwrite");
    done += (size_t)n;
  }
}

/* One chunk into the shared file, one writer at a time (a user-space mutex, as the gateway's gate). */
static void serial_write(const char *src, off_t at) {
  pthread_mutex_lock(&serial_mu);
  write_chunk(shared_fd, src, CHUNK, at);
  pthread_mutex_unlock(&serial_mu);
}

/* readahead(2) reads at most the device's readahead window per call: step through the range. */
static size_t fill_step = 2u << 20;
static void fill_range(int fd, off_t at, size_t len) {
  for (size_t o = 0; o < len; o += fill_step)
    if (readahead(fd, at + (off_t)o, len - o < fill_step ? len - o : fill_step)) die("readahead");
}

/* The share of [at, at + len) that is in the page cache (checked once, to see the fill works). */
static double cached_share(int fd, off_t at, size_t len) {
  void *m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, at);
  if (m == MAP_FAILED) die("mmap check");
  size_t pages = len / 4096, in = 0;
  unsigned char *v = malloc(pages);
  if (v == NULL || mincore(m, len, v)) die("mincore");
  for (size_t i = 0; i < pages; i++) in += v[i] & 1;
  free(v);
  munmap(m, len);
  return (double)in / (double)pages;
}

static void write_part(size_t p, const char *src) {
  off_t base = (off_t)(p * PART);
  if (mode == FILES) {
    char path[512];
    snprintf(path, sizeof path, "%s/ofw-part-%zu", dir, p);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) die("open part");
    for (size_t o = 0; o < PART; o += CHUNK) write_chunk(fd, src + o, CHUNK, (off_t)o);
    close(fd);
    return;
  }
  char *part_map = NULL;
  if (mode == MAPPART || mode == MAPWIN || mode == MAPDROP) {
    part_map = mmap(NULL, PART, PROT_READ | PROT_WRITE, MAP_SHARED, shared_fd, base);
    if (part_map == MAP_FAILED) die("mmap part");
  }
  for (size_t o = 0; o < PART; o += CHUNK) {
    switch (mode) {
      case SERIAL:
        serial_write(src + o, base + (off_t)o);
        break;
      case MAPCHUNK: {
        char *m = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_SHARED, shared_fd, base + (off_t)o);
        if (m == MAP_FAILED) die("mmap chunk");
        if (madvise(m, CHUNK, MADV_POPULATE_WRITE)) die("populate");
        memcpy(m, src + o, CHUNK);
        munmap(m, CHUNK);
        break;
      }
      case MAPPART:
      case MAPWIN:
      case MAPDROP:
        if (madvise(part_map + o, CHUNK, MADV_POPULATE_WRITE)) die("populate");
        memcpy(part_map + o, src + o, CHUNK);
        if (mode == MAPWIN) munmap(part_map + o, CHUNK);
        if (mode == MAPDROP && madvise(part_map + o, CHUNK, MADV_DONTNEED)) die("dontneed");
        break;
      case MIXED:
        if (p % direct_every == 0) {
          write_chunk(direct_fd, src + o, CHUNK, base + (off_t)o);
        } else {
          serial_write(src + o, base + (off_t)o);
        }
        break;
      case FILLWRITE:
        fill_range(shared_fd, base + (off_t)o, CHUNK);
        write_chunk(shared_fd, src + o, CHUNK, base + (off_t)o);
        break;
      case FILLSERIAL:
        fill_range(shared_fd, base + (off_t)o, CHUNK);
        serial_write(src + o, base + (off_t)o);
        break;
      case FILLONLY:
        fill_range(shared_fd, base + (off_t)o, CHUNK);
        break;
      default: /* PWRITE, DIRECT */
        write_chunk(shared_fd, src + o, CHUNK, base + (off_t)o);
    }
  }
  if (part_map != NULL && mode != MAPWIN) munmap(part_map, PART);
}

static pthread_barrier_t filled; /* the writers' sources are faulted in: the clock starts */
static double writers_cpu;
static pthread_mutex_t cpu_mu = PTHREAD_MUTEX_INITIALIZER;

static void *writer(void *arg) {
  (void)arg;
  char *src = aligned_alloc(4096, PART);
  if (src == NULL) die("alloc");
  memset(src, 7, PART); /* faulted in before the clock starts: the bytes a pool slice holds */
  double fill_cpu = thread_cpu();
  pthread_barrier_wait(&filled);
  for (;;) {
    size_t p = atomic_fetch_add(&next_part, 1);
    if (p * PART >= total) break;
    write_part(p, src);
  }
  double c = thread_cpu() - fill_cpu;
  pthread_mutex_lock(&cpu_mu);
  writers_cpu += c;
  pthread_mutex_unlock(&cpu_mu);
  free(src);
  return NULL;
}

static void *burner(void *arg) {
  volatile uint64_t x = (uint64_t)(uintptr_t)arg;
  while (!atomic_load_explicit(&stop_burn, memory_order_relaxed))
    for (int i = 0; i < 100000; i++) x = x * 6364136223846793005u + 1442695040888963407u;
  return NULL;
}

static int mode_of(const char *s) {
  for (size_t i = 0; i < sizeof NAMES / sizeof NAMES[0]; i++)
    if (strcmp(s, NAMES[i]) == 0) return (int)i;
  return -1;
}

/* VmHWM of this process, in MiB (reset before each mode through clear_refs). */
static long peak_rss_mib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f != NULL && fgets(line, sizeof line, f) != NULL)
    if (sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
  if (f != NULL) fclose(f);
  return kib < 0 ? -1 : kib / 1024;
}

static void reset_peak_rss(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (f != NULL) {
    fputs("5", f);
    fclose(f);
  }
}

/* A memory burner copies 64 MiB between two buffers of its own, over and over: the memory traffic
 * of a gateway's READs (softnic copies) beside the writes. Its rate shows what the writes cost it. */
static void *mem_burner(void *arg) {
  (void)arg;
  enum { SPAN = 64u << 20 };
  char *a = aligned_alloc(4096, SPAN), *b = aligned_alloc(4096, SPAN);
  if (a == NULL || b == NULL) die("alloc burner");
  memset(a, 1, SPAN);
  memset(b, 2, SPAN);
  while (!atomic_load_explicit(&stop_burn, memory_order_relaxed)) {
    for (size_t o = 0; o < SPAN; o += CHUNK) memcpy(b + o, a + o, CHUNK);
    atomic_fetch_add(&copied, SPAN);
  }
  free(a);
  free(b);
  return NULL;
}

static int mem_burners;

static void run_mode(int threads, int burners) {
  char path[512];
  snprintf(path, sizeof path, "%s/ofw-object", dir);
  if (mode != FILES) {
    unlink(path);
    shared_fd = open(path, O_RDWR | O_CREAT | O_TRUNC | (mode == DIRECT ? O_DIRECT : 0), 0600);
    if (shared_fd < 0) die("open object");
    if (fallocate(shared_fd, 0, 0, (off_t)total)) die("fallocate");
    if (mode == MIXED && (direct_fd = open(path, O_RDWR | O_DIRECT)) < 0) die("open direct");
    if (mode >= FILLWRITE && mode <= FILLONLY) { /* does readahead fill an unwritten extent's page cache? */
      fill_range(shared_fd, (off_t)(total - CHUNK), CHUNK);
      printf("  (readahead step %zu KiB filled %.0f%% of a chunk)\n", fill_step >> 10,
             100.0 * cached_share(shared_fd, (off_t)(total - CHUNK), CHUNK));
    }
  }
  atomic_store(&next_part, 0);
  atomic_store(&stop_burn, 0);
  writers_cpu = 0;
  pthread_t w[MAXT], b[MAXT], mb[MAXT];
  for (int i = 0; i < burners; i++) pthread_create(&b[i], NULL, burner, (void *)(uintptr_t)(i + 1));
  for (int i = 0; i < mem_burners; i++) pthread_create(&mb[i], NULL, mem_burner, NULL);
  pthread_barrier_init(&filled, NULL, (unsigned)threads + 1);
  for (int i = 0; i < threads; i++) pthread_create(&w[i], NULL, writer, NULL);
  pthread_barrier_wait(&filled);
  reset_peak_rss();
  size_t copied0 = atomic_load(&copied);
  double t = now();
  for (int i = 0; i < threads; i++) pthread_join(w[i], NULL);
  double s = now() - t;
  double mem_rate = (double)(atomic_load(&copied) - copied0) / s / 1e9;
  atomic_store(&stop_burn, 1);
  for (int i = 0; i < burners; i++) pthread_join(b[i], NULL);
  for (int i = 0; i < mem_burners; i++) pthread_join(mb[i], NULL);
  pthread_barrier_destroy(&filled);
  printf("%-9s %2d writers %2d burners  %6.2f GB/s  %5.2f writer core-s per GB  peak RSS %ld MiB", NAMES[mode],
         threads, burners, (double)total / s / 1e9, writers_cpu / ((double)total / 1e9), peak_rss_mib());
  if (mem_burners > 0) printf("  %d memory burners copied %.2f GB/s", mem_burners, mem_rate);
  printf("\n");
  fflush(stdout);
  if (mode != FILES) {
    if (direct_fd >= 0) close(direct_fd);
    direct_fd = -1;
    close(shared_fd);
    unlink(path);
  } else {
    for (size_t p = 0; p * PART < total; p++) {
      snprintf(path, sizeof path, "%s/ofw-part-%zu", dir, p);
      unlink(path);
    }
  }
}

int main(int argc, char **argv) {
  int threads = 16, burners = 0, opt;
  size_t mib = 4096;
  while ((opt = getopt(argc, argv, "t:b:d:s:f:m:k:")) != -1) {
    if (opt == 'k') direct_every = (size_t)strtoull(optarg, NULL, 10);
    else if (opt == 'm') mem_burners = atoi(optarg);
    else if (opt == 'f') fill_step = (size_t)strtoull(optarg, NULL, 10) << 10;
    else if (opt == 't') threads = atoi(optarg);
    else if (opt == 'b') burners = atoi(optarg);
    else if (opt == 'd') dir = optarg;
    else if (opt == 's') mib = (size_t)strtoull(optarg, NULL, 10);
    else {
      fprintf(stderr, "usage: %s [-t writers] [-b burners] [-d dir] [-s MiB] [-f fill step KiB] [-m memory burners] [-k every K-th part direct] [mode ...]\n", argv[0]);
      return 2;
    }
  }
  if (threads < 1 || threads > MAXT || burners < 0 || burners > MAXT || mem_burners < 0 || mem_burners > MAXT ||
      mib < 64 || direct_every < 1 || fill_step < 4096) {
    fprintf(stderr, "-t 1..%d, -b and -m 0..%d, -s at least 64, -k at least 1, -f at least 4\n", MAXT, MAXT);
    return 2;
  }
  total = mib << 20;
  total -= total % PART;
  for (int i = optind; i < argc || i == optind; i++) {
    const char *m = i < argc ? argv[i] : NULL;
    if (m == NULL) { /* no mode named: all of them but direct */
      for (int k = FILES; k <= MAPDROP; k++) {
        mode = (mode_t_)k;
        run_mode(threads, burners);
      }
      break;
    }
    int k = mode_of(m);
    if (k < 0) {
      fprintf(stderr, "unknown mode %s\n", m);
      return 2;
    }
    mode = (mode_t_)k;
    run_mode(threads, burners);
  }
  return 0;
}
