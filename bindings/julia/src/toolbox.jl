# toolbox.jl - the everyday tensor toolbox of issue 14: in-place scatters, index_add / index_copy / index_put and
# their in-place (`!`) forms, searchsortedfirst/last, bincount, histc, cummax/cummin, nan_to_num, diff,
# take_along_dim and finfo/iinfo (the core's dtype limits): thin wrappers over the C ABI.
# Dims are Julia dims, indices and positions 1-based; index_put's index tuple addresses the LAST
# length(indices) Julia dims in Julia order (ctensor's first dims, column-major); an N-d sorted sequence is
# searched along Julia dim 1 (ctensor's last).

"Runs c(args with idx made a 0-based index tensor) and releases that tensor."
function _with_index(f, idx)
    i = index_arg(idx)
    try
        f(i)
    finally
        release!(i)
    end
end

"scatter!(t, d, idx, src): src written at idx along Julia dim d, in place."
scatter!(t::Tensor, d::Integer, idx, src::Tensor) = _with_index(i -> (@check(LibCT.ct_scatter_(t, ctdim(t, d), i, src)); t), idx)
"scatter_add!(t, d, idx, src): src added at idx along Julia dim d, in place."
scatter_add!(t::Tensor, d::Integer, idx, src::Tensor) =
    _with_index(i -> (@check(LibCT.ct_scatter_add_(t, ctdim(t, d), i, src)); t), idx)
const SCATTER_REDUCE = Dict(:sum => Int32(0), :prod => Int32(1), :mean => Int32(2), :amax => Int32(3),
                           :amin => Int32(4))   # CT_SCATTER_*
_scatter_reduce_code(reduce::Symbol) = haskey(SCATTER_REDUCE, reduce) ? SCATTER_REDUCE[reduce] :
    throw(ArgumentError("scatter_reduce: reduce must be one of $(sort(collect(keys(SCATTER_REDUCE)))), got :$reduce"))
"""
    scatter_reduce(t, d, idx, src, reduce; include_self = true)

A copy of t where each src value (over idx's shape) is combined into the 1-based position idx names along Julia dim
d by `reduce` (:sum, :prod, :mean, :amax or :amin), together with t's own value when `include_self`.
"""
scatter_reduce(t::Tensor, d::Integer, idx, src::Tensor, reduce::Symbol; include_self::Bool = true) =
    _with_index(i -> newtensor(o -> LibCT.ct_scatter_reduce(t, ctdim(t, d), i, src, _scatter_reduce_code(reduce),
                                                            Int32(include_self), o)), idx)
"`scatter_reduce` written into t."
scatter_reduce!(t::Tensor, d::Integer, idx, src::Tensor, reduce::Symbol; include_self::Bool = true) =
    _with_index(i -> (@check(LibCT.ct_scatter_reduce_(t, ctdim(t, d), i, src, _scatter_reduce_code(reduce),
                                                       Int32(include_self))); t), idx)
"A copy of t with alpha * src's slices along Julia dim d added at the 1-based idx (duplicates sum)."
index_add(t::Tensor, d::Integer, idx, src::Tensor; alpha::Real = 1) =
    _with_index(i -> newtensor(o -> LibCT.ct_index_add(t, ctdim(t, d), i, src, Float64(alpha), o)), idx)
index_add!(t::Tensor, d::Integer, idx, src::Tensor; alpha::Real = 1) =
    _with_index(i -> (@check(LibCT.ct_index_add_(t, ctdim(t, d), i, src, Float64(alpha))); t), idx)
"A copy of t with src's slices along Julia dim d copied to the 1-based idx."
index_copy(t::Tensor, d::Integer, idx, src::Tensor) =
    _with_index(i -> newtensor(o -> LibCT.ct_index_copy(t, ctdim(t, d), i, src, o)), idx)
index_copy!(t::Tensor, d::Integer, idx, src::Tensor) =
    _with_index(i -> (@check(LibCT.ct_index_copy_(t, ctdim(t, d), i, src)); t), idx)

"Runs f(handles) with the 1-based index tuple made 0-based ctensor index tensors in ctensor dim order."
function _with_indices(f, indices::Tuple)
    ts = Tensor[index_arg(i) for i in reverse(indices)]
    try
        h = Ptr{Cvoid}[handle(t) for t in ts]
        GC.@preserve ts f(h)
    finally
        foreach(release!, ts)
    end
end
"A copy of t with t[.., indices...] = values (or += with accumulate) over t's last length(indices) Julia dims."
index_put(t::Tensor, indices::Tuple, values::Tensor; accumulate::Bool = false) =
    _with_indices(h -> newtensor(o -> LibCT.ct_index_put(t, h, Int32(length(h)), values, Int32(accumulate), o)), indices)
index_put!(t::Tensor, indices::Tuple, values::Tensor; accumulate::Bool = false) =
    _with_indices(h -> (@check(LibCT.ct_index_put_(t, h, Int32(length(h)), values, Int32(accumulate))); t), indices)

_opt(t) = t === nothing ? C_NULL : handle(t)
"ct_searchsorted's 0-based positions (sorter: 1-based, as Julia's sortperm gives; int32 with out_int32)."
function _searchsorted(seq::Tensor, v::Tensor, right::Bool, sorter, out_int32::Bool)
    s = sorter === nothing ? nothing : index_arg(sorter)
    try
        GC.@preserve seq v s newtensor(o -> LibCT.ct_searchsorted(seq, v, Int32(right), Int32(out_int32), _opt(s), o))
    finally
        s === nothing || release!(s)
    end
end
"The 1-based position of the first element of the sorted seq >= each value (Base's searchsortedfirst), per value."
function Base.searchsortedfirst(seq::Tensor, v::Tensor; sorter = nothing, out_int32::Bool = false)
    p = _searchsorted(seq, v, false, sorter, out_int32); r = shift_index(p, 1); release!(p); r
end
"The 1-based position of the last element of the sorted seq <= each value (Base's searchsortedlast), per value."
Base.searchsortedlast(seq::Tensor, v::Tensor; sorter = nothing, out_int32::Bool = false) =
    _searchsorted(seq, v, true, sorter, out_int32)
"counts[k] = how often the value k - 1 occurs in the non-negative integer vector x (sums of weights when given)."
bincount(x::Tensor; weights::Union{Tensor,Nothing} = nothing, minlength::Integer = 0) =
    GC.@preserve weights newtensor(o -> LibCT.ct_bincount(x, _opt(weights), Int64(minlength), o))
"The histogram of x over `bins` equal bins of [min, max] (min == max: the data's range)."
histc(x::Tensor; bins::Integer = 100, min::Real = 0, max::Real = 0) =
    newtensor(o -> LibCT.ct_histc(x, Int64(bins), Float64(min), Float64(max), o))
"(running maximum along dims, 1-based positions it came from); differentiable in the values."
cummax(t::Tensor; dims::Integer) = _two(LibCT.ct_cummax, t, ctdim(t, dims))
"(running minimum along dims, 1-based positions it came from); differentiable in the values."
cummin(t::Tensor; dims::Integer) = _two(LibCT.ct_cummin, t, ctdim(t, dims))

_has(v) = v === nothing ? (0.0, Int32(0)) : (Float64(v), Int32(1))
"t with NaN, Inf and -Inf replaced (nothing: torch's defaults 0, floatmax, -floatmax); integers: a copy."
function nan_to_num(t::Tensor; nan = nothing, posinf = nothing, neginf = nothing)
    (n, hn), (p, hp), (q, hq) = _has(nan), _has(posinf), _has(neginf)
    newtensor(o -> LibCT.ct_nan_to_num(t, n, hn, p, hp, q, hq, o))
end
"The n-th forward difference of t along Julia dim `dims`, with prepend / append joined before / after it."
Base.diff(t::Tensor; dims::Integer, n::Integer = 1, prepend::Union{Tensor,Nothing} = nothing,
          append::Union{Tensor,Nothing} = nothing) =
    GC.@preserve prepend append newtensor(o -> LibCT.ct_diff(t, Int64(n), ctdim(t, dims), _opt(prepend), _opt(append), o))
"t gathered along Julia dim `dims` at the 1-based idx after broadcasting both in every other dim (nothing: flattened)."
take_along_dim(t::Tensor, idx; dims::Union{Integer,Nothing} = nothing) =
    _with_index(i -> newtensor(o -> LibCT.ct_take_along_dim(t, i, dims === nothing ? 0 : ctdim(t, dims),
                                                            Int32(dims !== nothing), o)), idx)
"torch.finfo from the core: (bits, eps, max, min, tiny, resolution) of a floating element type."
function finfo(::Type{T}) where {T}
    f(k) = (v = Ref{Float64}(0); @check(LibCT.ct_finfo(DTYPES[T], Int32(k), v)); v[])
    (bits = Int(f(0)), eps = f(1), max = f(2), min = f(3), tiny = f(4), resolution = f(5))
end
"torch.iinfo from the core: (bits, min, max) of an integer element type."
function iinfo(::Type{T}) where {T}
    f(k) = (v = Ref{Int64}(0); @check(LibCT.ct_iinfo(DTYPES[T], Int32(k), v)); v[])
    (bits = Int(f(0)), min = f(1), max = f(2))
end
