/* regions.c — registered-region table with rkey + bounds checks and pin counts (regions.h). */
#include "regions.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>

int regions_init(snic_regions_t *t) {
  t->head = NULL;
  if (pthread_mutex_init(&t->mu, NULL) != 0) return -ENOMEM;
  if (pthread_cond_init(&t->unpinned, NULL) != 0) {
    pthread_mutex_destroy(&t->mu);
    return -ENOMEM;
  }
  return 0;
}

void regions_destroy(snic_regions_t *t) {
  snic_region_t *r = t->head;
  while (r) {
    snic_region_t *n = r->next;
    progress_destroy(&r->progress);
    free(r);
    r = n;
  }
  t->head = NULL;
  pthread_cond_destroy(&t->unpinned);
  pthread_mutex_destroy(&t->mu);
}

static snic_region_t *find(snic_regions_t *t, uint32_t rkey) {
  for (snic_region_t *r = t->head; r; r = r->next)
    if (r->rkey == rkey) return r;
  return NULL;
}

/* rkeys are random so a gateway cannot guess another region's key from its own. */
static uint32_t random_rkey(void) {
  uint32_t k = 0;
  while (k == 0)
    if (getrandom(&k, sizeof k, 0) != (ssize_t)sizeof k) k = (uint32_t)random();
  return k;
}

int regions_add(snic_regions_t *t, uintptr_t base, size_t size, uint32_t *rkey_out) {
  snic_region_t *r = calloc(1, sizeof *r);
  if (r == NULL) return -ENOMEM;
  r->base = base;
  r->size = size;
  progress_init(&r->progress, size);
  pthread_mutex_lock(&t->mu);
  do r->rkey = random_rkey();
  while (find(t, r->rkey) != NULL);
  r->next = t->head;
  t->head = r;
  *rkey_out = r->rkey;
  pthread_mutex_unlock(&t->mu);
  return 0;
}

int regions_remove(snic_regions_t *t, uint32_t rkey) {
  pthread_mutex_lock(&t->mu);
  snic_region_t *r = find(t, rkey);
  if (r == NULL || r->dead) {
    pthread_mutex_unlock(&t->mu);
    return -ENOENT;
  }
  r->dead = 1;
  while (r->pins > 0) pthread_cond_wait(&t->unpinned, &t->mu);
  for (snic_region_t **pp = &t->head; *pp; pp = &(*pp)->next)
    if (*pp == r) {
      *pp = r->next;
      break;
    }
  pthread_mutex_unlock(&t->mu);
  progress_destroy(&r->progress);
  free(r);
  return 0;
}

snic_progress_t *regions_progress(snic_regions_t *t, uint32_t rkey) {
  pthread_mutex_lock(&t->mu);
  snic_region_t *r = find(t, rkey);
  pthread_mutex_unlock(&t->mu);
  return r ? &r->progress : NULL;
}

int regions_pin(snic_regions_t *t, uint32_t rkey, uint64_t addr, uint64_t len, snic_region_t **out) {
  pthread_mutex_lock(&t->mu);
  snic_region_t *r = find(t, rkey);
  int rc = 0;
  if (r == NULL || r->dead) {
    rc = -EACCES;
  } else if (len == 0 || addr < r->base || addr - r->base > r->size || len > r->size - (addr - r->base)) {
    rc = -ERANGE; /* written to be overflow-free: no addr + len */
  } else {
    r->pins++;
    *out = r;
  }
  pthread_mutex_unlock(&t->mu);
  return rc;
}

void regions_unpin(snic_regions_t *t, snic_region_t *r) {
  pthread_mutex_lock(&t->mu);
  if (--r->pins == 0) pthread_cond_broadcast(&t->unpinned);
  pthread_mutex_unlock(&t->mu);
}

int regions_overlap(snic_regions_t *t, uintptr_t base, size_t size) {
  int hit = 0;
  pthread_mutex_lock(&t->mu);
  for (snic_region_t *r = t->head; r && !hit; r = r->next)
    hit = base < r->base + r->size && r->base < base + size; /* dead ones too: still pinned */
  pthread_mutex_unlock(&t->mu);
  return hit;
}
