// bench_cuda.cpp - GPU benchmark: ctensor's elementwise ops in GB/s against a device-to-device cudaMemcpy
// (the bandwidth ceiling), ctensor's matmul in TFLOP/s against calling cuBLAS directly, and one MLP training
// step (forward, cross entropy, backward, Adam) on CUDA against the same step on the CPU; then float16 / bfloat16
// against float32 (issue 15): ct_add in GB/s and ct_matmul (cuBLAS GemmEx, float32 accumulation) in TFLOP/s,
// reductions and softmax native against the float32-copy fallback;
// last torch.linalg's solve / svd / eigh on cuSOLVER against LAPACK on the CPU (batch 16 of 256 x 256).
// Usage: bench_cuda [elements (default 2^26)] [matmul size (default 4096)] [iterations (default 20)]
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include "ctensor.h"

#pragma weak ct_matmul  // resolved when the library has it; the benchmark reports it as missing otherwise

namespace {

using Clock = std::chrono::steady_clock;

void check(ct_status st, const char* what) {
    if (st != CT_OK) {
        std::fprintf(stderr, "%s failed: %s: %s\n", what, ct_status_name(st), ct_last_error());
        std::exit(1);
    }
}

// Mean seconds per call of fn over iters calls, after one warm-up call; sync() waits for the GPU.
double time_per_call(int iters, const std::function<void()>& fn, const std::function<void()>& sync) {
    fn();
    sync();
    auto t0 = Clock::now();
    for (int i = 0; i < iters; ++i) fn();
    sync();
    return std::chrono::duration<double>(Clock::now() - t0).count() / iters;
}

ct_tensor full(std::initializer_list<int64_t> shape, double v, ct_dtype dt) {
    ct_tensor t = nullptr;
    check(ct_full(shape.begin(), (int32_t)shape.size(), v, dt, ct_cuda(0), &t), "full");
    return t;
}

void sync_ct() { check(ct_cuda_synchronize(0), "synchronize"); }

void bench_elementwise(int64_t n, int iters) {
    std::printf("elementwise, %lld float32 elements (GB/s = bytes read + written per second)\n", (long long)n);
    void *src = nullptr, *dst = nullptr;
    size_t bytes = (size_t)n * 4;
    if (cudaMalloc(&src, bytes) != cudaSuccess || cudaMalloc(&dst, bytes) != cudaSuccess) {
        std::fprintf(stderr, "cudaMalloc of %zu bytes failed\n", bytes);
        std::exit(1);
    }
    double t = time_per_call(iters, [&] { cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, 0); },
                             [] { cudaDeviceSynchronize(); });
    double ceiling = 2.0 * bytes / t / 1e9;
    std::printf("  %-34s %8.1f GB/s\n", "cudaMemcpy device-to-device", ceiling);
    cudaFree(src);
    cudaFree(dst);

    ct_tensor a = full({n}, 1.5, CT_FLOAT32), b = full({n}, 2.5, CT_FLOAT32);
    ct_tensor rows = full({n / 1024, 1024}, 1.0, CT_FLOAT32), row = full({1024}, 2.0, CT_FLOAT32);
    struct Case {
        const char* name;
        std::function<ct_status(ct_tensor*)> op;
        double bytes;
    } cases[] = {
        {"ct_add (contiguous)", [&](ct_tensor* o) { return ct_add(a, b, 1.0, o); }, 3.0 * bytes},
        {"ct_mul (contiguous)", [&](ct_tensor* o) { return ct_mul(a, b, o); }, 3.0 * bytes},
        {"ct_add (row broadcast)", [&](ct_tensor* o) { return ct_add(rows, row, 1.0, o); }, 2.0 * bytes},
        {"ct_lt (bool output)", [&](ct_tensor* o) { return ct_lt(a, b, o); }, 2.25 * bytes},
    };
    for (auto& c : cases) {
        double tc = time_per_call(iters, [&] {
            ct_tensor out = nullptr;
            check(c.op(&out), c.name);
            ct_tensor_release(out);  // back to the caching allocator: the next call reuses the block
        }, sync_ct);
        double gbs = c.bytes / tc / 1e9;
        std::printf("  %-34s %8.1f GB/s  (%3.0f%% of the copy)\n", c.name, gbs, 100.0 * gbs / ceiling);
    }
    for (ct_tensor t : {a, b, rows, row}) ct_tensor_release(t);
}

void bench_matmul(int64_t m, int iters) {
    std::printf("matmul, %lld x %lld x %lld float32 (TFLOP/s)\n", (long long)m, (long long)m, (long long)m);
    double flops = 2.0 * (double)m * m * m;
    cublasHandle_t h;
    cublasCreate(&h);
    float *A, *B, *C;
    size_t bytes = (size_t)(m * m) * 4;
    cudaMalloc((void**)&A, bytes);
    cudaMalloc((void**)&B, bytes);
    cudaMalloc((void**)&C, bytes);
    cudaMemset(A, 0, bytes);
    cudaMemset(B, 0, bytes);
    const float one = 1, zero = 0;
    double t = time_per_call(iters, [&] {
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)m, (int)m, (int)m, &one, A, (int)m, B, (int)m, &zero, C, (int)m);
    }, [] { cudaDeviceSynchronize(); });
    double direct = flops / t / 1e12;
    std::printf("  %-34s %8.2f TFLOP/s\n", "cublasSgemm directly", direct);
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    cublasDestroy(h);

    if (!&ct_matmul) {
        std::printf("  %-34s skipped: this libctensor has no ct_matmul\n", "ct_matmul");
        return;
    }
    ct_tensor a = full({m, m}, 0.5, CT_FLOAT32), b = full({m, m}, 0.25, CT_FLOAT32), out = nullptr;
    ct_status st = ct_matmul(a, b, &out);
    if (st != CT_OK) {
        std::printf("  %-34s skipped: %s\n", "ct_matmul", ct_last_error());
    } else {
        ct_tensor_release(out);
        double tc = time_per_call(iters, [&] {
            ct_tensor o = nullptr;
            check(ct_matmul(a, b, &o), "matmul");
            ct_tensor_release(o);
        }, sync_ct);
        double tf = flops / tc / 1e12;
        std::printf("  %-34s %8.2f TFLOP/s  (%3.0f%% of cuBLAS)\n", "ct_matmul", tf, 100.0 * tf / direct);
    }
    ct_tensor_release(a);
    ct_tensor_release(b);
}

// An MLP 784 -> 1024 -> 1024 -> 10 (ReLU) on device d: one training step with cross entropy and Adam.
struct Mlp {
    ct_device d;
    ct_tensor x = nullptr, y = nullptr, zero = nullptr, params[6] = {};
    ct_optimizer opt = nullptr;
    Mlp(ct_device dev, int64_t batch) : d(dev) {
        const int64_t sizes[4] = {784, 1024, 1024, 10};
        ct_generator gen = nullptr;
        check(ct_generator_new(7, &gen), "generator");
        for (int l = 0; l < 3; ++l) {
            const int64_t ws[2] = {sizes[l + 1], sizes[l]}, bs[1] = {sizes[l + 1]};
            check(ct_randn(ws, 2, CT_FLOAT32, d, gen, &params[2 * l]), "randn");
            check(ct_full(bs, 1, 0.01, CT_FLOAT32, d, &params[2 * l + 1]), "full");
        }
        for (ct_tensor& p : params) check(ct_tensor_set_requires_grad(p, 1), "requires_grad");
        const int64_t xs[2] = {batch, 784}, ys[1] = {batch};
        check(ct_randn(xs, 2, CT_FLOAT32, d, gen, &x), "randn");
        check(ct_randint(0, 10, ys, 1, CT_INT64, d, gen, &y), "randint");
        check(ct_scalar_tensor(0.0, CT_FLOAT32, ct_cpu(), &zero), "scalar");
        check(ct_optim_adam_new(params, 6, 1e-4, 0.9, 0.999, 1e-8, 0.0, &opt), "adam");
        ct_generator_release(gen);
    }
    ~Mlp() {
        for (ct_tensor t : {x, y, zero}) ct_tensor_release(t);
        for (ct_tensor p : params) ct_tensor_release(p);
        ct_optimizer_release(opt);
    }
    // relu, or max(h, 0) where relu has no CUDA kernel yet
    ct_status relu(ct_tensor h, ct_tensor* out) {
        return ct_relu(h, out) == CT_OK ? CT_OK : ct_maximum(h, zero, out);
    }
    ct_status step() {
        ct_tensor h = x, next = nullptr, loss = nullptr;
        ct_status st = ct_optimizer_zero_grad(opt, 1);
        for (int l = 0; l < 3 && st == CT_OK; ++l) {
            st = ct_linear(h, params[2 * l], params[2 * l + 1], &next);
            if (st == CT_OK && l < 2) {
                ct_tensor a = nullptr;
                st = relu(next, &a);
                ct_tensor_release(next);
                next = a;
            }
            if (h != x) ct_tensor_release(h);
            h = next;
        }
        if (st == CT_OK) st = ct_cross_entropy(h, y, CT_REDUCTION_MEAN, -100, &loss);
        if (st == CT_OK) st = ct_backward(loss, nullptr, 0, 0);
        if (st == CT_OK) st = ct_optimizer_step(opt);
        if (h != x) ct_tensor_release(h);
        ct_tensor_release(loss);
        return st;
    }
};

void bench_mlp(int64_t batch, int iters) {
    std::printf("MLP training step, 784-1024-1024-10, batch %lld, float32, Adam (ms per step)\n", (long long)batch);
    double ms[2] = {0, 0};
    const ct_device devices[2] = {ct_cpu(), ct_cuda(0)};
    for (int i = 0; i < 2; ++i) {
        Mlp mlp(devices[i], batch);
        if (mlp.step() != CT_OK) {
            std::printf("  %-34s skipped: %s\n", i ? "cuda" : "cpu", ct_last_error());
            return;
        }
        auto sync = i ? std::function<void()>(sync_ct) : std::function<void()>([] {});
        ms[i] = 1e3 * time_per_call(std::max(1, iters / (i ? 1 : 4)), [&] { check(mlp.step(), "mlp step"); }, sync);
    }
    std::printf("  %-34s %8.2f ms\n", "cpu", ms[0]);
    std::printf("  %-34s %8.2f ms  (%.1fx the cpu)\n", "cuda", ms[1], ms[0] / ms[1]);
}

// ct_add GB/s and ct_matmul TFLOP/s for float32, float16 and bfloat16 tensors of the same shapes.
void bench_half(int64_t n, int64_t m, int iters) {
    std::printf("float16 / bfloat16 against float32 (ct_add: %lld elements, ct_matmul: %lld^3)\n", (long long)n,
                (long long)m);
    double base_add = 0, base_tf = 0;  // float32's add time and matmul TFLOP/s
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT16, CT_BFLOAT16}) {
        const double item = dt == CT_FLOAT32 ? 4.0 : 2.0;
        ct_tensor a = full({n}, 1.5, dt), b = full({n}, 2.5, dt);
        double t_add = time_per_call(iters, [&] {
            ct_tensor o = nullptr;
            check(ct_add(a, b, 1.0, &o), "add");
            ct_tensor_release(o);
        }, sync_ct);
        ct_tensor_release(a);
        ct_tensor_release(b);
        ct_tensor x = full({m, m}, 0.5, dt), y = full({m, m}, 0.25, dt);
        double t_mm = time_per_call(iters, [&] {
            ct_tensor o = nullptr;
            check(ct_matmul(x, y, &o), "matmul");
            ct_tensor_release(o);
        }, sync_ct);
        ct_tensor_release(x);
        ct_tensor_release(y);
        const double gbs = 3.0 * item * (double)n / t_add / 1e9, tf = 2.0 * (double)m * m * m / t_mm / 1e12;
        if (dt == CT_FLOAT32) base_add = t_add, base_tf = tf;
        std::printf("  %-9s ct_add %8.1f GB/s (%4.2fx float32's time)  ct_matmul %8.2f TFLOP/s (%5.2fx float32)\n",
                    ct_dtype_name(dt), gbs, t_add / base_add, tf, tf / base_tf);
    }
}

// Native half reductions and softmax (issue 15, Note [Native half on CUDA]): per op, ms per call on a
// [n / 1024, 1024] tensor for float32, and for float16 / bfloat16 both natively and through the old fallback
// spelled out (float32 copy, float32 op, result rounded back), with GB/s of the input read.
void bench_half_rows(int64_t n, int iters) {
    std::printf("half reductions / softmax on [%lld, 1024] (ms per call; GB/s of input read)\n", (long long)(n / 1024));
    using Op = std::function<ct_status(ct_tensor, ct_tensor*)>;
    const int64_t dim1[] = {1};
    const std::pair<const char*, Op> ops[] = {
        {"sum(dim=1)", [&](ct_tensor x, ct_tensor* o) { return ct_sum(x, dim1, 1, 0, o); }},
        {"sum()", [](ct_tensor x, ct_tensor* o) { return ct_sum(x, nullptr, 0, 0, o); }},
        {"mean()", [](ct_tensor x, ct_tensor* o) { return ct_mean(x, nullptr, 0, 0, o); }},
        {"var(dim=1)", [&](ct_tensor x, ct_tensor* o) { return ct_var(x, dim1, 1, 1.0, 0, o); }},
        {"norm(2)", [](ct_tensor x, ct_tensor* o) { return ct_norm(x, 2.0, nullptr, 0, 0, o); }},
        {"argmax(dim=1)", [](ct_tensor x, ct_tensor* o) { return ct_argmax(x, 1, 0, o); }},
        {"softmax(dim=1)", [](ct_tensor x, ct_tensor* o) { return ct_softmax(x, 1, o); }},
        {"log_softmax(dim=0)", [](ct_tensor x, ct_tensor* o) { return ct_log_softmax(x, 0, o); }},
    };
    auto run = [](const Op& op, ct_tensor x) {
        ct_tensor o = nullptr;
        check(op(x, &o), "op");
        ct_tensor_release(o);
    };
    auto fallback = [](const Op& op, ct_tensor x, ct_dtype dt) {  // the path the native kernels replace
        ct_tensor xf = nullptr, o = nullptr, r = nullptr;
        check(ct_to_dtype(x, CT_FLOAT32, &xf), "to float32");
        check(op(xf, &o), "op");
        ct_dtype od = CT_FLOAT32;
        check(ct_tensor_dtype(o, &od), "dtype");
        if (od == CT_FLOAT32) check(ct_to_dtype(o, dt, &r), "round");
        ct_tensor_release(xf), ct_tensor_release(o), ct_tensor_release(r);
    };
    for (const auto& op : ops) {
        ct_tensor x32 = nullptr;
        const int64_t shape[2] = {n / 1024, 1024};
        check(ct_randn(shape, 2, CT_FLOAT32, ct_cuda(0), nullptr, &x32), "randn");
        const double base = time_per_call(iters, [&] { run(op.second, x32); }, sync_ct);
        std::printf("  %-20s float32 %8.3f ms (%6.1f GB/s)", op.first, 1e3 * base, 4.0 * n / base / 1e9);
        for (ct_dtype dt : {CT_FLOAT16, CT_BFLOAT16}) {
            ct_tensor x = nullptr;
            check(ct_to_dtype(x32, dt, &x), "to half");
            const double t = time_per_call(iters, [&] { run(op.second, x); }, sync_ct);
            const double f = time_per_call(iters, [&] { fallback(op.second, x, dt); }, sync_ct);
            std::printf("  %s native %8.3f ms (%6.1f GB/s, %4.2fx fallback's time)", ct_dtype_name(dt), 1e3 * t,
                        2.0 * n / t / 1e9, t / f);
            ct_tensor_release(x);
        }
        std::printf("\n");
        ct_tensor_release(x32);
    }
}

// Native half layer_norm and Adam step (issue 15, Notes [Native half norms] and [Native half step]): ms per call
// for float32, and for float16 / bfloat16 natively and through the old fallback spelled out (layer_norm: float32
// copies of x, weight, bias, the float32 op, the result rounded back; Adam: float32 copies of the parameter, its
// gradient and both moments, a float32 step, the parameter and moments rounded back: 4 casts + 3 roundings).
void bench_half_train(int64_t n, int iters) {
    const int64_t rows = n / 1024, shape[2] = {rows, 1024}, last[1] = {1024}, flat[1] = {n};
    std::printf("half layer_norm on [%lld, 1024] and Adam step over %lld parameters (ms per call)\n", (long long)rows,
                (long long)n);
    auto cast = [](ct_tensor t, ct_dtype dt) {  // a copy in dt without history (a leaf)
        ct_tensor r = nullptr, d = nullptr;
        check(ct_to_dtype(t, dt, &r), "cast");
        check(ct_detach(r, &d), "detach");
        ct_tensor_release(r);
        return d;
    };
    auto layer_norm = [&](ct_tensor x, ct_tensor w, ct_tensor b) {
        ct_tensor o = nullptr;
        check(ct_layer_norm(x, last, 1, w, b, 1e-5, &o), "layer_norm");
        ct_tensor_release(o);
    };
    auto adam_over = [](ct_tensor p, ct_tensor g) {  // an Adam optimizer over p (grad g), stepped once (state made)
        check(ct_tensor_set_requires_grad(p, 1), "requires_grad");
        check(ct_tensor_set_grad(p, g), "set_grad");
        ct_optimizer opt = nullptr;
        check(ct_optim_adam_new(&p, 1, 1e-3, 0.9, 0.999, 1e-8, 0.0, &opt), "adam");
        check(ct_optimizer_step(opt), "step");
        return opt;
    };
    ct_tensor x32 = nullptr, w32 = nullptr, b32 = nullptr, p32 = nullptr, g32 = nullptr;
    check(ct_randn(shape, 2, CT_FLOAT32, ct_cuda(0), nullptr, &x32), "randn");
    check(ct_randn(last, 1, CT_FLOAT32, ct_cuda(0), nullptr, &w32), "randn");
    check(ct_randn(last, 1, CT_FLOAT32, ct_cuda(0), nullptr, &b32), "randn");
    check(ct_randn(flat, 1, CT_FLOAT32, ct_cuda(0), nullptr, &p32), "randn");
    check(ct_randn(flat, 1, CT_FLOAT32, ct_cuda(0), nullptr, &g32), "randn");
    ct_optimizer opt32 = adam_over(p32, g32);
    const double ln32 = time_per_call(iters, [&] { layer_norm(x32, w32, b32); }, sync_ct);
    const double ad32 = time_per_call(iters, [&] { check(ct_optimizer_step(opt32), "step"); }, sync_ct);
    std::printf("  float32 layer_norm %8.3f ms, adam %8.3f ms\n", 1e3 * ln32, 1e3 * ad32);
    for (ct_dtype dt : {CT_FLOAT16, CT_BFLOAT16}) {
        ct_tensor x = cast(x32, dt), w = cast(w32, dt), b = cast(b32, dt), p = cast(p32, dt), g = cast(g32, dt);
        ct_tensor m = cast(p32, dt), v = cast(p32, dt), pf = cast(p, CT_FLOAT32), gf = cast(g, CT_FLOAT32);
        const double ln = time_per_call(iters, [&] { layer_norm(x, w, b); }, sync_ct);
        const double lnf = time_per_call(iters, [&] {
            ct_tensor xf = cast(x, CT_FLOAT32), wf = cast(w, CT_FLOAT32), bf = cast(b, CT_FLOAT32), o = nullptr, r;
            check(ct_layer_norm(xf, last, 1, wf, bf, 1e-5, &o), "layer_norm");
            r = cast(o, dt);
            ct_tensor_release(xf), ct_tensor_release(wf), ct_tensor_release(bf), ct_tensor_release(o);
            ct_tensor_release(r);
        }, sync_ct);
        ct_optimizer opt = adam_over(p, g), optf = adam_over(pf, gf);
        const double ad = time_per_call(iters, [&] { check(ct_optimizer_step(opt), "step"); }, sync_ct);
        const double adf = time_per_call(iters, [&] {
            ct_tensor c[4] = {cast(p, CT_FLOAT32), cast(g, CT_FLOAT32), cast(m, CT_FLOAT32), cast(v, CT_FLOAT32)};
            check(ct_optimizer_step(optf), "step");
            ct_tensor r[3] = {cast(pf, dt), cast(pf, dt), cast(pf, dt)};
            for (ct_tensor t : c) ct_tensor_release(t);
            for (ct_tensor t : r) ct_tensor_release(t);
        }, sync_ct);
        std::printf("  %-8s layer_norm native %8.3f ms (%4.2fx fallback's time), adam native %8.3f ms (%4.2fx "
                    "fallback's time)\n",
                    ct_dtype_name(dt), 1e3 * ln, ln / lnf, 1e3 * ad, ad / adf);
        ct_optimizer_release(opt), ct_optimizer_release(optf);
        for (ct_tensor t : {x, w, b, p, g, m, v, pf, gf}) ct_tensor_release(t);
    }
    ct_optimizer_release(opt32);
    for (ct_tensor t : {x32, w32, b32, p32, g32}) ct_tensor_release(t);
}

// torch.linalg on cuSOLVER (issue 14): solve, svd and eigh of a batch of n x n matrices on the CPU (LAPACK) and
// on CUDA, ms per call and the ratio. The matrices are randn + n I (well conditioned; eigh reads one triangle).
void bench_linalg(int64_t n, int64_t batch, int iters) {
    std::printf("torch.linalg, batch %lld of %lld x %lld (ms per call: cpu LAPACK, cuda cuSOLVER)\n", (long long)batch,
                (long long)n, (long long)n);
    using Op = std::function<ct_status(ct_tensor, ct_tensor)>;
    const std::pair<const char*, Op> ops[] = {
        {"solve (B: n x 1)", [](ct_tensor a, ct_tensor b) {
             ct_tensor x = nullptr;
             ct_status st = ct_linalg_solve(a, b, &x);
             ct_tensor_release(x);
             return st;
         }},
        {"svd (reduced)", [](ct_tensor a, ct_tensor) {
             ct_tensor u = nullptr, s = nullptr, vh = nullptr;
             ct_status st = ct_linalg_svd(a, 0, &u, &s, &vh);
             ct_tensor_release(u), ct_tensor_release(s), ct_tensor_release(vh);
             return st;
         }},
        {"eigh", [](ct_tensor a, ct_tensor) {
             ct_tensor l = nullptr, v = nullptr;
             ct_status st = ct_linalg_eigh(a, 0, &l, &v);
             ct_tensor_release(l), ct_tensor_release(v);
             return st;
         }},
    };
    for (ct_dtype dt : {CT_FLOAT32, CT_FLOAT64}) {
        const int64_t shape[3] = {batch, n, n}, bshape[3] = {batch, n, 1};
        ct_tensor r = nullptr, e = nullptr, a_cpu = nullptr, b_cpu = nullptr, a_dev = nullptr, b_dev = nullptr;
        check(ct_randn(shape, 3, dt, ct_cpu(), nullptr, &r), "randn");
        check(ct_eye(n, n, dt, ct_cpu(), &e), "eye");
        check(ct_add(r, e, (double)n, &a_cpu), "add");
        check(ct_randn(bshape, 3, dt, ct_cpu(), nullptr, &b_cpu), "randn");
        check(ct_to_device(a_cpu, ct_cuda(0), &a_dev), "to cuda");
        check(ct_to_device(b_cpu, ct_cuda(0), &b_dev), "to cuda");
        for (const auto& op : ops) {
            if (op.second(a_dev, b_dev) != CT_OK) {
                std::printf("  %-9s %-20s skipped: %s\n", ct_dtype_name(dt), op.first, ct_last_error());
                continue;
            }
            const double cpu = 1e3 * time_per_call(std::max(1, iters / 4), [&] { check(op.second(a_cpu, b_cpu), op.first); },
                                                   [] {});
            const double dev = 1e3 * time_per_call(iters, [&] { check(op.second(a_dev, b_dev), op.first); }, sync_ct);
            std::printf("  %-9s %-20s cpu %9.2f ms  cuda %9.2f ms  (%.1fx the cpu)\n", ct_dtype_name(dt), op.first,
                        cpu, dev, cpu / dev);
        }
        for (ct_tensor t : {r, e, a_cpu, b_cpu, a_dev, b_dev}) ct_tensor_release(t);
    }
}

// One LSTM layer (issue 14, Note [RNN on the device]): T steps over a batch of B, input and hidden size H, float32;
// ms per forward + backward on the CPU and on CUDA (the fused layer: per-step cuBLAS gemm + one gate kernel).
void bench_lstm(int64_t T, int64_t B, int64_t H, int iters) {
    std::printf("LSTM layer, %lld steps, batch %lld, input = hidden = %lld, float32 (ms per forward + backward)\n",
                (long long)T, (long long)B, (long long)H);
    double ms[2] = {0, 0};
    const ct_device devices[2] = {ct_cpu(), ct_cuda(0)};
    for (int i = 0; i < 2; ++i) {
        const ct_device d = devices[i];
        ct_generator gen = nullptr;
        check(ct_generator_new(3, &gen), "generator");
        const int64_t xs[3] = {T, B, H}, wi[2] = {4 * H, H}, bs[1] = {4 * H};
        ct_tensor x = nullptr, w[4] = {};
        check(ct_randn(xs, 3, CT_FLOAT32, d, gen, &x), "randn");
        check(ct_randn(wi, 2, CT_FLOAT32, d, gen, &w[0]), "randn");
        check(ct_randn(wi, 2, CT_FLOAT32, d, gen, &w[1]), "randn");
        check(ct_randn(bs, 1, CT_FLOAT32, d, gen, &w[2]), "randn");
        check(ct_randn(bs, 1, CT_FLOAT32, d, gen, &w[3]), "randn");
        for (ct_tensor t : w) check(ct_tensor_set_requires_grad(t, 1), "requires_grad");
        auto step = [&]() {
            ct_tensor out = nullptr, hy = nullptr, cy = nullptr, s = nullptr;
            ct_status st = ct_rnn(CT_RNN_LSTM, x, nullptr, nullptr, w, 4, 1, 1, 0.0, 1, 0, 0, 0, nullptr, 0, nullptr,
                                  &out, &hy, &cy);
            if (st == CT_OK) st = ct_sum(out, nullptr, 0, 0, &s);
            if (st == CT_OK) st = ct_backward(s, nullptr, 0, 0);
            for (ct_tensor t : {out, hy, cy, s}) ct_tensor_release(t);
            return st;
        };
        if (step() != CT_OK) {
            std::printf("  %-34s skipped: %s\n", i ? "cuda" : "cpu", ct_last_error());
        } else {
            auto sync = i ? std::function<void()>(sync_ct) : std::function<void()>([] {});
            ms[i] = 1e3 * time_per_call(std::max(1, iters / (i ? 1 : 4)), [&] { check(step(), "lstm step"); }, sync);
        }
        for (ct_tensor t : w) ct_tensor_release(t);
        ct_tensor_release(x);
        ct_generator_release(gen);
        if (ms[i] == 0) return;
    }
    std::printf("  %-34s %8.2f ms\n", "cpu", ms[0]);
    std::printf("  %-34s %8.2f ms  (%.1fx the cpu)\n", "cuda", ms[1], ms[0] / ms[1]);
}

}  // namespace

int main(int argc, char** argv) {
    char reason[512];
    if (!ct_cuda_is_available(reason, sizeof reason)) {
        std::printf("bench_cuda: skipped, no CUDA device: %s\n", reason);
        return 0;
    }
    int64_t n = argc > 1 ? std::atoll(argv[1]) : (int64_t)1 << 26;
    int64_t m = argc > 2 ? std::atoll(argv[2]) : 4096;
    int iters = argc > 3 ? std::atoi(argv[3]) : 20;
    n = (n + 1023) / 1024 * 1024;  // the broadcast case views n as rows of 1024
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, 0);
    std::printf("device 0: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    bench_elementwise(n, iters);
    bench_matmul(m, iters);
    bench_mlp(256, iters);
    bench_half(n, m, iters);
    bench_half_rows(n, iters);
    bench_half_train(n, iters);
    bench_linalg(256, 16, iters);
    bench_lstm(64, 64, 512, iters);
    int64_t allocated = 0, reserved = 0, peak = 0;
    check(ct_cuda_memory_stats(0, &allocated, &reserved, &peak), "memory_stats");
    std::printf("ctensor allocator: allocated %lld, reserved %lld, peak %lld bytes\n", (long long)allocated,
                (long long)reserved, (long long)peak);
    return 0;
}
