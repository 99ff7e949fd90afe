// fuzz_common.h - shared parts of the libFuzzer targets (tests/fuzz): the reader that turns input bytes into
// arguments, the pool of handles a target's "program" works on, and the contract checks run after every call
// (status and UTF-8 message, out-parameters untouched on failure, live-handle count, tensor metadata and bounds).
#pragma once
#include <ctensor.h>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace fz {

// Prints "ctensor contract broken in <op>: <what>" and aborts (libFuzzer records a crash).
[[noreturn]] void die(const char* op, const char* what, const char* detail = "");

// Input bytes read front to back; past the end every read gives 0.
struct Input {
    const uint8_t* p;
    size_t n;
    size_t i = 0;
    bool done() const { return i >= n; }
    uint8_t u8() { return i < n ? p[i++] : 0; }
    uint32_t u32();
    uint64_t u64();
    int64_t edge();        // an edge value (0, +-1, INT64_MIN/MAX, 2^31, 2^40, 2^62, ...) or raw bytes
    int64_t dim();         // a dim: mostly [-4, 4], sometimes an edge value
    int64_t size();        // a size: mostly [0, 4], sometimes -1 or an edge value
    int64_t count();       // a small count: mostly [0, 6], sometimes an edge value
    double scalar();       // 0, +-1, 0.5, 2, 256, NaN, +-inf, 1e300, +-2^63, or raw bytes
    ct_dtype dtype();      // mostly the twelve dtypes, sometimes an unknown value
    ct_dtype float_dtype(); // float32, float64, float16 or bfloat16
    ct_device device();    // mostly the CPU, sometimes CUDA or a bad device
    int32_t flag() { return (int32_t)(u8() & 1); }
    int32_t int32();       // small or edge int32 (capacities, counts, ndim)
    // n values (n from the input, at most max_n), each from size() or dim().
    std::vector<int64_t> sizes(int max_n);
    std::vector<int64_t> dims(int max_n);
};

// Never a valid handle of any kind: out-parameters are pre-filled with it.
extern ct_tensor const kSentinel;

// The handles one input works on. Each slot owns one reference; tensors too large to use cheaply are
// released at once (after their metadata is checked), so no later call does unbounded work.
struct Pool {
    static constexpr int kSlots = 8;
    static constexpr int64_t kKeepNumel = 1 << 12;
    ct_tensor slot[kSlots] = {};
    ct_tensor stale = nullptr;      // a handle released earlier (never live again: handles carry a generation)
    ct_generator gen = nullptr;     // a generator (also passed where a tensor is expected: wrong kind)
    // A tensor argument: a slot (maybe empty), NULL, a released, wrong-kind or made-up handle. *ok is cleared
    // when the result is not a live tensor (the call must then fail).
    ct_tensor pick(Input& in, bool* ok);
    // A live tensor from a slot (NULL when the chosen slot is empty).
    ct_tensor pick_live(Input& in);
    // Takes over t's reference (checks its metadata first).
    void keep(Input& in, const char* op, ct_tensor t);
    void drop(int i);
    void clear();
    int64_t handles() const;  // distinct live handles held (tensors and the generator)
};

// The contract after a call: st is CT_OK unless must_fail; a failure has a known status other than
// CT_ERR_INTERNAL, ct_last_status() == st and a non-empty UTF-8 message that names an op ("op: ...").
void check_status(const char* op, ct_status st, bool must_fail);
// A result tensor: consistent rank, sizes, strides, numel; its first and last elements lie inside its storage
// (ASan checks the reads); small CPU tensors copy to host.
void check_tensor(const char* op, ct_tensor t);
// ct_live_handles() equals the handles the target holds plus extra.
void check_live(const char* op, const Pool& p, int64_t extra = 0);
// 1 when text is valid UTF-8.
bool valid_utf8(const char* text, size_t n);

// Runs one call returning n tensors through outs (outs[i] pre-filled with kSentinel); null_mask bit i says
// out i was passed as NULL. Checks the contract and keeps the results. Returns the status.
template <class F> ct_status call(Input& in, Pool& p, const char* op, bool must_fail, int n, unsigned null_mask, F f) {
    ct_tensor outs[8] = {kSentinel, kSentinel, kSentinel, kSentinel, kSentinel, kSentinel, kSentinel, kSentinel};
    ct_status st = f(outs);
    check_status(op, st, must_fail);
    for (int i = 0; i < n; ++i) {
        if (null_mask & (1u << i)) continue;
        if (st != CT_OK) {
            if (outs[i] != kSentinel) die(op, "an out-parameter was written by a failed call");
            continue;
        }
        if (outs[i] == kSentinel || outs[i] == nullptr) die(op, "a successful call left a result NULL or unwritten");
        p.keep(in, op, outs[i]);
    }
    return st;
}

// Library set-up shared by the targets (memory limit, one thread): called from LLVMFuzzerInitialize.
void init_library();

// The actions both API targets share (fuzz_calls.cpp): create a tensor (any shape, dtype, device, from data,
// from a fuzzer-owned blob), and call one op of abi/ops.tsv with arguments from the input.
void create_tensor(Input& in, Pool& p);
void call_op(Input& in, Pool& p);
// The toolbox ops of issue 14 (fuzz_toolbox.cpp), one of call_op's families.
void toolbox_ops(Input& in, Pool& p, uint8_t which);
// The normalisation layers of issue 14 (fuzz_norms.cpp), one of call_op's families.
void norm_ops(Input& in, Pool& p, uint8_t which);
// The rest of the toolbox (fuzz_toolbox_stats.cpp): repeat_interleave, meshgrid, median, quantile, cdist.
void toolbox_stats_ops(Input& in, Pool& p, uint8_t which);
// Mixed precision (fuzz_amp.cpp, issue 15): the gradient scaler steps and ops inside an autocast region.
void amp_ops(Input& in, Pool& p, uint8_t which);
// The complex64 / complex128 ops of issue 15 (fuzz_complex.cpp), reached from toolbox_ops.
void complex_ops(Input& in, Pool& p, uint8_t which);
// The unary math ops of issue 14 (fuzz_unary_math.cpp) on pool tensor a (ok: a is valid), from elementwise.
void unary_math_ops(Input& in, Pool& p, ct_tensor a, bool ok);
// issue 14's last reductions and products (fuzz_more_ops.cpp), reached from toolbox_ops.
void more_ops(Input& in, Pool& p, uint8_t which);
// ct_wrapped_scalar_bool (issue 15) and the ops against it (fuzz_bool_scalar.cpp), reached from toolbox_ops.
void bool_scalar_ops(Input& in, Pool& p, uint8_t which);
// Frees the blobs handed to ct_tensor_from_blob; aborts when a deleter did not run exactly once.
void finish_blobs();

}  // namespace fz
