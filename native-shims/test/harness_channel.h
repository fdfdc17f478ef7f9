/*
 * harness_channel.h — the channel/agent setup the softnic tests share (was copied between
 * test_channels, test_failures, test_handshake, test_protocol and fuzz_agent):
 *  - served_t: a test_server() with one registered host buffer, opened and closed in one call;
 *  - a listener on 127.0.0.1 and a token that names it as the agent (an agent that is not there,
 *    an impostor or a fake agent run by the test);
 *  - a raw connection to an agent's port, as a gateway would open it;
 *  - waiting for one async completion;
 *  - the positive control after an abuse: a real PUT through a rig, bytes compared;
 *  - a second gateway whose DC key is wrong, and how a raw gateway addresses a rig's agent.
 */
#ifndef VGW_TEST_HARNESS_CHANNEL_H
#define VGW_TEST_HARNESS_CHANNEL_H

#include <stddef.h>
#include <stdint.h>

#include "harness_softnic.h"

typedef struct served {
  cuobj_server_t *s;
  uint8_t *mem;          /* the host buffer, `size` bytes */
  cuobj_rdma_buffer_t *b; /* its registration; NULL once the test deregistered it itself */
  size_t size;
} served_t;

/* test_server(direct, io_timeout_ms) with a host buffer of `size` bytes registered. */
void served_open(served_t *sv, int direct, uint32_t io_timeout_ms, size_t size);
/* Deregisters (unless b is NULL), frees the buffer, destroys the server; returns what the
 * deregistration returned (0 when b was NULL). */
int served_close(served_t *sv);

/* A listening socket on 127.0.0.1 (ephemeral port in *port); CHECKs success. */
int loopback_listen(uint16_t *port);
/* A token for [addr, addr+size) with rkey 1 naming the agent at 127.0.0.1:port. */
void loopback_token(uint64_t addr, uint32_t size, uint16_t port, char out[TOKEN_CAP]);
/* A TCP connection to the agent at 127.0.0.1:port with 5 s socket timeouts; CHECKs success. */
int agent_connect(uint16_t port);

/* Waits (up to timeout_ms) for exactly one completion, CHECKs its tag, returns its status. */
int64_t await_completion(cuobj_server_t *s, uint64_t tag, int timeout_ms);

/* A real PUT of the rig's first `len` region bytes (filled with test_fill(seed)) into the
 * server buffer through a fresh token (left in tok); CHECKs the count and the bytes. */
void rig_put_checked(rig_t *r, size_t len, uint64_t seed, char tok[TOKEN_CAP]);

/* A server with default tunables but this DC key (a gateway that does not know the agent's key);
 * CHECKs creation. */
cuobj_server_t *keyed_server(uint64_t dc_key);

/* What a raw gateway needs to talk to a rig's agent: its port, the region's address and rkey. */
typedef struct agent_target {
  uint16_t port;
  uint64_t base;
  uint32_t rkey;
} agent_target_t;
agent_target_t agent_target(const rig_t *r);

#endif
