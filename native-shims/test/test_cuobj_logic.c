/* test_cuobj_logic.c — the cuobj provider's pure rules, no NVIDIA library needed: how a
 * handleGetObject/handlePutObject return maps to our errno on 1.x vs 2.x libraries, telemetry
 * masks per ABI, tunables per ABI, and the load-failure sentence built from dlerror() text. */
#include <errno.h>
#include <string.h>

#include "cuobj/load_message.h"
#include "cuobj/vendor_map.h"
#include "harness.h"

static void result_success_needs_every_byte(void) {
  vgw_cuobj_result_t r = vgw_cuobj_map_result(210, 4096, 4096);
  CHECK_EQ_INT(r.value, 4096);
  CHECK(r.what == NULL);
  r = vgw_cuobj_map_result(210, 4095, 4096); /* short: never a success */
  CHECK_EQ_INT(r.value, -EIO);
  CHECK(strstr(r.what, "short") != NULL);
  r = vgw_cuobj_map_result(100, 0, 4096); /* 0 = "async accepted"; we never submit async */
  CHECK_EQ_INT(r.value, -EIO);
  r = vgw_cuobj_map_result(100, 8192, 4096);
  CHECK_EQ_INT(r.value, -EIO);
}

static void result_errors_by_library_version(void) {
  static const struct {
    int api;
    int vendor;
    int want;
  } rows[] = {
      {100, -ENODEV, -ENODEV}, {100, -EIO, -EIO},   {100, -ENOMEM, -ENOMEM}, {100, -EAFNOSUPPORT, -EAFNOSUPPORT},
      {100, -EPROTO, -EIO},    {100, -EBUSY, -EIO}, /* 1.x never documents these: reported as -EIO */
      {200, -EPROTO, -EPROTO}, {200, -EBUSY, -EIO}, /* 2.0 adds -EPROTO only */
      {210, -EPROTO, -EPROTO}, {210, -EBUSY, -EBUSY}, {210, -ENODEV, -ENODEV},
      {210, -EINVAL, -EIO},    {210, -12345, -EIO},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    vgw_cuobj_result_t r = vgw_cuobj_map_result(rows[i].api, rows[i].vendor, 1);
    CHECK_EQ_INT(r.value, rows[i].want);
    CHECK(r.what != NULL && strstr(r.what, "cuObjServer") != NULL);
    if (rows[i].want == -EIO && rows[i].vendor != -EIO) CHECK(strstr(r.what, "does not document") != NULL);
  }
}

static void telemetry_one_mask_then_two(void) {
  CHECK_EQ_INT(vgw_cuobj_telemetry_flags(0), VGW_CUOBJ_LOG_ERROR);
  CHECK_EQ_INT(vgw_cuobj_telemetry_flags(1), VGW_CUOBJ_LOG_PATH_INFO | VGW_CUOBJ_LOG_DEBUG | VGW_CUOBJ_LOG_ERROR);
  uint32_t log = 99, ops = 99;
  CHECK_EQ_INT(vgw_cuobj_telemetry_masks(100, vgw_cuobj_telemetry_flags(1), &log, &ops), 1);
  CHECK_EQ_INT(log, 0x7);
  CHECK_EQ_INT(ops, 0);
  CHECK_EQ_INT(vgw_cuobj_telemetry_masks(210, vgw_cuobj_telemetry_flags(1), &log, &ops), 2);
  CHECK_EQ_INT(log, 0x7);
  CHECK(ops == VGW_CUOBJ_LOG_OPS_ALL);
  CHECK_EQ_INT(vgw_cuobj_telemetry_masks(200, vgw_cuobj_telemetry_flags(0), &log, &ops), 2);
  CHECK_EQ_INT(log, VGW_CUOBJ_LOG_ERROR);
  CHECK_EQ_INT(ops, 0);
  CHECK_EQ_INT(vgw_cuobj_telemetry_masks(200, 0x8, &log, &ops), -EINVAL); /* unknown bit */
  CHECK_EQ_INT(vgw_cuobj_telemetry_masks(300, 0x1, &log, &ops), -EINVAL); /* unknown ABI */
  CHECK_EQ_INT(vgw_cuobj_telemetry_masks(0, 0x1, &log, &ops), -EINVAL);
}

static void tunables_only_through_constructor_on_2x(void) {
  CHECK_EQ_INT(vgw_cuobj_tunables_after_create(100), 1);
  CHECK_EQ_INT(vgw_cuobj_tunables_after_create(200), 0);
  CHECK_EQ_INT(vgw_cuobj_tunables_after_create(210), 0);
}

static void dlerror_missing_library_extracted(void) {
  char lib[64];
  CHECK_EQ_INT(vgw_dl_missing_library("libcuobjserver.so.1: cannot open shared object file: No such file or directory",
                                      lib, sizeof lib), 1);
  CHECK(strcmp(lib, "libcuobjserver.so.1") == 0);
  CHECK_EQ_INT(vgw_dl_missing_library("/opt/x/lib/libcuobjclient.so: cannot open shared object file: No such file",
                                      lib, sizeof lib), 1);
  CHECK(strcmp(lib, "libcuobjclient.so") == 0);
  CHECK_EQ_INT(vgw_dl_missing_library("/a/libvgwrdma_cuobj.so: undefined symbol: _ZN11cuObjServerC1E", lib, sizeof lib), 0);
  CHECK(lib[0] == '\0');
  CHECK_EQ_INT(vgw_dl_missing_library(NULL, lib, sizeof lib), 0);
  CHECK_EQ_INT(vgw_dl_missing_library("libx.so: cannot open shared object file", lib, 4), 0); /* does not fit */
}

static void load_sentence_always_names_a_library(void) {
  char msg[512];
  vgw_plugin_load_message("/lib/libvgwrdma_cuobj.so", 0, NULL, "libcuobjserver.so", msg, sizeof msg);
  CHECK(strstr(msg, "NVIDIA libcuobjserver.so is not part of this build") != NULL);
  CHECK(strstr(msg, "CUOBJ_HOME") != NULL);
  vgw_plugin_load_message("/lib/libvgwrdma_cuobj.so", 1,
                          "libcuobjclient.so: cannot open shared object file: No such file or directory",
                          "libcuobjserver.so", msg, sizeof msg);
  CHECK(strstr(msg, "libcuobjclient.so is not installed on this machine") != NULL);
  vgw_plugin_load_message("/lib/libvgwrdma_cuobj.so", 1, "/lib/libvgwrdma_cuobj.so: undefined symbol: foo",
                          "libcuobjserver.so", msg, sizeof msg);
  CHECK(strstr(msg, "needs NVIDIA libcuobjserver.so") != NULL);
  CHECK(strstr(msg, "undefined symbol: foo") != NULL);
  char small[40];
  vgw_plugin_load_message("/lib/libvgwrdma_cuobj.so", 0, NULL, "libcuobjserver.so", small, sizeof small);
  CHECK_EQ_INT(strlen(small), sizeof small - 1); /* truncated, terminated */
}

TEST_MAIN(CASE(result_success_needs_every_byte), CASE(result_errors_by_library_version),
          CASE(telemetry_one_mask_then_two), CASE(tunables_only_through_constructor_on_2x),
          CASE(dlerror_missing_library_extracted), CASE(load_sentence_always_names_a_library))
