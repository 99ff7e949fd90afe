// data_parallel.h - gradient averaging over a process group during backward (torch's DistributedDataParallel
// reducer): parameters' gradients are packed into buckets whose all-reduces start while backward goes on.
// Note [DDP round]: a *round* is one synchronising backward's reduction. Each param's leaf hook (it runs before
// accumulation into .grad) adds the param's current .grad to the incoming gradient, stores the sum in the
// param's slot of its bucket and returns a zero replacement, so the engine adds nothing. A bucket whose params
// have all reported is launched (async MEAN all-reduce) once every lower-numbered bucket has been launched, so
// every rank launches the same collectives in the same order whatever order the gradients arrive in. When the
// last param of the round has reported, all buckets are launched and awaited and each slot is written into its
// param's .grad (in place when it exists): .grad = mean over ranks of (local .grad + gradient). A param that
// reports twice before its bucket was launched is summed (counted once); after, it is an error.
// The reducer's hooks run after the user's hooks on the same param (TensorHooks::last). Costs and limits: the
// engine still adds the zero replacement into .grad at the end of backward (one pass over each gradient), and
// Note [Failed backward] holds only up to the round's end - a backward that fails in a later node keeps the
// averaged .grad (the other ranks have it too); one that fails earlier (a hook, a mismatch) abandons the round,
// waits for the launched buckets, and changes no .grad.
// Note [DDP unused params]: a param the backward never reaches leaves the round open. ct_data_parallel_finish
// closes it, counting the missing params as their current .grad (or zero). ct_data_parallel_prepare (torch's
// find_unused_parameters) finds the params unreachable from the forward's outputs beforehand; they report at
// the start of the round, and a prepared round also all-reduces a used-flag per param so that params unused on
// every rank keep their .grad untouched (as torch). Only the last rank's collectives differ in time, never in
// order, so a rank that completes its round inside backward simply waits there for the others.
#pragma once
#include <memory>
#include <mutex>
#include <vector>
#include "autograd/node.h"
#include "core/tensor.h"
#include "distributed/process_group.h"

namespace ct {

class DataParallel : public std::enable_shared_from_this<DataParallel> {
  public:
    // Checks params, agrees with the other ranks on their number, shapes, dtypes and the bucket size, broadcasts
    // them from rank 0 and registers the hooks. Collective over pg.
    static std::shared_ptr<DataParallel> create(const std::shared_ptr<ProcessGroup>& pg, const TensorList& params,
                                                int64_t bucket_bytes);
    ~DataParallel();
    DataParallel(const DataParallel&) = delete;
    DataParallel& operator=(const DataParallel&) = delete;

    void set_sync(bool sync);
    // Note [DDP unused params].
    void prepare(const TensorList& outputs);
    void finish();
    // Removes the hooks and waits for launched reductions (their failures are dropped); idempotent.
    void shutdown() noexcept;
    size_t bucket_count() const { return buckets_.size(); }

  private:
    struct Param {
        Tensor t;
        size_t bucket = 0;
        Tensor slot;           // view of the bucket's flat buffer, shaped as t
        int64_t hook_id = 0;
        bool reported = false;  // in this round
        bool reachable = true;  // from the last prepare's outputs
    };
    struct Bucket {
        Tensor flat;                 // contiguous, one dtype
        std::vector<size_t> params;  // indices into params_
        size_t waiting = 0;          // params of this round not reported yet
        std::shared_ptr<Work> work;  // launched all-reduce (null before)
    };

    DataParallel(std::shared_ptr<ProcessGroup> pg, const TensorList& params, int64_t bucket_bytes);
    Tensor on_grad(size_t i, const Tensor& grad);  // the hook body (Note [DDP round])
    void begin_round_locked();
    void report_locked(size_t i, const Tensor* grad);  // grad null: the param counts as its .grad (or zero)
    void launch_ready_locked(bool blocking);
    void poll_locked();
    void complete_locked();
    void reset_round_locked();
    void abandon_round_locked() noexcept;

    std::shared_ptr<ProcessGroup> pg_;
    std::vector<Param> params_;
    std::vector<Bucket> buckets_;
    std::mutex mu_;
    size_t reported_ = 0, next_launch_ = 0;
    bool sync_ = true, prepared_ = false, shut_ = false;
    Tensor used_;                      // prepared rounds: 1 per param used on this rank (uint8), all-reduced MAX
    std::shared_ptr<Work> used_work_;  // its all-reduce
};

}  // namespace ct
