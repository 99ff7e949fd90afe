// data_parallel.cpp - the data-parallel reducer: parameter checks, the agreement between ranks, buckets, the
// gradient hooks and the rounds of Notes [DDP round] and [DDP unused params] (data_parallel.h).
#include "distributed/data_parallel.h"
#include <string>
#include <unordered_set>
#include "autograd/accumulate_grad.h"
#include "autograd/engine.h"
#include "autograd/grad_mode.h"
#include "autograd/hooks.h"
#include "core/dtype.h"
#include "core/error.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {
namespace {

constexpr int64_t kDefaultBucketBytes = 25ll << 20;  // torch's bucket_cap_mb = 25

// All ranks check that they hold the same parameter list and bucket size (one all-reduce of MAX over [v, -v]);
// any difference fails on every rank before a parameter is broadcast.
void agree(const std::shared_ptr<ProcessGroup>& pg, const TensorList& params, int64_t bucket_bytes) {
    const char* op = "data_parallel_new";
    uint64_t hash = 1469598103934665603ull;  // FNV-1a over dtype, rank and sizes of every param
    auto mix = [&](int64_t v) { hash = (hash ^ (uint64_t)v) * 1099511628211ull; };
    for (const Tensor& t : params) {
        mix((int64_t)t.dtype());
        mix(t.dim());
        for (int64_t s : t.sizes()) mix(s);
    }
    const int k = 3;
    int64_t v[k] = {(int64_t)params.size(), (int64_t)(hash >> 2), bucket_bytes};
    Tensor buf = empty_tensor(Shape{2 * k}, DType::Int64, Device{}, op);
    int64_t* p = buf.data<int64_t>();
    for (int i = 0; i < k; ++i) {
        p[i] = v[i];
        p[k + i] = -v[i];
    }
    all_reduce(pg, buf, (int32_t)ReduceOp::Max, op);
    const char* what[k] = {"number of parameters", "parameters' shapes or dtypes", "bucket size in bytes"};
    for (int i = 0; i < k; ++i) {
        int64_t hi = p[i], lo = -p[k + i];
        if (hi == lo) continue;
        std::string values = i == 1 ? std::string("they differ") : std::to_string(lo) + " on some ranks, " + std::to_string(hi) + " on others";
        fail(CT_ERR_DISTRIBUTED, op, ": the ranks of the group disagree on the ", what[i], " (", values, "; this is rank ",
             pg->rank(), " of ", pg->size(), "): every rank must pass the same parameters and bucket size");
    }
}

void check_params(const TensorList& params) {
    const char* op = "data_parallel_new";
    if (params.empty()) fail(CT_ERR_INVALID_ARGUMENT, op, ": no parameters (n = 0)");
    std::unordered_set<const TensorImpl*> seen;
    for (size_t i = 0; i < params.size(); ++i) {
        const Tensor& t = params[i];
        if (!t.device().is_cpu()) dist_backend(op, CT_DEVICE_CUDA);  // throws: NCCL is not built
        if (!tensor_requires_grad(t))
            fail(CT_ERR_AUTOGRAD, op, ": parameter ", i, " (shape ", shape_str(t.sizes()), ", ", dtype_name(t.dtype()),
                 ") does not require grad");
        if (!is_leaf(t))
            fail(CT_ERR_AUTOGRAD, op, ": parameter ", i, " (shape ", shape_str(t.sizes()),
                 ") is not a leaf (it was computed from other tensors); pass the parameters themselves");
        if (!seen.insert(t.impl()).second)
            fail(CT_ERR_INVALID_ARGUMENT, op, ": parameter ", i, " (shape ", shape_str(t.sizes()), ") is listed twice");
    }
}

}  // namespace

DataParallel::DataParallel(std::shared_ptr<ProcessGroup> pg, const TensorList& params, int64_t bucket_bytes)
    : pg_(std::move(pg)) {
    params_.resize(params.size());
    // Buckets in reverse parameter order (gradients arrive roughly last layer first), one dtype each.
    int64_t bytes = 0;
    for (size_t k = params.size(); k-- > 0;) {
        const Tensor& t = params[k];
        int64_t nbytes = t.numel() * (int64_t)dtype_size(t.dtype());
        bool fresh = buckets_.empty() || params[buckets_.back().params.back()].dtype() != t.dtype() ||
                     (bytes + nbytes > bucket_bytes && bytes > 0);
        if (fresh) {
            buckets_.emplace_back();
            bytes = 0;
        }
        params_[k].t = t;
        params_[k].bucket = buckets_.size() - 1;
        buckets_.back().params.push_back(k);
        bytes += nbytes;
    }
    GradModeGuard no_grad(false);
    for (Bucket& b : buckets_) {
        int64_t numel = 0;
        for (size_t k : b.params) numel += params_[k].t.numel();
        const Tensor& first = params_[b.params[0]].t;
        b.flat = zeros(Shape{numel}, first.dtype(), first.device());
        int64_t off = 0;
        for (size_t k : b.params) {
            Param& p = params_[k];
            p.slot = view(narrow(b.flat, 0, off, p.t.numel()), p.t.sizes());
            off += p.t.numel();
        }
    }
    used_ = zeros(Shape{(int64_t)params_.size()}, DType::UInt8, Device{});
    reset_round_locked();
}

std::shared_ptr<DataParallel> DataParallel::create(const std::shared_ptr<ProcessGroup>& pg, const TensorList& params,
                                                   int64_t bucket_bytes) {
    const char* op = "data_parallel_new";
    pg->check_usable(op);
    check_params(params);
    if (bucket_bytes <= 0) bucket_bytes = kDefaultBucketBytes;
    agree(pg, params, bucket_bytes);
    {
        GradModeGuard no_grad(false);  // the broadcast writes leaves that require grad
        for (const Tensor& t : params) broadcast(pg, t, 0, op);
    }
    std::shared_ptr<DataParallel> dp(new DataParallel(pg, params, bucket_bytes));
    std::weak_ptr<DataParallel> weak = dp;
    for (size_t i = 0; i < dp->params_.size(); ++i)
        dp->params_[i].hook_id = register_tensor_hook(dp->params_[i].t, [weak, i](const Tensor& g) {
            std::shared_ptr<DataParallel> self = weak.lock();
            return self ? self->on_grad(i, g) : Tensor();
        }, /*run_last=*/true);
    return dp;
}

DataParallel::~DataParallel() { shutdown(); }

Tensor DataParallel::on_grad(size_t i, const Tensor& grad) {
    std::lock_guard<std::mutex> lock(mu_);
    // no_sync: the engine accumulates into .grad as usual; autograd.grad (torch: DDP does not take part) neither
    // accumulates nor counts
    if (shut_ || !sync_ || !backward_accumulates()) return Tensor();
    if (GradMode::is_enabled())
        fail(CT_ERR_AUTOGRAD, "data_parallel: a backward with create_graph cannot average gradients across ranks "
                              "(their graphs stay local); turn synchronisation off (ct_data_parallel_set_sync(dp, 0)) for it");
    try {
        if (reported_ == 0) begin_round_locked();
        report_locked(i, &grad);
        poll_locked();
        if (reported_ == params_.size()) complete_locked();
    } catch (...) {
        abandon_round_locked();
        throw;
    }
    const Tensor& t = params_[i].t;
    return expand(zeros(Shape{}, t.dtype(), t.device()), t.sizes());  // the engine adds nothing (Note [DDP round])
}

void DataParallel::begin_round_locked() {
    if (!prepared_) return;
    for (size_t i = 0; i < params_.size(); ++i)
        if (!params_[i].reachable) report_locked(i, nullptr);
}

void DataParallel::report_locked(size_t i, const Tensor* grad) {
    Param& p = params_[i];
    Bucket& b = buckets_[p.bucket];
    if (p.reported) {
        if (b.work)
            fail(CT_ERR_AUTOGRAD, "data_parallel: parameter ", i, " (shape ", shape_str(p.t.sizes()),
                 ") got a second gradient after its bucket's all-reduce had started (a second backward while the "
                 "reduction was open); call ct_data_parallel_finish between such backwards");
        if (grad) {
            add_(p.slot, grad->dtype() == p.t.dtype() ? *grad : to_dtype(*grad, p.t.dtype()), 1.0);
            used_.data<uint8_t>()[i] = 1;  // e.g. counted as unused by prepare, then reached after all
        }
        return;
    }
    Tensor current = grad_of(p.t);
    if (grad) {
        copy_into(p.slot, *grad);
        if (current.defined()) add_(p.slot, current, 1.0);
    } else if (current.defined()) {
        copy_into(p.slot, current);
    } else {
        fill_into(p.slot, 0.0);
    }
    used_.data<uint8_t>()[i] = grad ? 1 : 0;
    p.reported = true;
    ++reported_;
    if (--b.waiting == 0 && reported_ < params_.size()) launch_ready_locked(false);
}

void DataParallel::launch_ready_locked(bool blocking) {
    // Note [DDP round]: bucket k only after buckets < k, so every rank posts the same collectives in the same order.
    // Buckets launched while backward goes on are non-blocking requests (progressed by later hooks); those launched
    // when the round completes are awaited at once, so they take the blocking collective's faster algorithms
    // (Note [Blocking data] in process_group.h).
    while (next_launch_ < buckets_.size() && buckets_[next_launch_].waiting == 0) {
        Bucket& b = buckets_[next_launch_++];
        b.work = all_reduce_start(pg_, b.flat, (int32_t)ReduceOp::Mean, "data_parallel_all_reduce", blocking);
    }
}

void DataParallel::poll_locked() {
    if (next_launch_ > 0) pg_->poll(*buckets_[next_launch_ - 1].work);  // progresses the group's whole queue
}

void DataParallel::complete_locked() {
    launch_ready_locked(true);
    if (prepared_) used_work_ = all_reduce_start(pg_, used_, (int32_t)ReduceOp::Max, "data_parallel_all_reduce", true);
    for (Bucket& b : buckets_) wait_or_throw(*b.work);
    if (used_work_) wait_or_throw(*used_work_);
    GradModeGuard no_grad(false);
    const uint8_t* used = used_.data<uint8_t>();
    for (size_t i = 0; i < params_.size(); ++i) {
        Param& p = params_[i];
        if (prepared_ && !used[i]) continue;  // unused on every rank: .grad untouched (Note [DDP unused params])
        Tensor g = grad_of(p.t);
        if (g.defined() && g.sizes() == p.t.sizes() && g.dtype() == p.t.dtype() && g.device() == p.t.device()) {
            copy_into(g, p.slot);
            g.bump_version();
        } else {
            set_grad_of(p.t, clone(p.slot));
        }
    }
    reset_round_locked();
}

void DataParallel::reset_round_locked() {
    for (Param& p : params_) p.reported = false;
    for (Bucket& b : buckets_) {
        b.waiting = b.params.size();
        b.work.reset();
    }
    used_work_.reset();
    reported_ = 0;
    next_launch_ = 0;
    prepared_ = false;
}

void DataParallel::abandon_round_locked() noexcept {
    for (Bucket& b : buckets_)
        if (b.work) pg_->wait(*b.work);  // at most the group's timeout; the status was reported elsewhere or is moot
    if (used_work_) pg_->wait(*used_work_);
    reset_round_locked();
}

void DataParallel::set_sync(bool sync) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!sync && reported_ > 0)
        fail(CT_ERR_AUTOGRAD, "data_parallel_set_sync: a reduction is still open (", reported_, " of ", params_.size(),
             " parameters got their gradient in the last backward); call ct_data_parallel_finish first");
    if (!sync) prepared_ = false;
    sync_ = sync;
}

void DataParallel::prepare(const TensorList& outputs) {
    const char* op = "data_parallel_prepare";
    std::lock_guard<std::mutex> lock(mu_);
    if (!sync_)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": synchronisation is off (ct_data_parallel_set_sync(dp, 0)); prepare only "
                                          "before a synchronising backward");
    if (reported_ > 0)
        fail(CT_ERR_AUTOGRAD, op, ": the previous reduction is still open (", reported_, " of ", params_.size(),
             " parameters got their gradient); call ct_data_parallel_finish first");
    // The leaves reachable from the outputs' graphs (iterative DFS over the recorded nodes).
    std::unordered_set<const TensorImpl*> leaves;
    std::unordered_set<Node*> seen;
    std::vector<std::shared_ptr<Node>> stack;
    for (const Tensor& o : outputs) {
        if (!tensor_requires_grad(o)) continue;
        Edge e = gradient_edge(o);
        if (e.valid() && seen.insert(e.fn.get()).second) stack.push_back(e.fn);
    }
    while (!stack.empty()) {
        std::shared_ptr<Node> n = std::move(stack.back());
        stack.pop_back();
        if (auto* acc = dynamic_cast<AccumulateGrad*>(n.get()))
            if (auto leaf = acc->leaf()) leaves.insert(leaf.get());
        for (const Edge& e : n->next_edges)
            if (e.valid() && seen.insert(e.fn.get()).second) stack.push_back(e.fn);
    }
    size_t reachable = 0;
    for (Param& p : params_) {
        p.reachable = leaves.count(p.t.impl()) > 0;
        reachable += p.reachable;
    }
    prepared_ = true;
    if (reachable > 0) return;
    try {  // no hook will run in the backward: this rank's round is complete now
        begin_round_locked();
        complete_locked();
    } catch (...) {
        abandon_round_locked();
        throw;
    }
}

void DataParallel::finish() {
    std::lock_guard<std::mutex> lock(mu_);
    if (shut_ || reported_ == 0) return;
    try {
        for (size_t i = 0; i < params_.size(); ++i)
            if (!params_[i].reported) report_locked(i, nullptr);
        complete_locked();
    } catch (...) {
        abandon_round_locked();
        throw;
    }
}

void DataParallel::shutdown() noexcept {
    std::lock_guard<std::mutex> lock(mu_);
    if (shut_) return;
    shut_ = true;
    for (Param& p : params_) {
        try {
            if (p.hook_id) remove_tensor_hook(p.t, p.hook_id);
        } catch (...) {
        }
    }
    abandon_round_locked();
}

}  // namespace ct
