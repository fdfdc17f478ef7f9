/*
 * direct.h — the same-host path: move bytes between this process and the client process with
 * process_vm_readv/writev (one copy, no sockets). Used only on a connection whose agent cookie
 * was read back correctly, i.e. the kernel lets us access that very process.
 */
#ifndef SOFTNIC_DIRECT_H
#define SOFTNIC_DIRECT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Copy len bytes: to_remote = 1 writes local -> remote, 0 reads remote -> local. Loops over
 * partial copies. Returns 0, -EPERM (not permitted: caller falls back to TCP), or -EIO (process
 * gone, or memory not mapped there). */
int direct_copy(pid_t pid, int to_remote, void *local, uint64_t remote, size_t len);

/* The same through a /proc/<pid>/mem descriptor: it stays bound to the address space it was
 * opened on, so after an exec of that pid it reaches nothing (reads/writes return 0: -EIO). */
int direct_copy_mem(int memfd, int to_remote, void *local, uint64_t remote, size_t len);

/* 1 when process `pid` holds the other end of the IPv4 TCP connection `fd` (its socket is among
 * /proc/<pid>/fd), else 0; *sock_uid = the owner of that socket (the uid column of its row in
 * /proc/<pid>/net/tcp: loopback TCP has no SO_PEERCRED). The pid comes from the agent: without
 * this check an agent could name any process the gateway may access (the gateway itself
 * included) and have the gateway read its memory into PROVE, and later read or write it. */
int direct_peer_is(int fd, pid_t pid, uint32_t *sock_uid);

#endif
