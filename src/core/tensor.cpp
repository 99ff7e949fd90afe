// tensor.cpp - layout helpers, allocation of contiguous tensors and views.
#include "core/tensor.h"
#include <limits>
#include "core/allocator.h"
#include "core/backend.h"

namespace ct {

std::string shape_str(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(shape[i]);
    }
    return s + "]";
}

std::shared_ptr<Storage> Storage::allocate(size_t nbytes, Device device) {
    auto s = std::make_shared<Storage>();
    s->nbytes = nbytes;
    s->device = device;
    if (device.is_cpu()) {
        void* p = s->data = cpu_alloc(nbytes);
        s->release = [p, nbytes]() { cpu_free(p, nbytes); };
        return s;
    }
    // CUDA: the backend's caching allocator (Note [Backend loading]); the release returns the block to it.
    const ct_cuda_backend& b = cuda_device_backend("alloc", device.index);
    void* p = nullptr;
    cuda_check("alloc", b.malloc(device.index, nbytes, &p));
    s->data = p;
    int32_t index = device.index;
    s->release = [&b, index, p, nbytes]() { b.free(index, p, nbytes); };
    return s;
}

std::shared_ptr<Storage> Storage::wrap(void* data, size_t nbytes, Device device, std::function<void()> deleter) {
    auto s = std::make_shared<Storage>();
    s->data = data;
    s->nbytes = nbytes;
    s->device = device;
    s->release = std::move(deleter);
    return s;
}

void Tensor::fail_not_cpu() const {
    fail(CT_ERR_NOT_SUPPORTED, "cpu kernel: a tensor on ", device_str(device()),
         " reached CPU code; this op is not implemented for cuda tensors yet");
}

int64_t Tensor::size(int64_t d) const { return impl_->sizes[wrap_dim(d, dim(), "size")]; }
int64_t Tensor::stride(int64_t d) const { return impl_->strides[wrap_dim(d, dim(), "stride")]; }

int64_t Tensor::numel() const {
    int64_t n = 1;
    for (int64_t s : impl_->sizes) {
        if (s == 0) return 0;
        n *= s;  // fits: Note [Shape bound] in core/checked_math.h
    }
    return n;
}

bool Tensor::is_contiguous() const {
    int64_t expected = 1;
    for (int64_t i = dim() - 1; i >= 0; --i) {
        if (impl_->sizes[i] == 1) continue;
        if (impl_->sizes[i] == 0) return true;
        if (impl_->strides[i] != expected) return false;
        expected *= impl_->sizes[i];
    }
    return true;
}

void check_dtype_on_device(const char* op, DType dtype, Device device) {
    if (device.is_cpu() || !(is_half(dtype) || is_complex(dtype))) return;
    // complex never reaches the backend (Note [Complex dtypes]); half does when the backend says it takes it
    if (is_half(dtype) && cuda_backend(op ? op : "ctensor").dtype_supported((int32_t)dtype)) return;
    fail(CT_ERR_NOT_SUPPORTED, op ? op : "ctensor", ": ", dtype_name(dtype),
         " tensors are not supported on cuda (CPU only; convert to ", is_half(dtype) ? "float32" : "a real dtype",
         " first)");
}

Tensor empty_tensor(const Shape& sizes, DType dtype, Device device, const char* op) {
    check_dtype_on_device(op, dtype, device);
    int64_t n = checked_numel(sizes, op);
    size_t item = dtype_size(dtype);
    if (n > 0 && (uint64_t)n > (std::numeric_limits<uint64_t>::max() >> 8) / item)
        fail(CT_ERR_OUT_OF_MEMORY, op, ": shape ", shape_str(sizes), " of ", dtype_name(dtype), " is too large (",
             n, " elements of ", item, " bytes)");
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = Storage::allocate((size_t)n * item, device);
    impl->sizes = sizes;
    impl->strides = contiguous_strides(sizes);
    impl->dtype = dtype;
    return Tensor(std::move(impl));
}

Tensor make_view(const Tensor& base, Shape sizes, Shape strides, int64_t offset) {
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = base.storage();
    impl->sizes = std::move(sizes);
    impl->strides = std::move(strides);
    impl->offset = offset;
    impl->dtype = base.dtype();
    impl->is_view = true;
    return Tensor(std::move(impl));
}

int64_t wrap_dim(int64_t dim, int64_t ndim, const char* op) {
    int64_t n = ndim > 0 ? ndim : 1;  // 0-d tensors accept dim 0 / -1 like PyTorch
    CT_CHECK(dim >= -n && dim < n, CT_ERR_INDEX, op, ": dim ", dim, " is out of range for a tensor of rank ", ndim,
             " (expected in [", -n, ", ", n - 1, "])");
    return dim < 0 ? dim + n : dim;
}

}  // namespace ct

namespace ct {
Tensor broadcast_view(const Tensor& t, const Shape& shape) {
    if (t.sizes() == shape) return make_view(t, t.sizes(), t.strides(), t.offset());
    int64_t nd = (int64_t)shape.size(), td = t.dim();
    Shape st(nd, 0);
    for (int64_t i = 0; i < td; ++i) {
        int64_t d = nd - td + i;
        st[d] = t.sizes()[i] == 1 && shape[d] != 1 ? 0 : t.strides()[i];
    }
    return make_view(t, shape, st, t.offset());
}
}  // namespace ct
