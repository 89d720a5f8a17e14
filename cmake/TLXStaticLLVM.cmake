# The xtc wheels were configured with LLVM_LINK_LLVM_DYLIB=ON, so each exported
# MLIR library names the shared `LLVM` target (libLLVM.so, shipped in the tools
# wheel) in its link interface. TLX binaries must be self-contained: replace
# that dependency with the static LLVM component libraries.
#
# A few tool-support archives (Debuginfod, CFIVerify, Diff, OptDriver) link the
# dylib themselves; they are not needed and are left out.

set(LLVM_LINK_LLVM_DYLIB OFF)

set(TLX_STATIC_LLVM_LIBS "")
foreach(lib IN LISTS LLVM_AVAILABLE_LIBS)
  if(NOT TARGET ${lib})
    continue()
  endif()
  get_target_property(type ${lib} TYPE)
  get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
  if(type STREQUAL "STATIC_LIBRARY" AND NOT "LLVM" IN_LIST deps)
    list(APPEND TLX_STATIC_LLVM_LIBS ${lib})
  endif()
endforeach()

get_property(tlx_mlir_libs GLOBAL PROPERTY MLIR_ALL_LIBS)
foreach(lib IN LISTS tlx_mlir_libs MLIR_EXPORTED_TARGETS)
  if(NOT TARGET ${lib})
    continue()
  endif()
  get_target_property(type ${lib} TYPE)
  if(NOT type STREQUAL "STATIC_LIBRARY")
    continue()
  endif()
  get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
  if(deps AND ("LLVM" IN_LIST deps OR "$<LINK_ONLY:LLVM>" IN_LIST deps))
    list(REMOVE_ITEM deps LLVM "$<LINK_ONLY:LLVM>")
    list(APPEND deps ${TLX_STATIC_LLVM_LIBS})
    set_target_properties(${lib} PROPERTIES INTERFACE_LINK_LIBRARIES "${deps}")
  endif()
endforeach()
