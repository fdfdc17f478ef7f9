/*
 * progress.h — a registration's progress gate (ABI 1.9): lets a client overlap filling its
 * memory with the gateway's access to it, without the gateway ever reading bytes not yet there
 * or the client using bytes not yet landed.
 *
 * The gate lives in the agent's region table, i.e. in the client process, and it is the agent
 * that enforces it: every gateway access to a region — a TCP READ/WRITE and, on the same-host
 * path, the DIRECT_BEGIN that must be acknowledged before the gateway copies — passes through
 * the agent first. So the gateway needs no new field and learns no client address; a client
 * that never advances its word only holds back its own transfer (the stall timeout, then the
 * gateway's own io timeout and transfer deadline bound it).
 *
 * Modes (armed per transfer by the client):
 *   OFF      — no gate: what every registration starts as (no wait, no cost).
 *   UPLOAD   — `word` = bytes staged from offset 0, written by the client (monotonic, <= size).
 *              A READ of region offsets [o, o+len) waits until word >= o+len.
 *   DOWNLOAD — `word` = bytes landed contiguously from offset 0, written by the agent after each
 *              completed WRITE (lanes finish out of order: later ranges wait in `pending` until
 *              the prefix reaches them; when `pending` is full a range is not counted and the
 *              word lags — the client copies the rest after the reply, which follows every WRITE).
 *   FAILED   — the client gave up (staging failed): waiting READs are refused at once.
 */
#ifndef SOFTNIC_PROGRESS_H
#define SOFTNIC_PROGRESS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define SNIC_PROGRESS_OFF 0u
#define SNIC_PROGRESS_UPLOAD 1u
#define SNIC_PROGRESS_DOWNLOAD 2u
#define SNIC_PROGRESS_FAILED 3u
#define SNIC_PROGRESS_PENDING 32u
#define SNIC_PROGRESS_DEFAULT_STALL_MS 5000u

typedef struct snic_progress {
  _Atomic uint64_t word;
  _Atomic uint64_t served; /* bytes of READs the agent let through since the arm (any mode) */
  _Atomic uint64_t seen; /* UPLOAD: the highest word value a waiter read (a word below it went backwards) */
  _Atomic uint32_t mode;
  _Atomic uint32_t stall_ms;
  _Atomic uint32_t generation; /* bumped by every arm: a follower of an older transfer stops */
  uint64_t size;
  pthread_mutex_t mu; /* guards pending */
  unsigned npending;
  uint64_t pending_lo[SNIC_PROGRESS_PENDING], pending_hi[SNIC_PROGRESS_PENDING];
} snic_progress_t;

void progress_init(snic_progress_t *p, uint64_t size);
void progress_destroy(snic_progress_t *p);

/* Sets the mode for the next transfer, word 0, nothing pending. stall_ms 0 = the default.
 * -EINVAL for an unknown mode. */
int progress_arm(snic_progress_t *p, uint32_t mode, uint32_t stall_ms);

/* Raises the word to `bytes` (never lowers it); -ERANGE beyond the size. For the client's
 * staging (UPLOAD) and for "the reply came: everything landed" (DOWNLOAD). */
int progress_publish(snic_progress_t *p, uint64_t bytes);

/* Agent, before serving a READ of region offsets [off, off+len): 0 at once unless UPLOAD;
 * else waits (poll with backoff) until word >= off+len. -ETIME when the word did not advance
 * for stall_ms, -ENODATA when the gate is FAILED or the word is broken (went backwards or
 * beyond the size), -ECONNABORTED when `conn_fd` became readable or hung up (the gateway gave
 * up: canceled) or `stop_fd` fired (the agent stops). */
int progress_wait_staged(snic_progress_t *p, uint64_t off, uint64_t len, int conn_fd, int stop_fd);

/* Agent, after a READ of len bytes was served: counts it (how far the gateway has read). */
void progress_served(snic_progress_t *p, uint64_t len);

/* Agent, after [off, off+len) was written and is in memory: advances the contiguous prefix
 * (DOWNLOAD only; a no-op otherwise). */
void progress_landed(snic_progress_t *p, uint64_t off, uint64_t len);

/* Client (download follower): waits until word >= want. 0, -ECANCELED when the gate left
 * DOWNLOAD or was armed again (generation differs), -ETIME no advance for stall_ms. */
int progress_wait_landed(snic_progress_t *p, uint64_t want, uint32_t generation);

#endif
