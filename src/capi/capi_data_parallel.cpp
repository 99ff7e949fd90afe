// capi_data_parallel.cpp - C API: the data-parallel gradient reducer (src/distributed/data_parallel.h).
#include "capi/capi_common.h"
#include "distributed/data_parallel.h"

using namespace ct;

namespace {

std::shared_ptr<DataParallel> get_dp(ct_data_parallel h, const char* op) {
    t_current_op = op;
    return std::static_pointer_cast<DataParallel>(handle_get((uintptr_t)h, HandleKind::DataParallel, op, "dp"));
}

TensorList get_tensor_array(const ct_tensor* hs, int32_t n, const char* op, const char* arg) {
    if (n < 0 || (n > 0 && !hs)) fail(CT_ERR_INVALID_ARGUMENT, op, ": bad ", arg, " array (n ", n, ")");
    TensorList out;
    for (int32_t i = 0; i < n; ++i) {
        std::string name = std::string(arg) + "[" + std::to_string(i) + "]";
        out.push_back(get_tensor_any_device(hs[i], op, name.c_str()));
    }
    return out;
}

}  // namespace

extern "C" {

ct_status ct_data_parallel_new(ct_process_group pg, const ct_tensor* params, int32_t n, int64_t bucket_bytes,
                               ct_data_parallel* out) {
    return guard([&] {
        const char* op = "data_parallel_new";
        check_out(out, op);
        t_current_op = op;
        auto g = std::static_pointer_cast<ProcessGroup>(handle_get((uintptr_t)pg, HandleKind::ProcessGroup, op, "pg"));
        auto dp = DataParallel::create(g, get_tensor_array(params, n, op, "params"), bucket_bytes);
        *out = (ct_data_parallel)handle_new(HandleKind::DataParallel, std::static_pointer_cast<void>(dp));
    });
}

ct_status ct_data_parallel_set_sync(ct_data_parallel dp, int32_t sync) {
    return guard([&] { get_dp(dp, "data_parallel_set_sync")->set_sync(sync != 0); });
}

ct_status ct_data_parallel_finish(ct_data_parallel dp) {
    return guard([&] { get_dp(dp, "data_parallel_finish")->finish(); });
}

ct_status ct_data_parallel_prepare(ct_data_parallel dp, const ct_tensor* outputs, int32_t n) {
    return guard([&] {
        const char* op = "data_parallel_prepare";
        auto d = get_dp(dp, op);
        d->prepare(get_tensor_array(outputs, n, op, "outputs"));
    });
}

ct_status ct_data_parallel_bucket_count(ct_data_parallel dp, int32_t* n) {
    return guard([&] {
        check_out(n, "data_parallel_bucket_count", "n");
        *n = (int32_t)get_dp(dp, "data_parallel_bucket_count")->bucket_count();
    });
}

void ct_data_parallel_release(ct_data_parallel dp) {
    std::shared_ptr<void> last = handle_release((uintptr_t)dp, HandleKind::DataParallel);
    if (last) std::static_pointer_cast<DataParallel>(last)->shutdown();  // the hooks hold it weakly: it dies here
}

}  // extern "C"
