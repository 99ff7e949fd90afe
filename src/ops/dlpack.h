// dlpack.h - zero-copy exchange with other frameworks through DLPack 1.0 (legacy DLManagedTensor and
// versioned DLManagedTensorVersioned), using Debian's <dlpack/dlpack.h>.
#pragma once
#include <dlpack/dlpack.h>
#include <functional>
#include "core/tensor.h"

namespace ct {

// Note [DLPack export layout]: an export points dl_tensor.data at t's first element and sets
// byte_offset = 0 (as PyTorch does); shape and strides are in elements. The managed tensor owns a
// reference to t's storage (not to t: the export is detached from the autograd graph) plus its own
// shape/strides arrays. Its deleter frees all of that, may run on any thread, and must run exactly once.
// Note [DLPack streams]: ctensor has one stream per CUDA device and the C API has no stream argument, so an
// export of a CUDA tensor (kDLCUDA, device_id = its index) synchronises that device before returning: the
// consumer may use the memory on any stream at once. An import of kDLCUDA memory is zero-copy on cuda:<id>;
// the producer must have finished writing it (as the DLPack spec requires of a producer given no stream), and
// before the producer's deleter runs, ctensor synchronises the device so none of its kernels still use it.
DLManagedTensor* to_dlpack(const Tensor& t);
// Same as to_dlpack with version {1, 0} and flags 0.
DLManagedTensorVersioned* to_dlpack_versioned(const Tensor& t);

// Note [DLPack import ownership]: importing is two steps so that ownership moves only on success.
// from_dlpack* checks the managed tensor and returns a tensor over its memory that does not own it yet;
// on a throw nothing changed. Once the caller can no longer fail (its handle exists) it calls adopt()
// exactly once: from then on the tensor's storage calls the producer's deleter once, when the last view
// of it dies, on whichever thread that is. Dropping the result without adopt() leaves the managed tensor
// with the caller. Accepted: CPU and CUDA (kDLCUDA on a usable device) tensors of the six ctensor dtypes
// (lanes 1), any strides (NULL = row-major; negative and zero allowed) and any byte_offset that keeps
// elements aligned. kDLCUDAHost and kDLCUDAManaged memory is refused (CT_ERR_NOT_SUPPORTED).
// See also Note [DLPack round trip] in dlpack.cpp.
struct DLPackImport {
    Tensor tensor;
    std::function<void()> adopt;  // never throws
};
DLPackImport from_dlpack(DLManagedTensor* managed);
// Also checks version.major == 1 (CT_ERR_VERSION) and refuses the read-only flag (CT_ERR_NOT_SUPPORTED).
DLPackImport from_dlpack_versioned(DLManagedTensorVersioned* managed);

}  // namespace ct
