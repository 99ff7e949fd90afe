// capi_activations.cpp - C API: the activations of ops/activations.cpp (torch.nn.functional names).
#include "capi/capi_common.h"
#include "core/generator.h"
#include "ops/ops.h"

using namespace ct;

namespace {
// *out = f(x) for the tensor handle x, in the C API's error contract.
template <typename F> ct_status activation(const char* op, ct_tensor x, ct_tensor* out, F f) {
    return guard([&] {
        check_out(out, op);
        *out = new_tensor_handle(f(get_tensor(x, op, "x")));
    });
}
}  // namespace

extern "C" {

CT_DEFINE_UNARY(hardsigmoid, hardsigmoid(X))
CT_DEFINE_UNARY(hardswish, hardswish(X))
CT_DEFINE_UNARY(mish, mish(X))
CT_DEFINE_UNARY(log_sigmoid, log_sigmoid(X))
CT_DEFINE_UNARY(softsign, softsign(X))
CT_DEFINE_UNARY(tanhshrink, tanhshrink(X))

ct_status ct_elu(ct_tensor x, double alpha, double scale, double input_scale, ct_tensor* out) {
    return activation("elu", x, out, [&](const Tensor& X) { return elu(X, alpha, scale, input_scale); });
}
ct_status ct_leaky_relu(ct_tensor x, double negative_slope, ct_tensor* out) {
    return activation("leaky_relu", x, out, [&](const Tensor& X) { return leaky_relu(X, negative_slope); });
}
ct_status ct_hardtanh(ct_tensor x, double min_val, double max_val, ct_tensor* out) {
    return activation("hardtanh", x, out, [&](const Tensor& X) { return hardtanh(X, min_val, max_val); });
}
ct_status ct_softshrink(ct_tensor x, double lambd, ct_tensor* out) {
    return activation("softshrink", x, out, [&](const Tensor& X) { return softshrink(X, lambd); });
}
ct_status ct_hardshrink(ct_tensor x, double lambd, ct_tensor* out) {
    return activation("hardshrink", x, out, [&](const Tensor& X) { return hardshrink(X, lambd); });
}
ct_status ct_threshold(ct_tensor x, double threshold_value, double value, ct_tensor* out) {
    return activation("threshold", x, out, [&](const Tensor& X) { return threshold(X, threshold_value, value); });
}
ct_status ct_softmin(ct_tensor x, int64_t dim, ct_tensor* out) {
    return activation("softmin", x, out, [&](const Tensor& X) { return softmin(X, dim); });
}
ct_status ct_glu(ct_tensor x, int64_t dim, ct_tensor* out) {
    return activation("glu", x, out, [&](const Tensor& X) { return glu(X, dim); });
}
ct_status ct_prelu(ct_tensor x, ct_tensor weight, ct_tensor* out) {
    return activation("prelu", x, out, [&](const Tensor& X) { return prelu(X, get_tensor(weight, "prelu", "weight")); });
}
ct_status ct_rrelu(ct_tensor x, double lower, double upper, int32_t training, ct_generator gen, ct_tensor* out) {
    return activation("rrelu", x, out, [&](const Tensor& X) {
        std::shared_ptr<Generator> g = generator_arg(gen, "rrelu");
        return rrelu(X, lower, upper, training != 0, g.get());
    });
}

}  // extern "C"
