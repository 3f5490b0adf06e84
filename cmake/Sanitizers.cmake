# The sanitizer build (docs/testing.md, "Sanitizer build"): with
# -DTILEC_SANITIZE=ON every target of tilec is compiled and linked with
# AddressSanitizer and UndefinedBehaviorSanitizer, and any UB report stops the
# program (-fno-sanitize-recover), so that a test that triggers one fails.
# -O1 keeps the tests' run time reasonable while the reports stay exact;
# frame pointers and line tables give the reports their stacks. LLVM, MLIR
# and the drivers (PoCL, lavapipe) are Debian's uninstrumented shared
# libraries. TILEC_FUZZERS (tests/fuzz) implies this build, and instruments
# every target for libFuzzer's coverage too (fuzzer-no-link), so that the
# front-end fuzzer is guided through the whole compiler. Included before any
# target is defined so that the runtime is instrumented as well.
option(TILEC_SANITIZE "Build every target with ASan and UBSan (needs clang)" OFF)
if(TILEC_FUZZERS)
  set(TILEC_SANITIZE ON)
endif()
if(NOT TILEC_SANITIZE)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "TILEC_SANITIZE and TILEC_FUZZERS need clang, not "
                      "${CMAKE_CXX_COMPILER_ID}: configure with "
                      "-DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19")
endif()
set(TILEC_SANITIZER_FLAGS -fsanitize=address,undefined)
if(TILEC_FUZZERS)
  list(APPEND TILEC_SANITIZER_FLAGS -fsanitize=fuzzer-no-link)
endif()
add_compile_options(${TILEC_SANITIZER_FLAGS} -fno-sanitize-recover=undefined
                    -fno-omit-frame-pointer -gline-tables-only -O1)
add_link_options(${TILEC_SANITIZER_FLAGS})
