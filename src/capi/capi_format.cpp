// capi_format.cpp - C API: the PyTorch-like text form of a tensor, copied into a caller buffer.
#include <cstring>
#include "capi/capi_common.h"
#include "ops/format.h"

using namespace ct;

extern "C" {

ct_status ct_tensor_to_string(ct_tensor t, char* buf, int64_t cap, int64_t* len) {
    return guard([&] {
        if (cap < 0 || (cap > 0 && !buf))
            fail(CT_ERR_INVALID_ARGUMENT, "tensor_to_string: bad buffer (capacity ", cap, ", buf ",
                 buf ? "set" : "NULL", ")");
        std::string s = tensor_repr(get_tensor(t, "tensor_to_string", "t"));
        if (cap > 0) {
            size_t n = std::min(s.size(), (size_t)cap - 1);
            std::memcpy(buf, s.data(), n);
            buf[n] = '\0';
        }
        if (len) *len = (int64_t)s.size();
    });
}

}  // extern "C"
