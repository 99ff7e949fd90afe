// storage.h - a block of memory on one device, shared by every view of it, with the version counter
// that in-place writes bump (Note [Version counter]: views share it because they share the storage).
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include "core/device.h"

namespace ct {

struct Storage {
    void* data = nullptr;
    size_t nbytes = 0;
    Device device;
    std::function<void()> release;       // frees data (allocator, external deleter, ...)
    std::atomic<int64_t> version{0};     // bumped by every in-place write through any view

    Storage() = default;
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;
    ~Storage() {
        if (release) release();
    }

    // Owned CPU block from the caching allocator.
    static std::shared_ptr<Storage> allocate(size_t nbytes, Device device);
    // External memory freed by deleter (may be empty).
    static std::shared_ptr<Storage> wrap(void* data, size_t nbytes, Device device, std::function<void()> deleter);
};

}  // namespace ct
