# indexing.jl - getindex/setindex! for Tensor: integer, range, colon and `end` indices become ctensor views
# (select/slice, ctensor dim = N - Julia dim); all-integer indices read or write one element.

const SliceIndex = Union{Integer,AbstractRange{<:Integer},Colon}

"The view of t picked by Julia indices I (one per dim; integers drop their dim)."
function view_of(t::Tensor{T,N}, I::Tuple) where {T,N}
    length(I) == N || throw(ArgumentError("CTensor: $(length(I)) indices for a $N-dimensional tensor"))
    checkbounds(t, I...)
    v = t
    for d in 1:N  # ctensor dims below N - d are unaffected when dim N - d is dropped
        i = I[d]
        cd = Int64(N - d)
        i isa Colon && continue
        prev = v
        if i isa Integer
            v = newtensor(o -> LibCT.ct_select(prev, cd, Int64(i - 1), o))
        elseif step(i) > 0
            v = newtensor(o -> LibCT.ct_slice(prev, cd, Int64(first(i) - 1), Int64(first(i) - 1 + length(i) * step(i)),
                                              Int64(step(i)), o))
        else
            throw(ArgumentError("CTensor: ranges with step $(step(i)) are not views; use reverse(t, dims=$d)"))
        end
        prev === t || release!(prev)
    end
    v === t ? newtensor(o -> LibCT.ct_detach(t, o)) : v
end

function element_view(t::Tensor{T,N}, I) where {T,N}
    @boundscheck checkbounds(t, I...)
    view_of(t, I)
end

Base.getindex(t::Tensor{T,N}, I::Vararg{Integer,N}) where {T,N} = (v = element_view(t, I); x = item(v); release!(v); x)
Base.getindex(t::Tensor{T,0}) where {T} = item(t)
Base.getindex(t::Tensor, I::SliceIndex...) = view_of(t, I)
Base.view(t::Tensor, I::SliceIndex...) = view_of(t, I)
Base.getindex(t::Tensor, ::Colon) = reshape(t, length(t))

function Base.getindex(t::Tensor{T,N}, I::Vararg{Union{SliceIndex,AbstractVector{<:Integer}},N}) where {T,N}
    # integer vectors pick rows through index_select (a copy), one dim at a time
    v = t
    for d in 1:N
        I[d] isa AbstractVector || continue
        idx = tensor(Int64.(collect(I[d])) .- 1)
        prev = v
        v = newtensor(o -> LibCT.ct_index_select(prev, Int64(N - d), idx, o))
        release!(idx)
        prev === t || release!(prev)
    end
    J = ntuple(d -> I[d] isa AbstractVector ? Colon() : I[d], N)
    r = view_of(v, J)
    v === t || release!(v)
    r
end

function Base.setindex!(t::Tensor{T,N}, x, I::Vararg{SliceIndex,N}) where {T,N}
    v = view_of(t, I)
    try
        if x isa Number
            @check LibCT.ct_fill_(v, Float64(x))
        else
            src = x isa Tensor ? x : tensor(x)
            @check LibCT.ct_copy_(v, src)
            src === x || release!(src)
        end
    finally
        release!(v)
    end
    t
end
Base.setindex!(t::Tensor{T,0}, x) where {T} = (@check(LibCT.ct_fill_(t, Float64(x))); t)
