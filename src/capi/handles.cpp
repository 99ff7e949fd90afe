// handles.cpp - slot table with generations. Slots live in fixed chunks that never move, so a lookup is
// lock-free: decode index, check the generation, read the object. Allocation and freeing take a mutex.
#include "capi/handles.h"
#include <atomic>
#include <mutex>
#include <vector>

namespace ct {
namespace {

constexpr uint32_t kChunkBits = 12;
constexpr uint32_t kChunkSize = 1u << kChunkBits;
constexpr uint32_t kMaxChunks = 1u << 16;  // up to 268M live handles

struct Slot {
    std::atomic<uint32_t> generation{1};  // odd = free, even = live
    std::atomic<int32_t> refs{0};
    HandleKind kind = HandleKind::Tensor;
    std::shared_ptr<void> obj;
};

struct Table {
    std::atomic<Slot*> chunks[kMaxChunks];
    std::mutex mu;
    std::vector<uint32_t> free_list;
    uint32_t next_index = 0;
    std::atomic<int64_t> live{0};
    Table() {
        for (auto& c : chunks) c.store(nullptr, std::memory_order_relaxed);
    }
};

Table& table() {
    static Table* t = new Table();  // never destroyed: handles may be released during static destruction
    return *t;
}

// Handle layout: bits 0..31 = index + 1, bits 32..63 = generation (always nonzero -> never NULL).
inline uintptr_t encode(uint32_t index, uint32_t gen) { return ((uintptr_t)gen << 32) | (uintptr_t)(index + 1); }

Slot* lookup(uintptr_t h, HandleKind kind) {
    if (h == 0) return nullptr;
    uint32_t lo = (uint32_t)(h & 0xffffffffu);
    uint32_t gen = (uint32_t)(h >> 32);
    if (lo == 0 || (gen & 1u)) return nullptr;
    uint32_t index = lo - 1;
    uint32_t c = index >> kChunkBits;
    if (c >= kMaxChunks) return nullptr;
    Slot* chunk = table().chunks[c].load(std::memory_order_acquire);
    if (!chunk) return nullptr;
    Slot* s = &chunk[index & (kChunkSize - 1)];
    if (s->generation.load(std::memory_order_acquire) != gen || s->kind != kind) return nullptr;
    return s;
}

const char* kind_name(HandleKind k) {
    switch (k) {
    case HandleKind::Tensor: return "tensor";
    case HandleKind::Generator: return "generator";
    case HandleKind::Optimizer: return "optimizer";
    case HandleKind::Safetensors: return "safetensors";
    case HandleKind::ProcessGroup: return "process group";
    case HandleKind::Work: return "work";
    case HandleKind::DataParallel: return "data parallel";
    }
    return "object";
}

}  // namespace

uintptr_t handle_new(HandleKind kind, std::shared_ptr<void> obj) {
    Table& t = table();
    uint32_t index;
    {
        std::lock_guard<std::mutex> lock(t.mu);
        if (!t.free_list.empty()) {
            index = t.free_list.back();
            t.free_list.pop_back();
        } else {
            index = t.next_index;
            uint32_t c = index >> kChunkBits;
            if (c >= kMaxChunks) fail(CT_ERR_OUT_OF_MEMORY, "handle: too many live handles");
            if (!t.chunks[c].load(std::memory_order_relaxed)) t.chunks[c].store(new Slot[kChunkSize], std::memory_order_release);
            ++t.next_index;
        }
    }
    Slot* s = &t.chunks[index >> kChunkBits].load(std::memory_order_acquire)[index & (kChunkSize - 1)];
    s->kind = kind;
    s->obj = std::move(obj);
    s->refs.store(1, std::memory_order_relaxed);
    uint32_t gen = s->generation.load(std::memory_order_relaxed) + 1;  // odd -> even (live)
    if (gen == 0) gen = 2;
    s->generation.store(gen, std::memory_order_release);
    t.live.fetch_add(1, std::memory_order_relaxed);
    return encode(index, gen);
}

const std::shared_ptr<void>& handle_get(uintptr_t h, HandleKind kind, const char* op, const char* arg) {
    Slot* s = lookup(h, kind);
    if (!s) {
        if (h == 0) fail(CT_ERR_INVALID_HANDLE, op, ": ", arg, " is a NULL ", kind_name(kind), " handle");
        fail(CT_ERR_INVALID_HANDLE, op, ": ", arg, " is not a live ", kind_name(kind),
             " handle (released or never created)");
    }
    return s->obj;
}

void* handle_peek(uintptr_t h, HandleKind kind, const char* op, const char* arg) {
    Slot* s = lookup(h, kind);
    if (!s) {
        if (h == 0) fail(CT_ERR_INVALID_HANDLE, op, ": ", arg, " is a NULL ", kind_name(kind), " handle");
        fail(CT_ERR_INVALID_HANDLE, op, ": ", arg, " is not a live ", kind_name(kind),
             " handle (released or never created)");
    }
    return s->obj.get();
}

bool handle_retain(uintptr_t h, HandleKind kind) {
    Slot* s = lookup(h, kind);
    if (!s) return false;
    s->refs.fetch_add(1, std::memory_order_relaxed);
    return true;
}

std::shared_ptr<void> handle_release(uintptr_t h, HandleKind kind) {
    Slot* s = lookup(h, kind);
    if (!s) return nullptr;
    if (s->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return nullptr;
    std::shared_ptr<void> obj = std::move(s->obj);
    s->generation.fetch_add(1, std::memory_order_acq_rel);  // even -> odd (free)
    Table& t = table();
    {
        std::lock_guard<std::mutex> lock(t.mu);
        t.free_list.push_back((uint32_t)((h & 0xffffffffu) - 1));
    }
    t.live.fetch_sub(1, std::memory_order_relaxed);
    return obj;  // the caller drops it (may run deleters) outside the lock
}

int64_t handle_live_count() { return table().live.load(std::memory_order_relaxed); }

}  // namespace ct
