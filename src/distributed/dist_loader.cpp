// dist_loader.cpp - finds, dlopen()s and checks the communication backend of a device type once
// (Note [Distributed backend loading] in dist_backend.h), keeping the reason when it is unavailable.
#include <dlfcn.h>
#include <sys/stat.h>
#include <cstdlib>
#include <string>
#include "core/backend.h"
#include "core/error.h"
#include "distributed/dist_backend.h"

namespace ct {
namespace {

struct LoadedDist {
    const ct_dist_backend* table = nullptr;
    std::string reason;  // why table is null
};

// Directory holding libctensor itself, with a trailing '/'.
std::string library_dir() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&library_dir), &info) || !info.dli_fname) return "";
    std::string path = info.dli_fname;
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// The table entry(version) returns, if it is this interface version for device_type (a device backend must also
// make communicators); otherwise the reason, naming the table as what.
LoadedDist checked_table(ct_dist_backend_entry_fn entry, int32_t device_type, const std::string& what) {
    LoadedDist r;
    const ct_dist_backend* t = entry(CT_DIST_BACKEND_VERSION);
    if (!t || t->version != CT_DIST_BACKEND_VERSION || t->struct_size < sizeof(ct_dist_backend) ||
        t->device_type != device_type || (device_type != CT_DEVICE_CPU && !t->comm_init)) {
        r.reason = what + " does not provide interface version " + std::to_string(CT_DIST_BACKEND_VERSION) +
                   " (mismatched ctensor installation?)";
        return r;
    }
    r.table = t;
    return r;
}

LoadedDist load_mpi() {
    LoadedDist r;
    const char* env = std::getenv("CTENSOR_MPI_BACKEND");
    std::string path = env && *env ? env : library_dir() + CT_MPI_BACKEND_FILE;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        r.reason = "the MPI backend is not built: " + path + " does not exist (build with Open MPI installed)";
        return r;
    }
    // RTLD_NOW: a missing libmpi shows up here, as a reason, not later as a crash. Never dlclose()d.
    void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char* err = ::dlerror();
        r.reason = std::string("cannot load the MPI backend: ") + (err ? err : path);
        return r;
    }
    auto entry = reinterpret_cast<ct_dist_backend_entry_fn>(::dlsym(lib, CT_MPI_BACKEND_ENTRY));
    if (!entry) {
        r.reason = "cannot load the MPI backend: " + path + " does not export " CT_MPI_BACKEND_ENTRY;
        return r;
    }
    return checked_table(entry, CT_DEVICE_CPU, "cannot load the MPI backend: " + path);
}

const LoadedDist& mpi() {
    static const LoadedDist* once = new LoadedDist(load_mpi());  // thread-safe init; never destroyed
    return *once;
}

// The NCCL table that the CUDA backend library exports (when it was built with NCCL).
LoadedDist load_nccl() {
    LoadedDist r;
    const char* cuda_reason = nullptr;
    if (!cuda_backend_or_null(&cuda_reason)) {
        r.reason = std::string("CUDA is not available: ") + (cuda_reason ? cuda_reason : "");
        return r;
    }
    auto entry = reinterpret_cast<ct_dist_backend_entry_fn>(cuda_backend_symbol(CT_NCCL_BACKEND_ENTRY));
    if (!entry) {
        r.reason = "the CUDA backend was built without NCCL (it does not export " CT_NCCL_BACKEND_ENTRY ")";
        return r;
    }
    return checked_table(entry, CT_DEVICE_CUDA, "the CUDA backend's NCCL table");
}

const LoadedDist& nccl() {
    static const LoadedDist* once = new LoadedDist(load_nccl());  // thread-safe init; never destroyed
    return *once;
}

}  // namespace

const ct_dist_backend& dist_backend(const char* op, int32_t device_type) {
    if (device_type == CT_DEVICE_CUDA) {
        const LoadedDist& n = nccl();
        if (!n.table) fail(CT_ERR_NOT_COMPILED, op, ": collectives on CUDA tensors need NCCL: ", n.reason);
        return *n.table;
    }
    const LoadedDist& b = mpi();
    if (!b.table) fail(CT_ERR_NOT_COMPILED, op, ": distributed (MPI) is not available: ", b.reason);
    return *b.table;
}

}  // namespace ct
