// allocator.h - CPU memory: 64-byte aligned blocks; large freed blocks are cached and reused so that
// fresh large tensors do not page-fault again (see DESIGN.md performance notes); small freed blocks are kept
// per thread by size class so small ops skip malloc.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ct {

// Returns an aligned block of at least nbytes (nbytes may be 0); throws Error(CT_ERR_OUT_OF_MEMORY).
void* cpu_alloc(size_t nbytes);
// Returns a block from cpu_alloc; nbytes must be the size it was requested with.
void cpu_free(void* p, size_t nbytes);
// Frees every cached large block and the calling thread's small blocks (returns bytes released).
size_t cpu_empty_cache();

// The memory limit: bytes of CPU blocks handed out by cpu_alloc and not yet freed may not exceed it; a request
// beyond it throws Error(CT_ERR_OUT_OF_MEMORY) as a failed malloc does. -1 means no limit. The first value comes
// from the environment variable CTENSOR_MEMORY_LIMIT (bytes, with an optional K, M or G suffix) when set.
void cpu_set_memory_limit(int64_t bytes);
int64_t cpu_memory_limit();
// Bytes of CPU blocks handed out and not yet freed (rounded sizes; cached free blocks are not counted).
int64_t cpu_memory_in_use();
// Bytes of freed CPU blocks kept in the caches (the global large-block cache and this thread's small blocks).
int64_t cpu_memory_cached();

}  // namespace ct
