// engine.cpp - the backward pass. Invariant: a node runs only after every edge into it from the reachable
// graph has delivered its gradient (dependency counts), so each node runs once per backward.
#include "autograd/engine.h"
#include <map>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include "autograd/accumulate_grad.h"
#include "autograd/grad_mode.h"
#include "autograd/hooks.h"
#include "ops/ops.h"

namespace ct {
namespace {

struct ByLatest {
    bool operator()(const Node* a, const Node* b) const { return a->sequence_nr < b->sequence_nr; }
};

struct Capture {
    Node* node;
    uint32_t nr;
    Tensor grad;
};

Tensor default_grad(const Tensor& root, const Tensor& given) {
    if (given.defined()) {
        if (given.sizes() != root.sizes())
            fail(CT_ERR_SHAPE, "backward: grad_output of shape ", shape_str(given.sizes()),
                 " does not match the output's shape ", shape_str(root.sizes()));
        check_same_device("backward", root, given);
        // the nodes read gradients in their output's dtype: a grad_output of another dtype is cast (as torch's
        // validate_outputs does), never read as the root's dtype (a float32 0-d read as float64 overran it)
        return given.dtype() == root.dtype() ? given : to_dtype(given, root.dtype());
    }
    if (root.numel() != 1)
        fail(CT_ERR_AUTOGRAD, "backward: grad can be implicitly created only for outputs with one element, got shape ",
             shape_str(root.sizes()), "; pass a grad_output");
    return ones_like(root);
}

Tensor add_grads(const Tensor& a, const Tensor& b) {
    if (!a.defined()) return b;
    return add(a, b);
}

thread_local bool t_accumulates = false;

// Sets t_accumulates for one run and restores the outer value (a backward inside a custom function's backward).
class AccumulatesGuard {
  public:
    explicit AccumulatesGuard(bool on) : prev_(t_accumulates) { t_accumulates = on; }
    ~AccumulatesGuard() { t_accumulates = prev_; }
    AccumulatesGuard(const AccumulatesGuard&) = delete;
    AccumulatesGuard& operator=(const AccumulatesGuard&) = delete;
  private:
    bool prev_;
};

// Runs the graph from the roots. captures, when non-empty, turns the run into autograd.grad: gradients
// flowing into the captured (node, output) pairs are stored and leaves are not accumulated into.
void run_backward(const TensorList& roots, const TensorList& grad_roots, bool retain_graph, bool create_graph,
                  std::vector<Capture>* captures) {
    if (roots.empty()) fail(CT_ERR_INVALID_ARGUMENT, "backward: no outputs given");
    GradModeGuard mode(create_graph);
    AccumulatesGuard accumulates(captures == nullptr);
    std::vector<std::pair<Edge, Tensor>> root_edges;
    for (size_t i = 0; i < roots.size(); ++i) {
        const Tensor& r = roots[i];
        if (!tensor_requires_grad(r))
            fail(CT_ERR_AUTOGRAD, "backward: output ", i, " (shape ", shape_str(r.sizes()),
                 ") does not require grad and has no grad_fn");
        Tensor g = default_grad(r, i < grad_roots.size() ? grad_roots[i] : Tensor());
        root_edges.emplace_back(gradient_edge(r), g);
    }

    // 1. Count dependencies over the reachable graph (iterative DFS).
    std::unordered_map<Node*, int> deps;
    std::unordered_set<Node*> seen;
    std::vector<Node*> stack;
    for (auto& re : root_edges)
        if (seen.insert(re.first.fn.get()).second) stack.push_back(re.first.fn.get());
    while (!stack.empty()) {
        Node* n = stack.back();
        stack.pop_back();
        for (auto& e : n->next_edges) {
            if (!e.valid()) continue;
            deps[e.fn.get()] += 1;
            if (seen.insert(e.fn.get()).second) stack.push_back(e.fn.get());
        }
    }

    // 2. Seed the input buffers with the root gradients.
    std::unordered_map<Node*, TensorList> buffers;
    std::unordered_map<Node*, std::shared_ptr<Node>> keep_alive;
    std::priority_queue<Node*, std::vector<Node*>, ByLatest> ready;
    for (auto& re : root_edges) {
        Node* n = re.first.fn.get();
        auto& buf = buffers[n];
        buf.resize(n->outputs.size());
        buf[re.first.input_nr] = add_grads(buf[re.first.input_nr], re.second);
        keep_alive[n] = re.first.fn;
    }
    for (auto& kv : buffers)
        if (deps[kv.first] == 0) ready.push(kv.first);

    // 3. Run nodes in dependency order. Note [Failed backward]: nothing the caller can see changes until every
    // node has run — .grad writes wait in `pending` and saved tensors are freed at the end — so a backward that
    // fails part-way (out of memory, a custom function's error) leaves the graph and every .grad as they
    // were, and can be run again.
    std::vector<PreparedGrad> pending;
    std::vector<std::shared_ptr<Node>> ran;
    while (!ready.empty()) {
        Node* node = ready.top();
        ready.pop();
        TensorList grads = std::move(buffers[node]);
        buffers.erase(node);
        std::shared_ptr<Node> hold = keep_alive[node];
        keep_alive.erase(node);
        grads.resize(node->outputs.size());
        for (size_t i = 0; i < grads.size(); ++i) {
            if (!grads[i].defined()) {
                auto& m = node->outputs[i];
                grads[i] = zeros(m.sizes, m.dtype, m.device);
            }
            if (TensorHooks* hooks = hooks_of(node, i))
                grads[i] = run_tensor_hooks(*hooks, grads[i], node->outputs[i], node->name());
            if (i < node->retained.size()) {
                if (auto impl = node->retained[i].lock()) pending.push_back(prepare_grad(Tensor(impl), grads[i]));
            }
        }
        ran.push_back(hold);
        auto* accumulator = dynamic_cast<AccumulateGrad*>(node);
        if (captures) {
            for (auto& c : *captures)
                if (c.node == node) c.grad = add_grads(c.grad, grads[c.nr]);
            if (accumulator) continue;
        }
        if (accumulator) {  // a leaf gone meanwhile has no .grad to write (Note [Former leaf cycle])
            if (auto leaf = accumulator->leaf()) pending.push_back(prepare_grad(Tensor(std::move(leaf)), grads.at(0)));
            continue;
        }
        TensorList input_grads = node->apply(std::move(grads));
        for (size_t i = 0; i < node->next_edges.size(); ++i) {
            const Edge& e = node->next_edges[i];
            if (!e.valid()) continue;
            Node* next = e.fn.get();
            auto& buf = buffers[next];
            if (buf.empty()) buf.resize(next->outputs.size());
            if (i < input_grads.size() && input_grads[i].defined()) {
                if (e.input_nr >= buf.size()) fail(CT_ERR_INTERNAL, "backward: bad edge into ", next->name());
                buf[e.input_nr] = add_grads(buf[e.input_nr], input_grads[i]);
            }
            keep_alive[next] = e.fn;
            if (--deps[next] == 0) ready.push(next);
        }
    }

    // 4. Publish: store the gradients, then free what the graph saved.
    for (auto& p : pending) commit_grad(std::move(p));
    if (!retain_graph)
        for (auto& n : ran) n->release_saved();
}

}  // namespace

bool backward_accumulates() { return t_accumulates; }

void backward(const TensorList& roots, const TensorList& grad_roots, bool retain_graph, bool create_graph) {
    run_backward(roots, grad_roots, retain_graph || create_graph, create_graph, nullptr);
}

TensorList grad(const TensorList& roots, const TensorList& grad_roots, const TensorList& inputs, bool retain_graph,
                bool create_graph, bool allow_unused) {
    std::vector<Capture> captures;
    std::vector<std::shared_ptr<Node>> hold;
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (!tensor_requires_grad(inputs[i]))
            fail(CT_ERR_AUTOGRAD, "autograd.grad: input ", i, " does not require grad");
        Edge e = gradient_edge(inputs[i]);
        hold.push_back(e.fn);
        captures.push_back(Capture{e.fn.get(), e.input_nr, Tensor()});
    }
    run_backward(roots, grad_roots, retain_graph || create_graph, create_graph, &captures);
    TensorList out;
    for (size_t i = 0; i < captures.size(); ++i) {
        if (!captures[i].grad.defined() && !allow_unused)
            fail(CT_ERR_AUTOGRAD, "autograd.grad: input ", i,
                 " was not used in the graph of the outputs; pass allow_unused=1");
        out.push_back(captures[i].grad);
    }
    return out;
}

}  // namespace ct
