// node.h - the autograd graph: Node (one backward step), Edge (where a gradient goes next), the
// per-tensor AutogradMeta, saved tensors with version checks, and helpers ops use to record history.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include "core/tensor.h"

namespace ct {

struct Node;
struct TensorHooks;  // autograd/hooks.h
using TensorList = std::vector<Tensor>;

// Note [View chains]: how a view is remade from its root base, one step per view op (a view of a view of x
// is step2(step1(x))). Steps are shared with the views made from it, so making a view is O(1) whatever the
// depth; replaying and freeing a chain are loops, so a chain a million views deep cannot overflow the stack.
struct ViewStep {
    std::shared_ptr<ViewStep> parent;                // the step before (null: applied to the root base)
    std::function<Tensor(const Tensor&)> remake;     // this view from its input
    ViewStep(std::shared_ptr<ViewStep> p, std::function<Tensor(const Tensor&)> r)
        : parent(std::move(p)), remake(std::move(r)) {}
    ~ViewStep();                                     // frees the parents it alone holds in a loop
};
// The view described by steps, remade from root (every step in order).
Tensor replay_view(const std::shared_ptr<ViewStep>& steps, const Tensor& root);

// Where the gradient of one differentiable input goes: output input_nr of node fn's forward.
struct Edge {
    std::shared_ptr<Node> fn;
    uint32_t input_nr = 0;
    bool valid() const { return fn != nullptr; }
};

// Shape, dtype and device of one forward output: lets the engine make zeros for a missing gradient.
struct OutputMeta {
    Shape sizes;
    DType dtype = DType::Float32;
    Device device;
};

struct AutogradMeta {
    bool requires_grad = false;             // set on leaves by the user
    Tensor grad;                            // accumulated gradient (leaves, or non-leaves that retain it)
    std::shared_ptr<Node> grad_fn;          // null for leaves
    uint32_t output_nr = 0;                 // which output of grad_fn this tensor is
    std::weak_ptr<Node> grad_accumulator;   // leaves: the AccumulateGrad node, created on first use
    bool retains_grad = false;
    std::mutex mu;                          // guards grad_accumulator creation
    std::mutex grad_mu;                     // guards grad: backward may run on several threads into one leaf
                                            // (read and write it through grad_of / set_grad_of)
    // Note [View history]: a differentiable view keeps its root base and how to remake itself from it
    // (view_steps, Note [View chains]).
    // When the storage's version moved on since the view's grad_fn was recorded (an in-place write to the
    // base or a sibling view), grad_fn_of / gradient_edge rebuild grad_fn as replay_view(view_steps, view_base), so the
    // view's gradient follows the base's current history instead of a stale one (like PyTorch).
    // Note [Concurrent refresh]: that rebuild happens inside reads (is_leaf, grad_fn_name, any op using the
    // view), which may run on many threads at once. view_base and view_steps are fixed before the view is
    // shared; the rebuild is double-checked: view_version is read with acquire, and on a mismatch the rebuild
    // runs under view_mu and publishes grad_fn/output_nr before storing view_version with release. Once
    // refresh_view_history returns, grad_fn and output_nr stay unchanged until the next write to the tensor.
    Tensor view_base;
    std::shared_ptr<ViewStep> view_steps;
    std::atomic<int64_t> view_version{0};
    std::mutex view_mu;                     // serialises the rebuild of a stale view's history
    std::shared_ptr<TensorHooks> hooks;     // register_hook callbacks (shared with grad_fn's pre_hooks)
};

// A tensor a node keeps for its backward. Note [Saved outputs]: an op's own output is saved without its
// grad_fn (a strong reference would be a cycle) and gets it back, through a weak reference, on unpack.
// So save_output must come after set_history: before it the output has no grad_fn to strip, and saving
// it whole makes node -> output -> node a leaking cycle (and save_output refuses it).
// Note [Saved inputs]: an input is saved as an alias without autograd metadata plus the grad_fn it had when
// saved (a strong reference to an earlier node: no cycle), given back together on unpack. Saving the input's
// impl itself would let a later in-place write close a cycle: y.add_(y * y) makes y's new grad_fn lead to
// MulBackward, which held y. Only a leaf that requires grad is kept whole (its gradient must reach it).
class SavedTensor {
  public:
    SavedTensor() = default;
    SavedTensor(const Tensor& t, bool is_output);
    // The saved tensor; throws CT_ERR_AUTOGRAD when it was released or modified in place since saving.
    Tensor unpack(const std::string& node_name, size_t index) const;
    void release();
    // Moves the saved tensor and the saved input's grad_fn out (graph teardown, Note [Iterative teardown]).
    Tensor take() { return std::move(data_); }
    std::shared_ptr<Node> take_input_grad_fn() { return std::move(input_grad_fn_); }
  private:
    Tensor data_;
    int64_t version_ = 0;
    bool is_output_ = false;
    bool released_ = false;
    std::weak_ptr<Node> grad_fn_;              // an output's grad_fn (Note [Saved outputs])
    std::shared_ptr<Node> input_grad_fn_;      // an input's grad_fn when saved (Note [Saved inputs])
    uint32_t output_nr_ = 0;
};

struct Node : std::enable_shared_from_this<Node> {
    std::vector<Edge> next_edges;                  // one per differentiable input, in op order
    std::vector<OutputMeta> outputs;               // one per forward output
    std::vector<std::weak_ptr<TensorImpl>> retained;  // per output: non-leaf tensors that retain grad
    uint64_t sequence_nr = 0;                      // creation order (later nodes run first)
    std::vector<std::shared_ptr<TensorHooks>> pre_hooks;  // per output: hooks of the tensor it made (or null)

    Node();
    // Note [Iterative teardown]: destroying a node releases the nodes it links to through a thread-local
    // work list instead of recursively, so freeing a graph of any depth cannot overflow the stack.
    virtual ~Node();
    virtual std::string name() const = 0;
    // Gradients w.r.t. the forward inputs (one per next_edge; undefined = none) from the gradients
    // w.r.t. the outputs (one per output, never undefined: the engine fills zeros).
    virtual TensorList apply(TensorList&& grads) = 0;
    // Frees saved tensors after a backward that did not retain the graph.
    virtual void release_saved() {}
};

class FunctionNode;

// What a backward formula sees.
struct BackwardCtx {
    const TensorList& grads;       // gradient per forward output
    FunctionNode& node;
    Tensor saved(size_t i) const;  // i-th saved tensor (checked)
    bool needs(size_t i) const;    // whether input i wants a gradient
};

// Backward formulas must capture no Tensor by value: save them with save()/save_output() instead.
using BackwardFn = std::function<TensorList(BackwardCtx&)>;

class FunctionNode : public Node {
  public:
    FunctionNode(std::string name, BackwardFn fn) : name_(std::move(name)), fn_(std::move(fn)) {}
    ~FunctionNode() override;
    std::string name() const override { return name_; }
    TensorList apply(TensorList&& grads) override;
    void release_saved() override;
    void save(const Tensor& t) { saved_.emplace_back(t, false); }
    // Saves an output of this node; call it after set_history(t, node) (Note [Saved outputs]).
    void save_output(const Tensor& t);
    Tensor saved(size_t i) const;
  private:
    std::string name_;
    BackwardFn fn_;
    std::vector<SavedTensor> saved_;
};

// --- helpers for ops ---------------------------------------------------------------------------------

// True when grad mode is on and t requires grad.
bool requires_grad(const Tensor& t);
// True when grad mode is on and any defined input requires grad.
bool any_requires_grad(std::initializer_list<Tensor> inputs);
bool any_requires_grad(const TensorList& inputs);
// Edge for t's gradient (its grad_fn, its leaf accumulator, or an invalid edge).
Edge gradient_edge(const Tensor& t);
// New node named name with edges to inputs (undefined inputs get invalid edges).
std::shared_ptr<FunctionNode> make_node(const std::string& name, const TensorList& inputs, BackwardFn fn);
// Records out's shape, dtype and device as node's output output_nr (the engine's zeros for a missing gradient).
void record_output(const std::shared_ptr<Node>& node, const Tensor& out, uint32_t output_nr);
// Makes out the output_nr-th output of node (records its meta).
void set_history(Tensor& out, const std::shared_ptr<Node>& node, uint32_t output_nr = 0);
// Autograd metadata of t, created when missing.
AutogradMeta& autograd_meta(const Tensor& t);
// t's .grad (undefined when none), read under grad_mu: a backward on another thread may be writing it.
Tensor grad_of(const Tensor& t);
// Replaces t's .grad (undefined clears it) under grad_mu; the old gradient is dropped after the lock.
void set_grad_of(const Tensor& t, Tensor g);
// grad_fn of t or null (rebuilt first for a view whose base was modified in place, Note [View history]).
std::shared_ptr<Node> grad_fn_of(const Tensor& t);
// Marks out as a differentiable view of base (remake(base) gives out again); see Note [View history].
void set_view_history(const Tensor& out, const Tensor& base, std::function<Tensor(const Tensor&)> remake);
bool is_leaf(const Tensor& t);
// The raw flag regardless of grad mode (requires_grad attribute as PyTorch reports it).
bool tensor_requires_grad(const Tensor& t);

}  // namespace ct
