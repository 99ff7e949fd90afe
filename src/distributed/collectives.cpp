// collectives.cpp - the collectives on tensors: argument checks, the contiguous buffer each request moves
// (the tensor's own memory when it is contiguous), and the write-back into the tensor's view when it is not.
// Pointers go to the backends as device_data() (Note [Device data]): host memory for MPI, device memory for NCCL.
#include <climits>
#include "autograd/grad_mode.h"
#include "autograd/node.h"
#include "core/dtype.h"
#include "core/error.h"
#include "distributed/process_group.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {
namespace {

// CUDA tensors need the device backend (NCCL): throws CT_ERR_NOT_COMPILED saying why when it is missing.
void check_device(const char* op, const Tensor& t) {
    if (!t.device().is_cpu()) dist_backend(op, CT_DEVICE_CUDA);
}

void check_count(const char* op, int64_t n) {
    if (n > INT_MAX) fail(CT_ERR_NOT_SUPPORTED, op, ": at most 2^31 - 1 elements per call, got ", n);
}

void check_op(const char* op, int32_t reduce, DType dtype) {
    if (reduce < 0 || reduce > 4)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": unknown reduce op ", reduce, " (CT_REDUCE_SUM .. CT_REDUCE_PRODUCT)");
    if (reduce == (int32_t)ReduceOp::Mean && !is_floating(dtype))
        fail(CT_ERR_DTYPE, op, ": CT_REDUCE_MEAN needs a floating dtype, got ", dtype_name(dtype));
}

// The backend's element-wise op for a reduce op (MEAN sums, then divides; bool: SUM/MAX = or, MIN/PRODUCT = and).
int32_t backend_op(int32_t reduce, DType dtype) {
    bool b = dtype == DType::Bool;
    switch ((ReduceOp)reduce) {
    case ReduceOp::Sum:
    case ReduceOp::Mean: return b ? CT_DIST_LOR : CT_DIST_SUM;
    case ReduceOp::Max: return b ? CT_DIST_LOR : CT_DIST_MAX;
    case ReduceOp::Min: return b ? CT_DIST_LAND : CT_DIST_MIN;
    case ReduceOp::Product: default: return b ? CT_DIST_LAND : CT_DIST_PROD;
    }
}

// In-place collectives follow the in-place ops' rule (inplace.cpp): they are not differentiable, so under grad
// mode a tensor that requires grad (a leaf, a view of one, or a recorded result) cannot be overwritten.
void check_inplace(const char* op, const Tensor& t) {
    for (int64_t d = 0; d < t.dim(); ++d)
        if (t.strides()[d] == 0 && t.sizes()[d] > 1)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": the tensor (shape ", shape_str(t.sizes()),
                 ") has several elements at one memory location (an expanded view); clone it first");
    if (GradMode::is_enabled() && tensor_requires_grad(t))
        fail(CT_ERR_AUTOGRAD, op, ": a tensor that requires grad (shape ", shape_str(t.sizes()),
             ") cannot be overwritten by a collective while grad mode is on; use no_grad (collectives are not recorded)");
}

void divide(const Tensor& buf, int32_t n) {
    if (!buf.device().is_cpu()) {  // on the device's stream, after the collective that wrote buf
        NoGradGuard no_grad;
        copy_into(buf, div(buf, scalar_tensor((double)n, buf.dtype(), buf.device())));
        return;
    }
    dispatch_float(buf.dtype(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = buf.data<T>();
        int64_t count = buf.numel();
        for (int64_t i = 0; i < count; ++i) p[i] /= (T)n;
    });
}

// The contiguous memory a request moves for t: t itself when contiguous, else a contiguous copy.
Tensor contiguous_buffer(const Tensor& t) { return t.is_contiguous() ? t : copy_to_device(t, t.device()); }

// Where w's data lives: CUDA data moves through the device backend (Note [Device communicators]).
void set_data_device(Work& w, const Tensor& t) {
    w.device_type = t.device().is_cpu() ? CT_DEVICE_CPU : CT_DEVICE_CUDA;
    w.device_index = t.device().is_cpu() ? 0 : t.device().index;
}

std::shared_ptr<Work> new_work(const std::shared_ptr<ProcessGroup>& pg, const char* op, int32_t kind, int32_t reduce,
                               const Tensor& t, int32_t root) {
    auto w = std::make_shared<Work>();
    w->op = op;
    w->pg = pg;
    int64_t* d = w->desc;
    d[0] = kind;
    d[1] = reduce;
    if (t.defined()) {
        d[2] = (int64_t)t.dtype();
        d[4] = t.dim();
        d[5] = t.numel();
        for (int64_t i = 0; i < 6; ++i) d[6 + i] = i < t.dim() ? t.sizes()[(size_t)i] : -1;
        set_data_device(*w, t);
        d[12] = w->device_type;
    }
    d[3] = root;
    return w;
}

// An in-place collective (all_reduce, broadcast) prepared: its checks done, the request, and the buffer it moves
// when that is not the tensor itself. (t is not held here: the direct path of a blocking call copies no handle.)
struct InplaceCall {
    Tensor copy;  // a contiguous copy of a strided t, undefined when t is contiguous and moves in place
    ct_dist_args args{};
    bool mean = false;  // all_reduce MEAN: the backend sums, finish_inplace divides
    const Tensor& buffer(const Tensor& t) const { return copy.defined() ? copy : t; }
};

InplaceCall prepare_inplace(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t kind, int32_t reduce,
                            int32_t root, const char* name) {
    check_device(name, t);
    pg->check_usable(name);
    check_count(name, t.numel());
    check_inplace(name, t);
    InplaceCall c;
    if (!t.is_contiguous()) c.copy = copy_to_device(t, t.device());
    c.args.kind = kind;
    c.args.op = kind == CT_DIST_ALLREDUCE ? backend_op(reduce, t.dtype()) : 0;
    c.args.dtype = (int32_t)t.dtype();
    c.args.peer = root;
    c.args.count = t.numel();
    c.args.send = c.args.recv = t.numel() ? c.buffer(t).device_data() : nullptr;
    c.mean = kind == CT_DIST_ALLREDUCE && reduce == (int32_t)ReduceOp::Mean;
    return c;
}

// After the data arrived: divide for MEAN, write back into t's view, bump t's version.
void finish_inplace(const Tensor& t, const Tensor& buf, bool mean, int32_t group_size) {
    if (mean) divide(buf, group_size);
    if (!buf.is_same(t)) copy_into(t, buf);
    t.bump_version();
}

// Queues a prepared in-place collective on t.
std::shared_ptr<Work> enqueue_inplace(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, const InplaceCall& c,
                                      int32_t reduce, const char* name, bool blocking) {
    auto w = new_work(pg, name, c.args.kind, reduce, t, c.args.peer);
    w->blocking = blocking;
    w->keep = {t, c.buffer(t)};
    w->args = c.args;
    bool mean = c.mean;
    w->finish = [mean](Work& w) { finish_inplace(w.keep[0], w.keep[1], mean, w.pg->size()); };
    pg->enqueue(w);
    return w;
}

std::shared_ptr<Work> inplace_start(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t kind,
                                    int32_t reduce, int32_t root, const char* name, bool blocking) {
    return enqueue_inplace(pg, t, prepare_inplace(pg, t, kind, reduce, root, name), reduce, name, blocking);
}

// A blocking in-place collective: run at once when the group allows it (Note [Direct blocking call]), else queued
// and waited for.
void inplace_blocking(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t kind, int32_t reduce,
                      int32_t root, const char* name) {
    InplaceCall c = prepare_inplace(pg, t, kind, reduce, root, name);
    if (t.device().is_cpu() && pg->run_direct(c.args, name)) {
        finish_inplace(t, c.buffer(t), c.mean, pg->size());
        return;
    }
    wait_or_throw(*enqueue_inplace(pg, t, c, reduce, name, true));
}

}  // namespace

std::shared_ptr<Work> all_reduce_start(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t op, const char* name,
                                       bool blocking) {
    check_op(name, op, t.dtype());
    return inplace_start(pg, t, CT_DIST_ALLREDUCE, op, 0, name, blocking);
}

void all_reduce(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t op, const char* name) {
    check_op(name, op, t.dtype());
    inplace_blocking(pg, t, CT_DIST_ALLREDUCE, op, 0, name);
}

namespace {
void check_root(const std::shared_ptr<ProcessGroup>& pg, int32_t root, const char* name) {
    pg->check_usable(name);
    if (root < 0 || root >= pg->size())
        fail(CT_ERR_INDEX, name, ": root ", root, " is out of range for a group of size ", pg->size());
}
}  // namespace

std::shared_ptr<Work> broadcast_start(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t root, const char* name,
                                      bool blocking) {
    check_root(pg, root, name);
    return inplace_start(pg, t, CT_DIST_BROADCAST, 0, root, name, blocking);
}

void broadcast(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t root, const char* name) {
    check_root(pg, root, name);
    inplace_blocking(pg, t, CT_DIST_BROADCAST, 0, root, name);
}

Tensor all_gather(const std::shared_ptr<ProcessGroup>& pg, const Tensor& input) {
    const char* op = "all_gather";
    check_device(op, input);
    pg->check_usable(op);
    if (input.numel() > INT_MAX / pg->size())
        fail(CT_ERR_NOT_SUPPORTED, op, ": at most 2^31 - 1 elements in all, got ", input.numel(), " x ", pg->size(), " ranks");
    Shape shape = input.sizes();
    shape.insert(shape.begin(), pg->size());
    Tensor out = empty_tensor(shape, input.dtype(), input.device(), op);
    Tensor in = contiguous_buffer(input);
    auto w = new_work(pg, op, CT_DIST_ALLGATHER, 0, input, 0);
    w->blocking = true;
    w->keep = {in, out};
    w->args.kind = CT_DIST_ALLGATHER;
    w->args.dtype = (int32_t)input.dtype();
    w->args.count = input.numel();
    w->args.send = input.numel() ? in.device_data() : nullptr;
    w->args.recv = input.numel() ? out.device_data() : nullptr;
    pg->enqueue(w);
    wait_or_throw(*w);
    return out;
}

Tensor reduce_scatter(const std::shared_ptr<ProcessGroup>& pg, const Tensor& input, int32_t reduce) {
    const char* op = "reduce_scatter";
    check_device(op, input);
    pg->check_usable(op);
    check_op(op, reduce, input.dtype());
    check_count(op, input.numel());
    if (input.dim() == 0 || input.sizes()[0] % pg->size() != 0)
        fail(CT_ERR_SHAPE, op, ": the input's dim 0 must be divisible by the group size ", pg->size(), ", got shape ",
             shape_str(input.sizes()));
    Shape shape = input.sizes();
    shape[0] /= pg->size();
    Tensor out = empty_tensor(shape, input.dtype(), input.device(), op);
    Tensor in = contiguous_buffer(input);
    auto w = new_work(pg, op, CT_DIST_REDUCE_SCATTER, reduce, input, 0);
    w->blocking = true;
    w->keep = {in, out};
    w->args.kind = CT_DIST_REDUCE_SCATTER;
    w->args.op = backend_op(reduce, input.dtype());
    w->args.dtype = (int32_t)input.dtype();
    w->args.count = out.numel();
    w->args.send = out.numel() ? in.device_data() : nullptr;
    w->args.recv = out.numel() ? out.device_data() : nullptr;
    if (reduce == (int32_t)ReduceOp::Mean) w->finish = [](Work& w) { divide(w.keep[1], w.pg->size()); };
    pg->enqueue(w);
    wait_or_throw(*w);
    return out;
}

void barrier(const std::shared_ptr<ProcessGroup>& pg) {
    pg->check_usable("barrier");
    auto w = new_work(pg, "barrier", CT_DIST_BARRIER, 0, Tensor(), 0);
    w->blocking = true;
    w->args.kind = CT_DIST_BARRIER;
    w->args.dtype = CT_UINT8;
    pg->enqueue(w);
    wait_or_throw(*w);
}

namespace {
void point_to_point(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t peer, int32_t tag, bool is_send) {
    const char* op = is_send ? "send" : "recv";
    check_device(op, t);
    pg->check_usable(op);
    check_count(op, t.numel());
    if (peer < 0 || peer >= pg->size())
        fail(CT_ERR_INDEX, op, is_send ? ": dst " : ": src ", peer, " is out of range for a group of size ", pg->size());
    if (tag < 0) fail(CT_ERR_INVALID_ARGUMENT, op, ": tag must be >= 0, got ", tag);
    if (!is_send) check_inplace(op, t);
    auto w = std::make_shared<Work>();
    w->op = op;
    w->pg = pg;
    w->agree = false;
    set_data_device(*w, t);
    Tensor buf = contiguous_buffer(t);
    w->keep = {t, buf};
    w->args.kind = is_send ? CT_DIST_SEND : CT_DIST_RECV;
    w->args.dtype = (int32_t)t.dtype();
    w->args.peer = peer;
    w->args.tag = tag;
    w->args.count = t.numel();
    w->args.send = w->args.recv = t.numel() ? buf.device_data() : nullptr;
    if (!is_send)
        w->finish = [](Work& w) {
            if (!w.keep[1].is_same(w.keep[0])) copy_into(w.keep[0], w.keep[1]);
            w.keep[0].bump_version();
        };
    pg->enqueue(w);
    wait_or_throw(*w);
}
}  // namespace

void send(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t dst, int32_t tag) {
    point_to_point(pg, t, dst, tag, true);
}

void recv(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t src, int32_t tag) {
    point_to_point(pg, t, src, tag, false);
}

}  // namespace ct
