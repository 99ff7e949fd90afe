// test_data_parallel.cpp - ct_data_parallel_* through the C API under mpirun (ctests data_parallel_mpi_np2/np4):
// a linear-relu-linear MLP trained 20 SGD steps with each rank on its shard of a fixed batch equals the same
// model trained in one process over the whole batch (each rank computes that reference itself), in float64 and
// float32, with tiny (one per parameter), medium and huge (one) buckets and mixed dtypes; no_sync accumulation,
// unused parameters (finish and prepare), shared weights, the errors and the live-handle count.
// Prints "N passed, M failed".
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include "ctensor.h"

namespace {

int g_rank = 0, g_size = 1, g_pass = 0, g_fail = 0;

void check(bool ok, const std::string& what) {
    if (ok) {
        ++g_pass;
        return;
    }
    ++g_fail;
    std::fprintf(stderr, "[rank %d] FAILED: %s (last error: %s)\n", g_rank, what.c_str(), ct_last_error());
}

void ok(ct_status st, const std::string& what) { check(st == CT_OK, what); }

void expect_status(ct_status got, ct_status want, const char* part, const std::string& what) {
    bool good = got == want && (!part || std::strstr(ct_last_error(), part));
    check(good, what + ": got " + ct_status_name(got) + ", want " + ct_status_name(want) +
                    (part ? std::string(" with '") + part + "'" : ""));
}

const int64_t D = 5, H = 7, O = 3, B = 24;  // features in, hidden, out; the global batch (divisible by 2 and 4)

ct_tensor tensor_of(const std::vector<double>& v, std::vector<int64_t> shape, ct_dtype dt) {
    ct_tensor d = NULL, t = NULL;
    ok(ct_tensor_from_data(v.data(), (int64_t)v.size() * 8, shape.data(), (int32_t)shape.size(), CT_FLOAT64, ct_cpu(), &d),
       "from_data");
    ok(ct_to_dtype(d, dt, &t), "to_dtype");
    ct_tensor_release(d);
    return t;
}

std::vector<double> values_of(ct_tensor t) {
    std::vector<double> v;
    if (!t) return v;
    ct_tensor d = NULL;
    ok(ct_to_dtype(t, CT_FLOAT64, &d), "to_dtype (read)");
    int64_t n = 0;
    ct_tensor_numel(d, &n);
    v.resize((size_t)n);
    ct_tensor_copy_to_host(d, v.data(), n * 8);
    ct_tensor_release(d);
    return v;
}

double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return INFINITY;
    double m = 0;
    for (size_t i = 0; i < a.size(); ++i) m = std::fmax(m, std::fabs(a[i] - b[i]));
    return m;
}

std::vector<double> grad_values(ct_tensor p) {
    ct_tensor g = NULL;
    ok(ct_tensor_grad(p, &g), "grad");
    std::vector<double> v = values_of(g);
    ct_tensor_release(g);
    return v;
}

bool has_grad(ct_tensor p) {
    ct_tensor g = NULL;
    ct_tensor_grad(p, &g);
    bool has = g != NULL;
    ct_tensor_release(g);
    return has;
}

// A deterministic parameter; shift != 0 gives another rank's different starting point.
ct_tensor param(std::vector<int64_t> shape, double seed, double shift, ct_dtype dt) {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    std::vector<double> v((size_t)n);
    for (int64_t i = 0; i < n; ++i) v[(size_t)i] = 0.4 * std::sin(1.3 * (double)i + seed) + shift;
    ct_tensor t = tensor_of(v, shape, dt);
    ct_tensor_set_requires_grad(t, 1);
    return t;
}

struct Mlp {
    ct_tensor p[4] = {NULL, NULL, NULL, NULL};  // w1 [H, D], b1 [H], w2 [O, H], b2 [O]
    // dts: the dtype of each parameter (mixed dtypes make one bucket per dtype run)
    Mlp(double shift, const ct_dtype dts[4]) {
        p[0] = param({H, D}, 0.1, shift, dts[0]);
        p[1] = param({H}, 0.7, shift, dts[1]);
        p[2] = param({O, H}, 1.9, shift, dts[2]);
        p[3] = param({O}, 2.3, shift, dts[3]);
    }
    ~Mlp() {
        for (ct_tensor t : p) ct_tensor_release(t);
    }
    Mlp(const Mlp&) = delete;
    Mlp& operator=(const Mlp&) = delete;
};

// Rows [begin, end) of the fixed batch: x [n, D] and the target [n, O].
void batch(int64_t begin, int64_t end, ct_dtype dt, ct_tensor* x, ct_tensor* y) {
    std::vector<double> xv, yv;
    for (int64_t i = begin; i < end; ++i) {
        for (int64_t j = 0; j < D; ++j) xv.push_back(std::sin(0.3 * (double)i + 0.7 * (double)j));
        for (int64_t k = 0; k < O; ++k) yv.push_back(std::cos(0.5 * (double)i - 0.2 * (double)k));
    }
    *x = tensor_of(xv, {end - begin, D}, dt);
    *y = tensor_of(yv, {end - begin, O}, dt);
}

// mse(linear(relu(linear(x, w1, b1)), w2, b2), y) over rows [begin, end) of the batch (each layer in its
// parameters' dtype).
ct_tensor mlp_loss(const Mlp& m, int64_t begin, int64_t end) {
    ct_dtype dt = CT_FLOAT64;
    ct_tensor_dtype(m.p[0], &dt);
    ct_tensor x = NULL, y = NULL, h = NULL, r = NULL, out = NULL, loss = NULL;
    batch(begin, end, dt, &x, &y);
    ok(ct_linear(x, m.p[0], m.p[1], &h), "linear 1");
    ok(ct_relu(h, &r), "relu");
    ct_dtype dt2 = dt;
    ct_tensor_dtype(m.p[2], &dt2);
    ct_tensor r2 = NULL;
    ok(ct_to_dtype(r, dt2, &r2), "to_dtype hidden");
    ok(ct_linear(r2, m.p[2], m.p[3], &out), "linear 2");
    ct_tensor y2 = NULL;
    ok(ct_to_dtype(y, dt2, &y2), "to_dtype target");
    ok(ct_mse_loss(out, y2, CT_REDUCTION_MEAN, &loss), "mse_loss");
    for (ct_tensor t : {x, y, h, r, r2, out, y2}) ct_tensor_release(t);
    return loss;
}

void backward(ct_tensor loss, const std::string& what) {
    ok(ct_backward(loss, NULL, 0, 0), what);
    ct_tensor_release(loss);
}

// p -= lr * p.grad, then clears the grads (set_to_none on even steps, zero_ on odd ones: both paths of the
// reducer's write-back).
void sgd(ct_tensor* ps, int n, double lr, int step) {
    int32_t prev = 1;
    ct_set_grad_enabled(0, &prev);
    for (int i = 0; i < n; ++i) {
        ct_tensor g = NULL;
        ok(ct_tensor_grad(ps[i], &g), "grad for sgd");
        if (!g) continue;
        ok(ct_sub_(ps[i], g, lr), "sgd update");
        if (step % 2 == 0) {
            ok(ct_tensor_set_grad(ps[i], NULL), "clear grad");
        } else {
            ok(ct_zero_(g), "zero grad");
        }
        ct_tensor_release(g);
    }
    ct_set_grad_enabled(prev, NULL);
}

std::string dtypes_label(const ct_dtype dts[4]) {
    std::string s;
    for (int i = 0; i < 4; ++i) s += std::string(i ? "," : "") + ct_dtype_name(dts[i]);
    return s;
}

// 20 SGD steps: DDP over shards (ranks start from different values) vs one process over the whole batch.
void test_equivalence(ct_process_group pg, const ct_dtype dts[4], int64_t bucket_bytes, double tol) {
    std::string what = "20 steps " + dtypes_label(dts) + " bucket_bytes " + std::to_string(bucket_bytes);
    Mlp ref(0.0, dts), m(0.25 * g_rank, dts);
    ct_data_parallel dp = NULL;
    ok(ct_data_parallel_new(pg, m.p, 4, bucket_bytes, &dp), what + ": data_parallel_new");
    // buckets: one per param when tiny, else per run of one dtype within bucket_bytes (b2+w2 = 24 elements)
    int32_t buckets = 0;
    ok(ct_data_parallel_bucket_count(dp, &buckets), what + ": bucket_count");
    bool mixed = dts[0] != dts[3];
    int32_t want = bucket_bytes == 1 ? 4 : bucket_bytes == 200 ? (mixed ? 3 : (dts[0] == CT_FLOAT64 ? 3 : 2)) : mixed ? 2 : 1;
    check(buckets == want, what + ": " + std::to_string(buckets) + " buckets, want " + std::to_string(want));
    double bcast = 0;
    for (int i = 0; i < 4; ++i) bcast = std::fmax(bcast, max_diff(values_of(m.p[i]), values_of(ref.p[i])));
    check(bcast == 0, what + ": params broadcast from rank 0");
    int64_t shard = B / g_size, begin = g_rank * shard;
    const double lr = 0.2;
    for (int step = 0; step < 20; ++step) {
        backward(mlp_loss(ref, 0, B), "reference backward");
        sgd(ref.p, 4, lr, step);
        backward(mlp_loss(m, begin, begin + shard), what + ": ddp backward");
        ok(ct_data_parallel_finish(dp), what + ": finish after a complete backward is a no-op");
        sgd(m.p, 4, lr, step);
    }
    double diff = 0, moved = 0;
    Mlp init(0.0, dts);
    for (int i = 0; i < 4; ++i) {
        diff = std::fmax(diff, max_diff(values_of(m.p[i]), values_of(ref.p[i])));
        moved = std::fmax(moved, max_diff(values_of(ref.p[i]), values_of(init.p[i])));
    }
    check(diff <= tol, what + ": params equal the single-process run (max diff " + std::to_string(diff) + ")");
    check(moved > 0.01, what + ": training moved the params (" + std::to_string(moved) + ")");
    ct_data_parallel_release(dp);
}

// The mean over ranks of each rank's local gradients (each rank computes all ranks' locally, no DDP).
// loss_of(m, r) builds rank r's loss; it may call backward more than once (accumulation).
template <typename F> std::vector<std::vector<double>> mean_local_grads(const ct_dtype dts[4], F loss_of) {
    std::vector<std::vector<double>> mean(4);
    for (int r = 0; r < g_size; ++r) {
        Mlp m(0.0, dts);
        loss_of(m, r);
        for (int i = 0; i < 4; ++i) {
            std::vector<double> g = grad_values(m.p[i]);
            if (mean[i].empty()) mean[i].assign(g.size(), 0.0);
            for (size_t k = 0; k < g.size() && k < mean[i].size(); ++k) mean[i][k] += g[k] / g_size;
        }
    }
    return mean;
}

double grads_diff(const Mlp& m, const std::vector<std::vector<double>>& want) {
    double d = 0;
    for (int i = 0; i < 4; ++i) d = std::fmax(d, max_diff(grad_values(m.p[i]), want[i]));
    return d;
}

const ct_dtype kF64[4] = {CT_FLOAT64, CT_FLOAT64, CT_FLOAT64, CT_FLOAT64};

// no_sync: two local backwards accumulate, a third synchronising one averages all three.
void test_no_sync(ct_process_group pg) {
    int64_t q = B / g_size / 3 ? B / g_size / 3 : 1;
    auto rows = [&](int r, int k) { return (int64_t)r * (B / g_size) + k * q; };
    auto want = mean_local_grads(kF64, [&](Mlp& m, int r) {
        for (int k = 0; k < 3; ++k) backward(mlp_loss(m, rows(r, k), rows(r, k) + q), "reference micro-batch");
    });
    Mlp m(0.0, kF64);
    ct_data_parallel dp = NULL;
    ok(ct_data_parallel_new(pg, m.p, 4, 64, &dp), "no_sync: new");
    ok(ct_data_parallel_set_sync(dp, 0), "no_sync: set_sync 0");
    backward(mlp_loss(m, rows(g_rank, 0), rows(g_rank, 0) + q), "no_sync backward 1");
    backward(mlp_loss(m, rows(g_rank, 1), rows(g_rank, 1) + q), "no_sync backward 2");
    ok(ct_data_parallel_set_sync(dp, 1), "no_sync: set_sync 1");
    backward(mlp_loss(m, rows(g_rank, 2), rows(g_rank, 2) + q), "synchronising backward");
    double d = grads_diff(m, want);
    check(d < 1e-12, "no_sync: accumulated gradients averaged over ranks (max diff " + std::to_string(d) + ")");
    ct_data_parallel_release(dp);
}

// A fifth parameter u that the loss does not use (or, in the prepared case, uses on rank 0 only).
void test_unused(ct_process_group pg) {
    int64_t shard = B / g_size, begin = g_rank * shard;
    auto want = mean_local_grads(kF64, [&](Mlp& m, int r) {
        backward(mlp_loss(m, (int64_t)r * shard, (int64_t)r * shard + shard), "reference");
    });
    for (int64_t bucket : {(int64_t)1, (int64_t)0}) {
        std::string what = "unused param (bucket_bytes " + std::to_string(bucket) + ")";
        Mlp m(0.0, kF64);
        ct_tensor u = param({4}, 3.3, 0.0, CT_FLOAT64);
        ct_tensor ps[5] = {m.p[0], u, m.p[1], m.p[2], m.p[3]};
        ct_data_parallel dp = NULL;
        ok(ct_data_parallel_new(pg, ps, 5, bucket, &dp), what + ": new");
        backward(mlp_loss(m, begin, begin + shard), what + ": backward leaves the reduction open");
        expect_status(ct_data_parallel_set_sync(dp, 0), CT_ERR_AUTOGRAD, "still open", what + ": set_sync(0) while open");
        ok(ct_data_parallel_finish(dp), what + ": finish");
        double d = grads_diff(m, want);
        check(d < 1e-12, what + ": finish averages the used params (max diff " + std::to_string(d) + ")");
        std::vector<double> ug = grad_values(u);
        check(ug.size() == 4 && max_diff(ug, std::vector<double>(4, 0.0)) == 0, what + ": finish gives u a zero grad");
        ok(ct_data_parallel_finish(dp), what + ": a second finish is a no-op");
        if (bucket == 1) {  // a second backward into an open round whose buckets have started: refused
            backward(mlp_loss(m, begin, begin + shard), what + ": backward that leaves the round open");
            ct_tensor again = mlp_loss(m, begin, begin + shard);
            expect_status(ct_backward(again, NULL, 0, 0), CT_ERR_AUTOGRAD, "second gradient",
                          what + ": a second backward into the open round");
            ct_tensor_release(again);
            ok(ct_data_parallel_set_sync(dp, 1), what + ": the refused round was dropped");
        }
        // an open round released without finish: every rank waits for its launched buckets and nothing hangs
        backward(mlp_loss(m, begin, begin + shard), what + ": backward before release");
        ct_data_parallel_release(dp);
        ct_tensor_release(u);
    }
    // prepare: the round completes inside backward; u unused everywhere keeps no grad, u used on rank 0 only
    // gets the mean of (rank 0's gradient, zeros).
    for (int used_on_0 = 0; used_on_0 < 2; ++used_on_0) {
        std::string what = std::string("prepare, u used on ") + (used_on_0 ? "rank 0" : "no rank");
        Mlp m(0.0, kF64);
        ct_tensor u = param({4}, 3.3, 0.0, CT_FLOAT64);
        ct_tensor ps[5] = {m.p[0], m.p[1], u, m.p[2], m.p[3]};
        ct_data_parallel dp = NULL;
        ok(ct_data_parallel_new(pg, ps, 5, 1, &dp), what + ": new");
        ct_tensor loss = mlp_loss(m, begin, begin + shard);
        if (used_on_0 && g_rank == 0) {
            ct_tensor s = NULL, l2 = NULL;
            int64_t dim = 0;
            ok(ct_sum(u, &dim, 1, 0, &s), "sum u");
            ok(ct_add(loss, s, 3.0, &l2), "loss + 3 * u.sum()");
            ct_tensor_release(loss);
            ct_tensor_release(s);
            loss = l2;
        }
        ok(ct_data_parallel_prepare(dp, &loss, 1), what + ": prepare");
        backward(loss, what + ": backward");
        double d = grads_diff(m, want);
        check(d < 1e-12, what + ": reduction complete after backward (max diff " + std::to_string(d) + ")");
        if (used_on_0) {
            std::vector<double> ug = grad_values(u);
            check(max_diff(ug, std::vector<double>(4, 3.0 / g_size)) < 1e-15, what + ": u.grad = 3 / world size");
        } else {
            check(!has_grad(u), what + ": u keeps no grad (unused on every rank)");
        }
        ok(ct_data_parallel_finish(dp), what + ": finish is a no-op");
        ct_data_parallel_release(dp);
        ct_tensor_release(u);
    }
}

// prepare on ranks whose outputs reach no parameter: their round completes inside prepare (they wait there for
// rank 0's backward), and every rank ends with rank 0's gradient divided by the world size.
void test_prepare_without_params(ct_process_group pg) {
    int64_t shard = B / g_size;
    Mlp ref(0.0, kF64);
    backward(mlp_loss(ref, 0, shard), "reference: rank 0's loss");
    Mlp m(0.0, kF64);
    ct_data_parallel dp = NULL;
    ok(ct_data_parallel_new(pg, m.p, 4, 0, &dp), "prepare without params: new");
    ct_tensor out = NULL;
    if (g_rank == 0) {
        out = mlp_loss(m, 0, shard);
    } else {
        out = param({2}, 0.0, 0.0, CT_FLOAT64);  // requires grad, but no parameter of dp behind it
    }
    ok(ct_data_parallel_prepare(dp, &out, 1), "prepare (rank 0: reaches the params; others: none)");
    if (g_rank == 0) ok(ct_backward(out, NULL, 0, 0), "rank 0's backward");
    ct_tensor_release(out);
    double d = 0;
    for (int i = 0; i < 4; ++i) {
        std::vector<double> want = grad_values(ref.p[i]);
        for (double& v : want) v /= g_size;
        d = std::fmax(d, max_diff(grad_values(m.p[i]), want));
    }
    check(d < 1e-12, "every rank has rank 0's gradient / world size (max diff " + std::to_string(d) + ")");
    ct_data_parallel_release(dp);
}

// A hook the user registers after the reducer still runs before it (as torch's DDP averages after accumulation).
ct_status double_grad(ct_tensor grad, void*, ct_tensor* replacement) { return ct_add(grad, grad, 1.0, replacement); }

void test_user_hook(ct_process_group pg) {
    int64_t shard = B / g_size, begin = g_rank * shard;
    auto want = mean_local_grads(kF64, [&](Mlp& m, int r) {
        backward(mlp_loss(m, (int64_t)r * shard, (int64_t)r * shard + shard), "reference");
    });
    Mlp m(0.0, kF64);
    ct_data_parallel dp = NULL;
    ok(ct_data_parallel_new(pg, m.p, 4, 1, &dp), "user hook: new");
    int64_t id = 0;
    ok(ct_tensor_register_hook(m.p[0], double_grad, NULL, NULL, &id), "register a doubling hook on w1");
    backward(mlp_loss(m, begin, begin + shard), "user hook: backward");
    std::vector<double> w = want[0];
    for (double& v : w) v *= 2;
    double d = std::fmax(max_diff(grad_values(m.p[0]), w), max_diff(grad_values(m.p[1]), want[1]));
    check(d < 1e-12, "the user's hook ran before the averaging (max diff " + std::to_string(d) + ")");
    ct_data_parallel_release(dp);
}

// Shared weights: the first layer applied twice (w1 square), so w1 gets two gradient contributions per backward.
void test_shared(ct_process_group pg) {
    int64_t shard = B / g_size;
    auto loss_of = [&](ct_tensor w, ct_tensor b, int r) {
        ct_tensor x = NULL, y = NULL, h1 = NULL, r1 = NULL, h2 = NULL, loss = NULL;
        batch((int64_t)r * shard, (int64_t)r * shard + shard, CT_FLOAT64, &x, &y);
        ok(ct_linear(x, w, b, &h1), "shared linear 1");
        ok(ct_relu(h1, &r1), "shared relu");
        ok(ct_linear(r1, w, b, &h2), "shared linear 2 (same weights)");
        ct_tensor z = NULL;
        ok(ct_zeros_like(h2, &z), "zeros_like");
        ok(ct_mse_loss(h2, z, CT_REDUCTION_MEAN, &loss), "shared mse");
        for (ct_tensor t : {x, y, h1, r1, h2, z}) ct_tensor_release(t);
        return loss;
    };
    std::vector<double> want_w(D * D, 0.0), want_b(D, 0.0);
    for (int r = 0; r < g_size; ++r) {
        ct_tensor w = param({D, D}, 0.5, 0.0, CT_FLOAT64), b = param({D}, 0.9, 0.0, CT_FLOAT64);
        backward(loss_of(w, b, r), "shared reference");
        std::vector<double> gw = grad_values(w), gb = grad_values(b);
        for (size_t k = 0; k < gw.size() && k < want_w.size(); ++k) want_w[k] += gw[k] / g_size;
        for (size_t k = 0; k < gb.size() && k < want_b.size(); ++k) want_b[k] += gb[k] / g_size;
        ct_tensor_release(w);
        ct_tensor_release(b);
    }
    ct_tensor w = param({D, D}, 0.5, 0.0, CT_FLOAT64), b = param({D}, 0.9, 0.0, CT_FLOAT64);
    ct_tensor ps[2] = {w, b};
    ct_data_parallel dp = NULL;
    ok(ct_data_parallel_new(pg, ps, 2, 0, &dp), "shared: new");
    backward(loss_of(w, b, g_rank), "shared: backward");
    double d = std::fmax(max_diff(grad_values(w), want_w), max_diff(grad_values(b), want_b));
    check(d < 1e-12, "shared weights: both uses summed once and averaged (max diff " + std::to_string(d) + ")");
    ct_data_parallel_release(dp);
    ct_tensor_release(w);
    ct_tensor_release(b);
}

// autograd.grad does not take part (as with torch's DDP): local gradients, no .grad, the round untouched.
void test_autograd_grad(ct_process_group pg) {
    int64_t shard = B / g_size, begin = g_rank * shard;
    auto want = mean_local_grads(kF64, [&](Mlp& m, int r) {
        backward(mlp_loss(m, (int64_t)r * shard, (int64_t)r * shard + shard), "reference");
    });
    Mlp local(0.0, kF64);
    backward(mlp_loss(local, begin, begin + shard), "local reference");
    Mlp m(0.0, kF64);
    ct_data_parallel dp = NULL;
    ok(ct_data_parallel_new(pg, m.p, 4, 1, &dp), "autograd.grad: new");
    ct_tensor loss = mlp_loss(m, begin, begin + shard), grads[4] = {NULL, NULL, NULL, NULL};
    ok(ct_autograd_grad(&loss, 1, NULL, m.p, 4, 0, 0, 0, grads), "autograd.grad with a data-parallel model");
    double d = 0;
    for (int i = 0; i < 4; ++i) d = std::fmax(d, max_diff(values_of(grads[i]), grad_values(local.p[i])));
    check(d == 0, "autograd.grad gives the local gradients (max diff " + std::to_string(d) + ")");
    check(!has_grad(m.p[0]), "autograd.grad leaves .grad alone");
    for (ct_tensor g : grads) ct_tensor_release(g);
    ct_tensor_release(loss);
    ok(ct_data_parallel_set_sync(dp, 0), "autograd.grad left no reduction open");
    ok(ct_data_parallel_set_sync(dp, 1), "set_sync 1");
    backward(mlp_loss(m, begin, begin + shard), "a backward after autograd.grad");
    check(grads_diff(m, want) < 1e-12, "the backward after autograd.grad averages as usual");
    ct_data_parallel_release(dp);
}

void test_errors(ct_process_group pg) {
    Mlp m(0.0, kF64);
    ct_data_parallel dp = NULL;
    expect_status(ct_data_parallel_new(NULL, m.p, 4, 0, &dp), CT_ERR_INVALID_HANDLE, "data_parallel_new", "NULL group");
    expect_status(ct_data_parallel_new(pg, NULL, 4, 0, &dp), CT_ERR_INVALID_ARGUMENT, "params", "NULL params");
    expect_status(ct_data_parallel_new(pg, m.p, 0, 0, &dp), CT_ERR_INVALID_ARGUMENT, "no parameters", "n = 0");
    expect_status(ct_data_parallel_new(pg, m.p, 4, 0, NULL), CT_ERR_INVALID_ARGUMENT, NULL, "NULL out");
    ct_tensor dup[2] = {m.p[0], m.p[0]};
    expect_status(ct_data_parallel_new(pg, dup, 2, 0, &dp), CT_ERR_INVALID_ARGUMENT, "listed twice", "duplicate");
    ct_tensor sq = NULL;
    ct_mul(m.p[0], m.p[0], &sq);
    ct_tensor nonleaf[2] = {m.p[1], sq};
    expect_status(ct_data_parallel_new(pg, nonleaf, 2, 0, &dp), CT_ERR_AUTOGRAD, "not a leaf", "non-leaf");
    ct_tensor plain = tensor_of({1, 2}, {2}, CT_FLOAT32);
    expect_status(ct_data_parallel_new(pg, &plain, 1, 0, &dp), CT_ERR_AUTOGRAD, "does not require grad", "no requires_grad");
    ct_tensor gone = param({2}, 0.0, 0.0, CT_FLOAT32);
    ct_tensor_release(gone);
    expect_status(ct_data_parallel_new(pg, &gone, 1, 0, &dp), CT_ERR_INVALID_HANDLE, "params[0]", "released param");
    check(dp == NULL, "failed calls leave out untouched");
    // CUDA parameters (the ctest runs with the emulated CUDA backend and its emulated NCCL): rank 0's values are
    // broadcast into them and the gradients are averaged through the device path
    ct_tensor host = param({2}, 0.0, (double)g_rank, CT_FLOAT32), dev = NULL;
    ct_tensor_set_requires_grad(host, 0);
    if (ct_to_device(host, ct_cuda(0), &dev) == CT_OK) {
        ct_tensor_set_requires_grad(dev, 1);
        check(ct_data_parallel_new(pg, &dev, 1, 0, &dp) == CT_OK, "a data-parallel CUDA parameter");
        ct_tensor rank0 = param({2}, 0.0, 0.0, CT_FLOAT32);
        check(max_diff(values_of(dev), values_of(rank0)) < 1e-7, "the CUDA parameter holds rank 0's values");
        ct_tensor_release(rank0);
        ct_tensor scaled = NULL, loss = NULL, factor = NULL;
        ok(ct_wrapped_scalar((double)(g_rank + 1), 0, &factor), "wrapped_scalar");
        ok(ct_mul(dev, factor, &scaled), "mul");
        ct_tensor_release(factor);
        ok(ct_sum(scaled, NULL, 0, 0, &loss), "sum");
        check(ct_backward(loss, NULL, 0, 0) == CT_OK, "backward through a CUDA data-parallel parameter");
        double mean = (g_size + 1) / 2.0;  // mean over the ranks of rank + 1
        check(max_diff(grad_values(dev), {mean, mean}) < 1e-6, "the CUDA parameter's grad is the mean over the ranks");
        ct_tensor_release(loss);
        ct_tensor_release(scaled);
        ct_data_parallel_release(dp);
        dp = NULL;
    } else {
        std::printf("rank %d: no CUDA backend (set CTENSOR_CUDA_BACKEND): the CUDA parameter check is skipped\n", g_rank);
    }
    ct_tensor_release(dev);
    ct_tensor_release(host);
    // mismatches between ranks fail on every rank (before any broadcast), without a hang
    if (g_size > 1) {
        expect_status(ct_data_parallel_new(pg, m.p, g_rank == 0 ? 3 : 4, 0, &dp), CT_ERR_DISTRIBUTED,
                      "disagree on the number of parameters", "parameter count mismatch");
        ct_tensor other = param({g_rank == 0 ? 2 : 3}, 0.0, 0.0, CT_FLOAT64);
        expect_status(ct_data_parallel_new(pg, &other, 1, 0, &dp), CT_ERR_DISTRIBUTED, "shapes or dtypes",
                      "parameter shape mismatch");
        ct_tensor_release(other);
        expect_status(ct_data_parallel_new(pg, m.p, 4, 100 + g_rank, &dp), CT_ERR_DISTRIBUTED, "bucket size",
                      "bucket size mismatch");
    }
    // released and NULL handles
    expect_status(ct_data_parallel_set_sync(NULL, 1), CT_ERR_INVALID_HANDLE, "data_parallel_set_sync", "set_sync NULL");
    expect_status(ct_data_parallel_finish(NULL), CT_ERR_INVALID_HANDLE, "data_parallel_finish", "finish NULL");
    ct_data_parallel_release(NULL);
    ct_data_parallel dead = NULL;
    ok(ct_data_parallel_new(pg, m.p, 4, 0, &dead), "new for the released-handle check");
    ct_data_parallel_release(dead);
    expect_status(ct_data_parallel_finish(dead), CT_ERR_INVALID_HANDLE, "not a live", "finish on a released handle");
    // create_graph backward is refused (and leaves the grads untouched)
    ok(ct_data_parallel_new(pg, m.p, 4, 0, &dp), "new for the create_graph check");
    ct_tensor loss = mlp_loss(m, 0, 2);
    expect_status(ct_backward(loss, NULL, 1, 1), CT_ERR_AUTOGRAD, "create_graph", "create_graph backward");
    check(!has_grad(m.p[0]), "a refused backward leaves .grad untouched");
    expect_status(ct_data_parallel_prepare(dp, NULL, 1), CT_ERR_INVALID_ARGUMENT, "outputs", "prepare NULL outputs");
    ok(ct_data_parallel_set_sync(dp, 0), "set_sync 0");
    expect_status(ct_data_parallel_prepare(dp, &loss, 1), CT_ERR_INVALID_ARGUMENT, "synchronisation is off",
                  "prepare with sync off");
    ok(ct_data_parallel_set_sync(dp, 1), "set_sync 1");
    ct_tensor_release(loss);
    // a rank that makes another collective while the others' backward reduces: every rank fails, group usable
    if (g_size > 1) {
        ct_tensor l2 = mlp_loss(m, 0, 2);
        ct_status st;
        if (g_rank == 0) {
            ct_tensor t = tensor_of({1, 2, 3}, {3}, CT_INT32);
            st = ct_all_reduce(pg, t, CT_REDUCE_SUM);
            ct_tensor_release(t);
        } else {
            st = ct_backward(l2, NULL, 0, 0);
        }
        expect_status(st, CT_ERR_DISTRIBUTED, "disagree", "a collective against a backward's reduction");
        ct_tensor_release(l2);
        check(ct_barrier(pg) == CT_OK, "the group is usable after the mismatch");
        backward(mlp_loss(m, 0, 2), "a backward after the mismatch");
    }
    ct_data_parallel_release(dp);
    ct_tensor_release(sq);
    ct_tensor_release(plain);
}

}  // namespace

int main() {
    int64_t live0 = ct_live_handles();
    ct_process_group world = NULL;
    if (ct_process_group_new_mpi(&world) != CT_OK) {
        std::fprintf(stderr, "ct_process_group_new_mpi: %s\n", ct_last_error());
        return 1;
    }
    ct_process_group_rank(world, &g_rank);
    ct_process_group_size(world, &g_size);
    ct_process_group_set_timeout(world, 60);
    const ct_dtype f32[4] = {CT_FLOAT32, CT_FLOAT32, CT_FLOAT32, CT_FLOAT32};
    const ct_dtype mixed[4] = {CT_FLOAT64, CT_FLOAT64, CT_FLOAT32, CT_FLOAT32};
    for (int64_t bucket : {(int64_t)1, (int64_t)200, (int64_t)0, (int64_t)1 << 40}) test_equivalence(world, kF64, bucket, 1e-12);
    test_equivalence(world, f32, 1, 2e-5);
    test_equivalence(world, f32, 0, 2e-5);
    test_equivalence(world, mixed, 200, 2e-5);
    {  // a group without the agreement checks (ct_process_group_set_checks) reduces the same
        std::vector<int32_t> all;
        for (int r = 0; r < g_size; ++r) all.push_back(r);
        ct_process_group fast = NULL;
        ok(ct_process_group_new_subgroup(world, all.data(), g_size, &fast), "group without checks");
        ok(ct_process_group_set_checks(fast, 0), "set_checks 0");
        test_equivalence(fast, kF64, 1, 1e-12);
        ct_process_group_release(fast);
    }
    test_no_sync(world);
    test_unused(world);
    test_prepare_without_params(world);
    test_user_hook(world);
    test_shared(world);
    test_autograd_grad(world);
    test_errors(world);
    ct_process_group_release(world);
    check(ct_live_handles() == live0, "live handles back to the start (" + std::to_string(ct_live_handles()) + " vs " +
                                          std::to_string(live0) + ")");
    std::printf("rank %d of %d: %d passed, %d failed\n", g_rank, g_size, g_pass, g_fail);
    return g_fail ? 1 : 0;
}
