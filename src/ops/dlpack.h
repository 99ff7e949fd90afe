// dlpack.h - zero-copy exchange with other frameworks through DLPack 1.0 (legacy DLManagedTensor and
// versioned DLManagedTensorVersioned), using Debian's <dlpack/dlpack.h>.
#pragma once
#include <dlpack/dlpack.h>
#include "core/tensor.h"

namespace ct {

// Note [DLPack export layout]: an export points dl_tensor.data at t's first element and sets
// byte_offset = 0 (as PyTorch does); shape and strides are in elements. The managed tensor owns a
// reference to t's storage (not to t: the export is detached from the autograd graph) plus its own
// shape/strides arrays. Its deleter frees all of that, may run on any thread, and must run exactly once.
DLManagedTensor* to_dlpack(const Tensor& t);
// Same as to_dlpack with version {1, 0} and flags 0.
DLManagedTensorVersioned* to_dlpack_versioned(const Tensor& t);

// Note [DLPack import ownership]: on success the returned tensor's storage owns `managed` and calls its
// deleter once when the last view of the storage dies (on whichever thread that is). On failure (an
// exception) nothing is owned and the deleter is not called. A caller that fails after a successful
// import (e.g. making a handle) must call disown_dlpack_import before dropping the tensor.
// Accepted: CPU tensors of the six ctensor dtypes (lanes 1), any strides (NULL = row-major, negative
// and zero allowed), any byte_offset that keeps elements aligned.
Tensor from_dlpack(DLManagedTensor* managed);
// Also checks version.major == 1 (CT_ERR_VERSION) and refuses the read-only flag (CT_ERR_NOT_SUPPORTED).
Tensor from_dlpack_versioned(DLManagedTensorVersioned* managed);
// Gives ownership of an imported tensor's producer memory back to the caller: its deleter will not run.
void disown_dlpack_import(const Tensor& imported);

}  // namespace ct
