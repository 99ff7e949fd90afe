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
    // Hyper-parameters by name ("lr" and the optimizer's own, see hparam_names), validated like the
    // constructor's arguments (optim_hparams.cpp).
    virtual std::vector<std::string> hparam_names() const { return {"lr"}; }
    double get_hparam(const std::string& name) const;
    void set_hparam(const std::string& name, double value);

  protected:
    // The slot holding state `name` of parameter i (null for an unknown name); step_slot null = no step count.
    virtual Tensor* state_slot(size_t i, const std::string& name) { (void)i, (void)name; return nullptr; }
    virtual int64_t* step_slot(size_t i) { (void)i; return nullptr; }
    // Appends to fresh the state parameter i lacks for its next step (allocating: may throw; installs nothing).
    virtual void allocate_state(size_t i, const Tensor& p, std::vector<Tensor>& fresh) { (void)i, (void)p, (void)fresh; }
    // Updates parameter i (contiguous p and grad of one floating dtype) in place, first installing the state
    // allocate_state made; allocates nothing on the CPU (Note [Step all or nothing], optim.cpp).
    virtual void update(size_t i, const Tensor& p, const Tensor& grad, std::vector<Tensor>&& fresh) = 0;
    // The subclass's hyper-parameters (not lr): read into value / validate and set; false for an unknown name.
    virtual bool read_hparam(const std::string& name, double& value) const { (void)name, (void)value; return false; }
    virtual bool write_hparam(const std::string& name, double value) { (void)name, (void)value; return false; }
    const char* name_;
    std::vector<Tensor> params_;
    double lr_;
};

class SGD : public Optimizer {
  public:
    SGD(std::vector<Tensor> params, double lr, double momentum, double dampening, double weight_decay, bool nesterov);
    std::vector<std::string> state_names() const override { return {"momentum_buffer"}; }
    std::vector<std::string> hparam_names() const override {
        return {"lr", "momentum", "dampening", "weight_decay", "nesterov"};
    }
    // Throws CT_ERR_INVALID_ARGUMENT for a combination SGD refuses (shared by the constructor and set_hparam).
    static void check_hparams(double momentum, double dampening, double weight_decay, bool nesterov);
  protected:
    void allocate_state(size_t i, const Tensor& p, std::vector<Tensor>& fresh) override;
    void update(size_t i, const Tensor& p, const Tensor& grad, std::vector<Tensor>&& fresh) override;
    Tensor* state_slot(size_t i, const std::string& name) override;
    bool read_hparam(const std::string& name, double& value) const override;
    bool write_hparam(const std::string& name, double value) override;
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
    std::vector<std::string> hparam_names() const override { return {"lr", "beta1", "beta2", "eps", "weight_decay"}; }
    // Throws CT_ERR_INVALID_ARGUMENT for values Adam refuses (shared by the constructor and set_hparam).
    static void check_hparams(const char* name, double beta1, double beta2, double eps, double weight_decay);
  protected:
    void allocate_state(size_t i, const Tensor& p, std::vector<Tensor>& fresh) override;
    void update(size_t i, const Tensor& p, const Tensor& grad, std::vector<Tensor>&& fresh) override;
    Tensor* state_slot(size_t i, const std::string& name) override;
    int64_t* step_slot(size_t i) override { return &steps_[i]; }
    bool read_hparam(const std::string& name, double& value) const override;
    bool write_hparam(const std::string& name, double value) override;
  private:
    double beta1_, beta2_, eps_, weight_decay_;
    bool decoupled_;
    std::vector<Tensor> exp_avg_, exp_avg_sq_;
    std::vector<int64_t> steps_;
};

}  // namespace ct
