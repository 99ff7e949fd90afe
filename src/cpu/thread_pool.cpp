// thread_pool.cpp - ctensor's own worker pool behind parallel_for: workers spin for a few microseconds after
// a job and then sleep on a condition variable, so an idle pool costs no CPU on a loaded machine (libgomp's
// default spin of ~300k iterations per region did). One job runs at a time; the caller takes chunks too.
#include "cpu/thread_pool.h"
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>
#include <sched.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CT_CPU_RELAX() _mm_pause()
#else
#define CT_CPU_RELAX() std::this_thread::yield()
#endif

namespace ct {
namespace {

// Spin iterations (each one pause, ~40 ns on Skylake-X) before a thread blocks: ~50 us, long enough for the
// back-to-back regions of one op sequence, short enough not to starve other processes.
constexpr int kSpinIters = 1200;

thread_local bool t_in_region = false;  // set while this thread runs a chunk (nested loops run serially)

// Job state word: generation (upper 32 bits) | claims (lower 32 bits). A job of at most kMaskChunks chunks
// keeps a bit per claimed chunk, so each thread can first claim "its own" chunk (the caller chunk 0, worker k
// chunk k + 1): a loop repeated over the same data then touches the same half on the same core, whose cache
// still holds it. A larger job keeps a counter of claimed chunks instead. Claims are CAS on the whole word,
// so a late worker can never claim a chunk of a newer job by mistake.
constexpr uint64_t kGenShift = 32, kClaimMask = 0xffffffffu;
constexpr int kMaskChunks = 32;
uint64_t gen_of(uint64_t s) { return s >> kGenShift; }
uint64_t claims_of(uint64_t s) { return s & kClaimMask; }

class Pool {
public:
    static Pool& get() {
        static Pool* p = new Pool();  // never destroyed: workers may outlive static destruction
        return *p;
    }

    // Runs call(ctx, i) for i in [0, chunks) on the caller and up to chunks - 1 workers.
    void run(int chunks, ChunkFn call, void* ctx) {
        std::unique_lock<std::mutex> job(job_mu_, std::try_to_lock);
        if (!job.owns_lock()) return run_serial(chunks, call, ctx);  // another thread's job is running
        ensure_workers(chunks - 1);
        call_ = call;
        ctx_ = ctx;
        error_ = nullptr;
        done_.store(0, std::memory_order_relaxed);
        uint64_t gen = gen_of(state_.load(std::memory_order_relaxed)) + 1;
        job_.store(gen << kGenShift | (uint64_t)chunks, std::memory_order_relaxed);  // published by the state store below
        state_.store(gen << kGenShift, std::memory_order_seq_cst);
        if (sleepers_.load(std::memory_order_seq_cst) > 0) {
            std::lock_guard<std::mutex> lock(sleep_mu_);
            wake_cv_.notify_all();
        }
        work(gen, 0);
        wait_done(chunks);
        if (error_) std::rethrow_exception(error_);
    }

private:
    std::mutex job_mu_;        // one job at a time
    std::mutex sleep_mu_;      // guards sleeping and waking (both directions)
    std::condition_variable wake_cv_, done_cv_;
    std::atomic<uint64_t> state_{0};
    // The current job's generation (upper 32 bits) and chunk count (lower 32 bits). Stored before the state that
    // starts the job, so a worker that still sees the previous job's state may read the next job's count: the
    // generation tells it apart (Note in claim).
    std::atomic<uint64_t> job_{0};
    std::atomic<int> done_{0}, sleepers_{0};
    std::atomic<bool> caller_sleeping_{false};
    ChunkFn call_ = nullptr;
    void* ctx_ = nullptr;
    std::exception_ptr error_;  // first exception thrown by a chunk (guarded by sleep_mu_)
    std::vector<std::thread> workers_;

    static void run_serial(int chunks, ChunkFn call, void* ctx) {
        bool outer = t_in_region;
        t_in_region = true;
        try {
            for (int i = 0; i < chunks; ++i) call(ctx, i);
        } catch (...) {
            t_in_region = outer;
            throw;
        }
        t_in_region = outer;
    }

    void ensure_workers(int n) {
        while ((int)workers_.size() < n) {
            uint64_t current = gen_of(state_.load(std::memory_order_acquire));  // the next job is new to it
            int index = (int)workers_.size() + 1;  // the caller is participant 0
            workers_.emplace_back([this, current, index] { worker_loop(current, index); });
            workers_.back().detach();
        }
    }

    // Claims a chunk of job `gen`, `preferred` if it is still free: true with its index in `chunk` and the
    // job's chunk count in `chunks`, or false when the job has none left (or is over).
    bool claim(uint64_t gen, int preferred, int& chunk, int& chunks) {
        uint64_t s = state_.load(std::memory_order_acquire);
        while (gen_of(s) == gen) {
            // Job gen's count. The next job's caller stores its count before its state, so job_ may already be
            // the next job's while s is still gen's: gen is then over (a job starts only after the previous one
            // is done), and a claim with the next job's count would run a chunk of a job not yet published and
            // count it in the wrong job (TSan, stress_threads under load).
            uint64_t job = job_.load(std::memory_order_acquire);
            if (gen_of(job) != gen) return false;
            chunks = (int)claims_of(job);
            uint64_t claims = claims_of(s), next;
            if (chunks <= kMaskChunks) {
                if (claims == (uint64_t(1) << chunks) - 1) return false;
                chunk = preferred < chunks && !(claims >> preferred & 1) ? preferred : __builtin_ctzll(~claims);
                next = s | (uint64_t(1) << chunk);
            } else {
                if ((int64_t)claims >= chunks) return false;
                chunk = (int)claims;
                next = s + 1;
            }
            if (state_.compare_exchange_weak(s, next, std::memory_order_acq_rel, std::memory_order_acquire)) return true;
        }
        return false;
    }

    // Claims and runs chunks of job `gen` (starting with `preferred`) until none is left.
    void work(uint64_t gen, int preferred) {
        int chunk, chunks;
        while (claim(gen, preferred, chunk, chunks)) {
            t_in_region = true;
            try {
                call_(ctx_, (int64_t)chunk);
            } catch (...) {
                std::lock_guard<std::mutex> lock(sleep_mu_);
                if (!error_) error_ = std::current_exception();
            }
            t_in_region = false;
            if (done_.fetch_add(1, std::memory_order_seq_cst) + 1 == chunks &&
                caller_sleeping_.load(std::memory_order_seq_cst)) {
                std::lock_guard<std::mutex> lock(sleep_mu_);
                done_cv_.notify_all();
            }
        }
    }

    void wait_done(int chunks) {
        for (int i = 0; i < kSpinIters; ++i) {
            if (done_.load(std::memory_order_acquire) == chunks) return;
            CT_CPU_RELAX();
        }
        std::unique_lock<std::mutex> lock(sleep_mu_);
        caller_sleeping_.store(true, std::memory_order_seq_cst);
        done_cv_.wait(lock, [&] { return done_.load(std::memory_order_seq_cst) == chunks; });
        caller_sleeping_.store(false, std::memory_order_relaxed);
    }

    void worker_loop(uint64_t seen, int index) {
#ifdef _OPENMP
        omp_set_num_threads(1);  // BLAS called from a chunk must not start an OpenMP team of its own
#endif
        for (;;) {
            uint64_t s = state_.load(std::memory_order_acquire);
            for (int i = 0; i < kSpinIters && gen_of(s) == seen; ++i) {
                CT_CPU_RELAX();
                s = state_.load(std::memory_order_acquire);
            }
            if (gen_of(s) == seen) {
                std::unique_lock<std::mutex> lock(sleep_mu_);
                sleepers_.fetch_add(1, std::memory_order_seq_cst);
                wake_cv_.wait(lock, [&] { return gen_of(state_.load(std::memory_order_seq_cst)) != seen; });
                sleepers_.fetch_sub(1, std::memory_order_relaxed);
                s = state_.load(std::memory_order_acquire);
            }
            seen = gen_of(s);
            work(seen, index);
        }
    }
};

}  // namespace

bool in_parallel_region() { return t_in_region; }

void run_chunks(int chunks, ChunkFn call, void* ctx) {
    if (chunks <= 1 || t_in_region) {
        for (int i = 0; i < chunks; ++i) call(ctx, i);
        return;
    }
    Pool::get().run(chunks, call, ctx);
}

}  // namespace ct
