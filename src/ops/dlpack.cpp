// dlpack.cpp - DLPack export (managed tensors that own a storage reference) and import (a storage whose
// release calls the producer's deleter). See Note [DLPack export layout] and Note [DLPack import ownership].
#include "ops/dlpack.h"
#include <cstdint>
#include <memory>
#include <string>
#include "core/backend.h"
#include "ops/ops.h"

namespace ct {
namespace {

// ---- dtype and device mapping ----

DLDataType dtype_to_dl(DType d) {
    DLDataType t;
    t.lanes = 1;
    t.bits = (uint8_t)(dtype_size(d) * 8);
    switch (d) {
    case DType::Float32: case DType::Float64: case DType::Float16: t.code = kDLFloat; break;
    case DType::BFloat16: t.code = kDLBfloat; break;
    case DType::Int32: case DType::Int64: case DType::Int8: case DType::Int16: t.code = kDLInt; break;
    case DType::UInt8: t.code = kDLUInt; break;
    case DType::Bool: t.code = kDLBool; break;  // one byte per element, bits = 8
    case DType::Complex64: case DType::Complex128: t.code = kDLComplex; break;  // bits 64 / 128 (the pair)
    }
    return t;
}

const char* dl_code_name(uint8_t code) {
    switch (code) {
    case kDLInt: return "int";
    case kDLUInt: return "uint";
    case kDLFloat: return "float";
    case kDLOpaqueHandle: return "opaque handle";
    case kDLBfloat: return "bfloat";
    case kDLComplex: return "complex";
    case kDLBool: return "bool";
    default: return "unknown";
    }
}

DType dtype_from_dl(DLDataType t, const char* op) {
    auto refuse = [&](const char* why) {
        fail(CT_ERR_DTYPE, op, ": unsupported DLPack dtype (code ", (int)t.code, " = ", dl_code_name(t.code),
             ", bits ", (int)t.bits, ", lanes ", (int)t.lanes, ")", why,
             "; supported: float32, float64, float16, bfloat16, int32, int64, int16, int8, uint8, bool, complex64, "
             "complex128 with lanes 1");
    };
    if (t.lanes != 1) refuse(": vector types (lanes != 1) are not supported");
    if (t.code == kDLFloat && t.bits == 32) return DType::Float32;
    if (t.code == kDLFloat && t.bits == 64) return DType::Float64;
    if (t.code == kDLInt && t.bits == 32) return DType::Int32;
    if (t.code == kDLInt && t.bits == 64) return DType::Int64;
    if (t.code == kDLUInt && t.bits == 8) return DType::UInt8;
    if (t.code == kDLBool && t.bits == 8) return DType::Bool;
    if (t.code == kDLFloat && t.bits == 16) return DType::Float16;
    if (t.code == kDLBfloat && t.bits == 16) return DType::BFloat16;
    if (t.code == kDLInt && t.bits == 8) return DType::Int8;
    if (t.code == kDLInt && t.bits == 16) return DType::Int16;
    if (t.code == kDLComplex && t.bits == 64) return DType::Complex64;
    if (t.code == kDLComplex && t.bits == 128) return DType::Complex128;
    refuse("");
    return DType::Float32;  // not reached
}

DLDevice device_to_dl(Device d) {
    DLDevice v;
    v.device_type = d.is_cpu() ? kDLCPU : kDLCUDA;
    v.device_id = d.index;
    return v;
}

Device device_from_dl(DLDevice d, const char* op) {
    // DLPack's device_id has no meaning for kDLCPU; producers set 0, and any value is read as cpu.
    if (d.device_type == kDLCPU) return Device{};
    if (d.device_type == kDLCUDA) {  // device memory of cuda:<device_id>, which must be usable here
        Device dev{DeviceType::CUDA, d.device_id};
        cuda_device_backend(op, d.device_id);  // CT_ERR_NOT_COMPILED / CT_ERR_DEVICE naming cuda:<id>
        return dev;
    }
    if (d.device_type == kDLCUDAHost || d.device_type == kDLCUDAManaged)
        fail(CT_ERR_NOT_SUPPORTED, op, ": DLPack device_type ", (int)d.device_type,
             d.device_type == kDLCUDAHost ? " (kDLCUDAHost, pinned host memory)" : " (kDLCUDAManaged, managed memory)",
             " cannot be imported: ctensor tensors live on cpu or cuda device memory; copy it to one of those first");
    fail(CT_ERR_DEVICE, op, ": unsupported DLPack device (device_type ", (int)d.device_type, ", device_id ",
         d.device_id, "); supported: device_type 1 = cpu, 2 = cuda");
}

// Waits for every queued kernel of t's CUDA device (Note [DLPack streams]); nothing for CPU tensors.
void synchronize_device(Device d, const char* op) {
    if (!d.is_cpu()) cuda_check(op, cuda_device_backend(op, d.index).synchronize(d.index));
}

// ---- export ----

// Everything one export owns; the managed struct lives inside it, so its deleter frees one object.
template <typename Managed> struct ExportContext {
    Managed managed{};
    std::shared_ptr<Storage> storage;  // keeps the memory alive; no autograd metadata is kept
    Shape shape;
    Shape strides;
};

// The deleter handed to consumers: thread-safe because it only drops an atomic storage reference.
template <typename Managed> void delete_export(Managed* self) {
    if (self) delete static_cast<ExportContext<Managed>*>(self->manager_ctx);
}

template <typename Managed> std::unique_ptr<ExportContext<Managed>> make_export(const Tensor& t) {
    auto ctx = std::make_unique<ExportContext<Managed>>();
    ctx->storage = t.storage();
    ctx->shape = t.sizes();
    ctx->strides = t.strides();
    DLTensor& dl = ctx->managed.dl_tensor;
    dl.data = t.device_data();  // first element (device memory for CUDA tensors); byte_offset stays 0
    dl.device = device_to_dl(t.device());
    dl.ndim = (int32_t)t.dim();
    dl.dtype = dtype_to_dl(t.dtype());
    dl.shape = ctx->shape.data();
    dl.strides = ctx->strides.data();
    dl.byte_offset = 0;
    ctx->managed.manager_ctx = ctx.get();
    ctx->managed.deleter = &delete_export<Managed>;
    return ctx;
}

// ---- import ----

// dl's layout, checked: lo and hi are the element offsets of the lowest and highest element from first.
struct CheckedLayout {
    Shape sizes, strides;
    DType dtype = DType::Float32;
    Device device;
    char* first = nullptr;  // data + byte_offset (may be NULL for empty tensors)
    int64_t item = 1, numel = 0, lo = 0, hi = 0;
};

CheckedLayout check_layout(const DLTensor& dl, const char* op) {
    if (dl.ndim < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": negative ndim ", dl.ndim);
    if (dl.ndim > 0 && !dl.shape) fail(CT_ERR_INVALID_ARGUMENT, op, ": shape is NULL but ndim is ", dl.ndim);
    CheckedLayout L;
    L.sizes.assign(dl.shape, dl.shape + dl.ndim);
    L.numel = checked_numel(L.sizes, op);
    L.dtype = dtype_from_dl(dl.dtype, op);
    L.device = device_from_dl(dl.device, op);
    L.strides = dl.strides ? Shape(dl.strides, dl.strides + dl.ndim) : contiguous_strides(L.sizes);
    L.item = (int64_t)dtype_size(L.dtype);
    // Address arithmetic in uintptr_t: data + byte_offset and the bytes of every element must not wrap.
    uintptr_t first = 0;
    if (dl.data && (dl.byte_offset > (uint64_t)INT64_MAX ||
                    __builtin_add_overflow((uintptr_t)dl.data, (uintptr_t)dl.byte_offset, &first)))
        fail(CT_ERR_INVALID_ARGUMENT, op, ": data ", dl.data, " + byte_offset ", dl.byte_offset,
             " overflows the address space");
    L.first = dl.data ? reinterpret_cast<char*>(first) : nullptr;
    if (L.numel == 0) return L;
    if (!L.first) fail(CT_ERR_INVALID_ARGUMENT, op, ": data is NULL for a tensor of shape ", shape_str(L.sizes));
    if (first % (uintptr_t)L.item != 0)
        fail(CT_ERR_NOT_SUPPORTED, op, ": data + byte_offset (", (void*)L.first, ") is not aligned to the ",
             L.item, "-byte ", dtype_name(L.dtype), " element size");
    Span sp = checked_span(L.sizes, L.strides, op);
    L.lo = sp.lo;
    L.hi = sp.hi;
    int64_t below = 0, above = 0;  // bytes before first, bytes from first to the end of the last element
    uintptr_t lowest = 0, end = 0;
    if (L.lo == INT64_MIN || L.hi == INT64_MAX || !mul_fits(-L.lo, L.item, &below) || !mul_fits(L.hi + 1, L.item, &above) || below > INT64_MAX - above ||
        __builtin_sub_overflow(first, (uintptr_t)below, &lowest) || __builtin_add_overflow(first, (uintptr_t)above, &end))
        fail(CT_ERR_INVALID_ARGUMENT, op, ": shape ", shape_str(L.sizes), " with strides ", shape_str(L.strides),
             " from ", (void*)L.first, " spans more bytes than the address space holds (int64 overflow)");
    return L;
}

Tensor make_import_tensor(const CheckedLayout& L, std::shared_ptr<Storage> storage, int64_t offset) {
    auto impl = std::make_shared<TensorImpl>();
    impl->storage = std::move(storage);
    impl->sizes = L.sizes;
    impl->strides = L.strides;
    impl->offset = offset;
    impl->dtype = L.dtype;
    return Tensor(impl);
}

// Note [DLPack round trip]: a tensor that ctensor itself exported comes back on its original Storage, so
// the two share the version counter (in-place writes through either are seen by autograd's checks) and
// ct_tensor_shares_storage reports 1. The export is then deleted at once; the storage keeps the memory.
// Returns false (use the generic path) when managed is not ours or its layout no longer lies in the storage.
template <typename Managed>
bool reuse_own_export(Managed* managed, const CheckedLayout& L, DLPackImport& result) {
    if (managed->deleter != &delete_export<Managed>) return false;
    const std::shared_ptr<Storage>& storage = static_cast<ExportContext<Managed>*>(managed->manager_ctx)->storage;
    if (!L.first || storage->device != L.device) return false;
    // Integer arithmetic: the consumer may have pointed data anywhere, even outside the storage.
    const intptr_t delta = (intptr_t)((uintptr_t)L.first - (uintptr_t)storage->data);
    if (delta < 0 || delta % L.item != 0) return false;
    const int64_t offset = delta / L.item;
    const int64_t storage_elements = (int64_t)(storage->nbytes / (size_t)L.item);
    if (L.numel > 0 && (offset + L.lo < 0 || L.hi >= storage_elements - offset)) return false;  // no overflow
    result.tensor = make_import_tensor(L, storage, offset);
    result.adopt = [managed]() { managed->deleter(managed); };
    return true;
}

// A tensor over managed's memory that does not own it until result.adopt() runs (see dlpack.h).
template <typename Managed> DLPackImport import_managed(Managed* managed, const char* op) {
    CheckedLayout L = check_layout(managed->dl_tensor, op);
    check_dtype_on_device(op, L.dtype, L.device);  // Note [Half on CUDA]
    DLPackImport result;
    if (reuse_own_export(managed, L, result)) {
        check_bool_bytes(op, result.tensor);  // Note [Bool bytes]; the consumer may have written any byte
        return result;
    }
    static char empty_block[1];  // a valid address for empty tensors whose producer gave NULL data
    char* base = L.first ? L.first + L.lo * L.item : empty_block;  // negative strides: start at the lowest
    size_t nbytes = L.numel > 0 ? (size_t)(L.hi - L.lo + 1) * (size_t)L.item : 0;
    auto storage = Storage::wrap(base, nbytes, L.device, nullptr);
    const Device device = L.device;
    std::function<void()> release = [managed, device]() {
        // our stream may still read or write the memory: finish that before the producer frees it
        if (!device.is_cpu()) {
            if (const ct_cuda_backend* b = cuda_backend_or_null(nullptr)) b->synchronize(device.index);
        }
        if (managed->deleter) managed->deleter(managed);
    };
    result.tensor = make_import_tensor(L, storage, -L.lo);
    check_bool_bytes(op, result.tensor);  // Note [Bool bytes]; on failure the producer keeps its memory
    // Moving a std::function cannot throw, so adopting cannot fail.
    result.adopt = [storage, release = std::move(release)]() mutable { storage->release = std::move(release); };
    return result;
}

}  // namespace

DLManagedTensor* to_dlpack(const Tensor& t) {
    synchronize_device(t.device(), "to_dlpack");
    return &make_export<DLManagedTensor>(t).release()->managed;
}

DLManagedTensorVersioned* to_dlpack_versioned(const Tensor& t) {
    synchronize_device(t.device(), "to_dlpack_versioned");
    auto ctx = make_export<DLManagedTensorVersioned>(t);
    ctx->managed.version.major = 1;  // the DLPack ABI this file implements (Debian's header 1.0)
    ctx->managed.version.minor = 0;
    ctx->managed.flags = 0;  // writable, not a copy
    return &ctx.release()->managed;
}

DLPackImport from_dlpack(DLManagedTensor* managed) {
    const char* op = "from_dlpack";
    if (!managed) fail(CT_ERR_INVALID_ARGUMENT, op, ": managed tensor is NULL");
    return import_managed(managed, op);
}

DLPackImport from_dlpack_versioned(DLManagedTensorVersioned* managed) {
    const char* op = "from_dlpack_versioned";
    if (!managed) fail(CT_ERR_INVALID_ARGUMENT, op, ": managed tensor is NULL");
    // The version comes first in every DLPack 1.x struct; nothing else may be read before checking it.
    if (managed->version.major != 1)
        fail(CT_ERR_VERSION, op, ": DLPack version ", managed->version.major, ".", managed->version.minor,
             " is not supported (ctensor reads major version 1)");
    if (managed->flags & DLPACK_FLAG_BITMASK_READ_ONLY)
        fail(CT_ERR_NOT_SUPPORTED, op, ": the tensor is marked read-only (DLPACK_FLAG_BITMASK_READ_ONLY) and "
             "ctensor tensors are always writable; import a writable copy instead");
    return import_managed(managed, op);
}

}  // namespace ct
