// fuzz_ops.cpp - libFuzzer target over the tensor API: the input is a program of calls (creation, every op of
// abi/ops.tsv, in-place writes, DLPack export/import round trips and hostile DLPack structs, releases) over a
// pool of handles; the contract is checked after every call and nothing may be left alive at the end.
#include <dlpack/dlpack.h>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "fuzz_common.h"

namespace {

using namespace fz;

// A DLPack struct the target built itself (hostile fields); its deleter must run once, and only on success.
struct Hostile {
    DLManagedTensor legacy;
    DLManagedTensorVersioned versioned;
    int64_t shape[4];
    int64_t strides[4];
    void* mem;
    int calls = 0;
};
std::vector<Hostile*> g_hostile;
void hostile_deleter(DLManagedTensor* m) { ++((Hostile*)m->manager_ctx)->calls; }
void hostile_deleter_v(DLManagedTensorVersioned* m) { ++((Hostile*)m->manager_ctx)->calls; }

void dlpack_round_trip(Input& in, Pool& p) {
    bool ok = true;
    ct_tensor t = p.pick(in, &ok);
    bool versioned = in.u8() & 1;
    const char* op = versioned ? "to_dlpack_versioned" : "to_dlpack";
    void* managed = (void*)kSentinel;
    ct_status st = versioned ? ct_to_dlpack_versioned(t, (DLManagedTensorVersioned**)&managed)
                             : ct_to_dlpack(t, (DLManagedTensor**)&managed);
    check_status(op, st, !ok);
    if (st != CT_OK) {
        if (managed != (void*)kSentinel) die(op, "an out-parameter was written by a failed call");
        return;
    }
    if (!managed) die(op, "NULL export");
    uint8_t next = in.u8() % 3;
    if (next == 0) {  // the consumer drops it at once
        if (versioned) ((DLManagedTensorVersioned*)managed)->deleter((DLManagedTensorVersioned*)managed);
        else ((DLManagedTensor*)managed)->deleter((DLManagedTensor*)managed);
        return;
    }
    // import it back (same or other flavour is not possible: the struct types differ)
    const char* iop = versioned ? "from_dlpack_versioned" : "from_dlpack";
    if (versioned && next == 2) ((DLManagedTensorVersioned*)managed)->flags |= DLPACK_FLAG_BITMASK_READ_ONLY;
    bool read_only = versioned && next == 2;  // must be refused: ctensor tensors are writable
    st = call(in, p, iop, read_only, 1, 0, [&](ct_tensor* o) {
        return versioned ? ct_from_dlpack_versioned((DLManagedTensorVersioned*)managed, o)
                         : ct_from_dlpack((DLManagedTensor*)managed, o);
    });
    if (st != CT_OK) {  // still ours
        if (versioned) ((DLManagedTensorVersioned*)managed)->deleter((DLManagedTensorVersioned*)managed);
        else ((DLManagedTensor*)managed)->deleter((DLManagedTensor*)managed);
    }
}

void dlpack_hostile(Input& in, Pool& p) {
    Hostile* h = new Hostile;
    std::memset(&h->legacy, 0, sizeof h->legacy);
    std::memset(&h->versioned, 0, sizeof h->versioned);
    DLTensor dl{};
    dl.ndim = in.int32();
    int nd = dl.ndim < 0 ? 0 : dl.ndim > 4 ? 4 : dl.ndim;
    for (int i = 0; i < 4; ++i) h->shape[i] = i < nd ? in.size() : 1, h->strides[i] = in.size();
    uint8_t flags = in.u8();
    dl.shape = (flags & 1) && dl.ndim <= 4 ? h->shape : (flags & 2) ? nullptr : h->shape;
    dl.strides = (flags & 4) ? h->strides : nullptr;
    if (dl.ndim > 4) dl.shape = nullptr, dl.strides = nullptr;  // the target's arrays hold 4: never read past
    static const uint8_t kCodes[] = {kDLFloat, kDLInt, kDLUInt, kDLBool, kDLBfloat, kDLComplex, 77};
    dl.dtype.code = kCodes[in.u8() % 7];
    dl.dtype.bits = (uint8_t)(8u << (in.u8() % 4)) + ((flags & 8) ? 1 : 0);
    dl.dtype.lanes = (flags & 16) ? 2 : 1;
    dl.device.device_type = (flags & 32) ? (DLDeviceType)(in.u8() % 16) : kDLCPU;
    dl.device.device_id = (flags & 64) ? (int32_t)in.edge() : 0;
    size_t bytes = 1024;  // fuzzer-filled data, placed after a byte_offset the input chooses
    h->mem = std::malloc(bytes);
    for (size_t k = 0; k < bytes; ++k) ((unsigned char*)h->mem)[k] = in.u8();
    dl.data = (flags & 128) ? nullptr : h->mem;
    uint8_t off = in.u8();
    dl.byte_offset = off < 0xf0 ? (off % 9) * 8 : (uint64_t)in.edge();
    // Only structs that are honest about their memory (every element inside the 1024 bytes) or plainly invalid
    // (negative size, element count past int64, NULL shape, address overflow) are passed: DLPack gives the
    // consumer no way to tell a lie about a valid-looking extent.
    bool invalid = dl.ndim < 0 || (dl.ndim > 0 && !dl.shape);
    __int128 numel = 1, lo = 0, hi = 0, run = 1;
    int64_t item = ((int64_t)dl.dtype.bits * dl.dtype.lanes + 7) / 8;
    bool zero = false, huge = false;
    for (int i = 0; i < nd && !invalid; ++i) invalid |= h->shape[i] < 0, zero |= h->shape[i] == 0;
    for (int i = nd - 1; i >= 0 && !invalid && !zero; --i) {
        int64_t sz = h->shape[i], st = dl.strides ? h->strides[i] : (int64_t)(run > INT64_MAX ? 0 : run);
        numel *= sz;
        if (numel > INT64_MAX) invalid = true;
        run *= sz;
        __int128 ext = (__int128)(sz - 1) * st;
        huge |= ext > ((__int128)1 << 100) || ext < -((__int128)1 << 100);
        if (!huge) (ext < 0 ? lo : hi) += ext;
    }
    if (zero) numel = 0;
    if (!invalid && numel > 0 && huge) {  // valid-looking but far beyond the buffer: not passed
        std::free(h->mem);
        delete h;
        return;
    }
    if (!invalid && numel > 0) {
        __int128 first = (__int128)(uintptr_t)dl.data + dl.byte_offset;
        if (first + hi * item + item > ((__int128)1 << 64)) invalid = true;  // the address overflows
        __int128 blo = (__int128)dl.byte_offset + lo * item, bhi = (__int128)dl.byte_offset + hi * item + item;
        bool honest = dl.data && blo >= 0 && bhi <= (__int128)bytes;
        if (!invalid && !honest) {
            std::free(h->mem);
            delete h;
            return;
        }
    }
    bool versioned = in.u8() & 1;
    ct_status st;
    ct_tensor out = kSentinel;
    const char* op;
    if (versioned) {
        h->versioned.version.major = in.u8() < 0xf0 ? 1 : in.u8();
        h->versioned.version.minor = in.u8();
        h->versioned.flags = in.u8() & 3;
        h->versioned.dl_tensor = dl;
        h->versioned.manager_ctx = h;
        h->versioned.deleter = (in.u8() == 0xff) ? nullptr : hostile_deleter_v;
        op = "from_dlpack_versioned";
        st = ct_from_dlpack_versioned(&h->versioned, &out);
    } else {
        h->legacy.dl_tensor = dl;
        h->legacy.manager_ctx = h;
        h->legacy.deleter = (in.u8() == 0xff) ? nullptr : hostile_deleter;
        op = "from_dlpack";
        st = ct_from_dlpack(&h->legacy, &out);
    }
    check_status(op, st, false);
    if (st == CT_OK && invalid) die(op, "accepted an invalid DLPack struct");
    if (st != CT_OK) {
        if (out != kSentinel) die(op, "an out-parameter was written by a failed call");
        if (h->calls) die(op, "the producer's deleter ran although the import failed");
        std::free(h->mem);
        delete h;
        return;
    }
    // An accepted import must lie inside the 512 bytes handed over (else ASan reports the read in check_tensor).
    p.keep(in, op, out);
    g_hostile.push_back(h);
}

void finish_hostile() {
    for (Hostile* h : g_hostile) {
        bool has_deleter = h->legacy.deleter || h->versioned.deleter;
        if (has_deleter && h->calls != 1) die("from_dlpack", "an imported tensor's deleter did not run exactly once");
        std::free(h->mem);
        delete h;
    }
    g_hostile.clear();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    init_library();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Input in{data, size};
    Pool p;
    if (ct_generator_new(in.u64(), &p.gen) != CT_OK) die("generator_new", "failed", ct_last_error());
    ct_set_grad_enabled(0, nullptr);  // this target exercises the tensor API; fuzz_autograd records graphs
    for (int step = 0; step < 64 && !in.done(); ++step) {
        uint8_t action = in.u8() % 16;
        if (action < 4) create_tensor(in, p);
        else if (action < 12) call_op(in, p);
        else if (action == 12) dlpack_round_trip(in, p);
        else if (action == 13) dlpack_hostile(in, p);
        else if (action == 14) p.drop(in.u8() % Pool::kSlots);
        else {  // an extra reference held and dropped, a release of a stale or made-up handle (ignored)
            ct_tensor t = p.pick_live(in);
            if (ct_tensor_retain(t) != t) die("tensor_retain", "did not return its argument");
            ct_tensor_release(t);
            ct_tensor_release(p.stale);
            ct_tensor_release((ct_tensor)(uintptr_t)(in.u64() | (1ull << 32)));
            check_status("generator_seed", ct_generator_seed(p.gen, in.u64()), false);
            if (ct_generator_retain(p.gen) != p.gen) die("generator_retain", "did not return its argument");
            ct_generator_release(p.gen);
            int64_t a = -1, c = -1, l = -9;
            check_status("cpu_memory_stats", ct_cpu_memory_stats(&a, &c, &l), false);
            if (a < 0 || c < 0 || l != ((int64_t)32 << 20)) die("cpu_memory_stats", "bad statistics");
        }
        check_live("after a call", p);
    }
    p.clear();
    check_live("after releasing everything", p);
    finish_blobs();
    finish_hostile();
    ct_set_grad_enabled(1, nullptr);
    return 0;
}
