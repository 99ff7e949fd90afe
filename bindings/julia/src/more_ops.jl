# more_ops.jl - the last reductions and products of issue 14: logcumsumexp, aminmax, var_mean / std_mean, kron,
# tensordot and inner, thin wrappers over the C ABI. Dims are Julia dims. Layout (column-major, Note in
# tensor.jl): ctensor's last dim is Julia's first, so `inner` contracts the FIRST Julia dims, and tensordot's result
# has b's free dims first, then a's (each in Julia order). Base.kron needs no remapping: reversing both shapes
# gives Julia's own kron(A, B) (A[i, j] * B blocks).

"""
    logcumsumexp(t; dims)

log(cumsum(exp(t); dims)), computed stably (one log-add-exp per step). Differentiable.
"""
logcumsumexp(t::Tensor; dims::Integer) = newtensor(o -> LibCT.ct_logcumsumexp(t, ctdim(t, dims), o))

function _pair(c, t, args...)
    a = Ref{Ptr{Cvoid}}(C_NULL); b = Ref{Ptr{Cvoid}}(C_NULL)
    @check c(t, args..., a, b)
    (wrap(a[]), wrap(b[]))
end

"""
    aminmax(t; dims = nothing, keepdims = false) -> (min, max)

The smallest and largest element in one pass, over all elements or along Julia dim `dims`. Not differentiable.
"""
function aminmax(t::Tensor; dims = nothing, keepdims::Bool = false)
    d, hd = dims === nothing ? (Int64(0), Int32(0)) : (ctdim(t, dims), Int32(1))
    _pair(LibCT.ct_aminmax, t, d, hd, Int32(keepdims))
end

"""
    var_mean(t; dims = :, corrected = true) -> (var, mean)
    std_mean(t; dims = :, corrected = true) -> (std, mean)

Statistics.var / std and mean in one call (reduced dims kept as size 1, as Julia's); differentiable in both.
"""
var_mean(t::Tensor; dims = :, corrected::Bool = true) =
    (d = ctdims(t, dims); _pair(LibCT.ct_var_mean, t, d, Int32(length(d)), Float64(corrected), Int32(!(dims isa Colon))))
std_mean(t::Tensor; dims = :, corrected::Bool = true) =
    (d = ctdims(t, dims); _pair(LibCT.ct_std_mean, t, d, Int32(length(d)), Float64(corrected), Int32(!(dims isa Colon))))

"Kronecker product, as LinearAlgebra.kron of the Julia arrays."
Base.kron(a::Tensor, b::Tensor) = newtensor(o -> LibCT.ct_kron(a, b, o))

"""
    tensordot(a, b, dims_a, dims_b)
    tensordot(a, b, n)

Contracts Julia dims dims_a[i] of a with dims_b[i] of b (the integer form: a's first n Julia dims with b's last n,
i.e. torch's last-of-a with first-of-b in ctensor's order). The result has b's free dims, then a's.
"""
tensordot(a::Tensor, b::Tensor, dims_a, dims_b) =
    (da = ctdims(a, dims_a); db = ctdims(b, dims_b);
     newtensor(o -> LibCT.ct_tensordot(a, b, da, Int32(length(da)), db, Int32(length(db)), o)))
function tensordot(a::Tensor, b::Tensor, n::Integer)
    n < 0 && throw(ArgumentError("tensordot expects dims >= 0, but got dims=$n"))
    da = Int64[i - n for i in 0:n-1]; db = Int64[i for i in 0:n-1]
    newtensor(o -> LibCT.ct_tensordot(a, b, da, Int32(n), db, Int32(n), o))
end

"The inner product over the first Julia dims of a and b (ctensor's last); a product when either is 0-d."
inner(a::Tensor, b::Tensor) = newtensor(o -> LibCT.ct_inner(a, b, o))

merge!(OPS, Dict{String,Any}("logcumsumexp" => logcumsumexp, "aminmax" => aminmax, "var_mean" => var_mean,
                             "std_mean" => std_mean, "kron" => kron, "tensordot" => tensordot, "inner" => inner))
