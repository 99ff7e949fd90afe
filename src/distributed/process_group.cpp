// process_group.cpp - process groups: creation, the ordered work queue, the agreement check and timeouts
// (Notes [Collective order], [Agreement] and [Broken group] in process_group.h).
#include "distributed/process_group.h"
#include <time.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sched.h>
#include "core/dtype.h"
#include "core/error.h"

namespace ct {
namespace {

const char* kDescNames[kDescFields] = {"collective", "reduce op", "dtype", "root", "rank (ndim)", "number of elements",
                                       "size of dim 0", "size of dim 1", "size of dim 2", "size of dim 3",
                                       "size of dim 4", "size of dim 5", "device type"};
const char* kKindNames[] = {"all_reduce", "broadcast", "all_gather", "reduce_scatter", "barrier", "send", "recv",
                            "process_group_new_subgroup"};
const char* kOpNames[] = {"SUM", "MEAN", "MAX", "MIN", "PRODUCT"};

std::string desc_value(int field, int64_t v) {
    if (field == 0 && v >= 0 && v < 8) return kKindNames[v];
    if (field == 1 && v >= 0 && v < 5) return kOpNames[v];
    if (field == 2 && dtype_valid((int32_t)v)) return dtype_name((DType)v);
    if (field == 12 && (v == CT_DEVICE_CPU || v == CT_DEVICE_CUDA)) return v == CT_DEVICE_CPU ? "cpu" : "cuda";
    return std::to_string(v);
}

std::string seconds_str(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", s);
    return buf;
}

double default_timeout() {
    const char* env = std::getenv("CTENSOR_DIST_TIMEOUT");
    if (env && *env) {
        char* end = nullptr;
        double v = std::strtod(env, &end);
        if (end && *end == '\0' && std::isfinite(v) && v > 0) return v;
    }
    return 300.0;
}

// Buffers of requests given up on (Note [Broken group]): kept reachable, never freed.
std::mutex g_graveyard_mu;
std::vector<std::shared_ptr<Work>>* g_graveyard = new std::vector<std::shared_ptr<Work>>();

void bury(const std::shared_ptr<Work>& w) {
    std::lock_guard<std::mutex> lock(g_graveyard_mu);
    g_graveyard->push_back(w);
}

}  // namespace

ProcessGroup::ProcessGroup(const ct_dist_backend* be, ct_dist_comm* comm, int32_t rank, int32_t size)
    : be_(be), comm_(comm), rank_(rank), size_(size), timeout_(default_timeout()) {}

ProcessGroup::~ProcessGroup() {
    // A broken group may still have requests in flight on its communicators: they are left to MPI_Finalize.
    if (!broken_.empty()) return;
    if (dev_comm_) dev_be_->comm_free(dev_comm_);
    be_->comm_free(comm_);
}

void ProcessGroup::set_timeout(double seconds) {
    if (!(seconds > 0) || !std::isfinite(seconds))
        fail(CT_ERR_INVALID_ARGUMENT, "process_group_set_timeout: the timeout must be a positive number of seconds, got ",
             seconds);
    timeout_.store(seconds);
}

void ProcessGroup::check_usable(const char* op) {
    if (size_ == 0)
        fail(CT_ERR_INVALID_ARGUMENT, op, ": this process is not a member of the group (a subgroup without this rank)");
    if (!is_broken_.load(std::memory_order_acquire)) return;  // the common case takes no lock
    std::lock_guard<std::mutex> lock(mu_);
    if (!broken_.empty())
        fail(CT_ERR_DISTRIBUTED, op, ": the process group is unusable after an earlier failure (", broken_,
             "); create a new group");
}

void ProcessGroup::mark_broken(std::string message) {
    broken_ = std::move(message);
    is_broken_.store(true, std::memory_order_release);
}

void ProcessGroup::enqueue(const std::shared_ptr<Work>& w) {
    if (!checks()) w->agree = false;  // Note [Agreement]
    w->timeout = timeout();
    w->start = std::chrono::steady_clock::now();
    w->deadline = w->start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                 std::chrono::duration<double>(w->timeout));
    if (w->agree)
        for (int i = 0; i < kDescFields; ++i) w->desc[kDescFields + i] = -w->desc[i];
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(w);
    progress_locked();
}

void ProcessGroup::finish_work(Work& w, ct_status status, std::string message) {
    w.status = status;
    w.message = std::move(message);
    w.stage = 3;
    w.req = nullptr;
}

const ct_dist_backend* ProcessGroup::data_backend(const Work& w) const {
    return w.device_type == CT_DEVICE_CUDA ? dev_be_ : be_;
}

const ct_dist_backend* ProcessGroup::stage_backend(const Work& w) const {
    return w.stage == 2 ? data_backend(w) : be_;
}

bool ProcessGroup::ensure_device_comm(Work& w) {
    if (dev_comm_) {
        if (w.device_index == dev_index_) return true;
        finish_work(w, CT_ERR_DEVICE,
                    std::string(w.op) + ": this process group's NCCL communicator is on cuda:" + std::to_string(dev_index_) +
                        ", the tensor on cuda:" + std::to_string(w.device_index) +
                        " (one CUDA device per process and group)");
        return false;
    }
    if (w.args.kind == CT_DIST_SEND || w.args.kind == CT_DIST_RECV) {
        // only the two peers are here, and making the communicator is collective over the group
        finish_work(w, CT_ERR_DISTRIBUTED,
                    std::string(w.op) + ": send/recv of CUDA tensors needs the group's NCCL communicator, made by the "
                                        "group's first collective on CUDA tensors (e.g. a broadcast of the model); run one first");
        return false;
    }
    try {
        dev_be_ = &dist_backend(w.op, CT_DEVICE_CUDA);  // loaded already: the collective checked it before queueing
    } catch (const Error& e) {
        finish_work(w, e.status(), e.what());
        return false;
    }
    ct_dist_comm* comm = nullptr;
    ct_status st = dev_be_->comm_init(be_, comm_, rank_, size_, w.device_index, &comm);
    if (st != CT_OK) {
        mark_broken(std::string(w.op) + ": making the group's NCCL communicator failed on rank " + std::to_string(rank_) +
                ": " + dev_be_->last_error());
        finish_work(w, st, broken_);
        return false;
    }
    dev_comm_ = comm;
    dev_index_ = w.device_index;
    return true;
}

void ProcessGroup::start_stage(Work& w) {
    ct_dist_args a{};
    const ct_dist_backend* be = be_;
    ct_dist_comm* comm = comm_;
    if (w.stage == 0 && w.agree) {
        a.kind = CT_DIST_ALLREDUCE;
        a.op = CT_DIST_MAX;
        a.dtype = CT_INT64;
        a.count = 2 * kDescFields;
        a.send = a.recv = w.desc;
        w.stage = 1;
    } else if (!w.has_data) {
        w.stage = 2;
        w.req = nullptr;
        return;
    } else {
        w.stage = 2;
        w.req = nullptr;
        if (w.device_type == CT_DEVICE_CUDA) {  // Note [Device communicators]
            if (!ensure_device_comm(w)) return;
            be = dev_be_;
            comm = dev_comm_;
        }
        if (w.blocking && w.device_type != CT_DEVICE_CUDA) {  // Note [Blocking data]; device data is always polled
            ct_status st = be->run(comm, &w.args);
            if (st != CT_OK) {
                mark_broken(std::string(w.op) + " failed on rank " + std::to_string(rank_) + ": " + be->last_error());
                finish_work(w, st, broken_);
            }
            return;
        }
        a = w.args;
    }
    ct_status st = be->start(comm, &a, &w.req);
    if (st != CT_OK) {
        w.req = nullptr;
        finish_work(w, st, std::string(w.op) + ": " + be->last_error());
    }
}

void ProcessGroup::check_agreement(Work& w) {
    for (int i = 0; i < kDescFields; ++i) {
        int64_t hi = w.desc[i], lo = -w.desc[kDescFields + i];
        if (hi != lo) {
            finish_work(w, CT_ERR_DISTRIBUTED,
                        std::string(w.op) + ": the ranks of the group disagree on the " + kDescNames[i] + " (" +
                            desc_value(i, lo) + " on some ranks, " + desc_value(i, hi) + " on others; this is rank " +
                            std::to_string(rank_) + " of " + std::to_string(size_) +
                            "): every rank must make the same collective call with the same shape and dtype");
            return;
        }
    }
    start_stage(w);
}

void ProcessGroup::progress_locked() {
    while (!queue_.empty()) {
        std::shared_ptr<Work> head = queue_.front();
        Work& w = *head;
        if (!broken_.empty() && w.stage == 0)
            finish_work(w, CT_ERR_DISTRIBUTED, std::string(w.op) + ": the process group is unusable after an earlier failure (" +
                                                   broken_ + ")");
        if (w.stage == 0) start_stage(w);
        while (!w.done()) {
            if (w.req) {
                int32_t done = 0;
                const ct_dist_backend* be = stage_backend(w);
                ct_status st = be->test(w.req, &done);
                if (!done) {
                    if (std::chrono::steady_clock::now() < w.deadline) return;  // still running
                    std::string msg = std::string(w.op) + " timed out after " + seconds_str(w.timeout) +
                                      " on rank " + std::to_string(rank_) + " of " + std::to_string(size_) +
                                      (w.stage == 1 ? " (waiting for the other ranks to join)" : " (moving data)");
                    if (be->cancel(w.req)) w.req = nullptr;  // a cancelled receive leaves the group usable
                    if (w.req) {                                 // Note [Broken group]
                        w.abandoned = w.req;
                        bury(head);
                        mark_broken(msg);
                    }
                    finish_work(w, CT_ERR_DISTRIBUTED, msg);
                    break;
                }
                w.req = nullptr;
                if (st != CT_OK) {
                    std::string msg = std::string(w.op) + " failed on rank " + std::to_string(rank_) + ": " + be->last_error();
                    if (st == CT_ERR_DISTRIBUTED && w.args.kind != CT_DIST_RECV) mark_broken(msg);
                    finish_work(w, st, msg);
                    break;
                }
            }
            if (w.stage == 1) {
                check_agreement(w);
            } else if (w.stage == 2 && !w.req) {
                try {
                    if (w.finish) w.finish(w);
                    finish_work(w, CT_OK, "");
                } catch (const Error& e) {
                    finish_work(w, e.status(), e.what());
                } catch (const std::bad_alloc&) {
                    finish_work(w, CT_ERR_OUT_OF_MEMORY, std::string(w.op) + ": out of memory");
                }
            }
        }
        queue_.pop_front();
    }
}

bool ProcessGroup::run_direct(const ct_dist_args& a, const char* op) {
    if (!checks()) {
        std::lock_guard<std::mutex> lock(mu_);
        if (!queue_.empty() || !broken_.empty()) return false;
        ct_status st = be_->run(comm_, &a);
        if (st == CT_OK) return true;
        mark_broken(std::string(op) + " failed on rank " + std::to_string(rank_) + ": " + be_->last_error());
        throw Error(st, broken_);
    }
    return false;
}

bool ProcessGroup::poll(Work& w) {
    std::lock_guard<std::mutex> lock(mu_);
    if (!w.done()) progress_locked();
    return w.done();
}

ct_status ProcessGroup::wait(Work& w) {
    auto t0 = std::chrono::steady_clock::now();
    for (int64_t spins = 0;; ++spins) {
        if (poll(w)) return w.status;
        // Spin first (latency), then yield, then nap: ranks oversubscribing cores must not starve each other.
        if (spins < 2000) continue;
        if (std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(20)) {
            sched_yield();
        } else {
            struct timespec ts = {0, 20000};
            nanosleep(&ts, nullptr);
        }
    }
}

void wait_or_throw(Work& w) {
    std::shared_ptr<ProcessGroup> pg = w.pg;
    pg->wait(w);  // reads the work's state under the group's lock (it may be progressed by another thread)
    if (w.status != CT_OK) throw Error(w.status, w.message);
}

std::shared_ptr<ProcessGroup> process_group_world() {
    const ct_dist_backend& be = dist_backend("process_group_new_mpi", CT_DEVICE_CPU);
    ct_dist_comm* comm = nullptr;
    int32_t rank = 0, size = 0;
    ct_status st = be.world(&comm, &rank, &size);
    if (st != CT_OK) fail(st, "process_group_new_mpi: ", be.last_error());
    return std::make_shared<ProcessGroup>(&be, comm, rank, size);
}

std::shared_ptr<ProcessGroup> process_group_subgroup(const std::shared_ptr<ProcessGroup>& pg, const std::vector<int32_t>& ranks) {
    const char* op = "process_group_new_subgroup";
    pg->check_usable(op);
    if (ranks.empty()) fail(CT_ERR_INVALID_ARGUMENT, op, ": a group needs at least one rank");
    std::vector<char> seen((size_t)pg->size(), 0);
    int32_t key = -1;
    uint64_t hash = 1469598103934665603ull;  // FNV-1a over the list: ranks must pass the same list
    for (size_t i = 0; i < ranks.size(); ++i) {
        int32_t r = ranks[i];
        if (r < 0 || r >= pg->size())
            fail(CT_ERR_INDEX, op, ": rank ", r, " is out of range for a group of size ", pg->size());
        if (seen[(size_t)r]) fail(CT_ERR_INVALID_ARGUMENT, op, ": rank ", r, " is listed twice");
        seen[(size_t)r] = 1;
        if (r == pg->rank()) key = (int32_t)i;
        hash = (hash ^ (uint64_t)(uint32_t)r) * 1099511628211ull;
    }
    auto w = std::make_shared<Work>();
    w->op = op;
    w->pg = pg;
    w->has_data = false;
    int64_t d[kDescFields] = {7, 0, 0, 0, 1, (int64_t)ranks.size(), (int64_t)(hash >> 2), 0, 0, 0, 0, 0};
    std::copy(d, d + kDescFields, w->desc);
    pg->enqueue(w);
    wait_or_throw(*w);
    ct_dist_comm* comm = nullptr;
    int32_t rank = -1, size = 0;
    ct_status st = pg->backend()->split(pg->comm(), key >= 0, key, &comm, &rank, &size);
    if (st != CT_OK) fail(st, op, ": ", pg->backend()->last_error());
    auto g = std::make_shared<ProcessGroup>(pg->backend(), comm, rank, size);
    g->set_timeout(pg->timeout());
    g->set_checks(pg->checks());
    return g;
}

}  // namespace ct
