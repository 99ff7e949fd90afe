// thread_pool.h - the worker pool behind parallel_for (see thread_pool.cpp for the waiting policy).
#pragma once
#include <cstdint>

namespace ct {

using ChunkFn = void (*)(void* ctx, int64_t chunk);

// Calls call(ctx, i) once for each i in [0, chunks) on the calling thread and pool workers and returns
// when all are done. Nested calls (from inside a chunk) and calls made while another thread's job runs
// run serially on the calling thread. The first exception thrown by a chunk is rethrown here.
void run_chunks(int chunks, ChunkFn call, void* ctx);

// True on a thread that is running a chunk.
bool in_parallel_region();

}  // namespace ct
