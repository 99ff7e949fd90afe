// test_cuda_half.cpp - float16 / bfloat16 tensors on CUDA (issue 15, Note [Half on CUDA]) against the same ops on
// CPU half tensors: creation, casts in every direction, elementwise, comparisons, where / masked_fill / index ops,
// reductions, nn rows, conv, matmul / linear (GemmEx), optimizers, DLPack and autocast on cuda, with gradients.
// Run for real on the emulated backend (ctest ctensor_tests_emulated_cuda); skipped without a device.
#include <dlpack/dlpack.h>
#include "cuda_compare.h"

using namespace ctt;

namespace {

const ct_dtype kHalves[] = {CT_FLOAT16, CT_BFLOAT16};

// Tolerance for one rounding difference of dtype at values up to ~10 (the CPU and CUDA paths compute in float
// and round once; a transcendental of the device may differ from the host's in the last float bit).
double tol_of(ct_dtype dt) { return dt == CT_FLOAT16 ? 1e-2 : 8e-2; }

std::string name_of(ct_dtype dt) { return ct_dtype_name(dt); }

H unary_op(ct_status (*f)(ct_tensor, ct_tensor*), const H& x) {
    H o;
    ok(f(x.get(), o.out()));
    return o;
}
H binary_op(ct_status (*f)(ct_tensor, ct_tensor, ct_tensor*), const H& a, const H& b) {
    H o;
    ok(f(a.get(), b.get(), o.out()));
    return o;
}

}  // namespace

TEST(CudaGpu, HalfTensorsLiveOnCuda) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        const int64_t shape[] = {2, 3};
        H z;
        CT_ASSERT_OK(ct_full(shape, 2, 1.5, dt, ct_cuda(0), z.out()));
        EXPECT_EQ(dtype(z), dt);
        EXPECT_EQ(device_of(z).type, CT_DEVICE_CUDA);
        EXPECT_EQ(values(z), std::vector<double>(6, 1.5));
        H r;  // random draws: the float32 draws rounded, on the device
        CT_ASSERT_OK(ct_randn(shape, 2, dt, ct_cuda(0), nullptr, r.out()));
        EXPECT_EQ(dtype(r), dt);
        EXPECT_EQ(device_of(r).type, CT_DEVICE_CUDA);
        for (auto draw : {0, 1, 2}) {  // rand / randn / randint: the float32 draws of the device, rounded
            H h, f, want;
            ct_generator g1 = nullptr, g2 = nullptr;
            ok(ct_generator_new(11, &g1));
            ok(ct_generator_new(11, &g2));
            auto run = [&](ct_dtype d, ct_generator g, H& out) {
                if (draw == 0) return ct_rand(shape, 2, d, ct_cuda(0), g, out.out());
                if (draw == 1) return ct_randn(shape, 2, d, ct_cuda(0), g, out.out());
                return ct_randint(-8, 8, shape, 2, d, ct_cuda(0), g, out.out());
            };
            ok(run(dt, g1, h));
            ok(run(CT_FLOAT32, g2, f));
            ct_generator_release(g1);
            ct_generator_release(g2);
            EXPECT_EQ(device_of(h).type, CT_DEVICE_CUDA);
            ok(ct_to_dtype(f.get(), dt, want.out()));
            EXPECT_EQ(values(h), values(want)) << "draw " << draw;
        }
        // a moved tensor keeps its bits (65504 is float16's largest finite, 1/3 rounds)
        H c = make({65504.0, -1.0 / 3, 0.0, 1e-8, -2.5, 3.0}, {2, 3}, dt), back;
        H g = on(c, ct_cuda(last_cuda_device()));
        CT_ASSERT_OK(ct_to_device(g.get(), ct_cpu(), back.out()));
        EXPECT_EQ(values(back), values(c));
    }
    // complex stays CPU only, with the reason
    const int64_t shape[] = {2};
    H z;
    CT_EXPECT_ERR(ct_full(shape, 1, 0.0, CT_COMPLEX64, ct_cuda(0), z.out()), CT_ERR_NOT_SUPPORTED,
                  "complex64 tensors are not supported on cuda");
}

TEST(CudaGpu, HalfCastsEveryDirection) {
    REQUIRE_CUDA();
    const ct_dtype all[] = {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL,
                            CT_INT8,    CT_INT16,   CT_FLOAT16, CT_BFLOAT16};
    // values every dtype holds (with ties to even and an overflow for the half dtypes from float32/float64)
    std::vector<double> v = {0.0, 1.0, 2.0, 3.0, 100.0, 7.0, 1.0, 0.0, 5.0, 120.0, 2049.0, 2051.0};
    for (ct_dtype from : all)
        for (ct_dtype to : all) {
            if (from != CT_FLOAT16 && from != CT_BFLOAT16 && to != CT_FLOAT16 && to != CT_BFLOAT16) continue;
            SCOPED_TRACE(name_of(from) + " -> " + name_of(to));
            H x = make(from == CT_BOOL ? std::vector<double>{0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1} : v, {3, 4}, from);
            compare_on_cuda("to_dtype", [to](const std::vector<H>& a) {
                H o;
                ok(ct_to_dtype(a[0].get(), to, o.out()));
                return o;
            }, {x}, {}, {transposed}, 0.0);
        }
    for (ct_dtype dt : kHalves) {  // float -> half rounding of values between representable ones, inf and NaN
        SCOPED_TRACE(name_of(dt));
        H x = make({1.0 + 1.0 / 4096, 1.0 + 3.0 / 4096, 70000.0, -1e-9, 1.0 / 3, 1e38}, {6}, CT_FLOAT32);
        compare_on_cuda("round", [dt](const std::vector<H>& a) {
            H o;
            ok(ct_to_dtype(a[0].get(), dt, o.out()));
            return o;
        }, {x}, {}, {}, 0.0);
    }
}

TEST(CudaGpu, HalfElementwiseMatchesCpu) {
    REQUIRE_CUDA();
    using U = ct_status (*)(ct_tensor, ct_tensor*);
    using B = ct_status (*)(ct_tensor, ct_tensor, ct_tensor*);
    const std::pair<const char*, U> unary[] = {{"exp", ct_exp}, {"neg", ct_neg},   {"abs", ct_abs},
                                               {"tanh", ct_tanh}, {"sigmoid", ct_sigmoid}, {"relu", ct_relu},
                                               {"gelu", ct_gelu}, {"sin", ct_sin}, {"floor", ct_floor}};
    const std::pair<const char*, B> binary[] = {{"mul", ct_mul}, {"div", ct_div}, {"maximum", ct_maximum},
                                                {"minimum", ct_minimum}, {"atan2", ct_atan2}, {"pow", ct_pow}};
    const std::pair<const char*, B> compare[] = {{"lt", ct_lt}, {"eq", ct_eq}, {"ge", ct_ge}};
    for (ct_dtype dt : kHalves) {
        const double tol = tol_of(dt);
        H a = sample({6, 5}, dt, 1, -2.0, 2.0), b = sample({6, 5}, dt, 2, 0.5, 2.0), row = sample({5}, dt, 3);
        for (auto& u : unary) {
            SCOPED_TRACE(name_of(dt) + " " + u.first);
            U f = u.second;
            compare_on_cuda(u.first, [f](const std::vector<H>& x) { return unary_op(f, x[0]); }, {a}, {true},
                            {transposed}, tol);
        }
        for (auto& o : binary) {
            SCOPED_TRACE(name_of(dt) + " " + o.first);
            B f = o.second;
            compare_on_cuda(o.first, [f](const std::vector<H>& x) { return binary_op(f, x[0], x[1]); }, {b, a},
                            {true, true}, {}, tol);
        }
        for (auto& o : compare) {
            SCOPED_TRACE(name_of(dt) + " " + o.first);
            B f = o.second;
            H got = compare_on_cuda(o.first, [f](const std::vector<H>& x) { return binary_op(f, x[0], x[1]); },
                                    {a, row}, {}, {}, 0.0);
            EXPECT_EQ(dtype(got), CT_BOOL);
        }
        SCOPED_TRACE(name_of(dt));
        compare_on_cuda("add broadcast, alpha", [](const std::vector<H>& x) {
            H o;
            ok(ct_add(x[0].get(), x[1].get(), 0.5, o.out()));
            return o;
        }, {sample({5, 6}, dt, 7), row}, {true, true}, {transposed}, tol);
        compare_on_cuda("clamp", [](const std::vector<H>& x) {
            H o;
            ok(ct_clamp(x[0].get(), -1.0, 1, 0.75, 1, o.out()));
            return o;
        }, {a}, {true}, {}, tol);
        // a Python number stays float32 on both devices (torch's opmath): bit-equal results, bool for comparisons
        for (int k = 0; k < 3; ++k) {
            H got = compare_on_cuda("number operand", [k](const std::vector<H>& x) {
                H s, o;
                ok(ct_wrapped_scalar(k == 2 ? 0.3 : 0.1, 0, s.out()));
                if (k == 0) ok(ct_mul(x[0].get(), s.get(), o.out()));
                else if (k == 1) ok(ct_add(x[0].get(), s.get(), 3.0, o.out()));
                else ok(ct_lt(x[0].get(), s.get(), o.out()));
                return o;
            }, {a}, {k < 2}, {transposed}, 0.0);
            EXPECT_EQ(dtype(got), k == 2 ? CT_BOOL : dt);
        }
        H mixed = sample({5}, CT_FLOAT32, 4);  // half op float32 promotes to float32 on both devices
        H got = compare_on_cuda("promote", [](const std::vector<H>& x) { return binary_op(ct_mul, x[0], x[1]); },
                                {a, mixed}, {true, true}, {}, tol);
        EXPECT_EQ(dtype(got), CT_FLOAT32);
        H zero_d = sample({}, dt, 5), empty = sample({0, 5}, dt, 6);
        compare_on_cuda("0-d", [](const std::vector<H>& x) { return binary_op(ct_mul, x[0], x[1]); }, {zero_d, a},
                        {}, {}, tol);
        compare_on_cuda("empty", [](const std::vector<H>& x) { return unary_op(ct_exp, x[0]); }, {empty}, {}, {},
                        tol);
    }
}

TEST(CudaGpu, HalfSelectAndIndexMatchCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        const double tol = tol_of(dt);
        H a = sample({4, 6}, dt, 1), b = sample({4, 6}, dt, 2), cond = sample({4, 6}, CT_BOOL, 3);
        compare_on_cuda("where", [](const std::vector<H>& x) {
            H o;
            ok(ct_where(x[0].get(), x[1].get(), x[2].get(), o.out()));
            return o;
        }, {cond, a, b}, {false, true, true}, {}, 0.0);
        compare_on_cuda("masked_fill", [](const std::vector<H>& x) {
            H o;
            ok(ct_masked_fill(x[0].get(), x[1].get(), -3.25, o.out()));
            return o;
        }, {a, cond}, {true, false}, {}, 0.0);
        H idx = make({0, 3, 3, 1, 2, 0, 5, 5, 4, 1, 0, 2}, {4, 3}, CT_INT64);
        compare_on_cuda("gather", [](const std::vector<H>& x) {
            H o;
            ok(ct_gather(x[0].get(), 1, x[1].get(), o.out()));
            return o;
        }, {a, idx}, {true, false}, {}, 0.0);
        H src = sample({4, 3}, dt, 4);
        compare_on_cuda("scatter_add (repeated targets)", [](const std::vector<H>& x) {
            H o;
            ok(ct_scatter_add(x[0].get(), 1, x[1].get(), x[2].get(), o.out()));
            return o;
        }, {a, idx, src}, {true, false, true}, {}, tol);
        H rows = make({2, 0, 2}, {3}, CT_INT64);
        compare_on_cuda("index_select", [](const std::vector<H>& x) {
            H o;
            ok(ct_index_select(x[0].get(), 0, x[1].get(), o.out()));
            return o;
        }, {a, rows}, {true, false}, {}, 0.0);
        compare_on_cuda("cat", [](const std::vector<H>& x) {
            H o;
            ct_tensor ts[] = {x[0].get(), x[1].get()};
            ok(ct_cat(ts, 2, 1, o.out()));
            return o;
        }, {a, sample({6, 3}, dt, 5)}, {true, true}, {transposed, same}, 0.0);
    }
}

TEST(CudaGpu, HalfReductionsAndNnMatchCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        const double tol = tol_of(dt);
        H a = sample({5, 37}, dt, 1, -2.0, 2.0);
        const int64_t d1[] = {1};
        compare_on_cuda("sum", [&](const std::vector<H>& x) {
            H o;
            ok(ct_sum(x[0].get(), d1, 1, 0, o.out()));
            return o;
        }, {a}, {true}, {}, tol * 4);
        compare_on_cuda("mean all", [](const std::vector<H>& x) {
            H o;
            ok(ct_mean(x[0].get(), nullptr, 0, 0, o.out()));
            return o;
        }, {a}, {true}, {}, tol);
        compare_on_cuda("norm", [&](const std::vector<H>& x) {
            H o;
            ok(ct_norm(x[0].get(), 2.0, d1, 1, 0, o.out()));
            return o;
        }, {a}, {true}, {}, tol);
        compare_on_cuda("argmax", [](const std::vector<H>& x) {
            H o;
            ok(ct_argmax(x[0].get(), 1, 0, o.out()));
            return o;
        }, {a}, {}, {}, 0.0);
        compare_on_cuda("max_dim values", [](const std::vector<H>& x) {
            H v, i;
            ok(ct_max_dim(x[0].get(), 0, 1, v.out(), i.out()));
            return v;
        }, {a}, {true}, {}, 0.0);
        compare_on_cuda("softmax", [](const std::vector<H>& x) {
            H o;
            ok(ct_softmax(x[0].get(), 1, o.out()));
            return o;
        }, {a}, {true}, {}, tol);
        compare_on_cuda("log_softmax", [](const std::vector<H>& x) {
            H o;
            ok(ct_log_softmax(x[0].get(), 0, o.out()));
            return o;
        }, {a}, {true}, {}, tol);
        H w = sample({37}, dt, 2, 0.5, 1.5), bias = sample({37}, dt, 3);
        compare_on_cuda("layer_norm", [](const std::vector<H>& x) {
            H o;
            const int64_t shape[] = {37};
            ok(ct_layer_norm(x[0].get(), shape, 1, x[1].get(), x[2].get(), 1e-5, o.out()));
            return o;
        }, {a, w, bias}, {true, true, true}, {}, tol * 4);
        H img = sample({2, 3, 6, 5}, dt, 4, -1.0, 1.0), k = sample({4, 3, 3, 3}, dt, 5, -1.0, 1.0);
        H kb = sample({4}, dt, 6);
        compare_on_cuda("conv2d", [](const std::vector<H>& x) {
            H o;
            const int64_t stride[] = {1, 2}, pad[] = {1, 0}, dil[] = {1, 1};
            ok(ct_conv2d(x[0].get(), x[1].get(), x[2].get(), stride, pad, dil, 1, o.out()));
            return o;
        }, {img, k, kb}, {true, true, true}, {}, tol * 4);
    }
}

TEST(CudaGpu, HalfMatmulUsesGemmEx) {
    REQUIRE_CUDA();
    auto matmul_fn = [](const std::vector<H>& x) {
        H o;
        ok(ct_matmul(x[0].get(), x[1].get(), o.out()));
        return o;
    };
    struct Case {
        Shape a, b;
    } cases[] = {{{5}, {5}}, {{3, 5}, {5, 4}}, {{2, 3, 5}, {5, 4}}, {{2, 1, 3, 5}, {4, 5, 6}}, {{3, 0}, {0, 4}},
                 {{0, 3}, {3, 2}}};
    for (ct_dtype dt : kHalves)
        for (auto& c : cases) {
            SCOPED_TRACE(name_of(dt) + " " + std::to_string(c.a.size()) + "-D @ " + std::to_string(c.b.size()) + "-D");
            // halves in [-5, 5): products and their float32 sums are exact, so both devices round the same sum
            H got = compare_on_cuda("matmul", matmul_fn, {sample(c.a, dt, 1), sample(c.b, dt, 2)}, {true, true},
                                    {}, tol_of(dt));
            EXPECT_EQ(dtype(got), dt);
        }
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt) + " transposed operand, linear with bias");
        compare_on_cuda("matmul^T", matmul_fn, {sample({6, 4}, dt, 3), sample({6, 5}, dt, 4)}, {true, true},
                        {transposed, same}, tol_of(dt));
        compare_on_cuda("linear", [](const std::vector<H>& x) {
            H o;
            ok(ct_linear(x[0].get(), x[1].get(), x[2].get(), o.out()));
            return o;
        }, {sample({2, 3, 8}, dt, 5), sample({4, 8}, dt, 6), sample({4}, dt, 7)}, {true, true, true}, {},
                        tol_of(dt));
    }
    // k = 4096 ones: a float32 accumulator is exact, a half one would stop at 2048
    for (ct_dtype dt : kHalves) {
        const int64_t sa[] = {1, 4096}, sb[] = {4096, 1};
        H a, b, o;
        ok(ct_full(sa, 2, 1.0, dt, ct_cuda(0), a.out()));
        ok(ct_full(sb, 2, 1.0, dt, ct_cuda(0), b.out()));
        CT_ASSERT_OK(ct_matmul(a.get(), b.get(), o.out()));
        EXPECT_EQ(values(o), std::vector<double>{4096.0}) << name_of(dt);
    }
}

TEST(CudaGpu, HalfOptimizerStepMatchesCpu) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        H w0 = sample({3, 7}, dt, 1), g0 = sample({3, 7}, dt, 2);
        std::vector<double> got[2];
        const ct_device devs[] = {ct_cpu(), ct_cuda(0)};
        for (int d = 0; d < 2; ++d) {
            H w = leaf_on(w0, devs[d], true), g = on(g0, devs[d]);
            ct_tensor params[] = {w.get()};
            ct_optimizer opt = nullptr;
            ok(ct_optim_adam_new(params, 1, 0.1, 0.9, 0.999, 1e-8, 0.01, &opt));
            for (int step = 0; step < 3; ++step) {
                H loss;
                ok(ct_optimizer_zero_grad(opt, 1));
                H prod;
                ok(ct_mul(w.get(), g.get(), prod.out()));
                ok(ct_sum(prod.get(), nullptr, 0, 0, loss.out()));
                ok(ct_backward(loss.get(), nullptr, 0, 0));
                ok(ct_optimizer_step(opt));
            }
            ct_optimizer_release(opt);
            EXPECT_EQ(dtype(w), dt);
            got[d] = values(w);
        }
        ASSERT_EQ(got[0].size(), got[1].size());
        for (size_t i = 0; i < got[0].size(); ++i) EXPECT_NEAR(got[1][i], got[0][i], tol_of(dt) * 4) << i;
    }
}

TEST(CudaGpu, HalfDlpackRoundTripsOnCuda) {
    REQUIRE_CUDA();
    const std::pair<ct_dtype, DLDataType> kinds[] = {{CT_FLOAT16, DLDataType{kDLFloat, 16, 1}},
                                                     {CT_BFLOAT16, DLDataType{kDLBfloat, 16, 1}}};
    for (auto& k : kinds) {
        SCOPED_TRACE(name_of(k.first));
        const int32_t dev = last_cuda_device();
        H t = on(sample({3, 4}, k.first, 1), ct_cuda(dev));
        DLManagedTensor* m = nullptr;
        CT_ASSERT_OK(ct_to_dlpack(t.get(), &m));
        EXPECT_EQ(m->dl_tensor.device.device_type, kDLCUDA);
        EXPECT_EQ(m->dl_tensor.device.device_id, dev);
        EXPECT_EQ(m->dl_tensor.dtype.code, k.second.code);
        EXPECT_EQ(m->dl_tensor.dtype.bits, k.second.bits);
        H back;
        CT_ASSERT_OK(ct_from_dlpack(m, back.out()));
        EXPECT_EQ(dtype(back), k.first);
        EXPECT_EQ(device_of(back).type, CT_DEVICE_CUDA);
        EXPECT_EQ(values(back), values(t));
    }
}

TEST(CudaGpu, HalfAutocastOnCuda) {
    REQUIRE_CUDA();
    for (ct_dtype dt : kHalves) {
        SCOPED_TRACE(name_of(dt));
        ct_dtype prev_dtype;
        int32_t prev = 0;
        ok(ct_autocast_set_dtype(CT_DEVICE_CUDA, dt, &prev_dtype));
        ok(ct_autocast_set_enabled(CT_DEVICE_CUDA, 1, &prev));
        H a = on(sample({4, 8}, CT_FLOAT32, 1), ct_cuda(0)), b = on(sample({8, 3}, CT_FLOAT32, 2), ct_cuda(0));
        H mm, sm;
        ct_status st1 = ct_matmul(a.get(), b.get(), mm.out());
        ct_status st2 = st1 == CT_OK ? ct_softmax(mm.get(), 1, sm.out()) : st1;
        ok(ct_autocast_set_enabled(CT_DEVICE_CUDA, prev, &prev));
        ok(ct_autocast_set_dtype(CT_DEVICE_CUDA, prev_dtype, &prev_dtype));
        CT_ASSERT_OK(st1);
        CT_ASSERT_OK(st2);
        EXPECT_EQ(dtype(mm), dt);            // matmul: lower precision (torch's AutocastCUDA list)
        EXPECT_EQ(dtype(sm), CT_FLOAT32);    // softmax: float32
        H a16, b16, want, back;
        ok(ct_to_dtype(a.get(), dt, a16.out()));
        ok(ct_to_dtype(b.get(), dt, b16.out()));
        ok(ct_matmul(a16.get(), b16.get(), want.out()));
        EXPECT_EQ(values(mm), values(want));
    }
}
