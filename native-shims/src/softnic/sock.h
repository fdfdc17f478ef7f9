/*
 * sock.h — blocking socket helpers with timeouts, mapping every failure to a negative errno the
 * ABI promises (-EIO lost peer, -ETIMEDOUT, -ENODEV unreachable, -EPROTO bad frame).
 */
#ifndef SOFTNIC_SOCK_H
#define SOFTNIC_SOCK_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/* Full send/recv; -EIO on EOF/reset, -ETIMEDOUT on a socket timeout. */
int sock_send_all(int fd, const void *buf, size_t len);
int sock_recv_all(int fd, void *buf, size_t len);
/* One header (+ optional payload in one syscall via sendmsg). */
int sock_send_hdr(int fd, const snic_hdr_t *h, const void *payload, size_t payload_len);
int sock_recv_hdr(int fd, snic_hdr_t *h);

/* SO_RCVTIMEO/SO_SNDTIMEO in milliseconds (0 = none). */
int sock_set_timeouts(int fd, uint32_t ms);
/* Non-blocking connect bounded by timeout_ms, from an optional local bind address. Returns the
 * connected blocking fd with TCP_NODELAY, or -ENODEV (refused/unreachable), -ETIMEDOUT, ... */
int sock_connect(const struct sockaddr_in *to, const struct sockaddr_in *from, uint32_t timeout_ms);
/* Listening socket on addr (port 0 = ephemeral); writes the bound port. */
int sock_listen(const struct sockaddr_in *addr, uint16_t *port_out);
/* 1 if the idle connection has become readable (EOF or stray bytes): it must not be reused. */
int sock_is_stale(int fd);

#endif
