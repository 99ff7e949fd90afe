// capi_distributed.cpp - C API: process groups, collectives and async works (src/distributed/).
#include "capi/capi_common.h"
#include "distributed/process_group.h"

using namespace ct;

namespace {

std::shared_ptr<ProcessGroup> get_pg(ct_process_group h, const char* op) {
    t_current_op = op;
    return std::static_pointer_cast<ProcessGroup>(handle_get((uintptr_t)h, HandleKind::ProcessGroup, op, "pg"));
}

std::shared_ptr<Work> get_work(ct_work h, const char* op) {
    t_current_op = op;
    return std::static_pointer_cast<Work>(handle_get((uintptr_t)h, HandleKind::Work, op, "work"));
}

ct_process_group new_pg_handle(const std::shared_ptr<ProcessGroup>& pg) {
    return (ct_process_group)handle_new(HandleKind::ProcessGroup, std::static_pointer_cast<void>(pg));
}

}  // namespace

extern "C" {

ct_status ct_process_group_new_mpi(ct_process_group* out) {
    return guard([&] {
        check_out(out, "process_group_new_mpi");
        *out = new_pg_handle(process_group_world());
    });
}

ct_status ct_process_group_new_subgroup(ct_process_group parent, const int32_t* ranks, int32_t n, ct_process_group* out) {
    return guard([&] {
        const char* op = "process_group_new_subgroup";
        check_out(out, op);
        auto pg = get_pg(parent, op);
        if (n < 0 || (n > 0 && !ranks)) fail(CT_ERR_INVALID_ARGUMENT, op, ": bad ranks array (n ", n, ")");
        *out = new_pg_handle(process_group_subgroup(pg, std::vector<int32_t>(ranks, ranks + n)));
    });
}

ct_process_group ct_process_group_retain(ct_process_group pg) {
    handle_retain((uintptr_t)pg, HandleKind::ProcessGroup);
    return pg;
}

void ct_process_group_release(ct_process_group pg) { handle_release((uintptr_t)pg, HandleKind::ProcessGroup); }

ct_status ct_process_group_rank(ct_process_group pg, int32_t* rank) {
    return guard([&] {
        check_out(rank, "process_group_rank", "rank");
        *rank = get_pg(pg, "process_group_rank")->rank();
    });
}

ct_status ct_process_group_size(ct_process_group pg, int32_t* size) {
    return guard([&] {
        check_out(size, "process_group_size", "size");
        *size = get_pg(pg, "process_group_size")->size();
    });
}

ct_status ct_process_group_set_timeout(ct_process_group pg, double seconds) {
    return guard([&] { get_pg(pg, "process_group_set_timeout")->set_timeout(seconds); });
}

ct_status ct_process_group_set_checks(ct_process_group pg, int32_t enabled) {
    return guard([&] { get_pg(pg, "process_group_set_checks")->set_checks(enabled != 0); });
}

ct_status ct_all_reduce(ct_process_group pg, ct_tensor t, ct_reduce_op op) {
    return guard([&] {
        auto g = get_pg(pg, "all_reduce");
        all_reduce(g, get_tensor_any_device(t, "all_reduce", "t"), op, "all_reduce");
    });
}

ct_status ct_broadcast(ct_process_group pg, ct_tensor t, int32_t root) {
    return guard([&] {
        auto g = get_pg(pg, "broadcast");
        broadcast(g, get_tensor_any_device(t, "broadcast", "t"), root, "broadcast");
    });
}

ct_status ct_all_gather(ct_process_group pg, ct_tensor input, ct_tensor* out) {
    return guard([&] {
        check_out(out, "all_gather");
        auto g = get_pg(pg, "all_gather");
        *out = new_tensor_handle(all_gather(g, get_tensor_any_device(input, "all_gather", "input")));
    });
}

ct_status ct_reduce_scatter(ct_process_group pg, ct_tensor input, ct_reduce_op op, ct_tensor* out) {
    return guard([&] {
        check_out(out, "reduce_scatter");
        auto g = get_pg(pg, "reduce_scatter");
        *out = new_tensor_handle(reduce_scatter(g, get_tensor_any_device(input, "reduce_scatter", "input"), op));
    });
}

ct_status ct_barrier(ct_process_group pg) {
    return guard([&] { barrier(get_pg(pg, "barrier")); });
}

ct_status ct_send(ct_process_group pg, ct_tensor t, int32_t dst, int32_t tag) {
    return guard([&] {
        auto g = get_pg(pg, "send");
        send(g, get_tensor_any_device(t, "send", "t"), dst, tag);
    });
}

ct_status ct_recv(ct_process_group pg, ct_tensor t, int32_t src, int32_t tag) {
    return guard([&] {
        auto g = get_pg(pg, "recv");
        recv(g, get_tensor_any_device(t, "recv", "t"), src, tag);
    });
}

ct_status ct_all_reduce_async(ct_process_group pg, ct_tensor t, ct_reduce_op op, ct_work* out) {
    return guard([&] {
        check_out(out, "all_reduce_async");
        auto g = get_pg(pg, "all_reduce_async");
        auto w = all_reduce_start(g, get_tensor_any_device(t, "all_reduce_async", "t"), op, "all_reduce_async", false);
        *out = (ct_work)handle_new(HandleKind::Work, std::static_pointer_cast<void>(w));
    });
}

ct_status ct_broadcast_async(ct_process_group pg, ct_tensor t, int32_t root, ct_work* out) {
    return guard([&] {
        check_out(out, "broadcast_async");
        auto g = get_pg(pg, "broadcast_async");
        auto w = broadcast_start(g, get_tensor_any_device(t, "broadcast_async", "t"), root, "broadcast_async", false);
        *out = (ct_work)handle_new(HandleKind::Work, std::static_pointer_cast<void>(w));
    });
}

ct_status ct_work_wait(ct_work work) {
    return guard([&] { wait_or_throw(*get_work(work, "work_wait")); });
}

ct_status ct_work_is_completed(ct_work work, int32_t* done) {
    return guard([&] {
        check_out(done, "work_is_completed", "done");
        auto w = get_work(work, "work_is_completed");
        *done = w->pg->poll(*w) ? 1 : 0;
    });
}

void ct_work_release(ct_work work) {
    std::shared_ptr<void> last = handle_release((uintptr_t)work, HandleKind::Work);
    if (!last) return;
    auto w = std::static_pointer_cast<Work>(last);
    w->pg->wait(*w);  // returns at once when done; the status is dropped: nobody asked for it
}

}  // extern "C"
