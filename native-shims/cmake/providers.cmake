# Hardware providers of native-shims. Included by CMakeLists.txt after the common flags.
#
# verbs: compiled into libvgwrdma_shims where rdma-core's headers exist (Debian: libibverbs-dev);
#   rdma-core itself is dlopen'ed at run time, so the library still loads on hosts without it.
#   Sets VGW_PROVIDER_SOURCES / VGW_PROVIDER_DEFS for the main library.
# cuobj: see cmake/cuobj.cmake (its own plugin library, only with a vendor prefix).
option(VGW_WITH_VERBS "build the verbs provider where rdma-core headers are found" ON)
set(VGW_PROVIDER_SOURCES "")
set(VGW_PROVIDER_DEFS "")

find_path(VGW_VERBS_INCLUDE infiniband/mlx5dv.h)
if(CMAKE_CROSSCOMPILING AND NOT VGW_VERBS_INCLUDE)
  # Cross builds (cmake/linux-arm64.toolchain.cmake): rdma-core's headers are the same for every
  # architecture, so the build host's copy serves, searched after the target's own system headers.
  find_path(VGW_VERBS_INCLUDE infiniband/mlx5dv.h NO_CMAKE_FIND_ROOT_PATH)
  if(VGW_VERBS_INCLUDE)
    add_compile_options(-idirafter ${VGW_VERBS_INCLUDE})
  endif()
endif()
if(VGW_WITH_VERBS AND VGW_VERBS_INCLUDE)
  message(STATUS "native-shims: verbs provider built (rdma-core headers at ${VGW_VERBS_INCLUDE}; rdma-core loaded at run time)")
  list(APPEND VGW_PROVIDER_SOURCES src/verbs/verbs_client.c src/verbs/rdma_core.c)
  list(APPEND VGW_PROVIDER_DEFS VGW_HAVE_VERBS=1)
else()
  message(STATUS "native-shims: verbs provider not built (no infiniband/mlx5dv.h; Debian: apt-get install libibverbs-dev)")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/cuobj.cmake)
