// process_group.h - backend-neutral process groups and works: the queue that posts every rank's requests in
// the same order, the agreement check before each collective, and polling against the group's timeout.
// Note [Collective order]: MPI matches collectives on a communicator by their order. Each group keeps one FIFO
// of works; only the head has requests in flight (its agreement, then its data), so every rank posts the same
// requests in the same order however async works and threads interleave.
// Note [Agreement]: before its data moves, a collective's ranks exchange a small descriptor (kind, reduce op,
// dtype, root, shape) as min and max in one all-reduce; any difference fails the collective on every rank with
// CT_ERR_DISTRIBUTED naming both values, and leaves the group usable (every rank did the same requests).
// ct_process_group_set_checks(pg, 0) skips it: a round trip less (small messages run at MPI's own latency), but
// mismatches become MPI's undefined behaviour and blocking collectives lose their timeout. (Folding the descriptor
// into the data's round trip does not help here: the non-blocking collective that the timeout needs is itself the
// slow part - an MPI_Iallgather of descriptor + 4 KiB costs as much as the separate agreement + MPI_Allreduce.)
// On small groups the MPI backend runs the agreement as point-to-point messages (Note [Small all-reduce] in
// mpi/mpi_backend.cpp), less than half of libnbc's MPI_Iallreduce.
// Note [Blocking data]: a blocking call (ct_all_reduce, ...) moves its data with the blocking collective
// (MPI_Allreduce: the tuned algorithms, about twice as fast as libnbc's MPI_Iallreduce here) once the agreement
// has completed, i.e. once every rank is known to be in the same call, so a rank that is late, absent or
// mismatched is still caught by the polled agreement. Async works (and send/recv) stay non-blocking throughout.
// Note [Device communicators]: CUDA tensors move through the device backend (NCCL) on a communicator of their own,
// which a group makes at its first collective on CUDA tensors - after that collective's agreement, so every rank
// is known to be making it at the same point (the descriptor includes the device type; with the checks off the
// caller promises the same order of calls on every rank, which is all this needs) - bootstrapped over the
// group's host communicator. It serves one CUDA device per process (the first tensor's); send/recv of CUDA tensors
// need it to exist already, because only the two peers take part in them.
// Note [Broken group]: a request that outlives the timeout (or an MPI error) cannot be taken back: its buffers are
// kept alive for ever (they stay reachable, so leak checks do not count them), and the group fails every later
// call with CT_ERR_DISTRIBUTED naming the first failure. Create a new group to go on.
#pragma once
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>
#include "core/tensor.h"
#include "distributed/dist_backend.h"

namespace ct {

enum class ReduceOp : int32_t { Sum = 0, Mean = 1, Max = 2, Min = 3, Product = 4 };

constexpr int kDescFields = 13;  // kind, reduce op, dtype, root, ndim, numel, dims 0..5, device type

struct Work {
    const char* op = "";               // the C name without ct_, for messages
    std::shared_ptr<class ProcessGroup> pg;
    std::chrono::steady_clock::time_point start, deadline;
    double timeout = 0;
    bool agree = true;                 // run the agreement first (collectives; not send/recv)
    int64_t desc[2 * kDescFields] = {};   // this rank's [values, -values]; the all-reduce (MAX) writes back
    bool has_data = true;
    int32_t device_type = CT_DEVICE_CPU;  // of the data: CUDA data moves through the device backend
    int32_t device_index = 0;
    bool blocking = false;             // Note [Blocking data]: the data moves in one blocking call once all ranks joined
    ct_dist_args args{};               // the data request
    std::vector<Tensor> keep;          // tensors the requests read or write (alive while they run)
    std::function<void(Work&)> finish; // after the data arrived: write back, divide for MEAN, bump versions
    Tensor result;                     // all_gather / reduce_scatter output
    int stage = 0;                     // 0 queued, 1 agreeing, 2 moving data, 3 done
    ct_dist_req* req = nullptr;
    ct_dist_req* abandoned = nullptr;  // a request given up on (Note [Broken group]): kept, never freed
    ct_status status = CT_OK;
    std::string message;
    bool done() const { return stage == 3; }
};

class ProcessGroup {
  public:
    ProcessGroup(const ct_dist_backend* be, ct_dist_comm* comm, int32_t rank, int32_t size);
    ~ProcessGroup();
    ProcessGroup(const ProcessGroup&) = delete;
    ProcessGroup& operator=(const ProcessGroup&) = delete;

    int32_t rank() const { return rank_; }
    int32_t size() const { return size_; }
    double timeout() const { return timeout_.load(); }
    void set_timeout(double seconds);
    // Note [Agreement]: false skips it for later collectives (ct_process_group_set_checks).
    bool checks() const { return checks_.load(); }
    void set_checks(bool on) { checks_.store(on); }
    const ct_dist_backend* backend() const { return be_; }
    ct_dist_comm* comm() const { return comm_; }

    // Throws unless this process is a member and the group is not broken.
    void check_usable(const char* op);
    // Appends w to the queue (Note [Collective order]) and posts what can be posted.
    void enqueue(const std::shared_ptr<Work>& w);
    // Note [Direct blocking call]: runs the blocking host request a at once and returns true when the group's
    // checks are off, nothing is queued and the group is not broken - the queue would add nothing then (no order
    // to keep, no agreement to poll) but its cost (about 0.3 us a call, the size of MPI's own small-message
    // latency). Otherwise returns false and the caller queues a Work. A failing request breaks the group and throws.
    bool run_direct(const ct_dist_args& a, const char* op);
    // Progresses the queue once; true when w is done.
    bool poll(Work& w);
    // Polls until w is done (its status) - the timeout is enforced by the queue.
    ct_status wait(Work& w);

  private:
    void progress_locked();
    void finish_work(Work& w, ct_status status, std::string message);
    void start_stage(Work& w);
    void check_agreement(Work& w);
    // The backend that moves w's data, and the one serving w's current stage (the host one agrees).
    const ct_dist_backend* data_backend(const Work& w) const;
    const ct_dist_backend* stage_backend(const Work& w) const;
    // Makes the device communicator on first use (Note [Device communicators]); false when w failed.
    bool ensure_device_comm(Work& w);

    const ct_dist_backend* be_;
    ct_dist_comm* comm_;
    int32_t rank_, size_;
    std::atomic<double> timeout_;
    std::atomic<bool> checks_{true};
    std::mutex mu_;
    std::deque<std::shared_ptr<Work>> queue_;
    std::string broken_;  // Note [Broken group]; written under mu_, only through mark_broken
    std::atomic<bool> is_broken_{false};  // broken_ is set: read without mu_ by check_usable's fast path
    void mark_broken(std::string message);  // sets broken_ and is_broken_; mu_ held
    const ct_dist_backend* dev_be_ = nullptr;  // Note [Device communicators]
    ct_dist_comm* dev_comm_ = nullptr;
    int32_t dev_index_ = -1;
};

// The world group of the launch through the CPU (MPI) backend.
std::shared_ptr<ProcessGroup> process_group_world();
// Members of ranks (parent ranks, in that order) get the new group; others a group of size 0 (rank -1).
std::shared_ptr<ProcessGroup> process_group_subgroup(const std::shared_ptr<ProcessGroup>& pg, const std::vector<int32_t>& ranks);

// Collectives (collectives.cpp). The *_start ones return the queued work; the others wait for it and throw its
// failure.
std::shared_ptr<Work> all_reduce_start(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t op, const char* name,
                                       bool blocking);
std::shared_ptr<Work> broadcast_start(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t root, const char* name,
                                      bool blocking);
// Blocking forms of the two above (Note [Direct blocking call]).
void all_reduce(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t op, const char* name);
void broadcast(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t root, const char* name);
Tensor all_gather(const std::shared_ptr<ProcessGroup>& pg, const Tensor& input);
Tensor reduce_scatter(const std::shared_ptr<ProcessGroup>& pg, const Tensor& input, int32_t op);
void barrier(const std::shared_ptr<ProcessGroup>& pg);
void send(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t dst, int32_t tag);
void recv(const std::shared_ptr<ProcessGroup>& pg, const Tensor& t, int32_t src, int32_t tag);
// Waits for w and throws its failure (as Error).
void wait_or_throw(Work& w);

}  // namespace ct
