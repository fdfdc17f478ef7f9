/*
 * harness_plugin.h — running a test against the RECORDING cuobj plugin
 * (test/fixtures/cuobj-plugins/recording_vendor.c, built into <test binary dir>/cuobj-fixtures/recording).
 */
#ifndef VGW_TEST_HARNESS_PLUGIN_H
#define VGW_TEST_HARNESS_PLUGIN_H

/* Runs fn in a forked child whose VGWRDMA_PROVIDER_DIR names the recording plugin (the shim's
 * plugin loader caches per process); CHECKs that the child exits 0. */
void with_recording_plugin(void (*fn)(void));

/* Calls the plugin's record getter `getter` (vgw_fx_recording, vgw_fx_client_recording) on the
 * instance the shim loaded (RTLD_NOLOAD) and returns the record; CHECKs each step. */
const void *recording_plugin_record(const char *getter);

#endif
