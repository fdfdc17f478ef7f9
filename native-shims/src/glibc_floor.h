/* The oldest glibc the shipped library may need: 2.28, the floor of the official Node.js Linux
 * binaries. Built against a newer glibc, the linker would bind a few symbols to versions that glibc
 * 2.34 added when it folded libdl and libpthread into libc (dlopen@GLIBC_2.34, pthread_create@...).
 * The same functions are still exported under their original versions, so each reference below is
 * pinned to that one. Forced into every object of the release build with `-include` (CMakeLists.txt);
 * not in the sanitizer builds, whose runtime intercepts these calls by their default version.
 * test/glibc-floor.test.ts reads the built library's symbol versions and fails above the floor. */
#ifndef VGW_GLIBC_FLOOR_H
#define VGW_GLIBC_FLOOR_H

/* features.h defines __GLIBC__ on glibc only: a build against musl (`npx @vgwrdma/native build`
 * on Alpine) pins nothing. */
#include <features.h>
#if defined(__GLIBC__)
#if defined(__x86_64__)
#define VGW_GLIBC_BASE "GLIBC_2.2.5"
/* functions newer than the base: their first version */
#define VGW_GLIBC_2_3_3 "GLIBC_2.3.3"
#elif defined(__aarch64__)
#define VGW_GLIBC_BASE "GLIBC_2.17"
#define VGW_GLIBC_2_3_3 "GLIBC_2.17"
#endif
#endif

#ifdef VGW_GLIBC_BASE
#define VGW_PIN(sym) __asm__(".symver " #sym "," #sym "@" VGW_GLIBC_BASE);
VGW_PIN(dlopen)
VGW_PIN(dlsym)
VGW_PIN(dlerror)
VGW_PIN(dladdr)
VGW_PIN(dlclose)
VGW_PIN(pthread_create)
VGW_PIN(pthread_join)
VGW_PIN(pthread_detach)
VGW_PIN(pthread_once)
VGW_PIN(pthread_key_create)
VGW_PIN(pthread_getspecific)
VGW_PIN(pthread_setspecific)
VGW_PIN(pthread_sigmask)
VGW_PIN(pthread_attr_setstacksize)
VGW_PIN(pthread_mutexattr_init)
VGW_PIN(pthread_mutexattr_settype)
#undef VGW_PIN
__asm__(".symver pthread_condattr_setclock,pthread_condattr_setclock@" VGW_GLIBC_2_3_3);
#endif

#endif
