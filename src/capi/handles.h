// handles.h - the handle table behind ct_tensor / ct_generator / ct_optimizer. A handle encodes a slot
// index and the slot's generation, so NULL, unknown and released handles are detected (never dereferenced).
// Note [Handle refcount]: each handle has its own count (retain/release); the slot holds one shared_ptr
// to the engine object, which may be shared by many handles.
#pragma once
#include <cstdint>
#include <memory>
#include "core/error.h"

namespace ct {

enum class HandleKind : uint8_t { Tensor = 1, Generator = 2, Optimizer = 3, Safetensors = 4, ProcessGroup = 5, Work = 6, DataParallel = 7 };

// Stores obj in a new slot with count 1; returns the encoded handle value.
uintptr_t handle_new(HandleKind kind, std::shared_ptr<void> obj);
// The object behind a live handle of kind; throws CT_ERR_INVALID_HANDLE naming op and arg otherwise.
// The reference is the slot's own pointer, valid while the handle is live (the caller copies or casts it at once:
// one reference-count increment per fetched handle, not two).
const std::shared_ptr<void>& handle_get(uintptr_t h, HandleKind kind, const char* op, const char* arg);
// Raw pointer variant (no refcount traffic); valid while the handle is live.
void* handle_peek(uintptr_t h, HandleKind kind, const char* op, const char* arg);
// +1 on a live handle (false if not live).
bool handle_retain(uintptr_t h, HandleKind kind);
// -1 on a live handle; frees the slot at zero and returns its object (null otherwise, and for handles that
// are not live). Dropping the returned pointer releases the object.
std::shared_ptr<void> handle_release(uintptr_t h, HandleKind kind);
// Number of live handles of every kind.
int64_t handle_live_count();

}  // namespace ct
