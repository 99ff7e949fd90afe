// backend.cpp - finds, dlopen()s and checks the CUDA backend once (Note [Backend loading] in backend.h),
// keeping the reason when CUDA is unavailable.
#include "core/backend.h"
#include <dlfcn.h>
#include <sys/stat.h>
#include <cstdlib>
#include <string>
#include "core/device.h"
#include "core/error.h"

namespace ct {
namespace {

struct LoadedBackend {
    const ct_cuda_backend* table = nullptr;
    int32_t device_count = 0;
    void* lib = nullptr;  // the dlopen() handle (never closed), for the other tables it exports
    std::string reason;   // why table is null
};

// Directory holding libctensor itself (found from the address of a function in it), with a trailing '/'.
std::string library_dir() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&library_dir), &info) || !info.dli_fname) return "";
    std::string path = info.dli_fname;
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

std::string backend_path() {
    const char* env = std::getenv("CTENSOR_CUDA_BACKEND");
    if (env && *env) return env;
    return library_dir() + CT_CUDA_BACKEND_FILE;
}

bool file_exists(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

LoadedBackend load() {
    LoadedBackend r;
    std::string path = backend_path();
    if (!file_exists(path)) {
        r.reason = "backend not built: " + path + " does not exist";
        return r;
    }
    // RTLD_NOW: a missing libcudart/libcublas shows up here, as a reason, not later as a crash.
    void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* err = ::dlerror();
        r.reason = std::string("cannot load the CUDA backend: ") + (err ? err : path);
        return r;
    }
    // Never dlclose()d: storages freed at exit still call into it.
    auto entry = reinterpret_cast<ct_cuda_backend_entry_fn>(::dlsym(lib, CT_CUDA_BACKEND_ENTRY));
    if (!entry) {
        r.reason = "cannot load the CUDA backend: " + path + " does not export " CT_CUDA_BACKEND_ENTRY;
        return r;
    }
    const ct_cuda_backend* t = entry(CT_CUDA_BACKEND_VERSION);
    if (!t || t->version != CT_CUDA_BACKEND_VERSION || t->struct_size < sizeof(ct_cuda_backend)) {
        r.reason = "cannot load the CUDA backend: " + path + " does not provide interface version " +
                   std::to_string(CT_CUDA_BACKEND_VERSION) + " (mismatched ctensor installation?)";
        return r;
    }
    int32_t count = 0;
    if (t->init(&count) != 0 || count <= 0) {
        const char* why = t->last_error();
        r.reason = why && *why ? why : "no CUDA device";
        return r;
    }
    r.table = t;
    r.device_count = count;
    r.lib = lib;
    return r;
}

const LoadedBackend& loaded() {
    static const LoadedBackend* once = new LoadedBackend(load());  // thread-safe init; never destroyed
    return *once;
}

}  // namespace

const ct_cuda_backend* cuda_backend_or_null(const char** reason) {
    const LoadedBackend& b = loaded();
    if (!b.table && reason) *reason = b.reason.c_str();
    return b.table;
}

const ct_cuda_backend& cuda_backend(const char* op) {
    const LoadedBackend& b = loaded();
    if (!b.table) fail(CT_ERR_NOT_COMPILED, op, ": CUDA is not available: ", b.reason);
    return *b.table;
}

int32_t cuda_device_count() { return loaded().device_count; }

const ct_cuda_backend& cuda_device_backend(const char* op, int32_t index) {
    const LoadedBackend& b = loaded();
    if (!b.table) fail(CT_ERR_NOT_COMPILED, op, ": device cuda:", index, " is not available: ", b.reason);
    const ct_cuda_backend& t = *b.table;
    int32_t n = b.device_count;
    if (index < 0 || index >= n)
        fail(CT_ERR_DEVICE, op, ": invalid device cuda:", index, " (", n, " CUDA device", n == 1 ? "" : "s",
             " available)");
    return t;
}

void* cuda_backend_symbol(const char* name) {
    const LoadedBackend& b = loaded();
    return b.lib ? ::dlsym(b.lib, name) : nullptr;
}

void cuda_fail(const char* op, int32_t status) {
    const LoadedBackend& b = loaded();
    const char* msg = b.table ? b.table->last_error() : nullptr;
    fail((ct_status)status, op, ": ", msg && *msg ? msg : "CUDA backend call failed");
}

}  // namespace ct
