# ops.jl - ctensor ops with Julia names and Julia dims (dim k is ctensor dim N - k; index tensors are
# 1-based on the Julia side): shape ops, reductions with dims=, matmul as `*`, sorting, joins, in-place.

unary(c, x::Tensor) = newtensor(o -> c(x, o))
binary(c, a::Tensor, b::Tensor) = newtensor(o -> c(a, b, o))
ctdims(t::AbstractArray, dims) = dims isa Colon ? Int64[] : Int64[ctdim(t, d) for d in dims]
# index tensors: ctensor counts from 0, Julia from 1
shift_index(t::Tensor, by::Integer) = (s = wrapped_scalar(by); r = newtensor(o -> LibCT.ct_add(t, s, 1.0, o)); release!(s); r)
index_arg(i::Tensor) = shift_index(i, -1)
index_arg(i::AbstractArray{<:Integer}) = tensor(Int64.(i) .- 1)

# ---- shape ------------------------------------------------------------------------------------------
Base.reshape(t::Tensor, dims::Dims) = newtensor(o -> LibCT.ct_reshape(t, ctshape(dims), Int32(length(dims)), o))
# a Colon (one dim inferred) is ctensor's -1, so reshape(t, :, 4) stays a Tensor (Base would wrap a ReshapedArray)
Base.reshape(t::Tensor, dims::Tuple{Vararg{Union{Int,Colon}}}) =
    newtensor(o -> LibCT.ct_reshape(t, Int64[d isa Colon ? -1 : d for d in reverse(dims)], Int32(length(dims)), o))
Base.vec(t::Tensor) = reshape(t, (length(t),))
function Base.permutedims(t::Tensor{T,N}, perm) where {T,N}
    length(perm) == N || throw(ArgumentError("permutedims: perm $perm for $N dims"))
    p = Vector{Int64}(undef, N)
    for i in 1:N
        p[N-i+1] = N - perm[i]
    end
    newtensor(o -> LibCT.ct_permute(t, p, Int32(N), o))
end
Base.permutedims(t::Tensor{T,2}) where {T} = permutedims(t, (2, 1))
Base.transpose(t::Tensor{T,2}) where {T} = newtensor(o -> LibCT.ct_transpose(t, 0, 1, o))
Base.adjoint(t::Tensor{<:Real,2}) = transpose(t)
"dropdims(t; dims): drops size-1 dims (an Integer or several), squeezed from the last so the others keep their numbers."
function Base.dropdims(t::Tensor; dims)
    ds = sort(unique(Int[d for d in dims]); rev = true)
    foreach(d -> ctdim(t, d), ds)
    r = t
    for d in ds
        s = newtensor(o -> LibCT.ct_squeeze(r, ctdim(r, d), o))
        r === t || release!(r)
        r = s
    end
    r === t ? reshape(t, size(t)) : r
end
squeeze(t::Tensor) = newtensor(o -> LibCT.ct_squeeze_all(t, o))
"Inserts a size-1 dim so that it becomes Julia dim `d` of the result."
unsqueeze(t::Tensor, d::Integer) = newtensor(o -> LibCT.ct_unsqueeze(t, Int64(ndims(t) + 1 - d), o))
"Broadcasts size-1 dims to `dims` (a view with stride 0)."
expand(t::Tensor, dims::Integer...) = newtensor(o -> LibCT.ct_expand(t, ctshape(dims), Int32(length(dims)), o))
"Merges Julia dims d1..d2 into one."
flatten(t::Tensor, d1::Integer = 1, d2::Integer = ndims(t)) = newtensor(o -> LibCT.ct_flatten(t, ctdim(t, d2), ctdim(t, d1), o))
narrow(t::Tensor, d::Integer, start::Integer, len::Integer) = newtensor(o -> LibCT.ct_narrow(t, ctdim(t, d), Int64(start - 1), Int64(len), o))
LinearAlgebra.diag(t::Tensor{T,2}, k::Integer = 0) where {T} = newtensor(o -> LibCT.ct_diagonal(t, Int64(-k), 0, 1, o))
contiguous(t::Tensor) = unary(LibCT.ct_contiguous, t)
Base.detach(t::Tensor) = unary(LibCT.ct_detach, t)
Base.reverse(t::Tensor; dims = :) = (d = ctdims(t, dims isa Colon ? (1:ndims(t)) : dims); newtensor(o -> LibCT.ct_flip(t, d, Int32(length(d)), o)))
Base.circshift(t::Tensor, shift::Integer) = circshift(t, (shift,))
function Base.circshift(t::Tensor, shifts::Tuple{Vararg{Integer}})
    s = Int64.(collect(shifts))
    d = Int64[ctdim(t, i) for i in 1:length(s)]
    newtensor(o -> LibCT.ct_roll(t, s, Int32(length(s)), d, Int32(length(d)), o))
end
# Julia's tril/triu of the (i, j) matrix are ctensor's triu/tril of the transposed [j, i] one
LinearAlgebra.tril(t::Tensor{T,2}, k::Integer = 0) where {T} = newtensor(o -> LibCT.ct_triu(t, Int64(-k), o))
LinearAlgebra.triu(t::Tensor{T,2}, k::Integer = 0) where {T} = newtensor(o -> LibCT.ct_tril(t, Int64(-k), o))

function Base.cat(ts::Tensor...; dims::Integer)
    h = Ptr{Cvoid}[handle(t) for t in ts]
    GC.@preserve ts newtensor(o -> LibCT.ct_cat(h, Int32(length(h)), ctdim(ts[1], dims), o))
end
Base.vcat(ts::Tensor...) = cat(ts...; dims = 1)
Base.hcat(ts::Tensor{T,2}...) where {T} = cat(ts...; dims = 2)
"Stacks equal-size tensors along a new Julia dim `dims` (default: a new last dim)."
function stack(ts::AbstractVector{<:Tensor}; dims::Integer = ndims(ts[1]) + 1)
    h = Ptr{Cvoid}[handle(t) for t in ts]
    GC.@preserve ts newtensor(o -> LibCT.ct_stack(h, Int32(length(h)), Int64(ndims(ts[1]) + 1 - dims), o))
end
function _pieces(c, t::Tensor, arg::Integer, d::Integer)
    n = Ref{Int32}(0)
    @check c(t, Int64(arg), ctdim(t, d), C_NULL, Int32(0), n)
    outs = fill(C_NULL, Int(n[]))
    @check c(t, Int64(arg), ctdim(t, d), outs, n[], n)
    map(wrap, outs)
end
"Pieces of `size` along Julia dim `dims` (views)."
Base.split(t::Tensor, size::Integer; dims::Integer) = _pieces(LibCT.ct_split, t, size, dims)
chunk(t::Tensor, chunks::Integer; dims::Integer) = _pieces(LibCT.ct_chunk, t, chunks, dims)

# ---- reductions (dims kept as size 1, like Julia's) --------------------------------------------------
function _reduce(c, t::Tensor, dims, extra...)
    d = ctdims(t, dims)
    newtensor(o -> c(t, d, Int32(length(d)), extra..., Int32(!(dims isa Colon)), o))
end
"sum(t; dims): a 0-dim Tensor for dims=: (read it with t[] or item), dims kept otherwise."
Base.sum(t::Tensor; dims = :) = _reduce(LibCT.ct_sum, t, dims)
Base.prod(t::Tensor; dims = :) = _reduce(LibCT.ct_prod, t, dims)
mean(t::Tensor; dims = :) = _reduce(LibCT.ct_mean, t, dims)
var(t::Tensor; dims = :, corrected::Bool = true) = (d = ctdims(t, dims); newtensor(o -> LibCT.ct_var(t, d, Int32(length(d)), Float64(corrected), Int32(!(dims isa Colon)), o)))
std(t::Tensor; dims = :, corrected::Bool = true) = (d = ctdims(t, dims); newtensor(o -> LibCT.ct_std(t, d, Int32(length(d)), Float64(corrected), Int32(!(dims isa Colon)), o)))
logsumexp(t::Tensor; dims = :) = _reduce(LibCT.ct_logsumexp, t, dims)
LinearAlgebra.norm(t::Tensor, p::Real = 2; dims = :) = (d = ctdims(t, dims); newtensor(o -> LibCT.ct_norm(t, Float64(p), d, Int32(length(d)), Int32(!(dims isa Colon)), o)))
Base.all(t::Tensor; dims = :) = _reduce(LibCT.ct_all, t, dims)
Base.any(t::Tensor; dims = :) = _reduce(LibCT.ct_any, t, dims)
# values and their int64 (0-based) indices along one dim, kept as size 1
function _extreme_pair(call, t::Tensor, dims::Integer)
    v = Ref{Ptr{Cvoid}}(C_NULL); i = Ref{Ptr{Cvoid}}(C_NULL)
    @check call(t, ctdim(t, dims), Int32(1), v, i)
    values = try wrap(v[]) catch; LibCT.ct_tensor_release(i[]); rethrow() end
    values, wrap(i[])
end
function _extreme(call, all_call, t::Tensor, dims)
    dims isa Colon && return unary(all_call, t)
    v, i = _extreme_pair(call, t, dims)
    release!(i)
    v
end
Base.maximum(t::Tensor; dims = :) = _extreme(LibCT.ct_max_dim, LibCT.ct_max, t, dims)
Base.minimum(t::Tensor; dims = :) = _extreme(LibCT.ct_min_dim, LibCT.ct_min, t, dims)
function _find_extreme(call, t::Tensor, dims)
    v, i = _extreme_pair(call, t, dims)
    s = shift_index(i, 1)
    release!(i)
    v, s
end
"findmax(t; dims): the largest values and their 1-based positions (as argmax gives them), both Tensors."
Base.findmax(t::Tensor; dims = :) = dims isa Colon ? (maximum(t), argmax(t)) : _find_extreme(LibCT.ct_max_dim, t, dims)
"findmin(t; dims): the smallest values and their 1-based positions (as argmin gives them), both Tensors."
Base.findmin(t::Tensor; dims = :) = dims isa Colon ? (minimum(t), argmin(t)) : _find_extreme(LibCT.ct_min_dim, t, dims)
"1-based positions: linear index (dims=:) or index along `dims` (kept as size 1)."
function Base.argmax(t::Tensor; dims = :)
    r = dims isa Colon ? unary(LibCT.ct_argmax_all, t) : newtensor(o -> LibCT.ct_argmax(t, ctdim(t, dims), Int32(1), o))
    s = shift_index(r, 1); release!(r); s
end
function Base.argmin(t::Tensor; dims = :)
    r = dims isa Colon ? unary(LibCT.ct_argmin_all, t) : newtensor(o -> LibCT.ct_argmin(t, ctdim(t, dims), Int32(1), o))
    s = shift_index(r, 1); release!(r); s
end
Base.cumsum(t::Tensor; dims::Integer) = newtensor(o -> LibCT.ct_cumsum(t, ctdim(t, dims), o))
Base.cumprod(t::Tensor; dims::Integer) = newtensor(o -> LibCT.ct_cumprod(t, ctdim(t, dims), o))

# ---- linear algebra ---------------------------------------------------------------------------------
# Julia a * b on reversed shapes is ctensor's b @ a.
Base.:*(a::Tensor{T,2}, b::Tensor{T,2}) where {T} = binary(LibCT.ct_matmul, b, a)
Base.:*(a::Tensor{T,2}, b::Tensor{T,1}) where {T} = binary(LibCT.ct_matmul, b, a)
matmul(a::Tensor, b::Tensor) = binary(LibCT.ct_matmul, b, a)
LinearAlgebra.dot(a::Tensor{T,1}, b::Tensor{T,1}) where {T} = binary(LibCT.ct_dot, a, b)
"outer(a, b)[i, j] = a[i] * b[j]."
outer(a::Tensor{T,1}, b::Tensor{T,1}) where {T} = binary(LibCT.ct_outer, b, a)
"einsum(\"ij,jk->ik\", a, b) with Julia's index order (ctensor's letters are reversed per operand)."
function einsum(eq::AbstractString, ts::Tensor...)
    rev(s) = join(reverse(collect(s)))
    lhs, rhs = occursin("->", eq) ? split(eq, "->") : (eq, nothing)
    ct = join(rev.(split(lhs, ',')), ',') * (rhs === nothing ? "" : "->" * rev(rhs))
    h = Ptr{Cvoid}[handle(t) for t in ts]
    GC.@preserve ts newtensor(o -> LibCT.ct_einsum(ct, h, Int32(length(h)), o))
end

# ---- indexing ops (1-based index tensors) -----------------------------------------------------------
index_select(t::Tensor, d::Integer, idx) = (i = index_arg(idx); r = newtensor(o -> LibCT.ct_index_select(t, ctdim(t, d), i, o)); release!(i); r)
gather(t::Tensor, d::Integer, idx) = (i = index_arg(idx); r = newtensor(o -> LibCT.ct_gather(t, ctdim(t, d), i, o)); release!(i); r)
scatter(t::Tensor, d::Integer, idx, src::Tensor) = (i = index_arg(idx); r = newtensor(o -> LibCT.ct_scatter(t, ctdim(t, d), i, src, o)); release!(i); r)
scatter_add(t::Tensor, d::Integer, idx, src::Tensor) = (i = index_arg(idx); r = newtensor(o -> LibCT.ct_scatter_add(t, ctdim(t, d), i, src, o)); release!(i); r)
masked_fill(t::Tensor, mask::Tensor, v::Real) = newtensor(o -> LibCT.ct_masked_fill(t, mask, Float64(v), o))
masked_select(t::Tensor, mask::Tensor) = binary(LibCT.ct_masked_select, t, mask)
"Julia-order, 1-based coordinates of nonzero elements: a (ndims, count) Tensor, column k = CartesianIndex k."
function nonzero(t::Tensor)
    r = unary(LibCT.ct_nonzero, t)          # ctensor [count, ndim] in ctensor dim order
    f = reverse(r; dims = 1); s = shift_index(f, 1); release!(r, f); s
end

# ---- sorting (along Julia dim `dims`) ----------------------------------------------------------------
function _two(c, t, args...)
    v = Ref{Ptr{Cvoid}}(C_NULL); i = Ref{Ptr{Cvoid}}(C_NULL)
    @check c(t, args..., v, i)
    vi = wrap(v[]); ii = wrap(i[])
    s = shift_index(ii, 1); release!(ii)
    (vi, s)
end
"(values, 1-based indices) sorted along dims."
sort_with_indices(t::Tensor; dims::Integer = 1, rev::Bool = false) = _two(LibCT.ct_sort, t, ctdim(t, dims), Int32(rev), Int32(1))
Base.sort(t::Tensor; dims::Integer = 1, rev::Bool = false) = ((v, i) = sort_with_indices(t; dims = dims, rev = rev); release!(i); v)
function argsort(t::Tensor; dims::Integer = 1, rev::Bool = false)
    r = newtensor(o -> LibCT.ct_argsort(t, ctdim(t, dims), Int32(rev), Int32(1), o))
    s = shift_index(r, 1); release!(r); s
end
topk(t::Tensor, k::Integer; dims::Integer = 1, largest::Bool = true) = _two(LibCT.ct_topk, t, Int64(k), ctdim(t, dims), Int32(largest), Int32(1))
kthvalue(t::Tensor, k::Integer; dims::Integer = 1) = _two(LibCT.ct_kthvalue, t, Int64(k), ctdim(t, dims), Int32(1))
"(sorted unique values, 1-based inverse indices, counts)."
function Base.unique(t::Tensor; sorted::Bool = true)
    v = Ref{Ptr{Cvoid}}(C_NULL); i = Ref{Ptr{Cvoid}}(C_NULL); c = Ref{Ptr{Cvoid}}(C_NULL)
    @check LibCT.ct_unique(t, Int32(sorted), v, i, c)
    ii = wrap(i[]); s = shift_index(ii, 1); release!(ii)
    (wrap(v[]), s, wrap(c[]))
end

# ---- in-place ---------------------------------------------------------------------------------------
scalar_arg(x::Tensor) = x
scalar_arg(x::Real) = wrapped_scalar(x)
scalar_arg(x::AbstractArray) = tensor(x)
function inplace(c, dst::Tensor, b, extra...)
    bt = scalar_arg(b)
    try
        @check c(dst, bt, extra...)
    finally
        bt === b || release!(bt)
    end
    dst
end
add!(dst::Tensor, b, alpha::Real = 1) = inplace(LibCT.ct_add_, dst, b, Float64(alpha))
sub!(dst::Tensor, b, alpha::Real = 1) = inplace(LibCT.ct_sub_, dst, b, Float64(alpha))
mul!(dst::Tensor, b) = inplace(LibCT.ct_mul_, dst, b)
div!(dst::Tensor, b) = inplace(LibCT.ct_div_, dst, b)
zero!(dst::Tensor) = (@check(LibCT.ct_zero_(dst)); dst)
Base.fill!(dst::Tensor, v::Real) = (@check(LibCT.ct_fill_(dst, Float64(v))); dst)
Base.copyto!(dst::Tensor, src::Tensor) = (@check(LibCT.ct_copy_(dst, src)); dst)
Base.copyto!(dst::Tensor, src::AbstractArray) = inplace(LibCT.ct_copy_, dst, src)
Base.clamp!(dst::Tensor, lo::Union{Real,Nothing}, hi::Union{Real,Nothing}) =
    (@check(LibCT.ct_clamp_(dst, Float64(something(lo, 0)), Int32(lo !== nothing), Float64(something(hi, 0)), Int32(hi !== nothing))); dst)
