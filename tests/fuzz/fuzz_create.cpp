// fuzz_create.cpp - the creation action of the fuzz targets: every creation op of abi/ops.tsv with any shape
// (zero, negative, huge, overflowing), dtype and device, host data and fuzzer-owned blobs with tracked deleters.
#include <cstdlib>
#include <cstring>
#include <vector>
#include "fuzz_common.h"

namespace fz {
namespace {

constexpr int64_t kLimitBytes = (int64_t)32 << 20;  // the memory limit set by init_library

// What a shape asks for: ok (small enough to make), skip (valid but slow), refuse (the library must fail:
// a negative size, or an element count past int64), too big (valid, but past the memory limit).
enum class Want { Make, Skip, Refuse, TooBig };
Want judge(const std::vector<int64_t>& shape, int32_t item) {
    __int128 n = 1;
    bool empty = false;
    for (int64_t s : shape) {
        if (s < 0) return Want::Refuse;
        empty |= s == 0;
    }
    if (empty) return Want::Make;
    for (int64_t s : shape) {
        n *= s;
        if (n > INT64_MAX) return Want::Refuse;  // the element count does not fit int64
    }
    if (item > 0 && n * item > kLimitBytes) return Want::TooBig;
    return n <= Pool::kKeepNumel ? Want::Make : Want::Skip;
}

// A blob handed to ct_tensor_from_blob and the number of times its deleter ran.
struct Blob {
    void* mem;
    void* data;
    int calls = 0;
};
std::vector<Blob*> g_blobs;
void blob_deleter(void* data, void* ctx) {
    Blob* b = (Blob*)ctx;
    if (data != b->data) die("tensor_from_blob", "the deleter got another data pointer than the one passed");
    ++b->calls;
}

bool device_unusable(ct_device d) { return d.type != CT_DEVICE_CPU && ct_cuda_device_count() == 0; }

void make_from_blob(Input& in, Pool& p) {
    std::vector<int64_t> shape = in.sizes(4);
    ct_dtype dt = in.dtype();
    int32_t item = ct_dtype_size(dt);
    int mode = in.u8() % 4;  // 0: contiguous (strides NULL), 1: strides from the input, 2: NULL data, 3: misaligned
    std::vector<int64_t> strides(shape.size());
    for (auto& s : strides) s = mode == 1 ? in.size() : 0;
    Want w = judge(shape, item);
    if (w == Want::Skip || w == Want::TooBig) return;  // valid: the blob would have to be that large
    // Elements reachable from data. An empty shape reads nothing (its other sizes may be huge); a non-empty Make
    // shape has at most kKeepNumel elements, so each size is small and 128 bits hold every sum of size * stride.
    bool empty = false;
    for (int64_t s : shape) empty |= s == 0;
    __int128 extent = 1;
    int64_t run = 1;
    bool bad_stride = false;
    if (w == Want::Make && !empty) {
        for (size_t d = shape.size(); d-- > 0;) {
            int64_t st = mode == 1 ? strides[d] : run;
            extent += (__int128)(shape[d] - 1) * st;
            run *= shape[d];
            bad_stride |= st < 0 && shape[d] > 0;
        }
        if (!bad_stride && extent > Pool::kKeepNumel * 4) return;  // valid but large
    }
    size_t bytes = (w == Want::Make && !empty && !bad_stride && item > 0) ? (size_t)extent * item + 8 : 8;
    Blob* b = new Blob;
    b->mem = std::malloc(bytes);
    for (size_t k = 0; k < bytes; ++k) ((unsigned char*)b->mem)[k] = in.u8();  // any bytes: bool 7, NaN, ...
    b->data = mode == 2 ? nullptr : mode == 3 ? (char*)b->mem + 1 : b->mem;
    ct_device dev = in.device();
    bool must_fail = w == Want::Refuse || (mode == 2 && !empty) || (mode == 3 && item > 1 && !empty) ||
                     (bad_stride && !empty) || item <= 0 ||
                     device_unusable(dev);
    ct_status st = call(in, p, "tensor_from_blob", must_fail, 1, 0, [&](ct_tensor* o) {
        return ct_tensor_from_blob(b->data, shape.data(), mode == 1 ? strides.data() : nullptr,
                                   (int32_t)shape.size(), dt, dev, blob_deleter, b, o);
    });
    if (st != CT_OK) {
        if (b->calls != 0) die("tensor_from_blob", "the deleter ran although the call failed");
        std::free(b->mem);
        delete b;
        return;
    }
    g_blobs.push_back(b);
}

}  // namespace

void finish_blobs() {
    for (Blob* b : g_blobs) {
        if (b->calls != 1) die("tensor_from_blob", "a blob's deleter did not run exactly once after every handle was released");
        std::free(b->mem);
        delete b;
    }
    g_blobs.clear();
}

void create_tensor(Input& in, Pool& p) {
    uint8_t which = in.u8() % 14;
    if (which == 12) return make_from_blob(in, p);
    if (which == 11) {  // *_like and bernoulli of a pool tensor
        bool ok = true;
        ct_tensor t = p.pick(in, &ok);
        double v = in.scalar();
        switch (in.u8() % 5) {
        case 0: call(in, p, "empty_like", !ok, 1, 0, [&](ct_tensor* o) { return ct_empty_like(t, o); }); break;
        case 1: call(in, p, "zeros_like", !ok, 1, 0, [&](ct_tensor* o) { return ct_zeros_like(t, o); }); break;
        case 2: call(in, p, "ones_like", !ok, 1, 0, [&](ct_tensor* o) { return ct_ones_like(t, o); }); break;
        case 3: call(in, p, "full_like", !ok, 1, 0, [&](ct_tensor* o) { return ct_full_like(t, v, o); }); break;
        default:
            call(in, p, "bernoulli", !ok, 1, 0, [&](ct_tensor* o) { return ct_bernoulli(t, (in.u8() & 1) ? p.gen : nullptr, o); });
        }
        return;
    }
    std::vector<int64_t> shape = in.sizes(5);
    ct_dtype dt = in.dtype();
    ct_device dev = in.device();
    bool null_shape = !shape.empty() && in.u8() == 0xff;
    Want w = judge(shape, ct_dtype_size(dt) > 0 ? ct_dtype_size(dt) : 1);
    bool must_fail = w == Want::Refuse || w == Want::TooBig || null_shape || ct_dtype_size(dt) == 0 || device_unusable(dev);
    if (w == Want::Skip) return;
    const int64_t* sp = null_shape ? nullptr : shape.data();
    int32_t nd = (int32_t)shape.size();
    ct_generator g = (in.u8() & 1) ? p.gen : nullptr;
    switch (which) {
    case 0: call(in, p, "empty", must_fail, 1, 0, [&](ct_tensor* o) { return ct_empty(sp, nd, dt, dev, o); }); break;
    case 1: call(in, p, "zeros", must_fail, 1, 0, [&](ct_tensor* o) { return ct_zeros(sp, nd, dt, dev, o); }); break;
    case 2: call(in, p, "ones", must_fail, 1, 0, [&](ct_tensor* o) { return ct_ones(sp, nd, dt, dev, o); }); break;
    case 3: {
        double v = in.scalar();
        call(in, p, "full", must_fail, 1, 0, [&](ct_tensor* o) { return ct_full(sp, nd, v, dt, dev, o); });
        break;
    }
    case 4: call(in, p, "rand", must_fail, 1, 0, [&](ct_tensor* o) { return ct_rand(sp, nd, dt, dev, g, o); }); break;
    case 5: call(in, p, "randn", must_fail, 1, 0, [&](ct_tensor* o) { return ct_randn(sp, nd, dt, dev, g, o); }); break;
    case 6: {
        int64_t lo = in.edge(), hi = in.edge();
        call(in, p, "randint", must_fail, 1, 0, [&](ct_tensor* o) { return ct_randint(lo, hi, sp, nd, dt, dev, g, o); });
        break;
    }
    case 7: {
        double v = in.scalar();
        if (in.u8() & 1)
            call(in, p, "scalar_tensor", ct_dtype_size(dt) == 0 || device_unusable(dev), 1, 0,
                 [&](ct_tensor* o) { return ct_scalar_tensor(v, dt, dev, o); });
        else
            call(in, p, "wrapped_scalar", false, 1, 0, [&](ct_tensor* o) { return ct_wrapped_scalar(v, in.int32(), o); });
        break;
    }
    case 8: {  // counts derived from doubles: the library must refuse what does not fit the memory limit
        double a = in.scalar(), b = in.scalar(), c = in.scalar();
        if (in.u8() & 1) {
            double n = (b - a) / c;
            if (n > 4096 && n < 1e7) return;  // valid but slow
            call(in, p, "arange", false, 1, 0, [&](ct_tensor* o) { return ct_arange(a, b, c, dt, dev, o); });
        } else {
            int64_t steps = in.edge();
            if (steps > 4096 && steps < 1e7) return;
            call(in, p, "linspace", false, 1, 0, [&](ct_tensor* o) { return ct_linspace(a, b, steps, dt, dev, o); });
        }
        break;
    }
    case 9: {
        int64_t n = in.size(), m = in.edge();
        if (in.u8() & 1) {
            if (judge({n, m}, 8) == Want::Skip) return;
            call(in, p, "eye", false, 1, 0, [&](ct_tensor* o) { return ct_eye(n, m, dt, dev, o); });
        } else {
            if (m > 4096 && m < 1e7) return;
            call(in, p, "randperm", false, 1, 0, [&](ct_tensor* o) { return ct_randperm(m, dev, g, o); });
        }
        break;
    }
    default: {  // from_data: bytes of the input as the elements; sometimes a wrong byte count
        int32_t item = ct_dtype_size(dt) > 0 ? ct_dtype_size(dt) : 1;
        int64_t numel = 1;
        for (int64_t s : shape) numel = s == 0 || w != Want::Make ? 0 : numel;  // an empty shape may hold huge sizes
        for (int64_t s : shape) numel *= numel ? s : 1;
        int64_t nbytes = numel * item;
        uint8_t skew = in.u8();
        if (skew >= 0xf0) nbytes += (skew & 7) == 4 ? 1 : (int64_t)(skew & 7) - 4, must_fail = true;
        std::vector<unsigned char> buf((size_t)(nbytes > 0 ? nbytes : 0) + 1);
        for (auto& c : buf) c = in.u8();
        bool null_data = in.u8() == 0xff;
        if (null_data && nbytes > 0) must_fail = true;
        call(in, p, "tensor_from_data", must_fail, 1, 0, [&](ct_tensor* o) {
            return ct_tensor_from_data(null_data ? nullptr : buf.data(), nbytes, sp, nd, dt, dev, o);
        });
    }
    }
}

}  // namespace fz
