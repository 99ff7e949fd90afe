// stress_threads.cpp - eight threads drive the C ABI at once: independent small models trained on shared
// read-only tensors and views, grad mode toggled, errors provoked and their thread-local messages checked,
// handles released on other threads, backward into a shared leaf, stale views read (issue 18 finding 6),
// create_graph gradients dropped while their optimizer steps (finding 7), and the thread count changed
// meanwhile. Every result is compared with a single-threaded run of the same work; exit status 0 means all
// matched. Under ThreadSanitizer (CTENSOR_TSAN, ctest stress_threads_tsan) it must run with zero reports.
#include <atomic>
#include <condition_variable>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#include "ctensor.h"

namespace {

constexpr int kThreads = 8;
constexpr int kSteps = 24;
constexpr int kFinalSteps = 3;
constexpr int kRounds = 3;  // concurrent runs, each compared with the single-threaded one

std::atomic<int> g_failures{0};
std::mutex g_print_mu;

void report(int line, const std::string& what) {
    std::lock_guard<std::mutex> lock(g_print_mu);
    std::fprintf(stderr, "stress_threads.cpp:%d: %s\n", line, what.c_str());
    g_failures.fetch_add(1);
}
#define CHECK(call)                                                                          \
    do {                                                                                     \
        ct_status st_ = (call);                                                              \
        if (st_ != CT_OK) report(__LINE__, std::string(#call) + " -> " + ct_last_error());   \
    } while (0)
#define EXPECT(cond, msg)                                     \
    do {                                                      \
        if (!(cond)) report(__LINE__, std::string(#cond) + ": " + (msg)); \
    } while (0)

// One owned handle.
struct T {
    ct_tensor h = nullptr;
    T() = default;
    explicit T(ct_tensor x) : h(x) {}
    T(const T&) = delete;
    T& operator=(const T&) = delete;
    T(T&& o) noexcept : h(o.h) { o.h = nullptr; }
    ~T() { ct_tensor_release(h); }
    ct_tensor* out() {
        ct_tensor_release(h);
        h = nullptr;
        return &h;
    }
    ct_tensor release() {
        ct_tensor r = h;
        h = nullptr;
        return r;
    }
};

ct_tensor from(const std::vector<double>& v, std::vector<int64_t> shape, bool requires_grad = false) {
    ct_tensor t = nullptr;
    CHECK(ct_tensor_from_data(v.data(), (int64_t)(v.size() * sizeof(double)), shape.data(), (int32_t)shape.size(),
                              CT_FLOAT64, ct_cpu(), &t));
    if (requires_grad) CHECK(ct_tensor_set_requires_grad(t, 1));
    return t;
}

std::vector<double> pattern(size_t n, double a, double b) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = 0.5 * std::sin(a * (double)i + b);
    return v;
}

std::vector<double> host(ct_tensor t) {
    int64_t n = 0;
    CHECK(ct_tensor_numel(t, &n));
    std::vector<double> v((size_t)n);
    CHECK(ct_tensor_copy_to_host(t, v.data(), n * (int64_t)sizeof(double)));
    return v;
}

double item(ct_tensor t) {
    double v = NAN;
    CHECK(ct_tensor_item(t, &v));
    return v;
}

bool close(double a, double b, double rtol = 1e-9) { return std::fabs(a - b) <= rtol * (1.0 + std::fabs(b)); }

// Tensors every thread reads and nobody writes while they run.
struct Shared {
    T x, y, xv, yv;   // data [32, 16] and targets [32, 4]; xv, yv: every other row (views)
    T big;            // [512, 256]: split over the thread pool
    double big_sq_sum = 0;
    double gram_sum = 0;  // sum of (rows 0..127 of big) (rows 0..127 of big)^T: a gemm on the pool
    T w0;             // a leaf every model uses: concurrent backward accumulates into its .grad
    std::vector<T> stale;  // per step: rows 0..1 of (w0 * 1) viewed, then the base doubled in place
};

void make_stale_views(Shared& s) {
    s.stale.clear();
    s.stale.resize(kSteps);
    T one(from({1.0}, {})), two(from({2.0}, {}));
    for (auto& v : s.stale) {
        T base;
        CHECK(ct_mul(s.w0.h, one.h, base.out()));
        CHECK(ct_slice(base.h, 0, 0, 2, 1, v.out()));
        CHECK(ct_mul_(base.h, two.h));  // v's recorded history is stale now
    }
}

// Handles one thread leaves for another to release.
struct Mailbox {
    std::mutex mu;
    std::vector<ct_tensor> handles;
    void put(ct_tensor h) {
        std::lock_guard<std::mutex> lock(mu);
        handles.push_back(h);
    }
    void release_all() {
        std::vector<ct_tensor> hs;
        {
            std::lock_guard<std::mutex> lock(mu);
            hs.swap(handles);
        }
        for (auto h : hs) ct_tensor_release(h);
    }
};

// All n threads leave wait() together (so their first reads of a stale view race).
class Barrier {
  public:
    explicit Barrier(int n) : n_(n) {}
    void wait() {
        std::unique_lock<std::mutex> lock(mu_);
        int gen = gen_;
        if (++count_ == n_) {
            count_ = 0;
            ++gen_;
            cv_.notify_all();
            return;
        }
        cv_.wait(lock, [&] { return gen_ != gen; });
    }
  private:
    std::mutex mu_;
    std::condition_variable cv_;
    int n_, count_ = 0, gen_ = 0;
};

struct Result {
    std::vector<double> losses;
};

// Checks that a failing call leaves this thread's own message and status, whatever other threads do.
void provoke_error(int id) {
    T a, b, c;
    a.h = from(std::vector<double>(2 * (100 + id), 1.0), {2, 100 + id});
    b.h = from(std::vector<double>(2 * (200 + id), 1.0), {200 + id, 2});
    ct_status st = ct_matmul(a.h, b.h, c.out());
    std::string msg = ct_last_error();
    EXPECT(st == CT_ERR_SHAPE, "matmul of mismatched shapes returned " + std::string(ct_status_name(st)));
    EXPECT(c.h == nullptr, "out-parameter written on failure");
    EXPECT(msg.find(std::to_string(100 + id)) != std::string::npos &&
               msg.find(std::to_string(200 + id)) != std::string::npos,
           "thread " + std::to_string(id) + " got another thread's message: " + msg);
    std::this_thread::yield();
    EXPECT(ct_last_status() == CT_ERR_SHAPE && msg == ct_last_error(), "the thread-local error changed: " +
                                                                         std::string(ct_last_error()));
}

// mse(tanh(xv w1' + b1) w2' + xv w0', yv): the model's loss on the shared data.
void model_loss(Shared& s, ct_tensor w1, ct_tensor b1, ct_tensor w2, T& loss) {
    T h, th, o1, o2, out;
    CHECK(ct_linear(s.xv.h, w1, b1, h.out()));
    CHECK(ct_tanh(h.h, th.out()));
    CHECK(ct_linear(th.h, w2, nullptr, o1.out()));
    CHECK(ct_linear(s.xv.h, s.w0.h, nullptr, o2.out()));
    CHECK(ct_add(o1.h, o2.h, 1.0, out.out()));
    CHECK(ct_mse_loss(out.h, s.yv.h, CT_REDUCTION_MEAN, loss.out()));
}

// One model's training; the same work for every id, so all runs must give the same numbers.
void train(int id, Shared& s, Barrier& together, Mailbox& mine, Mailbox& next, Result& res) {
    T w1(from(pattern(8 * 16, 0.31, 0.2), {8, 16}, true)), b1(from(pattern(8, 0.7, 0.1), {8}, true));
    T w2(from(pattern(4 * 8, 0.23, 0.5), {4, 8}, true));
    ct_tensor params[3] = {w1.h, b1.h, w2.h};
    ct_optimizer opt = nullptr;
    CHECK(ct_optim_sgd_new(params, 3, 0.1, 0.0, 0.0, 0.0, 0, &opt));
    T loss;
    for (int step = 0; step < kSteps; ++step) {
        // grad mode is per thread: an evaluation without history while the other threads record theirs
        int32_t prev = 0, rg = 1;
        CHECK(ct_set_grad_enabled(0, &prev));
        T eval;
        CHECK(ct_linear(s.xv.h, w1.h, b1.h, eval.out()));
        CHECK(ct_tensor_requires_grad(eval.h, &rg));
        EXPECT(rg == 0 && prev == 1, "grad mode leaked between threads");
        CHECK(ct_set_grad_enabled(1, nullptr));

        provoke_error(id);

        // a stale view read by every thread at the same time (finding 6)
        ct_tensor v = s.stale[step].h;
        together.wait();
        int32_t leaf = 1;
        char name[64] = {0};
        CHECK(ct_tensor_is_leaf(v, &leaf));
        CHECK(ct_tensor_grad_fn_name(v, name, sizeof name, nullptr));
        EXPECT(leaf == 0 && name[0] != '\0', std::string("stale view reads is_leaf=") + std::to_string(leaf) +
                                                 " grad_fn=" + name);

        // loss = model loss + 1e-3 sum(v^2)
        T mse, vv, sq, big2, bigsum;
        model_loss(s, w1.h, b1.h, w2.h, mse);
        CHECK(ct_mul(v, v, vv.out()));
        CHECK(ct_sum(vv.h, nullptr, 0, 0, sq.out()));
        CHECK(ct_add(mse.h, sq.h, 1e-3, loss.out()));
        res.losses.push_back(item(loss.h));
        // retain_graph: the stale views' rebuilt history is shared by every thread's graph
        CHECK(ct_backward(loss.h, nullptr, 1, 0));
        CHECK(ct_optimizer_step(opt));
        CHECK(ct_optimizer_zero_grad(opt, step % 2));

        // a parallel loop and reduction on the shared pool (its size changes meanwhile)
        CHECK(ct_mul(s.big.h, s.big.h, big2.out()));
        CHECK(ct_sum(big2.h, nullptr, 0, 0, bigsum.out()));
        EXPECT(close(item(bigsum.h), s.big_sq_sum), "sum of squares of the shared tensor differs");
        T rows, gram, gsum;
        CHECK(ct_narrow(s.big.h, 0, 0, 128, rows.out()));
        CHECK(ct_linear(rows.h, rows.h, nullptr, gram.out()));
        CHECK(ct_sum(gram.h, nullptr, 0, 0, gsum.out()));
        EXPECT(close(item(gsum.h), s.gram_sum), "sum of the shared tensor's gram matrix differs");

        // handles made here, released by the next thread: a graph-carrying loss and a view of shared data
        T xs;
        CHECK(ct_slice(s.x.h, 0, step % 8, 32, 3, xs.out()));
        next.put(xs.release());
        next.put(ct_tensor_retain(loss.h));
        mine.release_all();
    }
    // create_graph gradients (finding 7): the parameters' last handles go to the next thread, which releases
    // them while this one still steps the optimizer that holds the parameters
    T fresh;  // the last loss saw the parameters before the last step
    model_loss(s, w1.h, b1.h, w2.h, fresh);
    CHECK(ct_backward(fresh.h, nullptr, 0, 1));
    next.put(w1.release());
    next.put(b1.release());
    next.put(w2.release());
    for (int i = 0; i < kFinalSteps; ++i) {
        CHECK(ct_optimizer_step(opt));
        mine.release_all();
    }
    CHECK(ct_optimizer_zero_grad(opt, 0));
    ct_optimizer_release(opt);
}

void run(int n, Shared& s, std::vector<Result>& results) {
    std::vector<Mailbox> boxes(n);
    Barrier together(n);
    results.assign(n, Result());
    std::atomic<int> waiting{n}, running{n};
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i)
        threads.emplace_back([&, i] {
            waiting.fetch_sub(1);
            while (waiting.load() > 0) std::this_thread::yield();
            train(i, s, together, boxes[i], boxes[(i + 1) % n], results[i]);
            running.fetch_sub(1);
        });
    // the thread budget changes while the models train
    std::thread tuner([&] {
        for (int k = 0; running.load() > 0; ++k) {
            CHECK(ct_set_num_threads(1 + k % 4));
            int32_t got = ct_get_num_threads();
            EXPECT(got >= 1 && got <= 4, "ct_get_num_threads gave " + std::to_string(got));
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    });
    for (auto& t : threads) t.join();
    tuner.join();
    for (auto& b : boxes) b.release_all();
}

// Compares one concurrent round with the single-threaded reference.
void compare(int round, const std::vector<Result>& results, const Result& reference,
             const std::vector<double>& w0_grad, const std::vector<double>& reference_w0_grad) {
    std::string where = "round " + std::to_string(round) + ", ";
    for (int i = 0; i < kThreads; ++i) {
        EXPECT(results[i].losses.size() == (size_t)kSteps, where + "thread " + std::to_string(i) + " did not finish");
        for (size_t k = 0; k < results[i].losses.size() && k < reference.losses.size(); ++k)
            EXPECT(close(results[i].losses[k], reference.losses[k]),
                   where + "thread " + std::to_string(i) + " step " + std::to_string(k) + ": loss " +
                       std::to_string(results[i].losses[k]) + " vs " + std::to_string(reference.losses[k]));
    }
    EXPECT(w0_grad.size() == reference_w0_grad.size(), where + "shared leaf's gradient has the wrong size");
    for (size_t k = 0; k < w0_grad.size() && k < reference_w0_grad.size(); ++k)
        EXPECT(close(w0_grad[k], kThreads * reference_w0_grad[k], 1e-8),
               where + "shared leaf's gradient " + std::to_string(k) + ": " + std::to_string(w0_grad[k]) + " vs " +
                   std::to_string(kThreads * reference_w0_grad[k]));
}

}  // namespace

int main() {
    if (ct_check_abi(CT_ABI_VERSION, CT_VERSION_MINOR) != CT_OK) {
        std::fprintf(stderr, "ABI check failed: %s\n", ct_last_error());
        return 1;
    }
    int32_t threads_before = ct_get_num_threads();
    int64_t baseline = ct_live_handles();
    std::vector<Result> reference;
    {
        Shared s;
        s.x.h = from(pattern(32 * 16, 0.37, 0.0), {32, 16});
        s.y.h = from(pattern(32 * 4, 0.11, 1.0), {32, 4});
        CHECK(ct_slice(s.x.h, 0, 0, 32, 2, s.xv.out()));
        CHECK(ct_slice(s.y.h, 0, 0, 32, 2, s.yv.out()));
        std::vector<double> big = pattern(512 * 256, 0.013, 0.3);
        s.big.h = from(big, {512, 256});
        for (double b : big) s.big_sq_sum += b * b;
        for (int j = 0; j < 256; ++j) {  // sum_ik (a a^T)_ik = sum_j (sum_i a_ij)^2
            double col = 0;
            for (int i = 0; i < 128; ++i) col += big[(size_t)i * 256 + j];
            s.gram_sum += col * col;
        }
        s.w0.h = from(pattern(4 * 16, 0.19, 0.7), {4, 16}, true);

        // the stale views must be fresh (never read) for each run
        auto run_round = [&](int n, std::vector<Result>& results, std::vector<double>& w0_grad) {
            make_stale_views(s);
            run(n, s, results);
            T g;
            CHECK(ct_tensor_grad(s.w0.h, g.out()));
            w0_grad = host(g.h);
            CHECK(ct_tensor_set_grad(s.w0.h, nullptr));
        };
        std::vector<double> reference_w0_grad, w0_grad;
        run_round(1, reference, reference_w0_grad);
        EXPECT(reference[0].losses.back() < 0.5 * reference[0].losses.front(), "training did not reduce the loss");
        for (int round = 0; round < kRounds; ++round) {
            std::vector<Result> results;
            run_round(kThreads, results, w0_grad);
            compare(round, results, reference[0], w0_grad, reference_w0_grad);
        }
    }
    CHECK(ct_set_num_threads(threads_before));
    EXPECT(ct_live_handles() == baseline, "live handles " + std::to_string(ct_live_handles()) + ", expected " +
                                              std::to_string(baseline));
    if (g_failures.load() == 0)
        std::printf("stress_threads: %d rounds of %d threads x %d steps matched the single-threaded run "
                    "(loss %.4f -> %.4f)\n", kRounds, kThreads, kSteps, reference[0].losses.front(),
                    reference[0].losses.back());
    return g_failures.load() == 0 ? 0 : 1;
}
