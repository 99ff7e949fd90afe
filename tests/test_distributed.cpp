// test_distributed.cpp - without the MPI backend (CTENSOR_MPI_BACKEND naming a missing file) every distributed call
// fails cleanly - CT_ERR_NOT_COMPILED with the reason, or CT_ERR_INVALID_HANDLE for the handles that cannot exist -
// and the core keeps working. The collectives themselves run under mpirun (tests/distributed, distributed_mpi_*).
#include <cstdlib>
#include "ct_test.h"

namespace {

// The backend loads once per process: this suite is the only one making distributed calls, so it points the loader
// at a missing file before the first one (the ctest distributed_not_compiled sets the variable itself too).
void use_missing_backend() { setenv("CTENSOR_MPI_BACKEND", "/nonexistent/libctensor_mpi.so.1", 0); }

}  // namespace

TEST(DistributedNotCompiled, EveryCallFailsCleanlyAndTheCoreWorks) {
    use_missing_backend();
    if (std::string(std::getenv("CTENSOR_MPI_BACKEND")).find("/nonexistent") == std::string::npos)
        GTEST_SKIP() << "CTENSOR_MPI_BACKEND points at a real backend";
    int64_t live0 = ct_live_handles();
    ct_process_group pg = reinterpret_cast<ct_process_group>(0x1234);
    for (int i = 0; i < 2; ++i) {  // the reason is kept: the second call says the same
        CT_EXPECT_ERR(ct_process_group_new_mpi(&pg), CT_ERR_NOT_COMPILED, "does not exist");
        EXPECT_NE(std::string(ct_last_error()).find("process_group_new_mpi: distributed (MPI) is not available"),
                  std::string::npos) << ct_last_error();
        EXPECT_EQ(pg, reinterpret_cast<ct_process_group>(0x1234)) << "out-param untouched on failure";
    }
    CT_EXPECT_ERR(ct_process_group_new_mpi(nullptr), CT_ERR_INVALID_ARGUMENT, "NULL");
    // No group can exist, so every other call meets an invalid handle.
    ct_tensor t = nullptr, out = nullptr;
    int64_t shape[1] = {3};
    CT_EXPECT_OK(ct_ones(shape, 1, CT_FLOAT32, ct_cpu(), &t));
    int32_t v = 7, done = 0, ranks[1] = {0};
    ct_process_group sub = nullptr;
    CT_EXPECT_ERR(ct_process_group_new_subgroup(nullptr, ranks, 1, &sub), CT_ERR_INVALID_HANDLE, "NULL process group");
    CT_EXPECT_ERR(ct_process_group_rank(nullptr, &v), CT_ERR_INVALID_HANDLE, "pg");
    CT_EXPECT_ERR(ct_process_group_size(nullptr, &v), CT_ERR_INVALID_HANDLE, "pg");
    EXPECT_EQ(v, 7);
    CT_EXPECT_ERR(ct_process_group_set_timeout(nullptr, 1.0), CT_ERR_INVALID_HANDLE, "pg");
    CT_EXPECT_ERR(ct_all_reduce(nullptr, t, CT_REDUCE_SUM), CT_ERR_INVALID_HANDLE, "pg");
    CT_EXPECT_ERR(ct_broadcast(nullptr, t, 0), CT_ERR_INVALID_HANDLE, "pg");
    CT_EXPECT_ERR(ct_all_gather(nullptr, t, &out), CT_ERR_INVALID_HANDLE, "pg");
    CT_EXPECT_ERR(ct_reduce_scatter(nullptr, t, CT_REDUCE_SUM, &out), CT_ERR_INVALID_HANDLE, "pg");
    CT_EXPECT_ERR(ct_barrier(nullptr), CT_ERR_INVALID_HANDLE, "pg");
    CT_EXPECT_ERR(ct_send(nullptr, t, 0, 0), CT_ERR_INVALID_HANDLE, "pg");
    CT_EXPECT_ERR(ct_recv(nullptr, t, 0, 0), CT_ERR_INVALID_HANDLE, "pg");
    ct_work w = nullptr;
    CT_EXPECT_ERR(ct_all_reduce_async(nullptr, t, CT_REDUCE_SUM, &w), CT_ERR_INVALID_HANDLE, "pg");
    CT_EXPECT_ERR(ct_broadcast_async(nullptr, t, 0, &w), CT_ERR_INVALID_HANDLE, "pg");
    CT_EXPECT_ERR(ct_work_wait(nullptr), CT_ERR_INVALID_HANDLE, "work");
    CT_EXPECT_ERR(ct_work_is_completed(nullptr, &done), CT_ERR_INVALID_HANDLE, "work");
    EXPECT_EQ(out, nullptr);
    EXPECT_EQ(w, nullptr);
    ct_work_release(nullptr);
    ct_process_group_release(nullptr);
    EXPECT_EQ(ct_process_group_retain(nullptr), nullptr);
    EXPECT_STREQ(ct_status_name(CT_ERR_DISTRIBUTED), "CT_ERR_DISTRIBUTED");
    // the core still works
    CT_EXPECT_OK(ct_add(t, t, 1.0, &out));
    double s = 0;
    ct_tensor sum = nullptr;
    CT_EXPECT_OK(ct_sum(out, nullptr, 0, 0, &sum));
    CT_EXPECT_OK(ct_tensor_item(sum, &s));
    EXPECT_EQ(s, 6.0);
    ct_tensor_release(sum);
    ct_tensor_release(out);
    ct_tensor_release(t);
    EXPECT_EQ(ct_live_handles(), live0);
}
