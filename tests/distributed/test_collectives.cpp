// test_collectives.cpp - the collectives through the C API under mpirun (ctests distributed_mpi_np2/np4): every
// collective x dtype x reduce op against values each rank computes locally (rank r's element i is a known
// function of r and i), non-contiguous tensors, async works, subgroups, a send/recv ring and the failures
// (mismatched shapes/dtypes, a timeout, bad roots, released handles). Prints "N passed, M failed".
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include "ctensor.h"

namespace {

int g_rank = 0, g_size = 1, g_pass = 0, g_fail = 0;
ct_device g_device;  // where the tests' tensors live (main sets it)
bool g_cuda = false;

void check(bool ok, const std::string& what) {
    if (ok) {
        ++g_pass;
        return;
    }
    ++g_fail;
    std::fprintf(stderr, "[rank %d] FAILED: %s (last error: %s)\n", g_rank, what.c_str(), ct_last_error());
}

void expect_status(ct_status got, ct_status want, const char* part, const std::string& what) {
    bool ok = got == want && (!part || std::strstr(ct_last_error(), part));
    check(ok, what + ": got " + ct_status_name(got) + ", want " + ct_status_name(want) + (part ? std::string(" with '") + part + "'" : ""));
}

const ct_dtype kDtypes[] = {CT_FLOAT32, CT_FLOAT64, CT_INT32, CT_INT64, CT_UINT8, CT_BOOL};
const ct_reduce_op kOps[] = {CT_REDUCE_SUM, CT_REDUCE_MEAN, CT_REDUCE_MAX, CT_REDUCE_MIN, CT_REDUCE_PRODUCT};
const char* kOpNames[] = {"SUM", "MEAN", "MAX", "MIN", "PRODUCT"};

// Rank r's element i (as double; exact in every dtype).
double value(ct_dtype dt, int r, int64_t i) {
    if (dt == CT_BOOL) return (r + i) % 3 == 0 ? 1 : 0;
    double v = (r + 1) + (double)(i % 3);
    return dt == CT_FLOAT32 || dt == CT_FLOAT64 ? v + 0.5 * (double)((i + r) % 2) : v;
}

// a op b in the dtype's own arithmetic (uint8 wraps), as double.
double combine(ct_dtype dt, ct_reduce_op op, double a, double b) {
    if (dt == CT_BOOL) return (op == CT_REDUCE_MIN || op == CT_REDUCE_PRODUCT) ? (a != 0 && b != 0) : (a != 0 || b != 0);
    double r = op == CT_REDUCE_MAX ? (a > b ? a : b) : op == CT_REDUCE_MIN ? (a < b ? a : b)
             : op == CT_REDUCE_PRODUCT ? a * b : a + b;
    if (dt == CT_UINT8) r = (double)(uint8_t)(int64_t)r;
    if (dt == CT_FLOAT32) r = (double)(float)r;
    return r;
}

double expected(ct_dtype dt, ct_reduce_op op, int64_t i, const std::vector<int>& ranks) {
    double acc = value(dt, ranks[0], i);
    for (size_t k = 1; k < ranks.size(); ++k) acc = combine(dt, op, acc, value(dt, ranks[k], i));
    if (op == CT_REDUCE_MEAN) acc = dt == CT_FLOAT32 ? (double)((float)acc / (float)ranks.size()) : acc / (double)ranks.size();
    return acc;
}

// A tensor of shape [rows, cols] holding f(i) at row-major i; transposed=1 makes it a non-contiguous view.
ct_tensor make(ct_dtype dt, int64_t rows, int64_t cols, int transposed, double (*f)(ct_dtype, int, int64_t), int r) {
    int64_t n = rows * cols;
    std::vector<double> v((size_t)n);
    for (int64_t i = 0; i < n; ++i) v[(size_t)i] = f(dt, r, i);
    ct_tensor d = NULL, t = NULL, out = NULL;
    int64_t shape[2] = {transposed ? cols : rows, transposed ? rows : cols};
    std::vector<double> stored((size_t)n);
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) stored[(size_t)(transposed ? j * rows + i : i * cols + j)] = v[(size_t)(i * cols + j)];
    ct_tensor_from_data(stored.data(), n * 8, shape, 2, CT_FLOAT64, ct_cpu(), &d);
    ct_to_dtype(d, dt, &t);
    ct_tensor_release(d);
    if (g_cuda) {
        ct_tensor moved = NULL;
        ct_to_device(t, g_device, &moved);
        ct_tensor_release(t);
        t = moved;
    }
    if (!transposed) return t;
    ct_transpose(t, 0, 1, &out);
    ct_tensor_release(t);
    return out;
}

std::vector<double> values_of(ct_tensor t) {
    ct_tensor d = NULL;
    ct_to_dtype(t, CT_FLOAT64, &d);
    int64_t n = 0;
    ct_tensor_numel(d, &n);
    std::vector<double> v((size_t)n);
    ct_tensor_copy_to_host(d, v.data(), n * 8);
    check(n > 0, "values_of: a tensor with elements");
    ct_tensor_release(d);
    return v;
}

std::vector<int> all_ranks(int n) {
    std::vector<int> r;
    for (int i = 0; i < n; ++i) r.push_back(i);
    return r;
}

std::string label(const char* what, ct_dtype dt, int op, int transposed) {
    return std::string(what) + " " + ct_dtype_name(dt) + (op >= 0 ? std::string(" ") + kOpNames[op] : "") +
           (transposed ? " (non-contiguous)" : "");
}

// Blocking, and async: 15 elements are at most 120 bytes, so the async data moves through the backend's
// point-to-point exchange on groups of 2..4 ranks (Note [Small all-reduce] in mpi_backend.cpp).
void test_all_reduce(ct_process_group pg) {
    for (int async = 0; async < 2; ++async)
        for (ct_dtype dt : kDtypes)
            for (ct_reduce_op op : kOps)
                for (int tr = 0; tr < 2; ++tr) {
                    ct_tensor t = make(dt, 3, 5, tr, value, g_rank);
                    int64_t v0 = 0, v1 = 0;
                    ct_tensor_version(t, &v0);
                    ct_status st = CT_OK;
                    if (async) {
                        ct_work w = NULL;
                        st = ct_all_reduce_async(pg, t, op, &w);
                        if (st == CT_OK) st = ct_work_wait(w);
                        ct_work_release(w);
                    } else {
                        st = ct_all_reduce(pg, t, op);
                    }
                    std::string what = label(async ? "all_reduce_async" : "all_reduce", dt, op, tr);
                    bool float_dt = dt == CT_FLOAT32 || dt == CT_FLOAT64;
                    if (op == CT_REDUCE_MEAN && !float_dt) {
                        expect_status(st, CT_ERR_DTYPE, "MEAN", what);
                    } else {
                        check(st == CT_OK, what);
                        std::vector<double> got = values_of(t);
                        bool ok = true;
                        for (size_t i = 0; i < got.size(); ++i) ok = ok && got[i] == expected(dt, op, (int64_t)i, all_ranks(g_size));
                        check(ok, what + " values");
                        ct_tensor_version(t, &v1);
                        check(v1 > v0, what + " bumps the version");
                    }
                    ct_tensor_release(t);
                }
}

void test_broadcast(ct_process_group pg) {
    for (ct_dtype dt : kDtypes)
        for (int root = 0; root < g_size; ++root)
            for (int tr = 0; tr < 2; ++tr) {
                ct_tensor t = make(dt, 4, 3, tr, value, g_rank);
                std::string what = label("broadcast", dt, -1, tr) + " root " + std::to_string(root);
                check(ct_broadcast(pg, t, root) == CT_OK, what);
                std::vector<double> got = values_of(t);
                bool ok = true;
                for (size_t i = 0; i < got.size(); ++i) ok = ok && got[i] == value(dt, root, (int64_t)i);
                check(ok, what + " values");
                ct_tensor_release(t);
            }
}

void test_all_gather(ct_process_group pg) {
    for (ct_dtype dt : kDtypes)
        for (int tr = 0; tr < 2; ++tr) {
            ct_tensor t = make(dt, 2, 3, tr, value, g_rank), out = NULL;
            std::string what = label("all_gather", dt, -1, tr);
            check(ct_all_gather(pg, t, &out) == CT_OK, what);
            int64_t dims[4] = {0};
            int32_t nd = 0;
            ct_tensor_shape(out, dims, 4, &nd);
            check(nd == 3 && dims[0] == g_size && dims[1] == 2 && dims[2] == 3, what + " shape");
            std::vector<double> got = values_of(out);
            bool ok = got.size() == (size_t)(6 * g_size);
            for (size_t i = 0; ok && i < got.size(); ++i) ok = got[i] == value(dt, (int)(i / 6), (int64_t)(i % 6));
            check(ok, what + " values");
            ct_tensor_release(out);
            ct_tensor_release(t);
        }
}

void test_reduce_scatter(ct_process_group pg) {
    for (ct_dtype dt : kDtypes)
        for (ct_reduce_op op : kOps)
            for (int tr = 0; tr < 2; ++tr) {
                ct_tensor t = make(dt, 2 * g_size, 3, tr, value, g_rank), out = NULL;
                std::string what = label("reduce_scatter", dt, op, tr);
                ct_status st = ct_reduce_scatter(pg, t, op, &out);
                if (op == CT_REDUCE_MEAN && dt != CT_FLOAT32 && dt != CT_FLOAT64) {
                    expect_status(st, CT_ERR_DTYPE, "MEAN", what);
                } else {
                    check(st == CT_OK, what);
                    std::vector<double> got = values_of(out);
                    bool ok = got.size() == 6;
                    for (size_t i = 0; ok && i < got.size(); ++i)
                        ok = got[i] == expected(dt, op, (int64_t)(g_rank * 6 + i), all_ranks(g_size));
                    check(ok, what + " values");
                }
                ct_tensor_release(out);
                ct_tensor_release(t);
            }
}

void test_async(ct_process_group pg) {
    ct_tensor a = make(CT_FLOAT32, 64, 33, 0, value, g_rank), b = make(CT_INT64, 5, 7, 1, value, g_rank);
    ct_work w1 = NULL, w2 = NULL, w3 = NULL;
    check(ct_all_reduce_async(pg, a, CT_REDUCE_SUM, &w1) == CT_OK, "all_reduce_async starts");
    check(ct_broadcast_async(pg, b, g_size - 1, &w2) == CT_OK, "broadcast_async starts");
    int32_t done = 0;
    ct_status polled = CT_OK;
    for (int i = 0; i < 1000000 && !done && polled == CT_OK; ++i) polled = ct_work_is_completed(w2, &done);
    check(polled == CT_OK, "work_is_completed");
    check(ct_work_wait(w2) == CT_OK, "broadcast_async wait (out of order)");
    check(ct_work_wait(w1) == CT_OK, "all_reduce_async wait");
    check(ct_work_is_completed(w1, &done) == CT_OK && done == 1, "work_is_completed after wait");
    std::vector<double> ga = values_of(a), gb = values_of(b);
    bool ok = true;
    for (size_t i = 0; i < ga.size(); ++i) ok = ok && ga[i] == expected(CT_FLOAT32, CT_REDUCE_SUM, (int64_t)i, all_ranks(g_size));
    check(ok, "all_reduce_async values");
    ok = true;
    for (size_t i = 0; i < gb.size(); ++i) ok = ok && gb[i] == value(CT_INT64, g_size - 1, (int64_t)i);
    check(ok, "broadcast_async values (non-contiguous)");
    ct_work_release(w1);
    ct_work_release(w2);
    // releasing an unfinished work waits for it
    ct_tensor c = make(CT_FLOAT64, 10, 10, 0, value, g_rank);
    check(ct_all_reduce_async(pg, c, CT_REDUCE_MAX, &w3) == CT_OK, "all_reduce_async MAX starts");
    ct_work_release(w3);
    std::vector<double> gc = values_of(c);
    ok = true;
    for (size_t i = 0; i < gc.size(); ++i) ok = ok && gc[i] == expected(CT_FLOAT64, CT_REDUCE_MAX, (int64_t)i, all_ranks(g_size));
    check(ok, "release of an unfinished work waited for it");
    expect_status(ct_work_wait(w3), CT_ERR_INVALID_HANDLE, NULL, "work_wait on a released work");
    ct_tensor_release(a);
    ct_tensor_release(b);
    ct_tensor_release(c);
}

void test_subgroup(ct_process_group world) {
    std::vector<int32_t> members;  // the even ranks, last first: new rank = position in the list
    for (int r = g_size - 1; r >= 0; --r)
        if (r % 2 == 0) members.push_back(r);
    ct_process_group sub = NULL;
    check(ct_process_group_new_subgroup(world, members.data(), (int32_t)members.size(), &sub) == CT_OK, "new_subgroup");
    int32_t rank = -2, size = -2;
    ct_process_group_rank(sub, &rank);
    ct_process_group_size(sub, &size);
    ct_tensor t = make(CT_INT64, 2, 2, 0, value, g_rank);
    if (g_rank % 2 == 0) {
        int32_t pos = 0;
        while (members[(size_t)pos] != g_rank) ++pos;
        check(rank == pos && size == (int32_t)members.size(), "subgroup rank and size");
        check(ct_all_reduce(sub, t, CT_REDUCE_SUM) == CT_OK, "subgroup all_reduce");
        std::vector<int> rs(members.begin(), members.end());
        std::vector<double> got = values_of(t);
        bool ok = true;
        for (size_t i = 0; i < got.size(); ++i) ok = ok && got[i] == expected(CT_INT64, CT_REDUCE_SUM, (int64_t)i, rs);
        check(ok, "subgroup all_reduce values");
        check(ct_barrier(sub) == CT_OK, "subgroup barrier");
    } else {
        check(rank == -1 && size == 0, "a non-member's group has size 0 and rank -1");
        expect_status(ct_all_reduce(sub, t, CT_REDUCE_SUM), CT_ERR_INVALID_ARGUMENT, "not a member", "non-member all_reduce");
    }
    int32_t bad[2] = {0, g_size};
    ct_process_group none = NULL;
    expect_status(ct_process_group_new_subgroup(world, bad, 2, &none), CT_ERR_INDEX, "out of range", "subgroup rank out of range");
    check(none == NULL, "out-param untouched on failure");
    ct_tensor_release(t);
    ct_process_group_release(sub);
}

void test_send_recv(ct_process_group pg) {
    if (g_size < 2) return;
    int next = (g_rank + 1) % g_size, prev = (g_rank + g_size - 1) % g_size;
    ct_tensor mine = make(CT_FLOAT32, 3, 4, 0, value, g_rank), in = make(CT_FLOAT32, 3, 4, 1, value, 99);
    ct_status s1, s2;
    if (g_rank % 2 == 0) {
        s1 = ct_send(pg, mine, next, 7);
        s2 = ct_recv(pg, in, prev, 7);
    } else {
        s2 = ct_recv(pg, in, prev, 7);
        s1 = ct_send(pg, mine, next, 7);
    }
    check(s1 == CT_OK && s2 == CT_OK, "send/recv ring");
    std::vector<double> got = values_of(in);
    bool ok = true;
    for (size_t i = 0; i < got.size(); ++i) ok = ok && got[i] == value(CT_FLOAT32, prev, (int64_t)i);
    check(ok, "recv into a non-contiguous tensor: values of the previous rank");
    expect_status(ct_send(pg, mine, g_size, 0), CT_ERR_INDEX, "dst", "send to a rank out of range");
    expect_status(ct_recv(pg, in, -1, 0), CT_ERR_INDEX, "src", "recv from a rank out of range");
    ct_tensor_release(mine);
    ct_tensor_release(in);
}

void test_errors(ct_process_group pg) {
    // mismatched shapes, dtypes and collectives: every rank fails, and the group stays usable
    ct_tensor t = make(CT_FLOAT32, 1, g_rank == 0 ? 2 : 3, 0, value, g_rank);
    expect_status(ct_all_reduce(pg, t, CT_REDUCE_SUM), CT_ERR_DISTRIBUTED, "(2 on some ranks, 3 on others", "mismatched shapes");
    ct_tensor_release(t);
    t = make(g_rank == 0 ? CT_FLOAT32 : CT_FLOAT64, 1, 3, 0, value, g_rank);
    expect_status(ct_all_reduce(pg, t, CT_REDUCE_SUM), CT_ERR_DISTRIBUTED, "dtype (float32 on some ranks, float64", "mismatched dtypes");
    ct_tensor_release(t);
    t = make(CT_FLOAT32, 1, 3, 0, value, g_rank);
    ct_status st = g_rank == 0 ? ct_all_reduce(pg, t, CT_REDUCE_SUM) : ct_broadcast(pg, t, 0);
    expect_status(st, CT_ERR_DISTRIBUTED, "all_reduce on some ranks, broadcast on others", "mismatched collectives");
    check(ct_all_reduce(pg, t, CT_REDUCE_SUM) == CT_OK, "the group is usable after a mismatch");
    // local argument errors
    expect_status(ct_broadcast(pg, t, g_size), CT_ERR_INDEX, "root", "broadcast root out of range");
    expect_status(ct_broadcast(pg, t, -1), CT_ERR_INDEX, "root", "broadcast negative root");
    expect_status(ct_all_reduce(pg, t, 9), CT_ERR_INVALID_ARGUMENT, "reduce op", "unknown reduce op");
    expect_status(ct_all_reduce(NULL, t, CT_REDUCE_SUM), CT_ERR_INVALID_HANDLE, "NULL", "NULL group");
    ct_tensor odd = make(CT_FLOAT32, 2 * g_size + 1, 1, 0, value, g_rank), out = NULL;
    expect_status(ct_reduce_scatter(pg, odd, CT_REDUCE_SUM, &out), CT_ERR_SHAPE, "divisible", "reduce_scatter of an odd dim 0");
    check(out == NULL, "reduce_scatter out-param untouched on failure");
    ct_tensor_release(odd);
    ct_tensor leaf = make(CT_FLOAT32, 2, 2, 0, value, g_rank);
    ct_tensor_set_requires_grad(leaf, 1);
    expect_status(ct_all_reduce(pg, leaf, CT_REDUCE_SUM), CT_ERR_AUTOGRAD, "requires grad", "leaf requiring grad");
    int32_t prev = 0;
    ct_set_grad_enabled(0, &prev);
    check(ct_all_reduce(pg, leaf, CT_REDUCE_SUM) == CT_OK, "leaf requiring grad under no_grad");
    ct_set_grad_enabled(prev, NULL);
    ct_tensor_release(leaf);
    expect_status(ct_process_group_set_timeout(pg, 0), CT_ERR_INVALID_ARGUMENT, "positive", "timeout 0");
    // released handles
    ct_process_group extra = ct_process_group_retain(pg);
    ct_process_group_release(extra);
    ct_process_group dead = NULL;
    ct_process_group_new_subgroup(pg, std::vector<int32_t>{0}.data(), 1, &dead);
    ct_process_group_release(dead);
    expect_status(ct_all_reduce(dead, t, CT_REDUCE_SUM), CT_ERR_INVALID_HANDLE, "not a live", "released group");
    ct_tensor gone = make(CT_FLOAT32, 1, 1, 0, value, g_rank);
    ct_tensor_release(gone);
    expect_status(ct_all_reduce(pg, gone, CT_REDUCE_SUM), CT_ERR_INVALID_HANDLE, "not a live", "released tensor");
    check(ct_barrier(pg) == CT_OK, "barrier after the errors");
    ct_tensor_release(t);
}

// CUDA only: the device type is part of the agreement, and send/recv need the group's device communicator.
void test_device_errors(ct_process_group world) {
    ct_tensor t = make(CT_FLOAT32, 2, 2, 0, value, g_rank), host = NULL;
    ct_to_device(t, ct_cpu(), &host);
    if (g_size >= 2)
        expect_status(ct_all_reduce(world, g_rank == 0 ? host : t, CT_REDUCE_SUM), CT_ERR_DISTRIBUTED,
                      "device type (cpu on some ranks, cuda on others", "a CPU tensor on rank 0, CUDA on the others");
    std::vector<int32_t> all;
    for (int r = 0; r < g_size; ++r) all.push_back(r);
    ct_process_group g = NULL;
    check(ct_process_group_new_subgroup(world, all.data(), g_size, &g) == CT_OK, "fresh group for send/recv");
    if (g_size >= 2 && g_rank < 2) {
        ct_status st = g_rank == 0 ? ct_send(g, t, 1, 0) : ct_recv(g, t, 0, 0);
        expect_status(st, CT_ERR_DISTRIBUTED, "run one first", "send/recv before the group's first CUDA collective");
    }
    check(ct_all_reduce(g, t, CT_REDUCE_SUM) == CT_OK, "the first CUDA collective makes the communicator");
    if (g_size >= 2 && g_rank < 2) {
        ct_status st = g_rank == 0 ? ct_send(g, host, 1, 3) : ct_recv(g, host, 0, 3);
        check(st == CT_OK, "host send/recv on a group that also has a device communicator");
        st = g_rank == 0 ? ct_send(g, t, 1, 4) : ct_recv(g, t, 0, 4);
        check(st == CT_OK, "device send/recv once the communicator exists");
    }
    ct_process_group_release(g);
    ct_tensor_release(host);
    ct_tensor_release(t);
}

// ct_process_group_set_checks(g, 0): the collectives give the same results without the agreement, a subgroup
// inherits the setting, and turning the checks back on reports mismatches again.
void test_checks_off(ct_process_group world) {
    std::vector<int32_t> all;
    for (int r = 0; r < g_size; ++r) all.push_back(r);
    ct_process_group g = NULL, child = NULL;
    check(ct_process_group_new_subgroup(world, all.data(), g_size, &g) == CT_OK, "group for the checks test");
    check(ct_process_group_set_checks(g, 0) == CT_OK, "set_checks 0");
    for (ct_dtype dt : kDtypes)  // blocking calls run directly (Note [Direct blocking call]); the view is written back
        for (ct_reduce_op op : kOps) {
            if (op == CT_REDUCE_MEAN && dt != CT_FLOAT32 && dt != CT_FLOAT64) continue;
            ct_tensor t = make(dt, 3, 5, 1, value, g_rank);
            std::string what = label("all_reduce without checks", dt, op, 1);
            check(ct_all_reduce(g, t, op) == CT_OK, what);
            std::vector<double> got = values_of(t);
            bool ok = true;
            for (size_t i = 0; i < got.size(); ++i) ok = ok && got[i] == expected(dt, op, (int64_t)i, all_ranks(g_size));
            check(ok, what + " values");
            ct_tensor_release(t);
        }
    ct_tensor b = make(CT_FLOAT64, 2, 3, 0, value, g_rank), w = make(CT_FLOAT32, 4, 1, 0, value, g_rank);
    check(ct_broadcast(g, b, g_size - 1) == CT_OK, "broadcast without checks");
    ct_tensor root_b = make(CT_FLOAT64, 2, 3, 0, value, g_size - 1);
    check(values_of(b) == values_of(root_b), "broadcast without checks: root's values");
    ct_tensor_release(root_b);
    ct_work work = NULL;
    check(ct_all_reduce_async(g, w, CT_REDUCE_MEAN, &work) == CT_OK && ct_work_wait(work) == CT_OK, "async without checks");
    ct_work_release(work);
    {  // a blocking call made while an async one is queued goes behind it (the same order on every rank)
        ct_tensor first = make(CT_FLOAT64, 4, 3, 0, value, g_rank), second = make(CT_FLOAT64, 2, 2, 1, value, g_rank);
        check(ct_all_reduce_async(g, first, CT_REDUCE_SUM, &work) == CT_OK, "async before a blocking call");
        check(ct_all_reduce(g, second, CT_REDUCE_MAX) == CT_OK, "blocking call behind a queued one");
        check(ct_work_wait(work) == CT_OK, "the queued call");
        std::vector<double> got1 = values_of(first), got2 = values_of(second);
        bool ok = true;
        for (size_t i = 0; i < got1.size(); ++i) ok = ok && got1[i] == expected(CT_FLOAT64, CT_REDUCE_SUM, (int64_t)i, all_ranks(g_size));
        for (size_t i = 0; i < got2.size(); ++i) ok = ok && got2[i] == expected(CT_FLOAT64, CT_REDUCE_MAX, (int64_t)i, all_ranks(g_size));
        check(ok, "async then blocking without checks: values");
        ct_work_release(work);
        ct_tensor_release(first);
        ct_tensor_release(second);
    }
    check(ct_barrier(g) == CT_OK, "barrier without checks");
    check(ct_process_group_new_subgroup(g, all.data(), g_size, &child) == CT_OK, "subgroup without checks");
    if (g_size > 1) {  // the child inherited checks off; the parent turns them back on and catches a mismatch
        check(ct_process_group_set_checks(g, 1) == CT_OK, "set_checks 1");
        ct_tensor m = make(CT_FLOAT32, g_rank == 0 ? 2 : 3, 1, 0, value, g_rank);
        expect_status(ct_all_reduce(g, m, CT_REDUCE_SUM), CT_ERR_DISTRIBUTED, "disagree", "checks back on catch a mismatch");
        ct_tensor_release(m);
    }
    check(ct_all_reduce(child, b, CT_REDUCE_SUM) == CT_OK, "the child group without checks");
    expect_status(ct_process_group_set_checks(NULL, 0), CT_ERR_INVALID_HANDLE, "process_group_set_checks", "set_checks NULL");
    ct_tensor_release(b);
    ct_tensor_release(w);
    ct_process_group_release(child);
    ct_process_group_release(g);
}

// Rank 0 calls a collective that the others skip: it fails within the timeout, and its group is then unusable.
void test_timeout(ct_process_group world) {
    if (g_size < 2) return;
    std::vector<int32_t> all;
    for (int r = 0; r < g_size; ++r) all.push_back(r);
    ct_process_group g = NULL;
    check(ct_process_group_new_subgroup(world, all.data(), g_size, &g) == CT_OK, "group for the timeout test");
    check(ct_process_group_set_timeout(g, 0.5) == CT_OK, "set_timeout");
    if (g_rank == 0) {
        ct_tensor t = make(CT_FLOAT32, 2, 2, 0, value, g_rank);
        auto t0 = std::chrono::steady_clock::now();
        ct_status st = ct_all_reduce(g, t, CT_REDUCE_SUM);
        double dt = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        expect_status(st, CT_ERR_DISTRIBUTED, "all_reduce timed out after 0.5 s on rank 0 of", "a skipped collective times out");
        check(dt >= 0.45 && dt < 3.0, "the timeout fires within its bound (" + std::to_string(dt) + " s)");
        expect_status(ct_barrier(g), CT_ERR_DISTRIBUTED, "unusable", "the group is unusable after a timeout");
        ct_tensor_release(t);
    }
    ct_process_group_release(g);
    check(ct_barrier(world) == CT_OK, "the world group is unaffected by the timeout");
}

}  // namespace

int main(int argc, char** argv) {
    g_device = ct_cpu();
    g_cuda = argc > 1 && std::strcmp(argv[1], "--cuda") == 0;
    int64_t live0 = ct_live_handles();
    ct_process_group world = NULL;
    if (ct_process_group_new_mpi(&world) != CT_OK) {
        std::fprintf(stderr, "ct_process_group_new_mpi: %s\n", ct_last_error());
        return 1;
    }
    ct_process_group_rank(world, &g_rank);
    ct_process_group_size(world, &g_size);
    if (g_cuda) {
        int32_t n = ct_cuda_device_count();
        if (n <= 0) {
            std::fprintf(stderr, "--cuda: no CUDA device (%s)\n", ct_last_error());
            return 1;
        }
        g_device = ct_cuda(g_rank % n);
    }
    test_all_reduce(world);
    test_broadcast(world);
    test_all_gather(world);
    test_reduce_scatter(world);
    check(ct_barrier(world) == CT_OK, "barrier");
    test_async(world);
    test_subgroup(world);
    test_send_recv(world);
    test_errors(world);
    if (g_cuda) test_device_errors(world);
    test_checks_off(world);
    test_timeout(world);
    ct_process_group_release(world);
    check(ct_live_handles() == live0, "live handles back to the start (" + std::to_string(ct_live_handles()) + " vs " +
                                          std::to_string(live0) + ")");
    std::printf("rank %d of %d%s: %d passed, %d failed\n", g_rank, g_size, g_cuda ? " (CUDA tensors)" : "", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
