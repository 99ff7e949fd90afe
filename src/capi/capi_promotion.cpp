// capi_promotion.cpp - C API: torch's type promotion rules as queries (promote_types, can_cast, result_type), the
// same functions the ops use (core/dtype.h, core/dtype_cast.h, ops/checks.cpp), so a binding never keeps its own
// copy of the rules.
#include "capi/capi_common.h"
#include "core/dtype_cast.h"
#include "ops/ops.h"

using namespace ct;

extern "C" {

ct_status ct_promote_types(ct_dtype a, ct_dtype b, ct_dtype* dtype) {
    return guard([&] {
        const char* op = "promote_types";
        check_out(dtype, op);
        *dtype = (ct_dtype)promote_types(dtype_arg(a, op), dtype_arg(b, op));
    });
}

ct_status ct_can_cast(ct_dtype from, ct_dtype to, int32_t* castable) {
    return guard([&] {
        const char* op = "can_cast";
        check_out(castable, op);
        *castable = can_cast(dtype_arg(from, op), dtype_arg(to, op)) ? 1 : 0;
    });
}

ct_status ct_result_type(ct_tensor a, ct_tensor b, ct_dtype* dtype) {
    return guard([&] {
        const char* op = "result_type";
        check_out(dtype, op);
        *dtype = (ct_dtype)result_type(get_tensor_any_device(a, op, "a"), get_tensor_any_device(b, op, "b"));
    });
}

}  // extern "C"
