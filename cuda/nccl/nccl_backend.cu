// nccl_backend.cu - collectives on CUDA tensors: the NCCL table (ct_nccl_backend_entry_v1, src/distributed/
// dist_backend.h) that libctensor_cuda exports when it is built with NCCL. Every request runs on the device's own
// stream (after the kernels that wrote its data, before those that read the result); an event recorded after it
// tells the core's polling loop when it is done. Communicators are made per process group, bootstrapped by
// broadcasting NCCL's unique id over the group's host (MPI) communicator (Note [Device communicators]).
#include <nccl.h>
#include <cstring>
#include <string>
#include "cuda/backend_impl.cuh"
#include "distributed/dist_backend.h"

struct ct_dist_comm_s {
    ncclComm_t comm = nullptr;
    int32_t device = 0;
};

struct ct_dist_req_s {
    ct_dist_comm_s* comm = nullptr;
    cudaEvent_t done = nullptr;  // recorded on the device stream after the request
};

namespace ct {
namespace cuda {
namespace {

int32_t nccl_check(ncclResult_t r, ncclComm_t comm, const char* what) {
    if (r == ncclSuccess || r == ncclInProgress) return CT_OK;
    std::string msg = std::string(what) + ": " + ncclGetErrorString(r);
    const char* detail = ncclGetLastError(comm);
    if (detail && *detail) msg += std::string(" (") + detail + ")";
    return set_error(r == ncclInvalidArgument || r == ncclInvalidUsage ? CT_ERR_INVALID_ARGUMENT : CT_ERR_DISTRIBUTED,
                     msg);
}

bool nccl_type(int32_t dtype, ncclDataType_t* out) {
    switch (dtype) {
    case CT_FLOAT32: *out = ncclFloat32; return true;
    case CT_FLOAT64: *out = ncclFloat64; return true;
    case CT_INT32: *out = ncclInt32; return true;
    case CT_INT64: *out = ncclInt64; return true;
    case CT_UINT8:
    case CT_BOOL: *out = ncclUint8; return true;  // bool bytes: any non-zero byte is true, so or = max, and = min
    default: return false;
    }
}

ncclRedOp_t nccl_op(int32_t op) {
    switch (op) {
    case CT_DIST_MAX:
    case CT_DIST_LOR: return ncclMax;
    case CT_DIST_MIN:
    case CT_DIST_LAND: return ncclMin;
    case CT_DIST_PROD: return ncclProd;
    case CT_DIST_SUM:
    default: return ncclSum;
    }
}

// Enqueues one request on stream.
int32_t enqueue(ct_dist_comm_s* c, const ct_dist_args* a, cudaStream_t stream) {
    ncclDataType_t type;
    if (!nccl_type(a->dtype, &type)) return set_error(CT_ERR_DTYPE, "NCCL: unsupported dtype " + std::to_string(a->dtype));
    if (a->count == 0) return CT_OK;
    size_t n = (size_t)a->count;
    ncclComm_t comm = c->comm;
    switch (a->kind) {
    case CT_DIST_ALLREDUCE: return nccl_check(ncclAllReduce(a->send, a->recv, n, type, nccl_op(a->op), comm, stream), comm, "ncclAllReduce");
    case CT_DIST_BROADCAST: return nccl_check(ncclBroadcast(a->recv, a->recv, n, type, a->peer, comm, stream), comm, "ncclBroadcast");
    case CT_DIST_ALLGATHER: return nccl_check(ncclAllGather(a->send, a->recv, n, type, comm, stream), comm, "ncclAllGather");
    case CT_DIST_REDUCE_SCATTER:
        return nccl_check(ncclReduceScatter(a->send, a->recv, n, type, nccl_op(a->op), comm, stream), comm, "ncclReduceScatter");
    case CT_DIST_SEND: return nccl_check(ncclSend(a->send, n, type, a->peer, comm, stream), comm, "ncclSend");
    case CT_DIST_RECV: return nccl_check(ncclRecv(a->recv, n, type, a->peer, comm, stream), comm, "ncclRecv");
    default: return set_error(CT_ERR_INTERNAL, "NCCL: request kind " + std::to_string(a->kind) + " is not a device request");
    }
}

const char* last_error_entry() { return last_error(); }

int32_t not_a_host_backend(ct_dist_comm**, int32_t*, int32_t*) {
    return set_error(CT_ERR_INTERNAL, "NCCL: the device backend has no world group of its own");
}

int32_t split_entry(ct_dist_comm*, int32_t, int32_t, ct_dist_comm**, int32_t*, int32_t*) {
    return set_error(CT_ERR_INTERNAL, "NCCL: device communicators are made from a group's host communicator");
}

void comm_free_entry(ct_dist_comm* c) {
    if (!c) return;
    DeviceContext* ctx = nullptr;
    if (context(c->device, &ctx) == CT_OK) ncclCommDestroy(c->comm);
    delete c;
}

int32_t start_entry(ct_dist_comm* c, const ct_dist_args* a, ct_dist_req** out) {
    return guarded([&]() -> int32_t {
        DeviceContext* ctx = nullptr;
        if (int32_t st = context(c->device, &ctx)) return st;
        if (int32_t st = enqueue(c, a, ctx->stream)) return st;
        auto r = new ct_dist_req_s();
        r->comm = c;
        int32_t st = check(cudaEventCreateWithFlags(&r->done, cudaEventDisableTiming), "NCCL: creating an event");
        if (st == CT_OK) st = check(cudaEventRecord(r->done, ctx->stream), "NCCL: recording an event");
        if (st != CT_OK) {
            if (r->done) cudaEventDestroy(r->done);
            delete r;
            return st;
        }
        *out = r;
        return (int32_t)CT_OK;
    });
}

int32_t test_entry(ct_dist_req* r, int32_t* done) {
    return guarded([&]() -> int32_t {
        *done = 0;
        cudaError_t e = cudaEventQuery(r->done);
        ncclResult_t async = ncclSuccess;
        ncclCommGetAsyncError(r->comm->comm, &async);
        if (e == cudaErrorNotReady && (async == ncclSuccess || async == ncclInProgress)) return (int32_t)CT_OK;
        *done = 1;
        int32_t st = e == cudaErrorNotReady ? CT_OK : check(e, "NCCL: waiting for the request");
        if (st == CT_OK) st = nccl_check(async, r->comm->comm, "NCCL (asynchronous error)");
        cudaEventDestroy(r->done);
        delete r;
        return st;
    });
}

int32_t cancel_entry(ct_dist_req*) { return 0; }  // a request on a stream cannot be taken back

int32_t run_entry(ct_dist_comm* c, const ct_dist_args* a) {
    ct_dist_req* r = nullptr;
    if (int32_t st = start_entry(c, a, &r)) return st;
    for (;;) {
        int32_t done = 0;
        int32_t st = test_entry(r, &done);
        if (done) return st;
    }
}

int32_t comm_init_entry(const ct_dist_backend* host, ct_dist_comm* host_comm, int32_t rank, int32_t size, int32_t device,
                        ct_dist_comm** out) {
    return guarded([&]() -> int32_t {
        ncclUniqueId id;
        std::memset(&id, 0, sizeof id);
        if (rank == 0) {
            if (int32_t st = nccl_check(ncclGetUniqueId(&id), nullptr, "ncclGetUniqueId")) return st;
        }
        ct_dist_args a{};
        a.kind = CT_DIST_BROADCAST;
        a.dtype = CT_UINT8;
        a.peer = 0;
        a.count = (int64_t)sizeof id;
        a.send = a.recv = &id;
        if (int32_t st = host->run(host_comm, &a))
            return set_error(st, std::string("sharing NCCL's unique id over the host communicator: ") + host->last_error());
        DeviceContext* ctx = nullptr;
        if (int32_t st = context(device, &ctx)) return st;  // makes device current for the communicator
        ncclComm_t comm = nullptr;
        if (int32_t st = nccl_check(ncclCommInitRank(&comm, size, id, rank), nullptr, "ncclCommInitRank")) return st;
        auto c = new ct_dist_comm_s();
        c->comm = comm;
        c->device = device;
        *out = c;
        return (int32_t)CT_OK;
    });
}

const ct_dist_backend kNcclTable = {
    CT_DIST_BACKEND_VERSION, sizeof(ct_dist_backend), CT_DEVICE_CUDA, "nccl", &last_error_entry, &not_a_host_backend,
    &split_entry, &comm_free_entry, &start_entry, &test_entry, &cancel_entry, &run_entry, &comm_init_entry,
};

}  // namespace
}  // namespace cuda
}  // namespace ct

// The NCCL table, beside ct_cuda_backend_entry_v1 (the library is built with hidden visibility).
extern "C" __attribute__((visibility("default"))) const ct_dist_backend* ct_nccl_backend_entry_v1(uint32_t version) {
    return version == CT_DIST_BACKEND_VERSION ? &ct::cuda::kNcclTable : nullptr;
}
