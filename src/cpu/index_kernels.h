// index_kernels.h - CPU loops of the indexing ops: reads and writes along one dim steered by an
// int32/int64 index operand (bounds-checked before any access), and order-preserving stream compaction.
#pragma once
#include <atomic>
#include <vector>
#include "cpu/loops.h"

namespace ct {

// Calls fn(TypeTag<I>) with I the C++ type of an index dtype (int32 or int64; checked by the caller).
template <typename Fn> decltype(auto) dispatch_index(DType d, Fn&& fn) {
    if (d == DType::Int32) return fn(TypeTag<int32_t>{});
    return fn(TypeTag<int64_t>{});
}

// Set by any thread that meets an index outside [0, limit); the op rescans for the message afterwards.
struct BadIndexFlag {
    std::atomic<bool> seen{false};
};

// For every position p of shape: v = idx[p]; when 0 <= v < limit calls body(a_offset, v, b_offset),
// otherwise raises the flag and skips p. Offsets are in elements. Runs in parallel over rows; every
// row is visited in order by one thread, so with the steering dim last (see move_dim_last) all writes
// into one output line happen on one thread, in index order.
template <typename I, typename Body>
void index_loop(const Shape& shape, const Shape& a_strides, const I* idx, const Shape& idx_strides,
                const Shape& b_strides, int64_t limit, BadIndexFlag& bad, Body body) {
    for_each_run<3>(shape, {&a_strides, &idx_strides, &b_strides},
                    [&](const std::array<int64_t, 3>& off, const std::array<int64_t, 3>& st, int64_t n) {
                        if (st[1] == 0) {  // one index for the whole run (index_select): check it once
                            int64_t v = (int64_t)idx[off[1]];
                            if (v < 0 || v >= limit) {
                                bad.seen.store(true, std::memory_order_relaxed);
                                return;
                            }
                            for (int64_t i = 0; i < n; ++i) body(off[0] + i * st[0], v, off[2] + i * st[2]);
                            return;
                        }
                        for (int64_t i = 0; i < n; ++i) {
                            int64_t v = (int64_t)idx[off[1] + i * st[1]];
                            if (v < 0 || v >= limit) {
                                bad.seen.store(true, std::memory_order_relaxed);
                                continue;
                            }
                            body(off[0] + i * st[0], v, off[2] + i * st[2]);
                        }
                    });
}

// Reorders a loop layout so that dim comes last (the row order index_loop keeps per thread).
inline void move_dim_last(int64_t dim, Shape& shape, std::initializer_list<Shape*> strides) {
    auto rotate = [dim](Shape& s) {
        int64_t v = s[dim];
        s.erase(s.begin() + dim);
        s.push_back(v);
    };
    rotate(shape);
    for (Shape* s : strides) rotate(*s);
}

// Order-preserving compaction over [0, n): blocks counted in parallel, then written in parallel at
// their prefix offsets; the output order is the input order whatever the thread count.
struct CompactionPlan {
    static constexpr int64_t kBlock = 1 << 16;
    std::vector<int64_t> starts;  // output offset of each block
    int64_t total = 0;
};

// Counts keep(i) per block.
template <typename Keep> CompactionPlan plan_compaction(int64_t n, Keep keep) {
    CompactionPlan plan;
    int64_t blocks = (n + CompactionPlan::kBlock - 1) / CompactionPlan::kBlock;
    std::vector<int64_t> counts((size_t)blocks, 0);
    parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
            int64_t c = 0, end = std::min(n, (b + 1) * CompactionPlan::kBlock);
            for (int64_t i = b * CompactionPlan::kBlock; i < end; ++i) c += keep(i) ? 1 : 0;
            counts[(size_t)b] = c;
        }
    });
    plan.starts.resize((size_t)blocks);
    for (int64_t b = 0; b < blocks; ++b) {
        plan.starts[(size_t)b] = plan.total;
        plan.total += counts[(size_t)b];
    }
    return plan;
}

// Calls emit(i, slot) for every kept i, slot being its position in the compacted output.
template <typename Keep, typename Emit>
void run_compaction(const CompactionPlan& plan, int64_t n, Keep keep, Emit emit) {
    int64_t blocks = (int64_t)plan.starts.size();
    parallel_for(blocks, 1, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
            int64_t slot = plan.starts[(size_t)b], end = std::min(n, (b + 1) * CompactionPlan::kBlock);
            for (int64_t i = b * CompactionPlan::kBlock; i < end; ++i)
                if (keep(i)) emit(i, slot++);
        }
    });
}

}  // namespace ct
