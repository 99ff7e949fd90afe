// capi_dlpack.cpp - C API: DLPack export and import (legacy and versioned); see src/ops/dlpack.h.
#include "capi/capi_common.h"
#include "ops/dlpack.h"

using namespace ct;

namespace {
// A handle for a fresh import; ownership of the managed tensor moves only once the handle exists.
ct_tensor import_handle(DLPackImport imported) {
    ct_tensor h = new_tensor_handle(imported.tensor);
    imported.adopt();
    return h;
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
