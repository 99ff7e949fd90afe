// grad_mode.h - thread-local switch that says whether ops record the graph.
#pragma once

namespace ct {

struct GradMode {
    static bool is_enabled();
    static void set_enabled(bool enabled);
};

// Sets grad mode for a scope and restores the previous mode on exit.
class GradModeGuard {
  public:
    explicit GradModeGuard(bool enabled) : prev_(GradMode::is_enabled()) { GradMode::set_enabled(enabled); }
    ~GradModeGuard() { GradMode::set_enabled(prev_); }
    GradModeGuard(const GradModeGuard&) = delete;
    GradModeGuard& operator=(const GradModeGuard&) = delete;
  private:
    bool prev_;
};

struct NoGradGuard : GradModeGuard {
    NoGradGuard() : GradModeGuard(false) {}
};

}  // namespace ct
