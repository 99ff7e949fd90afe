# toolbox.jl - the everyday tensor toolbox of issue 14: in-place scatters, index_add / index_copy / index_put and
# their in-place (`!`) forms, thin wrappers over the C ABI. Dims are Julia dims, indices 1-based; index_put's
# index tuple addresses the LAST length(indices) Julia dims in Julia order (ctensor's first dims, column-major).

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

merge!(OPS, Dict{String,Any}("scatter_" => scatter!, "scatter_add_" => scatter_add!, "index_add" => index_add,
                             "index_add_" => index_add!, "index_copy" => index_copy, "index_copy_" => index_copy!,
                             "index_put" => index_put, "index_put_" => index_put!))
