# The allocator of the command-line compilers: TILEC_TOOL_ALLOCATOR, which
# tilec_link_tool_allocator links into a tool.
#
# A kernel's compile allocates and frees an op, an attribute or an operand
# list at every step, and glibc's malloc took 13.8% of the instructions of
# the 7x7 stem's compile to SPIR-V, most of them where its per-thread cache
# of 7 blocks a size ran dry or overflowed. mimalloc (Debian's
# libmimalloc-dev), linked into tilec, tile-opt and tile-translate, replaces
# malloc and free for their whole process: 11.6% to 13.1% fewer
# instructions a SPIR-V kernel (bench/README.md, "Compile latency"). Not
# libtilec_jit, which runs in its user's process and must leave that
# process's allocator alone, and not a sanitized build, whose ASan owns
# malloc.
option(TILEC_MIMALLOC "Link the command-line compilers with mimalloc where it is installed" ON)
set(TILEC_TOOL_ALLOCATOR)
if(TILEC_MIMALLOC AND NOT TILEC_SANITIZE)
  find_package(mimalloc CONFIG QUIET)
  if(mimalloc_FOUND)
    set(TILEC_TOOL_ALLOCATOR mimalloc)
    message(STATUS "tilec: the command-line compilers allocate through mimalloc ${mimalloc_VERSION}")
  else()
    message(STATUS "tilec: mimalloc not found (libmimalloc-dev); the compilers use the C library's malloc")
  endif()
endif()

# Links the allocator into the tool `target`. Called before the tool's other
# target_link_libraries, so that the allocator comes first on its link line
# and its malloc is the one the process resolves.
function(tilec_link_tool_allocator target)
  if(TILEC_TOOL_ALLOCATOR)
    target_link_libraries(${target} PRIVATE ${TILEC_TOOL_ALLOCATOR})
  endif()
endfunction()
