# conv_nd.jl - issue 14 in Julia layout (spatial dims first, then channels, then batch: ctensor's [N, C, D, H, W]
# is Julia's (W, H, D, C, N)): N-d convolution and transposed convolution, N-d pooling (1-based argmax), unfold /
# fold and pixel_shuffle. Spatial arguments are an Integer (every dim) or a tuple in Julia's order (reversed for C).

"Spatial argument v for n dims in ctensor's order."
spatial(v::Integer, n::Integer) = fill(Int64(v), n)
function spatial(v::Tuple, n::Integer)
    length(v) == n || throw(ArgumentError("expected $n spatial values, got $v"))
    Int64[reverse(v)...]
end

"N-d convolution of x (spatial..., C, N) with weight (k..., C/groups, O); n = ndims(w) - 2 spatial dims."
function conv(x::Tensor, w::Tensor, b = nothing; stride = 1, pad = 0, dilation = 1, groups::Integer = 1)
    n = ndims(w) - 2
    newtensor(o -> LibCT.ct_convolution(x, w, opt(b), spatial(stride, n), spatial(pad, n), spatial(dilation, n),
                                        Int32(n), Int32(0), C_NULL, Int64(groups), o))
end

"Transposed convolution (the gradient of conv with respect to its input); weight (k..., O/groups, C)."
function conv_transpose(x::Tensor, w::Tensor, b = nothing; stride = 1, pad = 0, output_pad = 0, dilation = 1,
                        groups::Integer = 1)
    n = ndims(w) - 2
    newtensor(o -> LibCT.ct_convolution(x, w, opt(b), spatial(stride, n), spatial(pad, n), spatial(dilation, n),
                                        Int32(n), Int32(1), spatial(output_pad, n), Int64(groups), o))
end

"convolution as ct_convolution's arguments (the ops.tsv entry; `transposed` selects the transposed form)."
convolution(x, w, b = nothing; transposed::Bool = false, kw...) =
    transposed ? conv_transpose(x, w, b; kw...) : conv(x, w, b; kw...)

"N-d max pooling over the first n = ndims(x) - 2 dims; with_indices also gives 1-based linear argmax indices."
function maxpool(x::Tensor, k; stride = k, pad = 0, dilation = 1, ceil_mode::Bool = false, with_indices::Bool = false)
    n = ndims(x) - 2
    call = (o, i) -> LibCT.ct_max_pool_nd(x, Int32(n), spatial(k, n), spatial(stride, n), spatial(pad, n),
                                         spatial(dilation, n), Int32(ceil_mode), o, i)
    with_indices ? _with_indices(call) : newtensor(o -> call(o, C_NULL))
end

"N-d average pooling over the first ndims(x) - 2 dims."
function meanpool(x::Tensor, k; stride = k, pad = 0, ceil_mode::Bool = false, count_include_pad::Bool = true,
                  divisor::Integer = 0)
    n = ndims(x) - 2
    newtensor(o -> LibCT.ct_avg_pool_nd(x, Int32(n), spatial(k, n), spatial(stride, n), spatial(pad, n),
                                        Int32(ceil_mode), Int32(count_include_pad), Int64(divisor), o))
end

"Adaptive average pooling of the first ndims(x) - 2 dims to `out`."
adaptive_meanpool(x::Tensor, out) =
    newtensor(o -> LibCT.ct_adaptive_avg_pool_nd(x, Int32(ndims(x) - 2), spatial(out, ndims(x) - 2), o))

"Adaptive max pooling; with_indices also gives 1-based linear argmax indices."
function adaptive_maxpool(x::Tensor, out; with_indices::Bool = false)
    n = ndims(x) - 2
    call = (o, i) -> LibCT.ct_adaptive_max_pool_nd(x, Int32(n), spatial(out, n), o, i)
    with_indices ? _with_indices(call) : newtensor(o -> call(o, C_NULL))
end

"Sliding blocks of x (W, H, C, N) as (L, C * kh * kw, N) (torch's F.unfold); arguments as conv2d's (w, h)."
unfold(x::Tensor, k; dilation = 1, pad = 0, stride = 1) =
    newtensor(o -> LibCT.ct_unfold(x, hw(k), hw(dilation), hw(pad), hw(stride), o))

"The adjoint of unfold: blocks (L, C * kh * kw, N) summed into (out..., C, N) (torch's F.fold)."
fold(x::Tensor, out, k; dilation = 1, pad = 0, stride = 1) =
    newtensor(o -> LibCT.ct_fold(x, hw(out), hw(k), hw(dilation), hw(pad), hw(stride), o))

"ctensor [*, C * r * r, H, W] -> [*, C, H * r, W * r] (Julia (W, H, C * r * r, *...) -> (W * r, H * r, C, *...))."
pixel_shuffle(x::Tensor, r::Integer) = newtensor(o -> LibCT.ct_pixel_shuffle(x, Int64(r), o))
"The inverse of pixel_shuffle."
pixel_unshuffle(x::Tensor, r::Integer) = newtensor(o -> LibCT.ct_pixel_unshuffle(x, Int64(r), o))

merge!(OPS, Dict{String,Any}(
    "convolution" => convolution, "max_pool_nd" => maxpool, "avg_pool_nd" => meanpool,
    "adaptive_avg_pool_nd" => adaptive_meanpool, "adaptive_max_pool_nd" => adaptive_maxpool,
    "unfold" => unfold, "fold" => fold, "pixel_shuffle" => pixel_shuffle, "pixel_unshuffle" => pixel_unshuffle))
