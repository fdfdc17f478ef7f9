/*
 * last_error.h — internal: record a failure's negative errno and message for
 * vgw_shim_last_error() on the calling thread.
 */
#ifndef VGW_LAST_ERROR_H
#define VGW_LAST_ERROR_H

/* Records (err, message) for this thread and returns err, so callers can write
 * `return vgw_fail(-EINVAL, "size %zu too large", n);`. err must be negative. */
int vgw_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Same, for functions that return a pointer: records and returns NULL. */
void *vgw_fail_null(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Forgets this thread's last failure (errno 0, empty message): a worker calls it before each job,
 * so the text it reports for a failed job is that job's. */
void vgw_clear_error(void);

#endif
