# data_parallel.jl - Dist.DistributedDataParallel: wraps a model for data-parallel training over a process group
# (torch's DDP): each backward leaves in every parameter's grad the mean over the ranks of its gradient (the C ABI's
# ct_data_parallel). Included inside module Dist.

"""
    DistributedDataParallel(pg, model; bucket_bytes = 0)

Wraps `model` (a layer, a Chain, or a vector of parameter Tensors): collective over `pg`, it broadcasts the
parameters and buffers (`CTensor.buffers`: BatchNorm's running statistics) from rank 0 (in place) and hooks the
parameters so that every backward averages their gradients over the ranks, in buckets of about `bucket_bytes`
(<= 0: 25 MiB) all-reduced while backward goes on. Call it like the model: each call first broadcasts the buffers
from rank 0 unless `broadcast_buffers = false` (every rank must then make the same calls), as torch's DDP.
`CTensor.params(ddp)` are the model's. `no_sync(f, ddp)` runs `f` (forward and backward of a micro-batch) with local
accumulation; the next backward outside averages everything accumulated. `finish!(ddp)` completes a round that
unused parameters left open; `release!(ddp)` (or the finalizer) removes the hooks.
"""
mutable struct DistributedDataParallel{M}
    model::M
    pg::ProcessGroup
    broadcast_buffers::Bool
    handle::Ptr{Cvoid}
    function DistributedDataParallel(pg::ProcessGroup, model::M; bucket_bytes::Integer = 0,
                                     broadcast_buffers::Bool = true) where {M}
        ps = model_params(model)
        hs = Ptr{Cvoid}[handle(p) for p in ps]
        out = Ref{Ptr{Cvoid}}(C_NULL)
        GC.@preserve ps @check LibCT.ct_data_parallel_new(pg, hs, Int32(length(hs)), Int64(bucket_bytes), out)
        d = finalizer(CTensor.release!, new{M}(model, pg, broadcast_buffers, out[]))
        sync_buffers(d)
        d
    end
end

sync_buffers(d::DistributedDataParallel) = foreach(b -> bcast!(d.pg, b; root = 0), model_buffers(d.model))

model_params(ps::AbstractVector{<:Tensor}) = collect(ps)
model_params(model) = CTensor.params(model)
model_buffers(ps::AbstractVector{<:Tensor}) = Tensor[]
model_buffers(model) = CTensor.buffers(model)

CTensor.release!(d::DistributedDataParallel) = (h = d.handle; d.handle = C_NULL; LibCT.ct_data_parallel_release(h); nothing)
Base.unsafe_convert(::Type{Ptr{Cvoid}}, d::DistributedDataParallel) =
    d.handle == C_NULL ? throw(CTensorError(ERR_INVALID_HANDLE, 2, "CTensor.Dist: DistributedDataParallel used after release!")) : d.handle

function (d::DistributedDataParallel)(x...)
    d.broadcast_buffers && sync_buffers(d)
    d.model(x...)
end
CTensor.params(d::DistributedDataParallel) = model_params(d.model)

"`false`: later backwards accumulate into grad locally; the next backward with `true` (the default) averages."
sync!(d::DistributedDataParallel, on::Bool) = (@check(LibCT.ct_data_parallel_set_sync(d, Int32(on))); d)

"Runs `f()` with local gradient accumulation (torch's no_sync); the next backward outside averages. Returns f()'s value."
function no_sync(f, d::DistributedDataParallel)
    sync!(d, false)
    try
        f()
    finally
        sync!(d, true)
    end
end

"Completes a reduction the last backward left open because some parameters got no gradient (they count as zero)."
finish!(d::DistributedDataParallel) = (@check(LibCT.ct_data_parallel_finish(d)); d)

"The number of buckets the gradients are packed into (one all-reduce each per synchronising backward)."
bucket_count(d::DistributedDataParallel) = (n = Ref{Int32}(0); @check(LibCT.ct_data_parallel_bucket_count(d, n)); Int(n[]))

"Optional, between forward and a synchronising backward: parameters `outputs` cannot reach count as zero from the start."
function prepare!(d::DistributedDataParallel, outputs::Tensor...)
    hs = Ptr{Cvoid}[handle(t) for t in outputs]
    GC.@preserve outputs @check LibCT.ct_data_parallel_prepare(d, hs, Int32(length(hs)))
    d
end
