// bench_allreduce.cpp - ct_all_reduce (SUM, float32) against a direct MPI_Allreduce on the same buffer in the same
// run, for 1e3 .. 1e8 elements; medians of several reps, each rep started together (barrier). Run under mpirun:
//   mpirun -np 2 build/bench/bench_allreduce [max_elements]
// Prints per size the times of ct_all_reduce (agreement checks on, the default), ct_all_reduce on a group with
// ct_process_group_set_checks(pg, 0), and MPI_Allreduce, with the ratios MPI time / ctensor time (target >= 0.95x).
#include <mpi.h>
#include <ctensor.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_util.h"

namespace {

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    double max_n = argc > 1 ? std::atof(argv[1]) : 1e8;
    ct_process_group pg = NULL;
    CHECK(ct_process_group_new_mpi(&pg));  // initialises MPI (the direct calls below use the same library)
    int32_t rank = 0, size = 0;
    CHECK(ct_process_group_rank(pg, &rank));
    CHECK(ct_process_group_size(pg, &size));
    std::vector<int32_t> all;
    for (int32_t r = 0; r < size; ++r) all.push_back(r);
    ct_process_group fast = NULL;  // the same ranks without the agreement round trip
    CHECK(ct_process_group_new_subgroup(pg, all.data(), size, &fast));
    CHECK(ct_process_group_set_checks(fast, 0));
    if (rank == 0)
        std::printf("all_reduce SUM float32 on %d ranks: median seconds per call; ratio = MPI_Allreduce / ct_all_reduce\n"
                    "%12s %12s %12s %12s %8s %12s\n", size, "elements", "ctensor", "checks off", "MPI", "ratio",
                    "ratio (off)");
    for (double nd = 1e3; nd <= max_n * 1.0001; nd *= 10) {
        int64_t n = (int64_t)nd;
        int reps = n <= 100000 ? 201 : n <= 1000000 ? 41 : n <= 10000000 ? 11 : 5;
        ct_tensor t = NULL;
        CHECK(ct_zeros(&n, 1, CT_FLOAT32, ct_cpu(), &t));
        void* data = NULL;
        CHECK(ct_tensor_data_ptr(t, &data));
        std::vector<double> times[3];  // ctensor, ctensor with checks off, MPI
        for (int r = 0; r < reps; ++r) {  // interleaved (rotating which goes first), so all see the same machine state
            for (int k = 0; k < 3; ++k) {
                int which = (k + r) % 3;
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = now();
                if (which == 0)
                    CHECK(ct_all_reduce(pg, t, CT_REDUCE_SUM));
                else if (which == 1)
                    CHECK(ct_all_reduce(fast, t, CT_REDUCE_SUM));
                else
                    MPI_Allreduce(MPI_IN_PLACE, data, (int)n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
                times[which].push_back(now() - t0);
            }
        }
        // the slowest rank's median decides
        double mine[3] = {median(times[0]), median(times[1]), median(times[2])}, worst[3];
        MPI_Allreduce(mine, worst, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0)
            std::printf("%12lld %12.3e %12.3e %12.3e %7.2fx %11.2fx\n", (long long)n, worst[0], worst[1], worst[2],
                        worst[2] / worst[0], worst[2] / worst[1]);
        ct_tensor_release(t);
    }
    ct_process_group_release(fast);
    ct_process_group_release(pg);
    return 0;
}
