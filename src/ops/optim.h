// optim.h - optimizers over a list of parameter tensors (floating leaves), with torch.optim's exact update
// rules. step() runs without recording a graph, updates parameters in place (bumping their version
// counters) and skips parameters whose grad is undefined.
#pragma once
#include <string>
#include <vector>
#include "core/tensor.h"

namespace ct {

class Optimizer {
  public:
    Optimizer(const char* name, std::vector<Tensor> params, double lr);
    virtual ~Optimizer() = default;
    void step();
    // Clears every parameter's grad: drops it (set_to_none) or fills it with zeros.
    void zero_grad(bool set_to_none);
    double lr() const { return lr_; }
    void set_lr(double lr);
    const char* name() const { return name_; }
    // Per-parameter state for state_dict / load_state_dict (optim_state.cpp). Tensors are exchanged as copies.
    size_t num_params() const { return params_.size(); }
    virtual std::vector<std::string> state_names() const { return {}; }
    Tensor get_state(size_t i, const std::string& name);               // undefined while not created yet
    void set_state(size_t i, const std::string& name, const Tensor& value);  // undefined value clears it
    int64_t get_step(size_t i);
    void set_step(size_t i, int64_t step);

  protected:
    // The slot holding state `name` of parameter i (null for an unknown name); step_slot null = no step count.
    virtual Tensor* state_slot(size_t i, const std::string& name) { (void)i, (void)name; return nullptr; }
    virtual int64_t* step_slot(size_t i) { (void)i; return nullptr; }
    // Updates parameter i (contiguous p and grad of one floating dtype) in place.
    virtual void update(size_t i, const Tensor& p, const Tensor& grad) = 0;
    const char* name_;
    std::vector<Tensor> params_;
    double lr_;
};

class SGD : public Optimizer {
  public:
    SGD(std::vector<Tensor> params, double lr, double momentum, double dampening, double weight_decay, bool nesterov);
    std::vector<std::string> state_names() const override { return {"momentum_buffer"}; }
  protected:
    void update(size_t i, const Tensor& p, const Tensor& grad) override;
    Tensor* state_slot(size_t i, const std::string& name) override;
  private:
    double momentum_, dampening_, weight_decay_;
    bool nesterov_;
    std::vector<Tensor> momentum_buffer_;  // per parameter; undefined until its first step
};

// Adam (decoupled = false: weight decay added to the gradient) and AdamW (decoupled = true: p *= 1 - lr * wd).
class Adam : public Optimizer {
  public:
    Adam(std::vector<Tensor> params, double lr, double beta1, double beta2, double eps, double weight_decay,
         bool decoupled);
    std::vector<std::string> state_names() const override { return {"exp_avg", "exp_avg_sq"}; }
  protected:
    void update(size_t i, const Tensor& p, const Tensor& grad) override;
    Tensor* state_slot(size_t i, const std::string& name) override;
    int64_t* step_slot(size_t i) override { return &steps_[i]; }
  private:
    double beta1_, beta2_, eps_, weight_decay_;
    bool decoupled_;
    std::vector<Tensor> exp_avg_, exp_avg_sq_;
    std::vector<int64_t> steps_;
};

}  // namespace ct
