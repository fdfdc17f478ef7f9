/* harness_plugin.c — see harness_plugin.h. */
#include "harness_plugin.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

static char g_dir[PATH_MAX];

void with_recording_plugin(void (*fn)(void)) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  CHECK(n > 0);
  exe[n] = '\0';
  snprintf(g_dir, sizeof g_dir, "%s/cuobj-fixtures/recording", dirname(exe));
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    setenv("VGWRDMA_PROVIDER_DIR", g_dir, 1);
    fn();
    exit(0);
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

const void *recording_plugin_record(const char *getter) {
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/libvgwrdma_cuobj.so", g_dir);
  void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD); /* the instance the shim loaded */
  CHECK(h != NULL);
  const void *(*get)(void) = (const void *(*)(void))dlsym(h, getter);
  CHECK(get != NULL);
  const void *r = get();
  dlclose(h);
  return r;
}
