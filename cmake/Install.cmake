# What `cmake --install` lays out, and the CMake package that lets another
# project use it (docs/install.md):
#
#   find_package(tilec)
#   target_link_libraries(app PRIVATE tilec::tilec)   # the JIT
#   target_link_libraries(app PRIVATE tilec::runtime) # bundles, no LLVM/MLIR
#
# The compiler's own static libraries, the dialect and the test tools are not
# installed: they are parts of the tools and of libtilec, not interfaces.
include(CMakePackageConfigHelpers)

set(TILEC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/tilec)

# A sanitized build's libraries leave the sanitizer runtime to the executable
# that links them (CMakeLists.txt): the installed targets ask for it.
if(TILEC_SANITIZE)
  foreach(library tilec_runtime tilec_jit)
    target_link_options(${library} INTERFACE
                        "$<INSTALL_INTERFACE:${TILEC_SANITIZER_FLAGS}>")
  endforeach()
endif()

install(TARGETS tilec_runtime EXPORT tilecTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

# libtilec_jit keeps the compiler, MLIR and LLVM private: an application
# compiles against its headers and the runtime's, nothing else.
set_target_properties(tilec_jit PROPERTIES EXPORT_NAME tilec)
install(TARGETS tilec_jit EXPORT tilecTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")

install(TARGETS tilec tile-run
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(EXPORT tilecTargets
  NAMESPACE tilec::
  DESTINATION ${TILEC_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/tilecConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cmake/tilecConfig.cmake
  INSTALL_DESTINATION ${TILEC_INSTALL_CMAKEDIR})
# Before 1.0 a minor version may change the API: only x.y.* are compatible.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/cmake/tilecConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/cmake/tilecConfig.cmake
  ${PROJECT_BINARY_DIR}/cmake/tilecConfigVersion.cmake
  DESTINATION ${TILEC_INSTALL_CMAKEDIR})
