/* test_cuobj_loader.c — how the main library reports a cuobj provider it cannot use, through the
 * public ABI (cuobj_server_create_with_config, vgw_shim_provider_built, vgw_shim_last_error):
 * no plugin in this build, a real plugin whose NVIDIA library is missing, a plugin of another
 * plugin ABI, a file that is not a library. Fixtures: test/fixtures/cuobj-plugins/README.md.
 * The loader caches its result per process, so each scenario runs in a forked child with its
 * own VGWRDMA_PROVIDER_DIR. */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cuobjclient_wrapper.h"
#include "cuobjserver_wrapper.h"
#include "harness.h"

static void fixture_dir(const char *name, char *out, size_t cap) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  CHECK(n > 0);
  exe[n] = '\0';
  snprintf(out, cap, "%s/cuobj-fixtures/%s", dirname(exe), name);
}

/* In a child: point the loader at dir, create a cuobj server, and require -ENODEV with a message
 * containing every string of want (NULL-terminated). The parent checks the child's exit code. */
static void expect_refusal(const char *dir, const char *const *want) {
  fflush(NULL);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    setenv("VGWRDMA_PROVIDER_DIR", dir, 1);
    cuobj_rdma_tunables_t t;
    cuobj_server_tunables_default(&t);
    t.provider = VGW_PROVIDER_CUOBJ;
    CHECK(cuobj_server_create_with_config("127.0.0.1", 19100, CUOBJ_PROTO_RDMA_DC_V1, &t) == NULL);
    char msg[1024];
    CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -ENODEV);
    printf("message: %s\n", msg);
    for (const char *const *w = want; *w; w++) CHECK(strstr(msg, *w) != NULL);
    CHECK(strchr(msg, '\n') == NULL); /* one line */
    CHECK_EQ_INT(vgw_shim_provider_built(VGW_PROVIDER_CUOBJ), 0);
    /* the client side says the same through the host-client ABI */
    rdma_host_client_config_t c;
    rdma_host_client_config_default(&c);
    c.provider = VGW_PROVIDER_CUOBJ;
    CHECK(rdma_host_client_create(&c) == NULL);
    CHECK_EQ_INT(vgw_shim_last_error(msg, sizeof msg), -ENODEV);
    printf("client message: %s\n", msg);
    CHECK(strstr(msg, "cuobj transport unavailable") != NULL);
    /* names libcuobjclient.so, or the missing dependency, or the plugin of the wrong ABI */
    CHECK(strstr(msg, "libcuobj") != NULL || strstr(msg, "plugin ABI") != NULL);
    exit(0);
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK_EQ_INT(WEXITSTATUS(status), 0);
}

static void no_plugin_names_the_vendor_library(void) {
  static const char *const want[] = {"cuobj transport unavailable", "libcuobjserver.so", "CUOBJ_HOME", NULL};
  expect_refusal("/nonexistent-vgwrdma-provider-dir", want);
}

static void plugin_without_vendor_library_names_it(void) {
  char dir[PATH_MAX];
  fixture_dir("plugin", dir, sizeof dir);
  char path[PATH_MAX + 32];
  snprintf(path, sizeof path, "%s/libvgwrdma_cuobj.so", dir);
  if (access(path, R_OK) != 0) skip_case("fixture plugin not built (needs a C++ compiler)");
  static const char *const want[] = {"libcuobjserver.so is not installed on this machine", "LD_LIBRARY_PATH", NULL};
  expect_refusal(dir, want);
}

static void plugin_of_another_abi_refused(void) {
  char dir[PATH_MAX];
  fixture_dir("wrong-abi", dir, sizeof dir);
  static const char *const want[] = {"not a cuobj provider of plugin ABI 1", NULL};
  expect_refusal(dir, want);
}

static void file_that_is_not_a_library_refused(void) {
  char dir[] = "/tmp/vgw-cuobj-loader-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char path[PATH_MAX];
  snprintf(path, sizeof path, "%s/libvgwrdma_cuobj.so", dir);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  fputs("not an ELF file\n", f);
  fclose(f);
  static const char *const want[] = {"cannot load", "libcuobjserver.so", NULL};
  expect_refusal(dir, want);
  unlink(path);
  rmdir(dir);
}

TEST_MAIN(CASE(no_plugin_names_the_vendor_library), CASE(plugin_without_vendor_library_names_it),
          CASE(plugin_of_another_abi_refused), CASE(file_that_is_not_a_library_refused))
