# How tilec links LLVM and MLIR: TILEC_LLVM_LIBS and TILEC_MLIR_LIBS.
#
# LLVM and MLIR are linked from Debian's static libraries by default: the
# dynamic loader then has no half a million relocations of libLLVM and
# libMLIR to apply at every start, which made a whole-process compile of one
# matmul cost 31 ms of CPU instead of 9 (bench/README.md, "Compile
# latency"). OFF links the shared libraries: faster links, smaller builds.
option(TILEC_STATIC_LLVM "Link LLVM and MLIR statically into the tools and libtilec_jit" ON)
if(TILEC_STATIC_LLVM)
  # LLVMSupport links zstd; Debian's runtime library is enough (no headers needed).
  find_library(TILEC_ZSTD_LIBRARY NAMES zstd libzstd.so.1 REQUIRED)
  add_library(zstd::libzstd_shared SHARED IMPORTED)
  set_target_properties(zstd::libzstd_shared PROPERTIES IMPORTED_LOCATION ${TILEC_ZSTD_LIBRARY})
  set(TILEC_LLVM_LIBS LLVMSupport)
  # The MLIR libraries that tilec's sources include headers of.
  set(TILEC_MLIR_LIBS
    MLIRArithToSPIRV MLIRFuncToSPIRV MLIRGPUToSPIRV MLIRIndexToSPIRV MLIRMathToSPIRV
    MLIRMemRefToSPIRV MLIRSCFToSPIRV MLIRVectorToSPIRV MLIRArithDialect MLIRArithTransforms
    MLIRFuncDialect MLIRGPUDialect MLIRMathDialect MLIRMathTransforms MLIRMemRefDialect
    MLIRSCFDialect MLIRSCFUtils MLIRSPIRVDialect MLIRSPIRVTransforms MLIRSPIRVUtils MLIRTensorDialect
    MLIRVectorDialect
    MLIRIR MLIRParser MLIRPass MLIRSupport MLIRSPIRVSerialization MLIRTransforms
    MLIRTransformUtils MLIROptLib MLIRBytecodeOpInterface MLIRSideEffectInterfaces
    MLIRInferTypeOpInterface MLIRDialectUtils LLVMSupport)
  # Debian's MLIR archives name the LLVM shared library in their link
  # interfaces; point them at LLVM's archives instead, so that no part of
  # LLVM is left to the dynamic loader.
  set(tilec_pending ${TILEC_MLIR_LIBS})
  set(tilec_seen)
  while(tilec_pending)
    list(POP_FRONT tilec_pending tilec_lib)
    if(NOT TARGET ${tilec_lib} OR tilec_lib IN_LIST tilec_seen)
      continue()
    endif()
    list(APPEND tilec_seen ${tilec_lib})
    get_target_property(tilec_deps ${tilec_lib} INTERFACE_LINK_LIBRARIES)
    if(tilec_deps)
      list(TRANSFORM tilec_deps REPLACE "^LLVM$" "LLVMCore;LLVMBinaryFormat;LLVMSupport")
      set_target_properties(${tilec_lib} PROPERTIES INTERFACE_LINK_LIBRARIES "${tilec_deps}")
      list(APPEND tilec_pending ${tilec_deps})
    endif()
  endwhile()
else()
  set(TILEC_LLVM_LIBS LLVM)
  set(TILEC_MLIR_LIBS MLIR LLVM)
endif()
