/* exec_target.c — the program test_direct_guard makes a proven agent process exec (as is, or
 * installed setuid root in a temp dir): the "victim" whose memory the gateway must never touch.
 * Fills a buffer with 'R', prints "<buffer address hex> <euid>" on stdout, waits for one byte on
 * stdin, then prints "intact" or "changed" (did anyone write into the buffer?) and exits.
 * Built without sanitizers (a setuid program under ASan is another story) and never shipped. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SECRET_LEN (64u << 10)
static volatile char g_secret[SECRET_LEN];

int main(void) {
  memset((char *)g_secret, 'R', SECRET_LEN);
  printf("%llx %u\n", (unsigned long long)(uintptr_t)g_secret, (unsigned)geteuid());
  fflush(stdout);
  char c;
  if (read(0, &c, 1) != 1) return 2;
  int intact = 1;
  for (size_t i = 0; i < SECRET_LEN; i++) intact &= g_secret[i] == 'R';
  printf("%s\n", intact ? "intact" : "changed");
  fflush(stdout);
  return 0;
}
