// autocast.cpp - the autocast policy table (torch 1.13's lists, one row per ctensor op), the thread-local
// region state (Note [Autocast state]) and the weight cast cache.
#include "ops/autocast.h"
#include <cstring>
#include <string_view>
#include <unordered_map>
#include "autograd/grad_mode.h"
#include "autograd/node.h"
#include "ops/ops.h"

namespace ct {

namespace {

using P = AutocastPolicy;
constexpr P Pass = P::Passthrough, Low = P::LowerPrecision, F32 = P::Float32, Prom = P::Promote;

struct PolicyRow {
    const char* op;  // the C function's name without "ct_" (get_tensor's op name, "linalg.inv" read as linalg_inv)
    P cpu;           // torch 1.13 AutocastCPU (checked op by op against torch.cpu.amp.autocast in the tests)
    P cuda;          // torch 1.13 AutocastCUDA (half tensors live on CUDA too: Note [Half on CUDA])
};

// Note [Autocast policy table]: the only place that says what autocast does to an op. CPU column: what torch
// 1.13's torch.cpu.amp.autocast(dtype=bfloat16) gives for the same call (ops torch composes from listed ones,
// einsum and attention, are listed so the result dtype agrees). Ops whose row depends on an argument the table
// cannot see are looked up under a name that says it (Note [Autocast by argument]): the N-d pools' 3-d forms
// under max_pool3d etc., the recurrent nets under rnn_lower_precision when they run in the half type.
// interpolate passes through in every mode and rank (as torch 1.13 on the CPU). ct_convolution runs under its
// user-facing name (conv2d, conv_transpose1d, ...), so those rows apply to it.
const PolicyRow kPolicy[] = {
    // lower precision: the matmul family
    {"matmul", Low, Low},
    {"linear", Low, Low},
    {"conv1d", Low, Low},
    {"conv2d", Low, Low},
    {"conv3d", Low, Low},
    {"conv_transpose1d", F32, Low},
    {"conv_transpose2d", F32, Low},
    {"conv_transpose3d", F32, Low},
    {"einsum", Low, Low},
    {"scaled_dot_product_attention", Low, Low},
    {"multi_head_attention_forward", Low, Low},
    {"prelu", Pass, Low},
    {"rnn_cell", Pass, Low},
    {"rnn", Pass, Low},
    {"rnn_lower_precision", Low, Low},  // Note [Autocast by argument]
    {"max_pool3d", F32, Pass},
    {"avg_pool3d", F32, Pass},
    {"adaptive_avg_pool3d", F32, Pass},
    {"adaptive_max_pool3d", F32, Pass},
    // float32: losses
    {"cross_entropy", F32, F32},
    {"nll_loss", F32, F32},
    {"mse_loss", F32, F32},
    {"l1_loss", F32, F32},
    {"smooth_l1_loss", F32, F32},
    {"huber_loss", F32, F32},
    {"kl_div", F32, F32},
    {"binary_cross_entropy", F32, F32},
    {"binary_cross_entropy_with_logits", F32, F32},
    {"soft_margin_loss", F32, F32},
    {"margin_ranking_loss", F32, F32},
    {"poisson_nll_loss", F32, F32},
    {"hinge_embedding_loss", F32, F32},
    {"cosine_embedding_loss", F32, F32},
    {"triplet_margin_loss", F32, F32},
    {"multi_margin_loss", F32, F32},
    {"multilabel_soft_margin_loss", Pass, F32},
    {"gaussian_nll_loss", Pass, F32},
    {"ctc_loss", F32, F32},
    // float32: reductions, norms, statistics, linear algebra
    {"prod", F32, F32},
    {"cdist", F32, F32},
    {"quantile", F32, F32},
    {"nanquantile", F32, F32},
    {"linalg_matrix_norm", F32, F32},
    {"linalg_inv", F32, F32},
    {"linalg_qr", F32, F32},
    {"linalg_svd", F32, F32},
    {"linalg_svdvals", F32, F32},
    {"linalg_solve", F32, F32},
    {"linalg_eigh", F32, F32},
    {"linalg_eigvalsh", F32, F32},
    {"linalg_cholesky", F32, F32},
    {"linalg_lstsq", F32, F32},
    {"softmax", Pass, F32},
    {"log_softmax", Pass, F32},
    {"softmin", Pass, F32},
    {"layer_norm", Pass, F32},
    {"group_norm", Pass, F32},
    {"norm", Pass, F32},
    {"linalg_vector_norm", Pass, F32},
    {"logsumexp", Pass, F32},
    {"sum", Pass, F32},
    {"cumsum", Pass, F32},
    {"cumprod", Pass, F32},
    {"pow", Pass, F32},
    {"pow_scalar", Pass, F32},
    {"exp", Pass, F32},
    {"log", Pass, F32},
    {"log1p", Pass, F32},
    {"expm1", Pass, F32},
    {"rsqrt", Pass, F32},
    {"reciprocal", Pass, F32},
    {"tan", Pass, F32},
    {"softplus", Pass, F32},
    // unary math (issue 14): torch 1.13's CUDA fp32 list (its CPU lists leave them alone)
    {"asin", Pass, F32},
    {"acos", Pass, F32},
    {"sinh", Pass, F32},
    {"cosh", Pass, F32},
    {"erfinv", Pass, F32},
    // promote: every floating input to the widest floating dtype among them
    {"cat", Prom, Prom},
    {"stack", Prom, Prom},
    {"index_copy", Prom, Prom},
    // more products (issue 14): torch 1.13 composes inner (both devices) and tensordot (CPU) from mm, so they run
    // in the lower precision; its CUDA list promotes tensordot. logcumsumexp, var_mean, std_mean, kron pass.
    {"tensordot", Low, Prom},
    {"inner", Low, Low},
};

const std::unordered_map<std::string_view, const PolicyRow*>& policy_index() {
    static const std::unordered_map<std::string_view, const PolicyRow*> index = [] {
        std::unordered_map<std::string_view, const PolicyRow*> m;
        for (const PolicyRow& r : kPolicy) m.emplace(r.op, &r);
        return m;
    }();
    return index;
}

// Note [Autocast cache]: torch's heuristic - the lower-precision copy of a float32 leaf that requires grad (a
// model weight) is made once per outermost region. Keyed by the impl; an entry counts only while that impl is
// alive (weak pointer: a freed impl's address may be reused), its storage version is unchanged (an optimizer
// step in place makes a new copy) and the target dtype is the same. The cache holds the converted values without
// history; each use gets its own ToCopyBackward node to the leaf, so a region may run several backward passes
// (a node is spent by the backward that runs it, Note in autograd/node.cpp's FunctionNode::release_saved).
struct CacheEntry {
    std::weak_ptr<TensorImpl> source;
    int64_t version;
    DType dtype;
    Tensor data;
};

struct ThreadState {
    bool enabled[2] = {false, false};                       // [CPU, CUDA]
    DType dtype[2] = {DType::BFloat16, DType::Float16};     // torch's defaults per device type
    bool cache_enabled = true;
    int32_t nesting = 0;
    std::unordered_map<const TensorImpl*, CacheEntry> cache;
};

thread_local ThreadState t_state;
thread_local bool t_any_enabled = false;

int slot(DeviceType type) { return type == DeviceType::CUDA ? 1 : 0; }

// data (source's values in another dtype) as a differentiable cast of source: a new alias with its own node.
Tensor attach_cast(const Tensor& data, const Tensor& source) {
    Tensor out = make_view(data, data.sizes(), data.strides(), data.offset());
    if (requires_grad(source)) {
        DType from = source.dtype();
        auto node = make_node("ToCopyBackward", {source},
                              [from](BackwardCtx& c) { return TensorList{to_dtype(c.grads[0], from)}; });
        set_history(out, node);
    }
    return out;
}

Tensor cached_cast(const Tensor& t, DType target) {
    bool cacheable = t_state.cache_enabled && t.dtype() == DType::Float32 && !t.impl()->is_view &&
                     tensor_requires_grad(t) && is_leaf(t);
    if (!cacheable) return to_dtype(t, target);
    auto it = t_state.cache.find(t.impl());
    if (it != t_state.cache.end()) {
        const CacheEntry& e = it->second;
        if (e.source.lock() == t.impl_ptr() && e.version == t.version() && e.dtype == target)
            return attach_cast(e.data, t);
    }
    Tensor data;
    {
        NoGradGuard no_grad;
        data = to_dtype(t, target);
    }
    t_state.cache[t.impl()] = CacheEntry{t.impl_ptr(), t.version(), target, data};
    return attach_cast(data, t);
}

// True for an argument autocast may cast: a floating, non-float64 tensor (not a language scalar) on a device
// type whose region is on (torch's is_eligible).
bool eligible(const Tensor& t) {
    return t.defined() && is_floating(t.dtype()) && t.dtype() != DType::Float64 && !t.impl()->wrapped_number &&
           t_state.enabled[slot(t.device().type)];
}

}  // namespace

bool AutocastState::is_enabled(DeviceType type) { return t_state.enabled[slot(type)]; }
void AutocastState::set_enabled(DeviceType type, bool enabled) {
    t_state.enabled[slot(type)] = enabled;
    t_any_enabled = t_state.enabled[0] || t_state.enabled[1];
}
DType AutocastState::dtype(DeviceType type) { return t_state.dtype[slot(type)]; }
void AutocastState::set_dtype(DeviceType type, DType dtype) {
    if (!is_half(dtype))
        fail(CT_ERR_DTYPE, "autocast: dtype must be float16 or bfloat16, got ", dtype_name(dtype));
    t_state.dtype[slot(type)] = dtype;
}
bool AutocastState::cache_enabled() { return t_state.cache_enabled; }
void AutocastState::set_cache_enabled(bool enabled) { t_state.cache_enabled = enabled; }
int32_t AutocastState::increment_nesting() { return ++t_state.nesting; }
int32_t AutocastState::decrement_nesting() {
    if (t_state.nesting > 0) --t_state.nesting;
    if (t_state.nesting == 0) clear_cache();
    return t_state.nesting;
}
void AutocastState::clear_cache() {
    std::unordered_map<const TensorImpl*, CacheEntry> dropped;
    dropped.swap(t_state.cache);  // the casts are released after the map is empty again
}
int64_t AutocastState::cache_size() { return (int64_t)t_state.cache.size(); }

bool autocast_any_enabled() { return t_any_enabled; }

AutocastPolicy autocast_policy(const char* op, DeviceType type) {
    if (!op) return Pass;
    // The C API names linalg ops "linalg.inv" in messages; the table uses the C function's name (linalg_inv).
    char name[64];
    size_t n = std::strlen(op);
    if (n >= sizeof(name)) return Pass;
    for (size_t i = 0; i < n; ++i) name[i] = op[i] == '.' ? '_' : op[i];
    const auto& index = policy_index();
    auto it = index.find(std::string_view(name, n));
    if (it == index.end()) return Pass;
    return type == DeviceType::CUDA ? it->second->cuda : it->second->cpu;
}

Tensor autocast_arg(const char* op, const Tensor& t) {
    if (!eligible(t)) return t;
    DeviceType type = t.device().type;
    P policy = autocast_policy(op, type);
    if (policy == Low) {
        DType target = t_state.dtype[slot(type)];
        return t.dtype() == target ? t : cached_cast(t, target);
    }
    if (policy == F32) return t.dtype() == DType::Float32 ? t : to_dtype(t, DType::Float32);
    return t;
}

Tensor autocast_pool_arg(const char* op3d, int64_t ndim_spatial, const Tensor& t) {
    return ndim_spatial == 3 && autocast_any_enabled() ? autocast_arg(op3d, t) : t;
}

void autocast_rnn_args(bool plain_rnn, const std::vector<Tensor*>& args) {
    if (!autocast_any_enabled()) return;
    bool lower = plain_rnn;
    for (const Tensor* t : args) lower = lower || (t->defined() && is_half(t->dtype()));
    if (!lower) return;
    for (Tensor* t : args) *t = autocast_arg("rnn_lower_precision", *t);
}

void autocast_promote(const char* op, std::vector<Tensor>& ts) {
    bool any = false;
    DType widest = DType::Float16;
    for (const Tensor& t : ts) {
        if (!eligible(t) || autocast_policy(op, t.device().type) != Prom) continue;
        widest = any ? promote_types(widest, t.dtype()) : t.dtype();
        any = true;
    }
    if (!any) return;
    for (Tensor& t : ts)
        if (eligible(t) && t.dtype() != widest && autocast_policy(op, t.device().type) == Prom) t = to_dtype(t, widest);
}

}  // namespace ct
