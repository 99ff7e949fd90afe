// fuzz_common.cpp - the input reader, the handle pool and the contract checks shared by the fuzz targets.
#include "fuzz_common.h"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace fz {

ct_tensor const kSentinel = (ct_tensor)(uintptr_t)0x5e17e1005e17e1ull;  // odd generation: never live

void die(const char* op, const char* what, const char* detail) {
    std::fprintf(stderr, "ctensor contract broken in %s: %s%s%s\n", op, what, *detail ? ": " : "", detail);
    std::fflush(stderr);
    std::abort();
}

// ---- Input ----

uint32_t Input::u32() {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v = v << 8 | u8();
    return v;
}
uint64_t Input::u64() { return (uint64_t)u32() << 32 | u32(); }

int64_t Input::edge() {
    static const int64_t kEdges[] = {0, 1, -1, 2, 3, 4, 7, 8, 255, 256, 65536, INT32_MAX, (int64_t)1 << 31,
                                     (int64_t)1 << 32, (int64_t)1 << 40, -((int64_t)1 << 40), (int64_t)1 << 62,
                                     INT64_MAX, INT64_MIN, INT64_MAX / 2, INT64_MIN + 1, -2, 1000003};
    uint8_t b = u8();
    if (b < 0xf0) return kEdges[b % (sizeof kEdges / sizeof kEdges[0])];
    return (int64_t)u64();
}
int64_t Input::dim() {
    uint8_t b = u8();
    return b < 0xe0 ? (int64_t)(b % 9) - 4 : edge();
}
int64_t Input::size() {
    uint8_t b = u8();
    if (b < 0xd0) return b % 5;
    if (b < 0xd8) return -1;
    return edge();
}
int64_t Input::count() {
    uint8_t b = u8();
    return b < 0xe0 ? b % 7 : edge();
}
int32_t Input::int32() {
    uint8_t b = u8();
    if (b < 0xe0) return (int32_t)(b % 9) - 1;
    int64_t e = edge();
    return (int32_t)(e > INT32_MAX ? INT32_MAX : e < INT32_MIN ? INT32_MIN : e);
}
double Input::scalar() {
    static const double kValues[] = {0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -0.0, 256.0, 300.0, -2.5,
                                     std::numeric_limits<double>::quiet_NaN(), INFINITY, -INFINITY, 1e300, -1e300,
                                     9223372036854775808.0, -9223372036854775808.0, 1e-300, 0.1, 4294967296.0};
    uint8_t b = u8();
    if (b < 0xf0) return kValues[b % (sizeof kValues / sizeof kValues[0])];
    uint64_t bits = u64();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
}
ct_dtype Input::dtype() {
    uint8_t b = u8();
    if (b < 0xf8) return (ct_dtype)(b % 12);  // every dtype of the enum, CT_FLOAT32 .. CT_COMPLEX128
    static const ct_dtype kBad[] = {-1, 12, 13, 100, INT32_MIN, INT32_MAX, 42, -2};
    return kBad[b % 8];
}
ct_dtype Input::float_dtype() {
    static const ct_dtype kFloat[] = {CT_FLOAT32, CT_FLOAT64, CT_FLOAT16, CT_BFLOAT16};
    return kFloat[u8() % 4];
}
ct_device Input::device() {
    uint8_t b = u8();
    if (b < 0xf0) return ct_cpu();
    static const ct_device kOther[] = {{CT_DEVICE_CUDA, 0}, {CT_DEVICE_CUDA, 1}, {CT_DEVICE_CPU, 1}, {0, 0},
                                       {99, 0}, {CT_DEVICE_CPU, -1}, {CT_DEVICE_CUDA, -1}, {-1, 0}};
    return kOther[b % 8];
}
std::vector<int64_t> Input::sizes(int max_n) {
    int n = u8() % (max_n + 1);
    std::vector<int64_t> v(n);
    for (auto& x : v) x = size();
    return v;
}
std::vector<int64_t> Input::dims(int max_n) {
    int n = u8() % (max_n + 1);
    std::vector<int64_t> v(n);
    for (auto& x : v) x = dim();
    return v;
}

// ---- Pool ----

// CT_FUZZ_TRACE: besides every checked call, the slots picked and kept (to rebuild a finding as a test).
static bool tracing() {
    static const bool trace = std::getenv("CT_FUZZ_TRACE") != nullptr;
    return trace;
}

ct_tensor Pool::pick(Input& in, bool* ok) {
    uint8_t b = in.u8() % 36;
    ct_tensor t;
    if (tracing()) std::fprintf(stderr, "[fuzz]   pick %s%d\n", b < 32 ? "slot " : "special ", b < 32 ? b % kSlots : b);
    if (b < 32) {
        t = slot[b % kSlots];
        if (!t) *ok = false;
        return t;
    }
    *ok = false;
    switch (b) {
    case 32: return nullptr;
    case 33: return stale;
    case 34: return (ct_tensor)gen;                        // a live handle of another kind
    default: return (ct_tensor)(uintptr_t)(in.u64() | (1ull << 32));  // made up; odd generation: never live
    }
}
ct_tensor Pool::pick_live(Input& in) { return slot[in.u8() % kSlots]; }

void Pool::keep(Input& in, const char* op, ct_tensor t) {
    check_tensor(op, t);
    int64_t numel = 0;
    if (ct_tensor_numel(t, &numel) != CT_OK) die(op, "numel of a result failed");
    if (numel > kKeepNumel) {  // an expanded or large result: checked above, too big to compute with
        ct_tensor_release(t);
        stale = t;
        return;
    }
    int i = in.u8() % kSlots;
    if (tracing()) std::fprintf(stderr, "[fuzz]   keep %s result in slot %d\n", op, i);
    drop(i);
    slot[i] = t;
}
void Pool::drop(int i) {
    if (!slot[i]) return;
    if (tracing()) std::fprintf(stderr, "[fuzz]   release slot %d\n", i);
    stale = slot[i];
    ct_tensor_release(slot[i]);
    slot[i] = nullptr;
    bool still = false;  // the same handle may sit in two slots (an op may return its input)
    for (ct_tensor t : slot) still |= t == stale;
    if (still) stale = nullptr;
}
void Pool::clear() {
    for (int i = 0; i < kSlots; ++i) drop(i);
    ct_generator_release(gen);
    gen = nullptr;
}
int64_t Pool::handles() const {
    int64_t n = gen ? 1 : 0;
    for (int i = 0; i < kSlots; ++i) {
        if (!slot[i]) continue;
        bool seen = false;
        for (int j = 0; j < i; ++j) seen |= slot[j] == slot[i];
        n += !seen;
    }
    return n;
}

// ---- checks ----

bool valid_utf8(const char* text, size_t n) {
    const unsigned char* s = (const unsigned char*)text;
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        int len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (!len || i + len > n) return false;
        uint32_t cp = len == 1 ? c : c & (0x7f >> len);
        for (int k = 1; k < len; ++k) {
            if ((s[i + k] & 0xc0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3f);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return false;
        i += len;
    }
    return true;
}

int64_t g_calls = 0;

void check_status(const char* op, ct_status st, bool must_fail) {
    ++g_calls;
    if (tracing()) std::fprintf(stderr, "[fuzz] %s -> %s %s\n", op, ct_status_name(st), st ? ct_last_error() : "");
    if (st == CT_OK) {
        if (must_fail) die(op, "accepted a NULL, released or wrong-kind handle");
        return;
    }
    const char* msg = ct_last_error();
    if (std::strcmp(ct_status_name(st), "CT_ERR_UNKNOWN") == 0) die(op, "returned an unknown status", msg);
    if (st == CT_ERR_INTERNAL) die(op, "CT_ERR_INTERNAL (a bug by definition)", msg);
    if (ct_last_status() != st) die(op, "ct_last_status() differs from the returned status", msg);
    if (!msg) die(op, "ct_last_error() is NULL after a failure");
    size_t n = std::strlen(msg);
    if (n == 0) die(op, "empty message after a failure");
    if (n > (1u << 20)) die(op, "a message longer than 1 MiB");
    if (!valid_utf8(msg, n)) die(op, "the message is not valid UTF-8");
    const char* colon = std::strstr(msg, ": ");
    if (!colon || colon == msg) die(op, "the message names no op (\"op: ...\")", msg);
}

void check_tensor(const char* op, ct_tensor t) {
    int32_t nd = -7;
    if (ct_tensor_ndim(t, &nd) != CT_OK || nd < 0) die(op, "a result's ndim is unreadable or negative");
    std::vector<int64_t> sizes(nd + 1, -7), strides(nd + 1, -7);
    int32_t n1 = -7, n2 = -7;
    if (ct_tensor_shape(t, sizes.data(), nd, &n1) != CT_OK || n1 != nd) die(op, "shape() disagrees with ndim()");
    if (ct_tensor_strides(t, strides.data(), nd, &n2) != CT_OK || n2 != nd) die(op, "strides() disagrees with ndim()");
    if (sizes[nd] != -7 || strides[nd] != -7) die(op, "shape()/strides() wrote past their capacity");
    int64_t numel = -1, offset = -1;
    ct_dtype dt = -1;
    ct_device dev = {-1, -1};
    if (ct_tensor_numel(t, &numel) != CT_OK || ct_tensor_offset(t, &offset) != CT_OK ||
        ct_tensor_dtype(t, &dt) != CT_OK || ct_tensor_device(t, &dev) != CT_OK)
        die(op, "a metadata getter failed on a result");
    __int128 prod = 1;
    bool empty = false;
    for (int d = 0; d < nd; ++d) {
        if (sizes[d] < 0) die(op, "a result has a negative size");
        empty |= sizes[d] == 0;
    }
    for (int d = 0; d < nd && !empty; ++d) {
        prod *= sizes[d];
        if (prod > INT64_MAX) die(op, "a result's element count does not fit int64");
    }
    if (empty) prod = 0;
    char detail[96];
    std::snprintf(detail, sizeof detail, "numel %lld, product of sizes %lld", (long long)numel, (long long)prod);
    if ((__int128)numel != prod) die(op, "numel differs from the product of the sizes", detail);
    if (offset < 0) die(op, "a negative storage offset");
    int32_t item = ct_dtype_size(dt);
    if (item <= 0) die(op, "a result has an unknown dtype");
    if (dev.type != CT_DEVICE_CPU && dev.type != CT_DEVICE_CUDA) die(op, "a result on an unknown device type");
    if (numel == 0 || dev.type != CT_DEVICE_CPU) return;
    __int128 lo = offset, hi = offset;
    for (int d = 0; d < nd; ++d) {
        __int128 ext = (__int128)(sizes[d] - 1) * strides[d];
        (ext < 0 ? lo : hi) += ext;
    }
    if (lo < 0) die(op, "a view reaches before the start of its storage");
    if (hi > INT64_MAX / 16) die(op, "a view's last element lies beyond any storage");
    void* data = nullptr;
    if (ct_tensor_data_ptr(t, &data) != CT_OK || !data) die(op, "data_ptr of a non-empty CPU result");
    const volatile unsigned char* base = (const unsigned char*)data - (int64_t)offset * item;
    unsigned char sink = base[(int64_t)lo * item];                 // ASan: inside the allocation?
    sink ^= base[(int64_t)hi * item + item - 1];
    (void)sink;
    if (numel <= 4096) {
        size_t nbytes = (size_t)numel * (size_t)item;
        void* host = std::malloc(nbytes);
        ct_status st = ct_tensor_copy_to_host(t, host, (int64_t)nbytes);
        std::free(host);
        if (st != CT_OK) die(op, "copy_to_host of a small CPU result failed", ct_last_error());
    }
}

void check_live(const char* op, const Pool& p, int64_t extra) {
    int64_t live = ct_live_handles(), want = p.handles() + extra;
    if (live != want) {
        char detail[96];
        std::snprintf(detail, sizeof detail, "ct_live_handles() = %lld, the target holds %lld", (long long)live,
                      (long long)want);
        die(op, "live handle count differs (a leaked or lost handle)", detail);
    }
}

void init_library() {
    std::atexit([] { std::fprintf(stderr, "ctensor calls checked: %lld\n", (long long)g_calls); });
    if (ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR) != CT_OK) die("init", "ABI check failed", ct_last_error());
    // A legitimately large request must fail with CT_ERR_OUT_OF_MEMORY instead of exhausting the machine.
    if (ct_set_cpu_memory_limit((int64_t)32 << 20) != CT_OK) die("init", "ct_set_cpu_memory_limit failed");
    ct_set_num_threads(1);
}

}  // namespace fz
