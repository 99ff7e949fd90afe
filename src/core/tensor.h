// tensor.h - TensorImpl (layout + storage + optional autograd metadata) and Tensor, the value handle
// the engine passes around. Three layers, as in PyTorch's TensorImpl: storage (shared by views),
// view metadata (sizes, strides, offset in elements), autograd metadata (nullable pointer).
#pragma once
#include <atomic>
#include <memory>
#include <vector>
#include "core/checked_math.h"
#include "core/dtype.h"
#include "core/error.h"
#include "core/storage.h"

namespace ct {

struct AutogradMeta;  // defined by the autograd layer; the core only holds the pointer
using Shape = std::vector<int64_t>;

struct TensorImpl {
    std::shared_ptr<Storage> storage;
    Shape sizes;
    Shape strides;
    int64_t offset = 0;
    DType dtype = DType::Float32;
    bool wrapped_number = false;                // a language scalar: promotes like a Python number
    bool is_view = false;                       // shares storage with the tensor it was made from
    std::shared_ptr<AutogradMeta> autograd;     // null until requires_grad or a grad_fn is set
    std::atomic<int32_t> handles{0};            // C handles wrapping this impl (Note [Grad cycle], autograd)
};

class Tensor {
  public:
    Tensor() = default;
    explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

    bool defined() const { return impl_ != nullptr; }
    TensorImpl* impl() const { return impl_.get(); }
    const std::shared_ptr<TensorImpl>& impl_ptr() const { return impl_; }

    const Shape& sizes() const { return impl_->sizes; }
    const Shape& strides() const { return impl_->strides; }
    int64_t size(int64_t dim) const;   // dim may be negative
    int64_t stride(int64_t dim) const;
    int64_t dim() const { return (int64_t)impl_->sizes.size(); }
    int64_t numel() const;
    int64_t offset() const { return impl_->offset; }
    DType dtype() const { return impl_->dtype; }
    Device device() const { return impl_->storage->device; }
    size_t itemsize() const { return dtype_size(impl_->dtype); }
    bool is_contiguous() const;
    // Note [Device data]: raw_data()/data<T>() are for CPU code and throw CT_ERR_NOT_SUPPORTED for a tensor on
    // another device, so a CPU kernel reached with a CUDA tensor fails cleanly instead of reading device
    // memory. Code that hands pointers to a backend (or to the caller) uses device_data().
    void* raw_data() const {
        if (!impl_->storage->device.is_cpu()) fail_not_cpu();
        return device_data();
    }
    void* device_data() const { return static_cast<char*>(impl_->storage->data) + impl_->offset * itemsize(); }
    // A half tensor read as anything but its storage type is a kernel without a float32 path: refused
    // (Note [Half compute]) rather than reinterpreted.
    template <typename T> T* data() const {
        if constexpr (!IsHalfType<T>::value && !IsComplexType<T>::value) {
            if (is_half(impl_->dtype) || is_complex(impl_->dtype)) fail_half_kernel(impl_->dtype);
        }
        return static_cast<T*>(raw_data());
    }
    const std::shared_ptr<Storage>& storage() const { return impl_->storage; }
    int64_t version() const { return impl_->storage->version.load(std::memory_order_relaxed); }
    void bump_version() const { impl_->storage->version.fetch_add(1, std::memory_order_relaxed); }
    bool is_same(const Tensor& o) const { return impl_ == o.impl_; }

  private:
    [[noreturn]] void fail_not_cpu() const;
    std::shared_ptr<TensorImpl> impl_;
};

// Note [Half on CUDA]: float16 and bfloat16 tensors live on CUDA devices when the loaded backend's
// dtype_supported says so (both backends built from this tree do). Elementwise ops, casts, fills, where,
// masked_fill, gather/scatter, matmul, reductions, softmax run native half kernels there (Notes [CUDA half kernels],
// [Native half on CUDA]); the other ops compute on float32 copies and round back (Note [Half compute]), as on the CPU.
// Complex tensors are refused on a CUDA device with CT_ERR_NOT_SUPPORTED naming op, dtype and device wherever one
// would be made (allocation, wrapping of foreign memory), as is half on a backend that does not take it.
void check_dtype_on_device(const char* op, DType dtype, Device device);
// New uninitialised contiguous tensor; op names the caller in errors (a shape past Note [Shape bound] in
// core/checked_math.h is CT_ERR_SHAPE, a byte size too large to allocate CT_ERR_OUT_OF_MEMORY).
Tensor empty_tensor(const Shape& sizes, DType dtype, Device device, const char* op = "empty");
// A view of base's storage with a new layout (no autograd metadata).
Tensor make_view(const Tensor& base, Shape sizes, Shape strides, int64_t offset);
// Wraps a dim (possibly negative) into [0, ndim); throws CT_ERR_INDEX naming op.
int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op);

}  // namespace ct

namespace ct {
// A stride-0 broadcast view of t with shape (no autograd; for kernels). Assumes shapes are compatible.
Tensor broadcast_view(const Tensor& t, const Shape& shape);
}  // namespace ct
