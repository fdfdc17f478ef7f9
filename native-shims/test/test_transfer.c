/* test_transfer.c — byte-exact transfers into / out of a client in another process, random
 * sizes and offsets, both directions, on the direct (process_vm_*) and the TCP path; multi-frame
 * large transfers; the async submit + eventfd completion path; the ABI 1.7 submits of parsed
 * token fields, and the failure text in their completions. */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "cuobjserver_wrapper.h"
#include "harness.h"
#include "harness_channel.h"
#include "harness_softnic.h"

#define REGION (8u << 20)
#define SBUF (8u << 20)

static void random_round_trips(int direct) {
  peer_t p;
  peer_start(&p, REGION, 1, direct, 0xffeeddcc, NULL);
  served_t sv;
  served_open(&sv, direct, 5000, SBUF);
  CHECK(sv.mem && sv.b);
  uint64_t rng = direct ? 7 : 11;
  int n = 0;
  for (int i = 0; i < 40; i++) {
    size_t size = 1 + test_rand(&rng) % (i < 20 ? 4096 : (4u << 20));
    size_t roff = test_rand(&rng) % (REGION - size + 1);
    size_t loff = test_rand(&rng) % (SBUF - size + 1);
    int get = i % 2 == 0;
    char tok[TOKEN_CAP];
    /* Alternate exact-window tokens and whole-region tokens with the window inside. */
    if (i % 4 < 2) peer_token(&p, roff, size, get ? CUOBJ_OP_GET : CUOBJ_OP_PUT, tok);
    else peer_token(&p, 0, REGION, get ? CUOBJ_OP_GET : CUOBJ_OP_PUT, tok);
    if (get) {
      test_fill(sv.mem + loff, size, test_rand(&rng));
      CHECK_EQ_INT(cuobj_server_handle_get_ex(sv.s, "k", sv.b, loff, p.addr + roff, size, tok, 3), size);
    } else {
      peer_fill(&p, test_rand(&rng));
      memset(sv.mem + loff, 0, size);
      CHECK_EQ_INT(cuobj_server_handle_put_ex(sv.s, "k", sv.b, loff, p.addr + roff, size, tok, 3), size);
    }
    if (peer_hash(&p, roff, size) != test_hash(sv.mem + loff, size)) {
      fprintf(stderr, "mismatch: i=%d get=%d size=%zu roff=%zu loff=%zu\n", i, get, size, roff, loff);
      CHECK(0);
    }
    n++;
  }
  cuobj_server_stats_t st = stats_of(sv.s);
  /* The path really taken is the one under test. */
  CHECK_EQ_INT(direct ? st.direct_transfers : st.tcp_transfers, n);
  CHECK_EQ_INT(direct ? st.tcp_transfers : st.direct_transfers, 0);
  CHECK_EQ_INT(st.connects, 1); /* one cached connection served every transfer */
  CHECK_EQ_INT(served_close(&sv), 0);
  peer_stop(&p);
}

static void direct_random(void) { random_round_trips(1); }
static void tcp_random(void) { random_round_trips(0); }

/* The plain (vendor-shaped) calls use local offset 0; a 64 MiB transfer crosses 256 frames. */
static void large_multi_frame(int direct) {
  const size_t big = 64u << 20;
  peer_t p;
  peer_start(&p, big, 3, direct, 0xffeeddcc, NULL);
  served_t sv;
  served_open(&sv, direct, 10000, big);
  char tok[TOKEN_CAP];
  peer_token(&p, 0, big, CUOBJ_OP_PUT, tok);
  CHECK_EQ_INT(cuobj_server_handle_put(sv.s, NULL, sv.b, p.addr, big, tok, 0), big);
  CHECK(peer_hash(&p, 0, big) == test_hash(sv.mem, big));
  test_fill(sv.mem, big, 99);
  peer_token(&p, 0, big, CUOBJ_OP_GET, tok);
  CHECK_EQ_INT(cuobj_server_handle_get(sv.s, NULL, sv.b, p.addr, big, tok, 0), big);
  CHECK(peer_hash(&p, 0, big) == test_hash(sv.mem, big));
  served_close(&sv);
  peer_stop(&p);
}
static void direct_large(void) { large_multi_frame(1); }
static void tcp_large(void) { large_multi_frame(0); }

/* Submit on several channels, wait on the eventfd, drain completions, verify every byte. */
static void async_completions(int direct) {
  enum { N = 8, SZ = 1 << 20 };
  peer_t p;
  peer_start(&p, N * SZ, 5, direct, 0xffeeddcc, NULL);
  served_t sv;
  served_open(&sv, direct, 5000, N * SZ);
  test_fill(sv.mem, N * SZ, 1234);
  int efd = cuobj_server_completion_fd(sv.s);
  CHECK(efd >= 0);
  cuobj_async_event_t ev[N];
  CHECK_EQ_INT(cuobj_server_poll_completions(sv.s, ev, N), 0); /* nothing yet */
  for (int i = 0; i < N; i++) {
    char tok[TOKEN_CAP];
    peer_token(&p, (size_t)i * SZ, SZ, CUOBJ_OP_GET, tok);
    CHECK_EQ_INT(cuobj_server_submit_get(sv.s, "k", sv.b, (uint64_t)i * SZ, p.addr + (uint64_t)i * SZ, SZ, tok,
                                         (uint16_t)i, 1000 + (uint64_t)i),
                 0);
  }
  int seen[N] = {0}, got = 0;
  while (got < N) {
    struct pollfd pf = {.fd = efd, .events = POLLIN};
    CHECK(poll(&pf, 1, 20000) == 1);
    int k = cuobj_server_poll_completions(sv.s, ev, 3); /* fewer than N: exercises re-arming */
    CHECK(k >= 0);
    for (int j = 0; j < k; j++) {
      CHECK(ev[j].user_tag >= 1000 && ev[j].user_tag < 1000 + N);
      CHECK_EQ_INT(ev[j].status, SZ);
      CHECK(!seen[ev[j].user_tag - 1000]);
      seen[ev[j].user_tag - 1000] = 1;
    }
    got += k;
  }
  CHECK(peer_hash(&p, 0, N * SZ) == test_hash(sv.mem, N * SZ));
  /* An async failure is a completion with a negative status, and the channel is free after. */
  char tok[TOKEN_CAP];
  peer_token(&p, 0, SZ, CUOBJ_OP_PUT, tok);
  tok[26] = tok[26] == '0' ? '1' : '0'; /* wrong rkey */
  CHECK_EQ_INT(cuobj_server_submit_put(sv.s, "k", sv.b, 0, p.addr, SZ, tok, 0, 77), 0);
  /* The eventfd is a hint: it may still be readable from the completions above, so wait until the
   * failure's own completion is there (a loaded machine delivers it later). */
  int k = 0;
  for (int tries = 0; k == 0 && tries < 2000; tries++) {
    struct pollfd pf = {.fd = efd, .events = POLLIN};
    CHECK(poll(&pf, 1, 20000) == 1);
    k = cuobj_server_poll_completions(sv.s, ev, N);
    if (k == 0) usleep(10000);
  }
  CHECK_EQ_INT(k, 1);
  CHECK(ev[0].user_tag == 77);
  CHECK_EQ_INT(ev[0].status, -EACCES);
  served_close(&sv);
  peer_stop(&p);
}
static void direct_async(void) { async_completions(1); }
static void tcp_async(void) { async_completions(0); }

/* ABI 1.7: a submit given the parsed token's fields (no string), a window set through the override
 * fields, and a failure whose text arrives in the completion (poll_completions_ex). */
static void await_one(cuobj_server_t *s, cuobj_async_event_ex_t *ev) {
  struct pollfd pf = {.fd = cuobj_server_completion_fd(s), .events = POLLIN};
  CHECK(poll(&pf, 1, 20000) == 1);
  CHECK_EQ_INT(cuobj_server_poll_completions_ex(s, ev, 1), 1);
}

static void fields_and_messages(int direct) {
  enum { SZ = 1 << 20 };
  peer_t p;
  peer_start(&p, 2 * SZ, 9, direct, 0xffeeddcc, NULL);
  served_t sv;
  served_open(&sv, direct, 5000, SZ);
  char tok[TOKEN_CAP];
  peer_token(&p, 0, 2 * SZ, CUOBJ_OP_PUT, tok);
  cuobj_token_t t;
  CHECK_EQ_INT(cuobj_token_parse(tok, &t), 0);
  /* the window [addr + 4096, +8192) through the override fields: exactly those bytes move */
  cuobj_token_t w = t;
  w.has_override = 1;
  w.override_addr = t.addr + 4096;
  w.override_size = 8192;
  cuobj_async_event_ex_t ev;
  CHECK_EQ_INT(cuobj_server_submit_put_fields(sv.s, sv.b, 0, w.override_addr, 8192, &w, 0, 5), 0);
  await_one(sv.s, &ev);
  CHECK(ev.user_tag == 5);
  CHECK_EQ_INT(ev.status, 8192);
  CHECK_EQ_INT(ev.message[0], '\0');
  CHECK(peer_hash(&p, 4096, 8192) == test_hash(sv.mem, 8192));
  /* one byte past that window is refused at submit, with the reason recorded */
  char msg[256];
  CHECK_EQ_INT(cuobj_server_submit_put_fields(sv.s, sv.b, 0, w.override_addr, 8193, &w, 0, 6), -EINVAL);
  CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -EINVAL);
  CHECK(strstr(msg, "outside the token") != NULL);
  /* fields a parse could not have produced are refused too */
  cuobj_token_t bad = t;
  bad.size = 0;
  CHECK_EQ_INT(cuobj_server_submit_put_fields(sv.s, sv.b, 0, t.addr, 16, &bad, 0, 7), -EINVAL);
  bad = t;
  bad.gid_present = 2;
  CHECK_EQ_INT(cuobj_server_submit_put_fields(sv.s, sv.b, 0, t.addr, 16, &bad, 0, 7), -EINVAL);
  CHECK_EQ_INT(cuobj_server_submit_put_fields(sv.s, sv.b, 0, t.addr, 16, NULL, 0, 7), -EINVAL);
  /* a failure on the worker thread: a wrong rkey, refused by the agent; its text comes along */
  cuobj_token_t wrong = t;
  wrong.rkey ^= 1;
  CHECK_EQ_INT(cuobj_server_submit_get_fields(sv.s, sv.b, 0, t.addr, SZ, &wrong, 0, 8), 0);
  await_one(sv.s, &ev);
  CHECK(ev.user_tag == 8);
  CHECK_EQ_INT(ev.status, -EACCES);
  CHECK(strstr(ev.message, "softnic WRITE of 1048576 bytes") != NULL);
  CHECK(strstr(ev.message, "agent 127.0.0.1:") != NULL);
  CHECK(strstr(ev.message, "refused the rkey") != NULL);
  /* the next success on the same thread carries no stale text */
  CHECK_EQ_INT(cuobj_server_submit_put_fields(sv.s, sv.b, 0, t.addr, SZ, &t, 0, 9), 0);
  await_one(sv.s, &ev);
  CHECK_EQ_INT(ev.status, SZ);
  CHECK_EQ_INT(ev.message[0], '\0');
  /* an agent that is gone: the connect failure is named */
  peer_stop(&p);
  CHECK_EQ_INT(cuobj_server_submit_put_fields(sv.s, sv.b, 0, t.addr, SZ, &t, 1, 10), 0);
  await_one(sv.s, &ev);
  CHECK(ev.status < 0);
  CHECK(strstr(ev.message, "agent 127.0.0.1:") != NULL);
  served_close(&sv);
}
static void direct_fields(void) { fields_and_messages(1); }
static void tcp_fields(void) { fields_and_messages(0); }

TEST_MAIN({"direct_random_sizes_offsets", direct_random}, {"tcp_random_sizes_offsets", tcp_random},
          {"direct_large_multi_frame", direct_large},     {"tcp_large_multi_frame", tcp_large},
          {"direct_async_completions", direct_async},     {"tcp_async_completions", tcp_async},
          {"direct_fields_and_messages", direct_fields},  {"tcp_fields_and_messages", tcp_fields})
