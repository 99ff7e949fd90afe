# random.jl - generators and random tensors (same seed, same numbers on every platform and language).

"A seeded ctensor random number generator (released by its finalizer or release!)."
mutable struct Generator
    handle::Ptr{Cvoid}
    function Generator(seed::Integer)
        r = Ref{Ptr{Cvoid}}(C_NULL)
        @check LibCT.ct_generator_new(UInt64(seed), r)
        g = new(r[])
        finalizer(release!, g)
    end
end
release!(g::Generator) = (h = g.handle; g.handle = C_NULL; LibCT.ct_generator_release(h); nothing)
Base.unsafe_convert(::Type{Ptr{Cvoid}}, g::Generator) =
    g.handle == C_NULL ? throw(CTensorError(ERR_INVALID_HANDLE, 2, "CTensor: generator used after release!")) : g.handle
Base.unsafe_convert(::Type{Ptr{Cvoid}}, ::Nothing) = C_NULL
seed!(g::Generator, seed::Integer) = (@check(LibCT.ct_generator_seed(g, UInt64(seed))); g)
manual_seed(seed::Integer) = @check LibCT.ct_manual_seed(UInt64(seed))
genptr(g) = g === nothing ? C_NULL : Base.unsafe_convert(Ptr{Cvoid}, g)

"Uniform [0, 1) tensor of Julia size dims."
rand(::Type{T}, dims::Integer...; device::Device = cpu, gen::Union{Generator,Nothing} = nothing) where {T} =
    GC.@preserve gen newtensor(o -> LibCT.ct_rand(ctshape(dims), Int32(length(dims)), dtype_of(T), device, genptr(gen), o))
randn(::Type{T}, dims::Integer...; device::Device = cpu, gen::Union{Generator,Nothing} = nothing) where {T} =
    GC.@preserve gen newtensor(o -> LibCT.ct_randn(ctshape(dims), Int32(length(dims)), dtype_of(T), device, genptr(gen), o))
"Uniform integers in low:high-1."
randint(low::Integer, high::Integer, dims::Integer...; dtype::Type = Int64, device::Device = cpu, gen::Union{Generator,Nothing} = nothing) =
    GC.@preserve gen newtensor(o -> LibCT.ct_randint(Int64(low), Int64(high), ctshape(dims), Int32(length(dims)), dtype_of(dtype), device, genptr(gen), o))
bernoulli(p::Tensor; gen::Union{Generator,Nothing} = nothing) = GC.@preserve gen newtensor(o -> LibCT.ct_bernoulli(p, genptr(gen), o))
"A random permutation of 1:n (Int64)."
function randperm(n::Integer; device::Device = cpu, gen::Union{Generator,Nothing} = nothing)
    r = GC.@preserve gen newtensor(o -> LibCT.ct_randperm(Int64(n), device, genptr(gen), o))
    s = shift_index(r, 1); release!(r); s
end
