/*
 * load_message.h — internal, pure: turn a dlopen failure into the one sentence an operator
 * reads ("cuobj transport unavailable: libcuobjserver.so.1 is not installed on this machine ...").
 */
#ifndef VGW_CUOBJ_LOAD_MESSAGE_H
#define VGW_CUOBJ_LOAD_MESSAGE_H
#include <stddef.h>

/* The library a dlerror() text says is missing ("libx.so.1: cannot open shared object file:
 * ..." → "libx.so.1"; a path is reduced to its file name). Copies it into out and returns 1, or
 * returns 0 (out = "") when the text is not a missing-file error. */
int vgw_dl_missing_library(const char *dlerr, char *out, size_t cap);

/* The message for a failed load of plugin_path (dlerr from dlerror(), plugin_exists 0/1),
 * where the vendor library the plugin links is vendor_lib. One sentence, always naming a
 * library: the plugin's missing dependency, or vendor_lib when the plugin itself is absent. */
void vgw_plugin_load_message(const char *plugin_path, int plugin_exists, const char *dlerr, const char *vendor_lib,
                             char *out, size_t cap);

#endif
