# tensor.jl - Tensor{T,N}, the Julia array over a ctensor handle: ownership (finalizer, release!, @ctscope),
# dtype/device mapping, size, and the row-major/column-major convention (Julia dims are ctensor's reversed).
#
# Convention: a Julia Tensor of size (d1, d2, ..., dN) is the ctensor tensor of shape [dN, ..., d2, d1].
# A column-major Julia Array therefore is, byte for byte, a contiguous row-major ctensor tensor, so
# Tensor(a::Array) and Array(t) copy nothing but the shape order; Julia dim k is ctensor dim N - k.

const DTYPES = Dict{DataType,Int32}(Float32 => 0, Float64 => 1, Int32 => 2, Int64 => 3, UInt8 => 4, Bool => 5,
                                    Float16 => 6, Int8 => 8, Int16 => 9, ComplexF32 => 10, ComplexF64 => 11)
# ctensor dtype code + 1 => Julia type; 7 (bfloat16) has no Julia type in Base: such tensors are refused.
const ELTYPES = (Float32, Float64, Int32, Int64, UInt8, Bool, Float16, Nothing, Int8, Int16, ComplexF32, ComplexF64)
const BFLOAT16_CODE = 7
function eltype_of(dt::Integer)
    dt == BFLOAT16_CODE && throw(CTensorError(ERR_DTYPE, Int32(ERR_DTYPE),
        "CTensor: bfloat16 tensors have no Julia element type (convert with ct_to_dtype to Float32 first)"))
    ELTYPES[dt+1]
end
dtype_of(::Type{T}) where {T} = get(DTYPES, T) do
    throw(ArgumentError("CTensor: element type $T has no ctensor dtype (use one of $(join(ELTYPES, ", ")))"))
end

"A device: `cpu` or `cuda(i)`."
const Device = LibCT.CtDevice
const cpu = Device(1, 0)
cuda(index::Integer = 0) = Device(2, index)
Base.show(io::IO, d::Device) = print(io, d.type == 1 ? "cpu" : d.type == 2 ? "cuda:$(d.index)" : "device($(d.type), $(d.index))")

"An N-dimensional ctensor tensor seen as a Julia array (see the convention at the top of tensor.jl)."
mutable struct Tensor{T,N} <: AbstractArray{T,N}
    handle::Ptr{Cvoid}
    dims::NTuple{N,Int}
    function Tensor{T,N}(h::Ptr{Cvoid}, dims::NTuple{N,Int}) where {T,N}
        t = new{T,N}(h, dims)
        finalizer(finalize_tensor, t)
        t
    end
end

# Finalizers run on whichever thread collects; ct_tensor_release is thread-safe and NULL-safe.
finalize_tensor(t::Tensor) = (h = t.handle; t.handle = C_NULL; LibCT.ct_tensor_release(h); nothing)

"Releases t's handle now (idempotent); any later use of t throws a CTensorError of kind ERR_INVALID_HANDLE."
release!(t::Tensor) = finalize_tensor(t)
release!(xs...) = foreach(release!, xs)

function handle(t::Tensor)
    t.handle == C_NULL && throw(CTensorError(ERR_INVALID_HANDLE, 2, "CTensor: tensor used after release!"))
    t.handle
end
Base.unsafe_convert(::Type{Ptr{Cvoid}}, t::Tensor) = handle(t)
Base.cconvert(::Type{Ptr{Cvoid}}, t::Tensor) = t

const SCOPES = Vector{Vector{Tensor}}()  # open @ctscope blocks of the current task (innermost last)

"Wraps a new reference (owned from now on) into a Tensor of the right element type and rank."
function wrap(h::Ptr{Cvoid})
    nd = Ref{Int32}(0)
    dt = Ref{Int32}(0)
    st = LibCT.ct_tensor_dtype(h, dt)
    buf = Ref{NTuple{4,Int64}}()
    st == 0 && (st = GC.@preserve buf LibCT.ct_tensor_shape(h, Ptr{Int64}(pointer_from_objref(buf)), Int32(4), nd))
    st == 0 || (LibCT.ct_tensor_release(h); throw_status(st))
    n = Int(nd[])
    n > 4 && return wrap_any(h, eltype_of(dt[]), n)
    d = buf[]
    # static branches: no dynamic dispatch for the common element types and ranks
    t = dt[]
    t == 0 ? wrap_rank(h, Float32, n, d) : t == 1 ? wrap_rank(h, Float64, n, d) :
    t == 3 ? wrap_rank(h, Int64, n, d) : t == 5 ? wrap_rank(h, Bool, n, d) : wrap_any(h, eltype_of(t), n)
end
@inline function wrap_rank(h::Ptr{Cvoid}, ::Type{T}, n::Int, d::NTuple{4,Int64}) where {T}
    n == 2 ? register(Tensor{T,2}(h, (Int(d[2]), Int(d[1])))) :
    n == 1 ? register(Tensor{T,1}(h, (Int(d[1]),))) :
    n == 0 ? register(Tensor{T,0}(h, ())) :
    n == 3 ? register(Tensor{T,3}(h, (Int(d[3]), Int(d[2]), Int(d[1])))) :
    register(Tensor{T,4}(h, (Int(d[4]), Int(d[3]), Int(d[2]), Int(d[1]))))
end
function wrap_any(h::Ptr{Cvoid}, ::Type{T}, n::Int) where {T}
    ct = Vector{Int64}(undef, n)
    nd = Ref{Int32}(0)
    LibCT.ct_tensor_shape(h, ct, Int32(n), nd)
    register(Tensor{T,n}(h, ntuple(i -> Int(ct[n+1-i]), n)))
end
"Typed wrap for callers that know the result's element type and Julia size (no metadata queries)."
wrap_as(h::Ptr{Cvoid}, ::Type{T}, dims::NTuple{N,Int}) where {T,N} = register(Tensor{T,N}(h, dims))
register(t::Tensor) = (isempty(SCOPES) || push!(SCOPES[end], t); t)

"Runs `f` on a fresh out-handle slot and wraps what the call put there: `newtensor(o -> LibCT.ct_x(a, o))`."
@inline function newtensor(f)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    @check f(out)
    wrap(out[])
end

"""
    @ctscope begin ... end

Releases every tensor created inside the block when it ends (also on error), except the block's value.
"""
macro ctscope(ex)
    quote
        push!(SCOPES, Tensor[])
        local keep = nothing
        try
            keep = $(esc(ex))
        finally
            local made = pop!(SCOPES)
            for t in made
                t === keep || (keep isa Tuple && any(k -> k === t, keep)) || release!(t)
            end
        end
        keep
    end
end

ctshape(dims) = Int64[dims[i] for i in length(dims):-1:1]
# An out-of-range dim is the library's CT_ERR_INDEX (checked here: a Julia dim past the end would be a valid
# negative ctensor dim), so every language reports it with the same kind.
ctdim(t::AbstractArray, d::Integer) = (1 <= d <= ndims(t) || throw(CTensorError(ERR_INDEX, Int32(ERR_INDEX), "CTensor: dim $d out of 1:$(ndims(t))")); Int64(ndims(t) - d))

Base.size(t::Tensor) = t.dims
Base.IndexStyle(::Type{<:Tensor}) = IndexCartesian()

dtype(t::Tensor) = unsafe_string(LibCT.ct_dtype_name(DTYPES[eltype(t)]))
function device(t::Tensor)
    d = Ref(cpu)
    @check LibCT.ct_tensor_device(t, d)
    d[]
end
numel(t::Tensor) = prod(t.dims)
is_released(t::Tensor) = t.handle == C_NULL
"Number of live ctensor handles (tensors, generators, optimizers) in the process."
live_handles() = LibCT.ct_live_handles()

"""
    set_cpu_memory_limit!(bytes)

Caps the bytes ctensor may hold in CPU tensors; an allocation past it throws a `CTensorError` of kind
`ERR_OUT_OF_MEMORY` and leaves its inputs as they were. `nothing` removes the cap (the default, unless the
environment variable `CTENSOR_MEMORY_LIMIT` sets one).
"""
set_cpu_memory_limit!(bytes::Union{Integer,Nothing}) =
    (@check LibCT.ct_set_cpu_memory_limit(bytes === nothing ? Int64(-1) : Int64(bytes)); nothing)

"The CPU allocator's figures in bytes: `(allocated, cached, limit)`, `limit === nothing` when there is none."
function cpu_memory_stats()
    allocated, cached, limit = Ref{Int64}(0), Ref{Int64}(0), Ref{Int64}(0)
    @check LibCT.ct_cpu_memory_stats(allocated, cached, limit)
    (allocated = allocated[], cached = cached[], limit = limit[] < 0 ? nothing : limit[])
end

# ---- creation -------------------------------------------------------------------------------------
for (jl, c) in ((:zeros, :ct_zeros), (:ones, :ct_ones), (:empty, :ct_empty))
    @eval $jl(::Type{T}, dims::Integer...; device::Device = cpu) where {T} =
        newtensor(o -> LibCT.$c(ctshape(dims), Int32(length(dims)), dtype_of(T), device, o))
end
full(::Type{T}, value::Real, dims::Integer...; device::Device = cpu) where {T} =
    newtensor(o -> LibCT.ct_full(ctshape(dims), Int32(length(dims)), Float64(value), dtype_of(T), device, o))
scalar_tensor(value::Real; dtype::Type = Float32, device::Device = cpu) =
    newtensor(o -> LibCT.ct_scalar_tensor(Float64(value), dtype_of(dtype), device, o))
wrapped_scalar(x::Real) = newtensor(o -> LibCT.ct_wrapped_scalar(Float64(x), Int32(x isa Integer), o))
# a Bool is torch's Python bool: a 0-d bool wrapped number that never changes a tensor's dtype (mask .+ true stays Bool)
wrapped_scalar_bool(x::Bool) = newtensor(o -> LibCT.ct_wrapped_scalar_bool(Int32(x), o))
wrapped_scalar(x::Bool) = wrapped_scalar_bool(x)
arange(start::Real, stop::Real, step::Real = 1; dtype::Type = Float32, device::Device = cpu) =
    newtensor(o -> LibCT.ct_arange(Float64(start), Float64(stop), Float64(step), dtype_of(dtype), device, o))
linspace(start::Real, stop::Real, n::Integer; dtype::Type = Float32, device::Device = cpu) =
    newtensor(o -> LibCT.ct_linspace(Float64(start), Float64(stop), Int64(n), dtype_of(dtype), device, o))
eye(n::Integer, m::Integer = n; dtype::Type = Float32, device::Device = cpu) =
    newtensor(o -> LibCT.ct_eye(Int64(n), Int64(m), dtype_of(dtype), device, o))
for (jl, c) in ((:zeros_like, :ct_zeros_like), (:ones_like, :ct_ones_like), (:empty_like, :ct_empty_like))
    @eval $jl(t::Tensor) = newtensor(o -> LibCT.$c(t, o))
end
full_like(t::Tensor, v::Real) = newtensor(o -> LibCT.ct_full_like(t, Float64(v), o))

Base.similar(t::Tensor, ::Type{T}, dims::Dims) where {T} =
    newtensor(o -> LibCT.ct_empty(ctshape(dims), Int32(length(dims)), dtype_of(T), device(t), o))
Base.copy(t::Tensor) = newtensor(o -> LibCT.ct_clone(t, o))
Base.zero(t::Tensor) = zeros_like(t)

# ---- Julia arrays in and out ----------------------------------------------------------------------
"Copies a Julia array into a new tensor (on `device`)."
function tensor(a::AbstractArray{T}; device::Device = cpu) where {T}
    A = a isa Array{T} ? a : Array{T}(a)  # column-major: its bytes are the reversed-shape row-major tensor
    newtensor(o -> LibCT.ct_tensor_from_data(A, Int64(sizeof(A)), ctshape(size(A)), Int32(ndims(A)),
                                              dtype_of(T), device, o))
end
tensor(x::Real; kw...) = tensor(fill(x); kw...)

# Zero-copy wrapping: the tensor keeps the array alive through PINS until ctensor frees the storage; the
# deleter only writes a flag (no allocation, no lock), and pinned arrays whose flag is set are dropped at
# the next wrap or at `unpin!()`.
const PINS = Dict{Ptr{Cvoid},Tuple{Any,Base.RefValue{Int}}}()
pin_released(data::Ptr{Cvoid}, ctx::Ptr{Cvoid}) = (unsafe_store!(Ptr{Int}(ctx), 1); nothing)
const PIN_DELETER = Ref{Ptr{Cvoid}}(C_NULL)
unpin!() = (filter!(kv -> kv[2][2][] == 0, PINS); length(PINS))

"""
    Tensor(a::Array)

Wraps `a` without copying: the tensor of shape reverse(size(a)) (row-major) over a's memory; writes through
either are seen by both. `a` stays alive as long as ctensor uses the memory.
"""
function Tensor(a::Array{T,N}) where {T,N}
    unpin!()
    flag = Ref(0)
    ptr = Ptr{Cvoid}(pointer(a))
    t = GC.@preserve flag newtensor(o -> LibCT.ct_tensor_from_blob(ptr, ctshape(size(a)), C_NULL, Int32(N),
        dtype_of(T), cpu, PIN_DELETER[], Ptr{Cvoid}(pointer_from_objref(flag)), o))
    PINS[Ptr{Cvoid}(pointer_from_objref(flag))] = (a, flag)
    t
end
Tensor{T,N}(a::Array{T,N}) where {T,N} = Tensor(a)
Tensor(t::Tensor) = t

"Copies t (any layout, any device) into a new Julia Array of the same size."
function Base.Array(t::Tensor{T,N}) where {T,N}
    a = Array{T,N}(undef, size(t))
    @check LibCT.ct_tensor_copy_to_host(t, a, Int64(sizeof(a)))
    a
end
Base.Array{T}(t::Tensor) where {T} = Array{T}(Array(t))
Base.convert(::Type{Array}, t::Tensor) = Array(t)
Base.collect(t::Tensor) = Array(t)

"A Julia Array sharing t's memory (t must be a contiguous CPU tensor); it keeps t's storage alive."
function unsafe_array(t::Tensor{T,N}) where {T,N}
    c = Ref{Int32}(0)
    @check LibCT.ct_tensor_is_contiguous(t, c)
    (c[] == 1 && device(t) == cpu) || throw(ArgumentError("unsafe_array: tensor must be contiguous and on the cpu"))
    p = Ref{Ptr{Cvoid}}(C_NULL)
    @check LibCT.ct_tensor_data_ptr(t, p)
    a = unsafe_wrap(Array, Ptr{T}(p[]), size(t); own = false)
    h = LibCT.ct_tensor_retain(handle(t))
    finalizer(_ -> LibCT.ct_tensor_release(h), a)
    a
end

"Moves (copies) t to a device; a clear CTensorError (ERR_NOT_COMPILED / ERR_DEVICE) when it is unusable."
to(t::Tensor, d::Device) = newtensor(o -> LibCT.ct_to_device(t, d, o))
to(t::Tensor, ::Type{T}) where {T} = newtensor(o -> LibCT.ct_to_dtype(t, dtype_of(T), o))
"Number of usable CUDA devices and, when none, why."
function cuda_available()
    buf = fill(0x00, 512)
    ok = LibCT.ct_cuda_is_available(buf, Int32(length(buf)))
    (ok == 1, unsafe_string(pointer(buf)))
end

"Value of a one-element tensor (exact for integer dtypes)."
function item(t::Tensor{T}) where {T}
    if T <: Complex  # complex64 / complex128: both parts
        re, im = Ref(0.0), Ref(0.0)
        @check LibCT.ct_tensor_item_complex(t, re, im)
        return T(re[], im[])
    end
    if T <: Integer || T === Bool
        v = Ref{Int64}(0)
        @check LibCT.ct_tensor_item_int64(t, v)
        return T(v[])
    end
    v = Ref(0.0)
    @check LibCT.ct_tensor_item(t, v)
    T(v[])
end
