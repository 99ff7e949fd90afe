// optim.h - optimizers over a list of parameter tensors (floating leaves), with torch.optim's exact update
// rules. step() runs without recording a graph, updates parameters in place (bumping their version
// counters) and skips parameters whose grad is undefined.
#pragma once
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

  protected:
    // Updates parameter i (contiguous p and grad of one floating dtype) in place.
    virtual void update(size_t i, const Tensor& p, const Tensor& grad) = 0;
    const char* name_;
    std::vector<Tensor> params_;
    double lr_;
};

class SGD : public Optimizer {
  public:
    SGD(std::vector<Tensor> params, double lr, double momentum, double dampening, double weight_decay, bool nesterov);
  protected:
    void update(size_t i, const Tensor& p, const Tensor& grad) override;
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
  protected:
    void update(size_t i, const Tensor& p, const Tensor& grad) override;
  private:
    double beta1_, beta2_, eps_, weight_decay_;
    bool decoupled_;
    std::vector<Tensor> exp_avg_, exp_avg_sq_;
    std::vector<int64_t> steps_;
};

}  // namespace ct
