// capi_format.cpp - C API: the PyTorch-like text form of a tensor, copied into a caller buffer.
#include <cstring>
#include "capi/capi_common.h"
#include "ops/format.h"

using namespace ct;

extern "C" {

ct_status ct_tensor_to_string(ct_tensor t, char* buf, int64_t cap, int64_t* len) {
    return guard([&] {
        std::string s = tensor_repr(get_tensor(t, "tensor_to_string", "t"));
        text_out(s, buf, cap, len, "tensor_to_string");
    });
}

}  // extern "C"
