// capi_random.cpp - C API: generator handles (HandleKind::Generator) and random tensors. A NULL
// generator argument means the process-wide default generator.
#include "capi/capi_common.h"
#include "core/generator.h"
#include "ops/ops.h"

using namespace ct;

namespace ct {
// The generator behind g (kept alive for the call), or null for the default generator.
std::shared_ptr<Generator> generator_arg(ct_generator g, const char* op) {
    if (!g) return nullptr;
    return std::static_pointer_cast<Generator>(handle_get((uintptr_t)g, HandleKind::Generator, op, "gen"));
}
}  // namespace ct

extern "C" {

ct_status ct_generator_new(uint64_t seed, ct_generator* out) {
    return guard([&] {
        check_out(out, "generator_new");
        *out = (ct_generator)handle_new(HandleKind::Generator, std::make_shared<Generator>(seed));
    });
}

ct_generator ct_generator_retain(ct_generator g) {
    handle_retain((uintptr_t)g, HandleKind::Generator);
    return g;
}

void ct_generator_release(ct_generator g) { handle_release((uintptr_t)g, HandleKind::Generator); }

ct_status ct_generator_seed(ct_generator g, uint64_t seed) {
    return guard([&] {
        std::static_pointer_cast<Generator>(handle_get((uintptr_t)g, HandleKind::Generator, "generator_seed", "g"))
            ->set_seed(seed);
    });
}

ct_status ct_manual_seed(uint64_t seed) {
    return guard([&] { default_generator().set_seed(seed); });
}

ct_status ct_rand(const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device, ct_generator gen,
                  ct_tensor* out) {
    return guard([&] {
        check_out(out, "rand");
        auto g = generator_arg(gen, "rand");
        *out = new_tensor_handle(
            rand(shape_arg(shape, ndim, "rand"), dtype_arg(dtype, "rand"), device_arg(device, "rand"), g.get()));
    });
}

ct_status ct_randn(const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device, ct_generator gen,
                   ct_tensor* out) {
    return guard([&] {
        check_out(out, "randn");
        auto g = generator_arg(gen, "randn");
        *out = new_tensor_handle(
            randn(shape_arg(shape, ndim, "randn"), dtype_arg(dtype, "randn"), device_arg(device, "randn"), g.get()));
    });
}

ct_status ct_randint(int64_t low, int64_t high, const int64_t* shape, int32_t ndim, ct_dtype dtype, ct_device device,
                     ct_generator gen, ct_tensor* out) {
    return guard([&] {
        check_out(out, "randint");
        auto g = generator_arg(gen, "randint");
        *out = new_tensor_handle(randint(low, high, shape_arg(shape, ndim, "randint"), dtype_arg(dtype, "randint"),
                                         device_arg(device, "randint"), g.get()));
    });
}

ct_status ct_bernoulli(ct_tensor p, ct_generator gen, ct_tensor* out) {
    return guard([&] {
        check_out(out, "bernoulli");
        auto g = generator_arg(gen, "bernoulli");
        *out = new_tensor_handle(bernoulli(get_tensor(p, "bernoulli", "p"), g.get()));
    });
}

ct_status ct_randperm(int64_t n, ct_device device, ct_generator gen, ct_tensor* out) {
    return guard([&] {
        check_out(out, "randperm");
        auto g = generator_arg(gen, "randperm");
        *out = new_tensor_handle(randperm(n, device_arg(device, "randperm"), g.get()));
    });
}

}  // extern "C"
