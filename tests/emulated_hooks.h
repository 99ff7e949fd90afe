// emulated_hooks.h - the emulated CUDA backend's test hooks (counters it exports for tests), found in the backend
// library named by CTENSOR_CUDA_BACKEND when that library is already loaded.
#pragma once
#include <dlfcn.h>
#include <cstdlib>

namespace ctt {

// The hook `name` of the loaded emulated backend cast to Fn, or nullptr on another backend (or none).
template <typename Fn> Fn emulated_hook(const char* name) {
    const char* path = std::getenv("CTENSOR_CUDA_BACKEND");
    void* lib = path ? dlopen(path, RTLD_NOW | RTLD_NOLOAD) : nullptr;
    if (!lib) return nullptr;
    auto fn = reinterpret_cast<Fn>(dlsym(lib, name));
    dlclose(lib);  // drops only the reference NOLOAD took; the backend stays loaded
    return fn;
}

}  // namespace ctt
