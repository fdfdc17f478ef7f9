# cuobj provider: libvgwrdma_cuobj.so, a plugin that the main library (src/cuobj/plugin_loader.c)
# dlopens on first use, so libvgwrdma_shims.so never depends on NVIDIA's libraries.
#
#   CUOBJ_HOME (cache or environment; VGW_CUOBJ_PREFIX is the older name): the cuObject prefix
#     holding include/cuobjserver.h and/or include/cuobjclient.h and lib/libcuobj{server,client}.so.
#     Given and found → the plugin is built next to libvgwrdma_shims.so and linked to them.
#     Not given → nothing here happens: the default build is unchanged.
#   VGW_CUOBJ_DECL_CHECK (default: on with VGW_SHIMS_TESTS): compile the provider sources against
#     vendor-decl/include (our declarations of the documented API; see vendor-decl/README.md) for
#     the 1.x and 2.x server ABIs. Object files only: nothing is linked, no vendor library needed.
set(CUOBJ_HOME "$ENV{CUOBJ_HOME}" CACHE PATH "NVIDIA cuObject prefix (include/cuobjserver.h, lib/libcuobjserver.so)")
if(NOT CUOBJ_HOME AND VGW_CUOBJ_PREFIX)
  set(CUOBJ_HOME "${VGW_CUOBJ_PREFIX}")
endif()
option(VGW_CUOBJ_DECL_CHECK "compile-check the cuobj provider against vendor-decl/" ${VGW_SHIMS_TESTS})

# Pure rules of the vendor ABIs (result mapping, telemetry, versions): in the main library too,
# so the C tests cover them without the plugin.
list(APPEND VGW_PROVIDER_SOURCES src/cuobj/vendor_map.c)

set(VGW_CUOBJ_CXX_FLAGS -fvisibility=hidden -fvisibility-inlines-hidden)

function(vgw_cuobj_target target kind)
  set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
                                             POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${VGW_CUOBJ_CXX_FLAGS}>)
endfunction()

if(CUOBJ_HOME)
  find_path(VGW_CUOBJ_SERVER_INCLUDE cuobjserver.h HINTS ${CUOBJ_HOME} PATH_SUFFIXES include NO_DEFAULT_PATH)
  find_path(VGW_CUOBJ_CLIENT_INCLUDE cuobjclient.h HINTS ${CUOBJ_HOME} PATH_SUFFIXES include NO_DEFAULT_PATH)
  find_library(VGW_CUOBJ_SERVER_LIB cuobjserver HINTS ${CUOBJ_HOME} PATH_SUFFIXES lib lib64 NO_DEFAULT_PATH)
  find_library(VGW_CUOBJ_CLIENT_LIB cuobjclient HINTS ${CUOBJ_HOME} PATH_SUFFIXES lib lib64 NO_DEFAULT_PATH)
  set(srcs src/cuobj/plugin_entry.cpp src/cuobj/vendor_map.c)
  set(defs "")
  set(libs ${CMAKE_DL_LIBS})
  set(incs "")
  if(VGW_CUOBJ_SERVER_INCLUDE AND VGW_CUOBJ_SERVER_LIB)
    list(APPEND srcs src/cuobj/cuobj_server_provider.cpp)
    list(APPEND incs ${VGW_CUOBJ_SERVER_INCLUDE})
    list(APPEND libs ${VGW_CUOBJ_SERVER_LIB})
    list(APPEND defs VGW_CUOBJ_HAVE_SERVER=1)
  endif()
  if(VGW_CUOBJ_CLIENT_INCLUDE AND VGW_CUOBJ_CLIENT_LIB)
    list(APPEND srcs src/cuobj/cuobj_client_provider.cpp)
    list(APPEND incs ${VGW_CUOBJ_CLIENT_INCLUDE})
    list(APPEND libs ${VGW_CUOBJ_CLIENT_LIB})
    list(APPEND defs VGW_CUOBJ_HAVE_CLIENT=1)
  endif()
  if(NOT defs)
    message(WARNING "native-shims: CUOBJ_HOME=${CUOBJ_HOME} has neither cuobjserver.h + libcuobjserver nor "
                    "cuobjclient.h + libcuobjclient; cuobj provider not built")
  else()
    enable_language(CXX)
    set(api 0)
    if(VGW_CUOBJ_SERVER_INCLUDE)
      # Version dispatch at build time: 2.x's setTelemFlags takes two masks, 1.x's one.
      include(CheckCXXSourceCompiles)
      set(CMAKE_REQUIRED_INCLUDES ${VGW_CUOBJ_SERVER_INCLUDE})
      set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY) # compile only: the probe links nothing
      check_cxx_source_compiles("#include <cuobjserver.h>\nint main() { cuObjServer::setTelemFlags(0u, 0u); return 0; }"
                                VGW_CUOBJ_SERVER_2X)
      set(api 1)
      if(VGW_CUOBJ_SERVER_2X)
        set(api 2)
      endif()
    endif()
    add_library(vgwrdma_cuobj SHARED ${srcs})
    vgw_cuobj_target(vgwrdma_cuobj plugin)
    target_include_directories(vgwrdma_cuobj PRIVATE ${incs})
    target_compile_definitions(vgwrdma_cuobj PRIVATE ${defs} VGW_CUOBJ_SERVER_API=${api})
    target_link_libraries(vgwrdma_cuobj PRIVATE ${libs})
    target_link_options(vgwrdma_cuobj PRIVATE -Wl,--no-undefined)
    message(STATUS "native-shims: cuobj provider built (libvgwrdma_cuobj.so; ${defs}; server API ${api}.x) from ${CUOBJ_HOME}")
  endif()
else()
  message(STATUS "native-shims: cuobj provider not built (set CUOBJ_HOME to the NVIDIA cuObject prefix)")
endif()

if(VGW_CUOBJ_DECL_CHECK)
  include(CheckLanguage)
  check_language(CXX)
  if(CMAKE_CXX_COMPILER)
    enable_language(CXX)
    foreach(api 1 2)
      add_library(vgw_cuobj_decl_check_v${api} OBJECT src/cuobj/cuobj_server_provider.cpp
                  src/cuobj/cuobj_client_provider.cpp src/cuobj/plugin_entry.cpp)
      vgw_cuobj_target(vgw_cuobj_decl_check_v${api} check)
      target_include_directories(vgw_cuobj_decl_check_v${api} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/vendor-decl/include)
      target_compile_definitions(vgw_cuobj_decl_check_v${api} PRIVATE VGW_DECL_CUOBJ_SERVER_API=${api}
                                 VGW_CUOBJ_SERVER_API=${api} VGW_CUOBJ_HAVE_SERVER=1 VGW_CUOBJ_HAVE_CLIENT=1)
    endforeach()
    message(STATUS "native-shims: cuobj provider compile check against vendor-decl/ (server API 1.x and 2.x)")
  else()
    message(WARNING "native-shims: VGW_CUOBJ_DECL_CHECK needs a C++ compiler; skipped")
  endif()
endif()

# Test fixtures for test_cuobj_loader.c (see test/fixtures/cuobj-plugins/README.md): the real
# plugin linked against an abort()-only link stub (then loaded without it), and a plugin of
# another plugin ABI. No RPATH, so the stub is never found at run time.
if(VGW_SHIMS_TESTS)
  set(fx ${CMAKE_CURRENT_SOURCE_DIR}/test/fixtures/cuobj-plugins)
  set(fx_out ${CMAKE_BINARY_DIR}/cuobj-fixtures)
  add_library(vgw_fx_wrong_abi SHARED ${fx}/wrong_abi.c)
  set_target_properties(vgw_fx_wrong_abi PROPERTIES OUTPUT_NAME vgwrdma_cuobj
                        LIBRARY_OUTPUT_DIRECTORY ${fx_out}/wrong-abi)
  add_library(vgw_fx_recording SHARED ${fx}/recording_vendor.c)
  target_include_directories(vgw_fx_recording PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR}/src)
  set_target_properties(vgw_fx_recording PROPERTIES OUTPUT_NAME vgwrdma_cuobj
                        LIBRARY_OUTPUT_DIRECTORY ${fx_out}/recording)
endif()
if(VGW_SHIMS_TESTS AND CMAKE_CXX_COMPILER) # the real plugin + link stubs need C++
  foreach(part server client)
    string(TOUPPER ${part} PART)
    add_library(vgw_fx_cuobj${part} SHARED ${fx}/link_stub.cpp)
    vgw_cuobj_target(vgw_fx_cuobj${part} stub)
    target_include_directories(vgw_fx_cuobj${part} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/vendor-decl/include)
    target_compile_definitions(vgw_fx_cuobj${part} PRIVATE VGW_STUB_${PART}=1 VGW_DECL_CUOBJ_SERVER_API=2)
    target_compile_options(vgw_fx_cuobj${part} PRIVATE -Wno-unused-parameter -fvisibility=default)
    set_target_properties(vgw_fx_cuobj${part} PROPERTIES OUTPUT_NAME cuobj${part}
                          LIBRARY_OUTPUT_DIRECTORY ${fx_out}/stub)
  endforeach()
  add_library(vgw_fx_cuobj_plugin SHARED src/cuobj/plugin_entry.cpp src/cuobj/vendor_map.c
              src/cuobj/cuobj_server_provider.cpp src/cuobj/cuobj_client_provider.cpp)
  vgw_cuobj_target(vgw_fx_cuobj_plugin plugin)
  target_include_directories(vgw_fx_cuobj_plugin PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/vendor-decl/include)
  target_compile_definitions(vgw_fx_cuobj_plugin PRIVATE VGW_DECL_CUOBJ_SERVER_API=2 VGW_CUOBJ_SERVER_API=2
                             VGW_CUOBJ_HAVE_SERVER=1 VGW_CUOBJ_HAVE_CLIENT=1)
  target_link_libraries(vgw_fx_cuobj_plugin PRIVATE vgw_fx_cuobjserver vgw_fx_cuobjclient ${CMAKE_DL_LIBS})
  target_link_options(vgw_fx_cuobj_plugin PRIVATE -Wl,--no-undefined)
  set_target_properties(vgw_fx_cuobj_plugin PROPERTIES OUTPUT_NAME vgwrdma_cuobj SKIP_BUILD_RPATH ON
                        LIBRARY_OUTPUT_DIRECTORY ${fx_out}/plugin)
endif()
