// allocator.h - CPU memory: 64-byte aligned blocks; large freed blocks are cached and reused so that
// fresh large tensors do not page-fault again (see DESIGN.md performance notes); small freed blocks are kept
// per thread by size class so small ops skip malloc.
#pragma once
#include <cstddef>

namespace ct {

// Returns an aligned block of at least nbytes (nbytes may be 0); throws Error(CT_ERR_OUT_OF_MEMORY).
void* cpu_alloc(size_t nbytes);
// Returns a block from cpu_alloc; nbytes must be the size it was requested with.
void cpu_free(void* p, size_t nbytes);
// Frees every cached large block and the calling thread's small blocks (returns bytes released).
size_t cpu_empty_cache();

}  // namespace ct
