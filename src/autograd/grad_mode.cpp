// grad_mode.cpp - the thread-local grad mode flag (on by default on every thread).
#include "autograd/grad_mode.h"

namespace ct {

static thread_local bool t_grad_enabled = true;
bool GradMode::is_enabled() { return t_grad_enabled; }
void GradMode::set_enabled(bool enabled) { t_grad_enabled = enabled; }

}  // namespace ct
