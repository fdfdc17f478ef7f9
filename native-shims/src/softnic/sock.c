/* sock.c — socket helpers (see sock.h). All sends use MSG_NOSIGNAL: a dead peer is an -EIO
 * return, never a SIGPIPE in the host process (Node). */
#include "sock.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static int map_io_errno(int e) {
  if (e == EAGAIN || e == EWOULDBLOCK || e == ETIMEDOUT) return -ETIMEDOUT;
  return -EIO;
}

int sock_send_all(int fd, const void *buf, size_t len) {
  const uint8_t *p = buf;
  while (len > 0) {
    ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return map_io_errno(errno);
    }
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

int sock_recv_all(int fd, void *buf, size_t len) {
  uint8_t *p = buf;
  while (len > 0) {
    /* MSG_WAITALL: one wake-up per frame instead of one per arriving segment batch (~+5-10%
     * TCP throughput measured, A/B alternated). A timeout or signal still returns early. */
    ssize_t n = recv(fd, p, len, MSG_WAITALL);
    if (n == 0) return -EIO; /* peer closed mid-message */
    if (n < 0) {
      if (errno == EINTR) continue;
      return map_io_errno(errno);
    }
    p += n;
    len -= (size_t)n;
  }
  return 0;
}

int sock_send_hdr(int fd, const snic_hdr_t *h, const void *payload, size_t payload_len) {
  uint8_t raw[SNIC_HDR_LEN];
  snic_hdr_pack(h, raw);
  struct iovec iov[2] = {{raw, SNIC_HDR_LEN}, {(void *)payload, payload_len}};
  struct msghdr msg = {.msg_iov = iov, .msg_iovlen = payload_len ? 2 : 1};
  size_t total = SNIC_HDR_LEN + payload_len;
  ssize_t n;
  do n = sendmsg(fd, &msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n < 0) return map_io_errno(errno);
  if ((size_t)n == total) return 0;
  /* Partial: finish the header, then the payload. */
  size_t sent = (size_t)n;
  if (sent < SNIC_HDR_LEN) {
    int rc = sock_send_all(fd, raw + sent, SNIC_HDR_LEN - sent);
    if (rc) return rc;
    sent = SNIC_HDR_LEN;
  }
  return sock_send_all(fd, (const uint8_t *)payload + (sent - SNIC_HDR_LEN), total - sent);
}

int sock_recv_hdr(int fd, snic_hdr_t *h) {
  uint8_t raw[SNIC_HDR_LEN];
  int rc = sock_recv_all(fd, raw, sizeof raw);
  if (rc) return rc;
  return snic_hdr_unpack(raw, h);
}

int sock_set_timeouts(int fd, uint32_t ms) {
  struct timeval tv = {.tv_sec = ms / 1000, .tv_usec = (ms % 1000) * 1000};
  if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0) return -errno;
  if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) != 0) return -errno;
  return 0;
}

static int connect_errno(int e) {
  switch (e) {
    case ETIMEDOUT: return -ETIMEDOUT;
    case ENOMEM: case ENOBUFS: return -ENOMEM;
    default: return -ENODEV; /* refused, unreachable, no route: the agent is not there */
  }
}

int sock_connect(const struct sockaddr_in *to, const struct sockaddr_in *from, uint32_t timeout_ms) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return errno == EMFILE || errno == ENFILE ? -ENOMEM : -EIO;
  if (from != NULL && bind(fd, (const struct sockaddr *)from, sizeof *from) != 0) {
    int e = errno;
    close(fd);
    return connect_errno(e);
  }
  int rc = connect(fd, (const struct sockaddr *)to, sizeof *to);
  if (rc != 0 && errno != EINPROGRESS) {
    int e = errno;
    close(fd);
    return connect_errno(e);
  }
  if (rc != 0) {
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    int n;
    do n = poll(&p, 1, (int)timeout_ms);
    while (n < 0 && errno == EINTR);
    if (n == 0) {
      close(fd);
      return -ETIMEDOUT;
    }
    int err = 0;
    socklen_t len = sizeof err;
    if (n < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
      close(fd);
      return connect_errno(err ? err : errno);
    }
  }
  int flags = fcntl(fd, F_GETFL);
  fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

int sock_listen(const struct sockaddr_in *addr, uint16_t *port_out) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -errno;
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(fd, (const struct sockaddr *)addr, sizeof *addr) != 0 || listen(fd, 128) != 0) {
    int e = errno;
    close(fd);
    return -e;
  }
  struct sockaddr_in bound;
  socklen_t len = sizeof bound;
  if (getsockname(fd, (struct sockaddr *)&bound, &len) != 0) {
    int e = errno;
    close(fd);
    return -e;
  }
  *port_out = ntohs(bound.sin_port);
  return fd;
}

int sock_is_stale(int fd) {
  struct pollfd p = {.fd = fd, .events = POLLIN};
  return poll(&p, 1, 0) != 0;
}
