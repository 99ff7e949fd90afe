// dist_backend.h - the contract between libctensor and a separately built communication backend
// (libctensor_mpi.so.1 for CPU tensors; NCCL inside libctensor_cuda.so.1 for CUDA tensors): a versioned C function
// table returned by one extern "C" entry point, and the core's loader for it (Note [Distributed backend loading]).
// Note [Distributed backend loading]: libctensor never links MPI. The first distributed call dlopen()s the
// backend of the tensors' device type (CPU: $CTENSOR_MPI_BACKEND, else libctensor_mpi.so.1 next to libctensor)
// exactly once; when that fails the reason is kept and every distributed call fails with CT_ERR_NOT_COMPILED
// naming it. The table says which device type it serves. CUDA tensors go through the table that the CUDA backend
// library itself exports (CT_NCCL_BACKEND_ENTRY; NCCL runs on the device's own stream, ordered after the kernels
// that wrote the data); its communicators are made per process group on first use (Note [Device communicators]
// in process_group.h), bootstrapped over the group's host communicator.
#pragma once
#include <stddef.h>
#include <stdint.h>

/* ---- the C contract (compiled by both sides; keep it C-compatible and append-only) ---- */

#define CT_DIST_BACKEND_VERSION 1u
#define CT_MPI_BACKEND_ENTRY "ct_mpi_backend_entry_v1"
#define CT_MPI_BACKEND_FILE "libctensor_mpi.so.1"
#define CT_NCCL_BACKEND_ENTRY "ct_nccl_backend_entry_v1" /* exported by the CUDA backend library when NCCL is built */

/* What a request does (ct_dist_args.kind). Append-only. */
enum ct_dist_kind {
    CT_DIST_ALLREDUCE = 0,      /* recv[i] = op over ranks of send[i] (send == recv: in place) */
    CT_DIST_BROADCAST = 1,      /* recv (count elements) = root's recv */
    CT_DIST_ALLGATHER = 2,      /* recv[r * count + i] = rank r's send[i] */
    CT_DIST_REDUCE_SCATTER = 3, /* recv (count elements) = op over ranks of send[rank * count + i] */
    CT_DIST_BARRIER = 4,        /* no data */
    CT_DIST_SEND = 5,           /* send count elements to peer with tag */
    CT_DIST_RECV = 6            /* receive exactly count elements from peer with tag into recv */
};

/* Element-wise reductions. LOR/LAND are for bool (bytes 0/1). Append-only. */
enum ct_dist_op { CT_DIST_SUM = 0, CT_DIST_MAX = 1, CT_DIST_MIN = 2, CT_DIST_PROD = 3, CT_DIST_LOR = 4, CT_DIST_LAND = 5 };

typedef struct ct_dist_comm_s ct_dist_comm; /* a backend communicator (one per process group) */
typedef struct ct_dist_req_s ct_dist_req;   /* one started, unfinished request */

/* One request. dtype is a ct_dtype value; counts are elements. Buffers belong to the caller and must stay
 * valid until test() reports the request done (or forever, when the caller gives up on it). */
typedef struct ct_dist_args {
    int32_t kind;
    int32_t op;
    int32_t dtype;
    int32_t peer; /* root of a broadcast, destination of a send, source of a recv */
    int32_t tag;
    int64_t count;
    const void* send;
    void* recv;
} ct_dist_args;

/* Every int32_t result is a ct_status value (0 = OK); on failure last_error() says why. */
typedef struct ct_dist_backend {
    uint32_t version;     /* CT_DIST_BACKEND_VERSION */
    uint32_t struct_size; /* sizeof(ct_dist_backend) of the backend's build */
    int32_t device_type;  /* the device type whose tensors it moves (CT_DEVICE_CPU for MPI) */
    const char* name;     /* "mpi" */
    /* Thread-local message of the last failure. */
    const char* (*last_error)(void);
    /* The world group of the launch (initialises the library when needed); a communicator of its own. */
    int32_t (*world)(ct_dist_comm** out, int32_t* rank, int32_t* size);
    /* Collective over parent: members (member != 0) get a new communicator ordered by key, others NULL. */
    int32_t (*split)(ct_dist_comm* parent, int32_t member, int32_t key, ct_dist_comm** out, int32_t* rank,
                     int32_t* size);
    /* Frees a communicator (NULL-safe). */
    void (*comm_free)(ct_dist_comm* comm);
    /* Starts a non-blocking request. */
    int32_t (*start)(ct_dist_comm* comm, const ct_dist_args* args, ct_dist_req** out);
    /* Progresses r; *done = 1 when finished, which frees r (then the status is the request's own). */
    int32_t (*test)(ct_dist_req* r, int32_t* done);
    /* Tries to cancel an unfinished receive; 1 if it was cancelled (r freed), 0 if r must be left alone. */
    int32_t (*cancel)(ct_dist_req* r);
    /* Runs a collective to the end (blocking; the core calls it only once every rank has been seen to join). */
    int32_t (*run)(ct_dist_comm* comm, const ct_dist_args* args);
    /* Device backends only (NULL in a host backend): a communicator over the same ranks as host_comm of the host
     * backend host, for tensors on device index `device` of this process. Collective over host_comm: every rank
     * calls it at the same point, and it may run host->run (a blocking broadcast) to share its bootstrap id. */
    int32_t (*comm_init)(const struct ct_dist_backend* host, ct_dist_comm* host_comm, int32_t rank, int32_t size,
                         int32_t device, ct_dist_comm** out);
} ct_dist_backend;

typedef const ct_dist_backend* (*ct_dist_backend_entry_fn)(uint32_t version);

#ifdef __cplusplus
#include <string>
namespace ct {
// The backend serving tensors of device_type, loaded once; throws CT_ERR_NOT_COMPILED naming op and the reason
// (for CUDA: NCCL is not built).
const ct_dist_backend& dist_backend(const char* op, int32_t device_type);
}  // namespace ct
#endif
