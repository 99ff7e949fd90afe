// device_gemm.cpp - matmul of CUDA tensors on cuBLAS (see device_gemm.h): each operand is passed as is when one
// of its matrix strides is 1, else packed; batches with evenly spaced operands become one strided-batched call.
#include "ops/device_gemm.h"
#include <algorithm>
#include "core/backend.h"
#include "ops/device_ops.h"
#include "ops/ops.h"

namespace ct {
namespace {

// A rows x cols matrix as row-major BLAS sees it: transposed or not, with leading dim ld.
struct GemmOperand {
    bool trans = false;
    int64_t ld = 1;
};

bool gemm_operand(int64_t rows, int64_t cols, int64_t rs, int64_t cs, GemmOperand& op) {
    if ((cols == 1 || cs == 1) && (rows == 1 || rs >= std::max<int64_t>(1, cols))) {
        op = {false, rows == 1 ? std::max<int64_t>(1, cols) : rs};
        return true;
    }
    if ((rows == 1 || rs == 1) && (cols == 1 || cs >= std::max<int64_t>(1, rows))) {
        op = {true, cols == 1 ? std::max<int64_t>(1, rows) : cs};
        return true;
    }
    return false;
}

// t's matrix (last two dims) as a GemmOperand, packing t into a contiguous copy when its strides do not fit.
GemmOperand operand_of(Tensor& t) {
    const int64_t r = t.size(-2), c = t.size(-1);
    GemmOperand op;
    if (gemm_operand(r, c, t.stride(-2), t.stride(-1), op)) return op;
    Tensor packed = empty_tensor(t.sizes(), t.dtype(), t.device());
    copy_into(packed, t);
    t = packed;
    gemm_operand(r, c, c, 1, op);
    return op;
}

// Element offset of every batch of t (row-major over bs; broadcast dims of t contribute nothing).
std::vector<int64_t> batch_offsets(const Tensor& t, const Shape& bs, int64_t batches) {
    const int64_t tb = t.dim() - 2, nb = (int64_t)bs.size();
    std::vector<int64_t> off((size_t)batches, 0);
    for (int64_t i = 0; i < batches; ++i) {
        int64_t rest = i, o = 0;
        for (int64_t d = nb - 1; d >= 0; --d) {
            const int64_t td = d - (nb - tb), idx = rest % bs[d];
            rest /= bs[d];
            if (td >= 0 && t.sizes()[td] != 1) o += idx * t.strides()[td];
        }
        off[(size_t)i] = o;
    }
    return off;
}

// The common step of offsets when they are evenly spaced (a strided batch), else -1.
int64_t even_step(const std::vector<int64_t>& off) {
    const int64_t step = off.size() > 1 ? off[1] - off[0] : 0;
    if (step < 0) return -1;
    for (size_t i = 1; i < off.size(); ++i)
        if (off[i] - off[i - 1] != step) return -1;
    return step;
}

}  // namespace

void cuda_matmul_into(const char* op, const Tensor& out, Tensor a, Tensor b, const Shape& bs, double beta) {
    const int64_t m = a.size(-2), k = a.size(-1), n = b.size(-1);
    if (out.numel() == 0) return;
    if (!is_floating(a.dtype()))  // float16 / bfloat16: GemmEx with float32 accumulation (Note [Half on CUDA])
        fail(CT_ERR_NOT_SUPPORTED, op, ": ", dtype_name(a.dtype()),
             " tensors are not supported on cuda (cuBLAS multiplies float32, float64, float16 and bfloat16)");
    if (k == 0) {  // an empty sum: out = beta * out
        if (beta == 0.0) fill_into(out, 0.0);
        else if (beta != 1.0) copy_into(out, mul_scalar(out, beta));
        return;
    }
    const GemmOperand oa = operand_of(a), ob = operand_of(b);
    int64_t batches = 1;
    for (int64_t s : bs) batches *= s;
    std::vector<int64_t> offa = batch_offsets(a, bs, batches), offb = batch_offsets(b, bs, batches);
    const int64_t step_a = even_step(offa), step_b = even_step(offb);
    const int32_t dev = out.device().index;
    const ct_cuda_backend& be = cuda_device_backend(op, dev);
    char *pa = static_cast<char*>(a.device_data()), *pb = static_cast<char*>(b.device_data());
    char* pc = static_cast<char*>(out.device_data());
    const int64_t item = (int64_t)out.itemsize();
    auto call = [&](int64_t first, int64_t count, int64_t sa, int64_t sb) {
        cuda_check(op, be.gemm(dev, (int32_t)a.dtype(), oa.trans, ob.trans, m, n, k, 1.0,
                               pa + offa[(size_t)first] * item, oa.ld, sa, pb + offb[(size_t)first] * item, ob.ld,
                               sb, beta, pc + first * m * n * item, std::max<int64_t>(n, 1), m * n, count));
    };
    if (step_a >= 0 && step_b >= 0) return call(0, batches, step_a, step_b);  // one strided-batched call
    for (int64_t i = 0; i < batches; ++i) call(i, 1, 0, 0);
}

}  // namespace ct
