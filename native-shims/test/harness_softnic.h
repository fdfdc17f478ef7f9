/*
 * harness_softnic.h — rigs for the softnic tests:
 *  - rig_t: client (agent) and server in THIS process (refusal tests can look at memory);
 *  - peer_t: a host client running in a forked CHILD process, driven over pipes (cross-process
 *    transfers, killing the client mid-transfer). Start peers before creating a server so the
 *    fork happens while this process has no extra threads.
 */
#ifndef VGW_TEST_HARNESS_SOFTNIC_H
#define VGW_TEST_HARNESS_SOFTNIC_H

#include <sys/types.h>

#include "cuobjserver_wrapper.h"
#include "rdma_host_client_wrapper.h"
#include "softnic/wire.h"

#define TOKEN_CAP 160

cuobj_server_t *test_server(int allow_direct, uint32_t io_timeout_ms);
/* Token for [off, off+size) of mr; CHECKs success. */
void mint(rdma_host_client_t *c, rdma_host_mr_t *mr, size_t off, size_t size, uint32_t op, char out[TOKEN_CAP]);
/* Rewrite a token: parse, let edit() change it, format. */
void forge(char tok[TOKEN_CAP], void (*edit)(cuobj_token_t *t, void *arg), void *arg);
cuobj_server_stats_t stats_of(cuobj_server_t *s);

typedef struct rig {
  rdma_host_client_t *cli;
  uint8_t *cmem;      /* client allocation: [guard page][region][guard page] */
  size_t region_size; /* the registered part, at cmem + 4096 */
  rdma_host_mr_t *mr;
  cuobj_server_t *srv;
  uint8_t *smem;
  size_t smem_size;
  cuobj_rdma_buffer_t *sbuf;
} rig_t;

/* In-process client + server; direct selects whether both sides allow the direct path. */
void rig_open(rig_t *r, int direct, size_t region_size, size_t server_size);
void rig_close(rig_t *r);
uint8_t *rig_region(const rig_t *r);

typedef struct peer {
  pid_t pid;
  int cmd_w, resp_r;
  uint16_t port;
  uint64_t addr;
  size_t size;
} peer_t;

/* Fork a child holding a host client with one registered region of `size` bytes filled with
 * test_fill(seed). allow_direct / dc_key / agent_addr (NULL = default) configure its agent. */
/* When set, a peer's child joins this network namespace (ip netns name) before starting. */
extern const char *peer_netns;
/* Join a named network namespace (/var/run/netns/<name>); 0 or -errno. */
int join_netns(const char *name);
/* When >= 0, a peer's child switches to this uid/gid (setresgid/setresuid) before starting, and
 * is made dumpable again (prctl) unless peer_dumpable is 0. */
extern int peer_uid;
extern int peer_dumpable;
void peer_start(peer_t *p, size_t size, uint64_t seed, int allow_direct, uint64_t dc_key, const char *agent_addr);
void peer_token(peer_t *p, size_t off, size_t size, uint32_t op, char out[TOKEN_CAP]);
uint64_t peer_hash(peer_t *p, size_t off, size_t len); /* test_hash of the child's bytes */
void peer_fill(peer_t *p, uint64_t seed);
void peer_stop(peer_t *p);  /* orderly: destroy client, child exits 0 (checked) */
void peer_kill(peer_t *p);  /* SIGKILL + reap */

/* Hostile-agent tests: the agent side of the handshake on an accepted connection, as an agent
 * that knows dc_key; names `pid` and, when cookie_addr != 0, offers the direct path with the
 * cookie there. 0, or a negative errno (the gateway refused or hung up). */
int fake_agent_handshake(int fd, uint64_t dc_key, pid_t pid, uint64_t cookie_addr);

/* Raw-gateway tests: the gateway side of the handshake with dc_key (HELLO, HELLO_ACK, AUTH);
 * returns the agent's AUTH_ACK (CHECKs the I/O). *agent_proof_ok (optional) = whether the
 * agent's proof verified under dc_key. The AUTH is sent even when it did not. */
snic_hdr_t gateway_handshake(int fd, uint64_t dc_key, int want_direct, int *agent_proof_ok);

/* Raw-protocol tests: send one frame header to an agent and return its answer (CHECKs the I/O). */
snic_hdr_t agent_ask(int fd, uint8_t type, uint32_t rkey, uint64_t addr, uint64_t len, uint64_t arg);
/* The agent must end the connection with ERROR(-EPROTO) and then EOF; fd stays open. */
void agent_expect_error_then_eof(int fd);

#endif
