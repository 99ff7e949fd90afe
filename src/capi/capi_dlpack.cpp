// capi_dlpack.cpp - C API: DLPack export and import (legacy and versioned); see src/ops/dlpack.h.
#include "capi/capi_common.h"
#include "ops/dlpack.h"

using namespace ct;

namespace {
// A handle for a fresh import; if making it fails, ownership goes back to the caller (deleter not called).
ct_tensor import_handle(const Tensor& imported) {
    try {
        return new_tensor_handle(imported);
    } catch (...) {
        disown_dlpack_import(imported);
        throw;
    }
}
}  // namespace

extern "C" {

ct_status ct_to_dlpack(ct_tensor t, struct DLManagedTensor** out) {
    return guard([&] {
        check_out(out, "to_dlpack");
        *out = to_dlpack(get_tensor(t, "to_dlpack", "t"));
    });
}

ct_status ct_to_dlpack_versioned(ct_tensor t, struct DLManagedTensorVersioned** out) {
    return guard([&] {
        check_out(out, "to_dlpack_versioned");
        *out = to_dlpack_versioned(get_tensor(t, "to_dlpack_versioned", "t"));
    });
}

ct_status ct_from_dlpack(struct DLManagedTensor* managed, ct_tensor* out) {
    return guard([&] {
        check_out(out, "from_dlpack");
        *out = import_handle(from_dlpack(managed));
    });
}

ct_status ct_from_dlpack_versioned(struct DLManagedTensorVersioned* managed, ct_tensor* out) {
    return guard([&] {
        check_out(out, "from_dlpack_versioned");
        *out = import_handle(from_dlpack_versioned(managed));
    });
}

}  // extern "C"
