# dist.jl - CTensor.Dist: process groups and collectives over the C ABI's ct_process_group (Open MPI for CPU
# tensors; docs/distributed.md). Named Dist, not Distributed, so it never clashes with Julia's stdlib.
#
# Conventions: ranks are 0-based (as MPI and MPI.jl count them). Julia dims are ctensor's reversed (tensor.jl), so
# all_gather's rank dim is the LAST Julia dim (g[:, :, r+1] is rank r's tensor) and reduce_scatter splits the last
# Julia dim. Failures throw CTensorError: kind ERR_DISTRIBUTED for a collective that failed (mismatch, timeout),
# ERR_NOT_COMPILED when the MPI backend is missing.
module Dist

import ..CTensor
using ..CTensor: LibCT, Tensor, CTensorError, ERR_INVALID_HANDLE, handle, newtensor, @check
# `rank` is not exported (LinearAlgebra exports one): write Dist.rank(pg).
export ProcessGroup, ReduceOp, Work, world, subgroup, nranks, ismember, timeout!, checks!, all_reduce!, bcast!,
       all_gather, reduce_scatter, barrier, send, recv!, is_completed,
       DistributedDataParallel, sync!, no_sync, finish!, prepare!, bucket_count

"The reductions of all_reduce! and reduce_scatter (the C ABI's ct_reduce_op values)."
@enum ReduceOp::Int32 SUM = 0 MEAN = 1 MAX = 2 MIN = 3 PRODUCT = 4

"A group of processes (ranks); released by its finalizer or `release!` (works in flight keep it alive)."
mutable struct ProcessGroup
    handle::Ptr{Cvoid}
    function ProcessGroup(h::Ptr{Cvoid})
        finalizer(CTensor.release!, new(h))
    end
end

CTensor.release!(pg::ProcessGroup) = (h = pg.handle; pg.handle = C_NULL; LibCT.ct_process_group_release(h); nothing)
Base.unsafe_convert(::Type{Ptr{Cvoid}}, pg::ProcessGroup) =
    pg.handle == C_NULL ? throw(CTensorError(ERR_INVALID_HANDLE, 2, "CTensor.Dist: process group used after release!")) : pg.handle

function newgroup(f)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    @check f(out)
    ProcessGroup(out[])
end

"The world group of the MPI launch (`mpirun -np N julia prog.jl`); initialises MPI if the program has not."
world() = newgroup(o -> LibCT.ct_process_group_new_mpi(o))

"""
    subgroup(pg, ranks)

The group of `ranks` (0-based ranks of `pg`; members get their position in `ranks`, from 0). Collective: every rank
of `pg` calls it with the same ranks; a rank not listed gets a group with `nranks == 0`, `rank == -1`.
"""
subgroup(pg::ProcessGroup, ranks::AbstractVector{<:Integer}) =
    (rs = Int32.(collect(ranks)); newgroup(o -> LibCT.ct_process_group_new_subgroup(pg, rs, Int32(length(rs)), o)))

"This process's 0-based rank in `pg` (-1 when it is not a member)."
rank(pg::ProcessGroup) = (r = Ref{Int32}(0); @check(LibCT.ct_process_group_rank(pg, r)); Int(r[]))
"The number of ranks of `pg` (0 when this process is not a member)."
nranks(pg::ProcessGroup) = (r = Ref{Int32}(0); @check(LibCT.ct_process_group_size(pg, r)); Int(r[]))
ismember(pg::ProcessGroup) = rank(pg) >= 0
"Seconds later calls of `pg` wait for the other ranks (> 0; default \$CTENSOR_DIST_TIMEOUT, else 300)."
timeout!(pg::ProcessGroup, seconds::Real) = (@check(LibCT.ct_process_group_set_timeout(pg, Float64(seconds))); pg)

"""
    checks!(pg, on::Bool)

`false` trades safety for latency: later collectives on `pg` skip the agreement round trip, so ranks that disagree
(shape, element type, op) are no longer reported (MPI's undefined behaviour: a hang, an error or wrong data) and a
blocking collective waits for absent ranks without a timeout. `true` (the default) turns the checks back on.
"""
checks!(pg::ProcessGroup, on::Bool) = (@check(LibCT.ct_process_group_set_checks(pg, Int32(on))); pg)

Base.show(io::IO, pg::ProcessGroup) =
    print(io, pg.handle == C_NULL ? "ProcessGroup(released)" : "ProcessGroup(rank $(rank(pg)) of $(nranks(pg)))")

"""
An asynchronous collective (`all_reduce!`/`bcast!` with `async = true`): `wait(w)` waits and throws its failure,
`is_completed(w)` polls. Its tensor must stay unused until it is done. Released by `release!` or its finalizer;
releasing an unfinished work waits for it.
"""
mutable struct Work
    handle::Ptr{Cvoid}
    function Work(h::Ptr{Cvoid})
        finalizer(CTensor.release!, new(h))
    end
end

CTensor.release!(w::Work) = (h = w.handle; w.handle = C_NULL; LibCT.ct_work_release(h); nothing)
Base.unsafe_convert(::Type{Ptr{Cvoid}}, w::Work) =
    w.handle == C_NULL ? throw(CTensorError(ERR_INVALID_HANDLE, 2, "CTensor.Dist: work used after release!")) : w.handle
Base.wait(w::Work) = (@check(LibCT.ct_work_wait(w)); nothing)
is_completed(w::Work) = (d = Ref{Int32}(0); @check(LibCT.ct_work_is_completed(w, d)); d[] != 0)

function newwork(f)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    @check f(out)
    Work(out[])
end

"In place: `t` = `op` over the ranks' `t`. With `async = true` returns a Work, else `t`."
function all_reduce!(pg::ProcessGroup, t::Tensor; op::ReduceOp = SUM, async::Bool = false)
    async && return newwork(o -> LibCT.ct_all_reduce_async(pg, t, Int32(op), o))
    @check LibCT.ct_all_reduce(pg, t, Int32(op))
    t
end

"In place: `t` = rank `root`'s `t` on every rank (MPI's Bcast). With `async = true` returns a Work, else `t`."
function bcast!(pg::ProcessGroup, t::Tensor; root::Integer = 0, async::Bool = false)
    async && return newwork(o -> LibCT.ct_broadcast_async(pg, t, Int32(root), o))
    @check LibCT.ct_broadcast(pg, t, Int32(root))
    t
end

"The ranks' `t` side by side along a new last dim: Julia size `(size(t)..., nranks(pg))`."
all_gather(pg::ProcessGroup, t::Tensor) = newtensor(o -> LibCT.ct_all_gather(pg, t, o))

"This rank's part of `op` over the ranks' `t`, whose last Julia dim is split in `nranks(pg)` parts."
reduce_scatter(pg::ProcessGroup, t::Tensor; op::ReduceOp = SUM) = newtensor(o -> LibCT.ct_reduce_scatter(pg, t, Int32(op), o))

"Returns once every rank of `pg` has called it."
barrier(pg::ProcessGroup) = (@check(LibCT.ct_barrier(pg)); nothing)

"Sends `t` to rank `dst`, matched by a `recv!` there with the same `tag` (>= 0)."
send(pg::ProcessGroup, t::Tensor, dst::Integer; tag::Integer = 0) = (@check(LibCT.ct_send(pg, t, Int32(dst), Int32(tag))); nothing)

"Receives into `t` (the sender's number of elements and element type) from rank `src`; returns `t`."
recv!(pg::ProcessGroup, t::Tensor, src::Integer; tag::Integer = 0) = (@check(LibCT.ct_recv(pg, t, Int32(src), Int32(tag))); t)

include("data_parallel.jl")

end # module Dist
