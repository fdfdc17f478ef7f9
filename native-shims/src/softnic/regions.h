/*
 * regions.h — the agent's table of registered regions. Invariant: a region is reachable by the
 * gateway only between add() and remove(); remove() returns only after every pin taken by an
 * in-flight request is released, so no byte moves into or out of memory the client freed.
 */
#ifndef SOFTNIC_REGIONS_H
#define SOFTNIC_REGIONS_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "progress.h"

typedef struct snic_region {
  uint32_t rkey;
  uint8_t dead; /* being removed: no new pins */
  uint32_t pins;
  uintptr_t base;
  size_t size;
  snic_progress_t progress; /* the gate (progress.h); OFF unless the client arms it */
  struct snic_region *next;
} snic_region_t;

typedef struct snic_regions {
  pthread_mutex_t mu;
  pthread_cond_t unpinned;
  snic_region_t *head;
} snic_regions_t;

int regions_init(snic_regions_t *t);
void regions_destroy(snic_regions_t *t); /* frees remaining entries (no memory they describe) */

/* Add [base, base+size) under a fresh random non-zero rkey; returns the rkey (>0) via out. */
int regions_add(snic_regions_t *t, uintptr_t base, size_t size, uint32_t *rkey_out);
/* Stop new access, wait for pins to drain, forget the region. -ENOENT for an unknown rkey. */
int regions_remove(snic_regions_t *t, uint32_t rkey);

/* Pin for one request: -EACCES unknown/dead rkey, -ERANGE [addr, addr+len) not inside the
 * region (len 0 refused too). On success *out is the pinned region. */
int regions_pin(snic_regions_t *t, uint32_t rkey, uint64_t addr, uint64_t len, snic_region_t **out);
void regions_unpin(snic_regions_t *t, snic_region_t *r);

/* The region's progress gate, valid until regions_remove(rkey); NULL for an unknown rkey. */
snic_progress_t *regions_progress(snic_regions_t *t, uint32_t rkey);

/* 1 if any live region overlaps [base, base+size). */
int regions_overlap(snic_regions_t *t, uintptr_t base, size_t size);

#endif
