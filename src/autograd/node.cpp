// node.cpp - saved tensors, function nodes and the helpers ops use to record history.
#include "autograd/node.h"
#include <atomic>
#include "autograd/accumulate_grad.h"
#include "autograd/grad_mode.h"

namespace ct {

static std::atomic<uint64_t> g_next_sequence_nr{0};
Node::Node() : sequence_nr(g_next_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {}

namespace {

// Work list of graph objects whose release was deferred (Note [Iterative teardown]).
struct Teardown {
    std::vector<std::shared_ptr<Node>> nodes;
    std::vector<Tensor> tensors;
    bool draining = false;
    bool alive = true;
    ~Teardown() { alive = false; }
};
thread_local Teardown t_teardown;

void defer_node(std::shared_ptr<Node>&& n) {
    if (!n) return;
    if (!t_teardown.alive) return n.reset();  // thread exit: fall back to direct release
    t_teardown.nodes.push_back(std::move(n));
}

void defer_tensor(Tensor&& t) {
    if (!t.defined()) return;
    if (!t_teardown.alive) return;
    t_teardown.tensors.push_back(std::move(t));
}

// If t holds the last reference to its impl, moves the impl's graph links to the work list first.
void strip_graph(Tensor& t) {
    if (t.impl_ptr().use_count() != 1 || !t.impl()->autograd || t.impl()->autograd.use_count() != 1) return;
    auto& meta = *t.impl()->autograd;
    defer_node(std::move(meta.grad_fn));
    defer_tensor(std::move(meta.view_base));
    defer_tensor(std::move(meta.grad));
}

void drain_teardown() {
    Teardown& td = t_teardown;
    if (!td.alive || td.draining) return;
    td.draining = true;
    while (!td.nodes.empty() || !td.tensors.empty()) {
        if (!td.tensors.empty()) {
            Tensor t = std::move(td.tensors.back());
            td.tensors.pop_back();
            strip_graph(t);
        } else {
            std::shared_ptr<Node> n = std::move(td.nodes.back());
            td.nodes.pop_back();
            n.reset();  // may run ~Node, which only appends to the list while draining
        }
    }
    td.draining = false;
}

}  // namespace

Node::~Node() {
    for (auto& e : next_edges) defer_node(std::move(e.fn));
    drain_teardown();
}

FunctionNode::~FunctionNode() {
    for (auto& s : saved_) {
        defer_tensor(s.take());
        defer_node(s.take_input_grad_fn());
    }
}

SavedTensor::SavedTensor(const Tensor& t, bool is_output) : version_(t.version()), is_output_(is_output) {
    if (!t.defined()) return;
    if (is_output && t.impl()->autograd && t.impl()->autograd->grad_fn) {
        data_ = make_view(t, t.sizes(), t.strides(), t.offset());
        grad_fn_ = t.impl()->autograd->grad_fn;
        output_nr_ = t.impl()->autograd->output_nr;
        return;
    }
    if (is_output) {
        data_ = t;
        return;
    }
    // Note [Saved inputs]
    std::shared_ptr<Node> fn = grad_fn_of(t);  // a stale view's history is rebuilt first (Note [View history])
    if (!fn && tensor_requires_grad(t)) {
        data_ = t;  // a leaf that requires grad
        return;
    }
    data_ = make_view(t, t.sizes(), t.strides(), t.offset());
    if (fn) {
        input_grad_fn_ = std::move(fn);
        output_nr_ = t.impl()->autograd->output_nr;
    }
}

void SavedTensor::release() {
    data_ = Tensor();
    defer_node(std::move(input_grad_fn_));
    drain_teardown();
    released_ = true;
}

Tensor SavedTensor::unpack(const std::string& node_name, size_t index) const {
    if (released_)
        fail(CT_ERR_AUTOGRAD, "backward: trying to backward through the graph a second time (", node_name,
             " has freed its saved tensors); pass retain_graph=1 to the first backward");
    if (!data_.defined()) return data_;
    if (data_.version() != version_)
        fail(CT_ERR_AUTOGRAD, "backward: saved tensor ", index, " of ", node_name, " (shape ", shape_str(data_.sizes()),
             ") was modified by an in-place operation: it had version ", version_, ", now ", data_.version());
    // the history saved beside the alias (Note [Saved outputs], Note [Saved inputs]), given back for create_graph
    std::shared_ptr<Node> fn = is_output_ ? grad_fn_.lock() : input_grad_fn_;
    if (!fn || !GradMode::is_enabled()) return data_;
    Tensor t = make_view(data_, data_.sizes(), data_.strides(), data_.offset());
    auto& meta = autograd_meta(t);
    meta.grad_fn = fn;
    meta.output_nr = output_nr_;
    return t;
}

Tensor BackwardCtx::saved(size_t i) const { return node.saved(i); }
bool BackwardCtx::needs(size_t i) const { return i < node.next_edges.size() && node.next_edges[i].valid(); }

Tensor FunctionNode::saved(size_t i) const {
    if (i >= saved_.size()) fail(CT_ERR_INTERNAL, name_, ": saved tensor ", i, " does not exist");
    return saved_[i].unpack(name_, i);
}

void FunctionNode::save_output(const Tensor& t) {
    if (t.defined() && grad_fn_of(t).get() != this)
        fail(CT_ERR_INTERNAL, name_, ": save_output called before set_history (Note [Saved outputs])");
    saved_.emplace_back(t, true);
}

TensorList FunctionNode::apply(TensorList&& grads) {
    for (auto& s : saved_) s.unpack(name_, 0);  // fail early on a second backward even without saved reads
    BackwardCtx ctx{grads, *this};
    return fn_(ctx);
}

void FunctionNode::release_saved() {
    for (auto& s : saved_) s.release();
    if (saved_.empty()) saved_.emplace_back(), saved_.back().release();
}

ViewStep::~ViewStep() {
    std::shared_ptr<ViewStep> p = std::move(parent);
    while (p && p.use_count() == 1) p = std::move(p->parent);  // p's old step dies with no parent left
}

Tensor replay_view(const std::shared_ptr<ViewStep>& steps, const Tensor& root) {
    std::vector<const ViewStep*> order;
    for (const ViewStep* s = steps.get(); s; s = s->parent.get()) order.push_back(s);
    Tensor t = root;
    for (auto it = order.rbegin(); it != order.rend(); ++it) t = (*it)->remake(t);
    return t;
}

namespace {
// Note [View history]: rebuilds a stale view's grad_fn from its root base's current history; safe from
// many reading threads at once (Note [Concurrent refresh]).
void refresh_view_history(const Tensor& t) {
    AutogradMeta* m = t.impl()->autograd.get();
    if (!m || !m->view_base.defined()) return;
    int64_t version = t.version();
    if (m->view_version.load(std::memory_order_acquire) == version) return;
    std::lock_guard<std::mutex> lock(m->view_mu);
    if (m->view_version.load(std::memory_order_relaxed) == version) return;  // another reader rebuilt it
    GradModeGuard grad_on(true);
    Tensor fresh = replay_view(m->view_steps, m->view_base);
    auto* fm = fresh.impl()->autograd.get();
    m->grad_fn = fm ? fm->grad_fn : nullptr;
    m->output_nr = fm ? fm->output_nr : 0;
    m->view_version.store(version, std::memory_order_release);
}
}  // namespace

bool tensor_requires_grad(const Tensor& t) {
    if (!t.defined() || !t.impl()->autograd) return false;
    refresh_view_history(t);
    auto& m = *t.impl()->autograd;
    return m.requires_grad || m.grad_fn != nullptr;
}

bool requires_grad(const Tensor& t) { return GradMode::is_enabled() && tensor_requires_grad(t); }

bool any_requires_grad(std::initializer_list<Tensor> inputs) {
    if (!GradMode::is_enabled()) return false;
    for (auto& t : inputs)
        if (tensor_requires_grad(t)) return true;
    return false;
}

bool any_requires_grad(const TensorList& inputs) {
    if (!GradMode::is_enabled()) return false;
    for (auto& t : inputs)
        if (tensor_requires_grad(t)) return true;
    return false;
}

AutogradMeta& autograd_meta(const Tensor& t) {
    if (!t.impl()->autograd) t.impl()->autograd = std::make_shared<AutogradMeta>();
    return *t.impl()->autograd;
}

Tensor grad_of(const Tensor& t) {
    AutogradMeta* m = t.impl()->autograd.get();
    if (!m) return Tensor();
    std::lock_guard<std::mutex> lock(m->grad_mu);
    return m->grad;
}

void set_grad_of(const Tensor& t, Tensor g) {
    if (!g.defined() && !t.impl()->autograd) return;
    auto& m = autograd_meta(t);
    std::lock_guard<std::mutex> lock(m.grad_mu);
    std::swap(m.grad, g);  // g (the old gradient) is dropped after the lock
}


void set_view_history(const Tensor& out, const Tensor& base, std::function<Tensor(const Tensor&)> remake) {
    auto& meta = autograd_meta(out);
    const AutogradMeta* bm = base.impl()->autograd.get();
    if (bm && bm->view_base.defined()) {  // a view of a view: remake from the root base
        meta.view_base = bm->view_base;
        meta.view_steps = std::make_shared<ViewStep>(bm->view_steps, std::move(remake));
    } else {
        meta.view_base = base;
        meta.view_steps = std::make_shared<ViewStep>(nullptr, std::move(remake));
    }
    meta.view_version.store(out.version(), std::memory_order_release);
}

std::shared_ptr<Node> grad_fn_of(const Tensor& t) {
    if (!t.defined() || !t.impl()->autograd) return nullptr;
    refresh_view_history(t);
    return t.impl()->autograd->grad_fn;
}

bool is_leaf(const Tensor& t) { return grad_fn_of(t) == nullptr; }

Edge gradient_edge(const Tensor& t) {
    if (t.defined()) grad_fn_of(t);  // refreshes a stale view's history first
    if (!tensor_requires_grad(t)) return Edge{};
    auto& meta = *t.impl()->autograd;
    if (meta.grad_fn) return Edge{meta.grad_fn, meta.output_nr};
    std::lock_guard<std::mutex> lock(meta.mu);
    auto acc = meta.grad_accumulator.lock();
    if (!acc) {
        acc = std::make_shared<AccumulateGrad>(t.impl_ptr());
        meta.grad_accumulator = acc;
    }
    return Edge{acc, 0};
}

std::shared_ptr<FunctionNode> make_node(const std::string& name, const TensorList& inputs, BackwardFn fn) {
    auto node = std::make_shared<FunctionNode>(name, std::move(fn));
    node->next_edges.reserve(inputs.size());
    for (auto& t : inputs) node->next_edges.push_back(gradient_edge(t));
    return node;
}

void record_output(const std::shared_ptr<Node>& node, const Tensor& out, uint32_t output_nr) {
    if (node->outputs.size() <= output_nr) {
        node->outputs.resize(output_nr + 1);
        node->retained.resize(output_nr + 1);
    }
    node->outputs[output_nr] = OutputMeta{out.sizes(), out.dtype(), out.device()};
}

void set_history(Tensor& out, const std::shared_ptr<Node>& node, uint32_t output_nr) {
    record_output(node, out, output_nr);
    auto& meta = autograd_meta(out);
    meta.grad_fn = node;
    meta.output_nr = output_nr;
    meta.requires_grad = false;
}

}  // namespace ct
