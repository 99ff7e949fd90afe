# run_julia.jl - the Julia runner of the conformance suite: every case of cases/*.toml (the same cases as the JSON
# files, read with Pkg.TOML: Julia 1.5 has no JSON reader in its standard library) through CTensor.jl's public API
# (dot broadcasting, reductions with dims, findmax, backward!, grad), compared after the binding's documented
# mapping (Julia dims are ctensor's reversed, indices 1-based) with per-dtype tolerances; an error case must throw
# the CTensorError kind of its status. Prints the failures and "N passed, N failed"; exits 1 when any failed.
# Usage: bash run_julia.sh [CASES_DIR] (sets up julia, as bindings/julia/julia_env.sh does). CONFORMANCE_RESULTS_DIR
# (if set) receives julia.json.
import Pkg
using CTensor
import LinearAlgebra
using LinearAlgebra: norm, det, logabsdet, cholesky, eigen, eigvals, Symmetric, svd, svdvals, pinv, rank, cross
const C = CTensor

const ELTYPE = Dict("float32" => Float32, "float64" => Float64, "int32" => Int32, "int64" => Int64,
                    "uint8" => UInt8, "bool" => Bool, "float16" => Float16, "complex64" => ComplexF32,
                    "complex128" => ComplexF64)
# (atol, rtol); exact otherwise. Half: about 2 units in the last place (README, "Tolerances"). Complex: each part
# with its real dtype's tolerance
const TOLERANCE = Dict("float32" => (1e-5, 1e-5), "float64" => (1e-12, 1e-10), "float16" => (1e-3, 1e-3),
                       "bfloat16" => (1e-2, 1e-2), "complex64" => (1e-5, 1e-5), "complex128" => (1e-12, 1e-10))
const INDEX_OUTPUTS = Set(["argmax", "argmin", "argmax_all", "argmin_all", "argsort", "nonzero", "randperm"])  # 1-based

struct Problem <: Exception
    what::String
end

decode(v::Real) = Float64(v)
decode(v::AbstractString) = parse(Float64, v)  # "nan", "inf", "-inf" (and numbers of a values list with them)

"A case input: a Tensor of Julia size reverse(shape) over the row-major values (complex: (re, im) pairs
interleaved), or a Julia number (wrapped scalar; a Complex for a complex_scalar, a Bool for a bool_scalar)."
function make(j::Dict)
    haskey(j, "scalar") && return j["scalar"] isa AbstractString ? decode(j["scalar"]) : j["scalar"]
    haskey(j, "complex_scalar") && return complex(decode.(j["complex_scalar"])...)
    haskey(j, "bool_scalar") && return j["bool_scalar"] == 1
    T = ELTYPE[j["dtype"]]
    vals = if T <: Complex
        parts = decode.(j["values"])
        T[T(parts[i], parts[i + 1]) for i in 1:2:length(parts)]
    else
        T[T <: AbstractFloat ? T(decode(v)) : T(v isa AbstractString ? parse(Int64, v) : v) for v in j["values"]]
    end
    t = C.tensor(reshape(vals, reverse(Int.(j["shape"]))...))
    get(j, "requires_grad", false) && requires_grad!(t)
    t
end

"ctensor dim d (negative counts from the end) as the Julia dim; an invalid d stays invalid (< 1 or > n)."
jdim(d::Integer, n::Integer) = d < 0 ? -d : n - d
jdims(a, n) = a === nothing ? Colon() : Tuple(jdim(d, n) for d in a)

"A reduction the Julia way: f(x; dims) keeps the reduced dims; keepdim=false drops them with dropdims."
function reduced(f, x, a)
    n, keep = ndims(x), get(a, "keepdim", false)
    d = jdims(get(a, "dims", nothing), n)
    d isa Colon && keep && (d = Tuple(1:n))
    r = f(x, d)
    d isa Colon || keep ? r : dropdims(r; dims = d)
end
function extreme(f, x, a)  # findmax/findmin: values and 1-based positions along a dim (kept)
    d = jdim(a["dim"], ndims(x))
    v, i = f(x; dims = d)
    get(a, "keepdim", false) ? (v, i) : (dropdims(v; dims = d), dropdims(i; dims = d))
end
function reduced_pair(f, x, a)  # var_mean / std_mean: reduced() for both results
    n, keep = ndims(x), get(a, "keepdim", false)
    d = jdims(get(a, "dims", nothing), n)
    d isa Colon && keep && (d = Tuple(1:n))
    r = f(x, d)
    d isa Colon || keep ? r : map(t -> dropdims(t; dims = d), r)
end
one_dim(f, x, a) = (d = jdim(a["dim"], ndims(x)); r = f(x, d); get(a, "keepdim", false) ? r : dropdims(r; dims = d))

const OPS = Dict{String,Function}(
    "neg" => (x, a) -> -x, "abs" => (x, a) -> abs.(x), "sign" => (x, a) -> sign.(x), "exp" => (x, a) -> exp.(x),
    "log" => (x, a) -> log.(x), "log1p" => (x, a) -> log1p.(x), "expm1" => (x, a) -> expm1.(x),
    "sqrt" => (x, a) -> sqrt.(x), "rsqrt" => (x, a) -> C.rsqrt.(x), "sin" => (x, a) -> sin.(x),
    "cos" => (x, a) -> cos.(x), "tan" => (x, a) -> tan.(x), "tanh" => (x, a) -> tanh.(x),
    "sigmoid" => (x, a) -> C.sigmoid.(x), "relu" => (x, a) -> C.relu.(x), "gelu" => (x, a) -> C.gelu.(x),
    "silu" => (x, a) -> C.silu.(x), "softplus" => (x, a) -> C.softplus.(x), "floor" => (x, a) -> floor.(x),
    "ceil" => (x, a) -> ceil.(x), "round" => (x, a) -> round.(x), "reciprocal" => (x, a) -> inv.(x),
    "logical_not" => (x, a) -> .!x,
    "pow_scalar" => (x, a) -> x .^ a["exponent"],
    # unary math (issue 14)
    "asin" => (x, a) -> asin.(x),
    "acos" => (x, a) -> acos.(x),
    "atan" => (x, a) -> atan.(x),
    "sinh" => (x, a) -> sinh.(x),
    "cosh" => (x, a) -> cosh.(x),
    "asinh" => (x, a) -> asinh.(x),
    "acosh" => (x, a) -> acosh.(x),
    "atanh" => (x, a) -> atanh.(x),
    "erf" => (x, a) -> C.erf(x),
    "erfc" => (x, a) -> C.erfc(x),
    "erfinv" => (x, a) -> C.erfinv(x),
    "lgamma" => (x, a) -> C.lgamma(x),
    "digamma" => (x, a) -> C.digamma(x),
    "sinc" => (x, a) -> sinc.(x),
    "sgn" => (x, a) -> C.sgn(x),
    "deg2rad" => (x, a) -> deg2rad.(x),
    "rad2deg" => (x, a) -> rad2deg.(x),
    "signbit" => (x, a) -> signbit.(x),
    "isposinf" => (x, a) -> C.isposinf(x),
    "isneginf" => (x, a) -> C.isneginf(x),
    "positive" => (x, a) -> C.positive(x),
    "i0" => (x, a) -> C.i0(x),
    "logit" => (x, a) -> C.logit(x; eps = get(a, "eps", nothing)),
    "clamp" => (x, a) -> clamp.(x, get(a, "min", -Inf), get(a, "max", Inf)),
    "add" => (x, y, a) -> haskey(a, "alpha") ? x .+ a["alpha"] .* y : x .+ y,
    "sub" => (x, y, a) -> haskey(a, "alpha") ? x .- a["alpha"] .* y : x .- y,
    "mul" => (x, y, a) -> x .* y, "div" => (x, y, a) -> x ./ y, "pow" => (x, y, a) -> x .^ y,
    "maximum" => (x, y, a) -> max.(x, y), "minimum" => (x, y, a) -> min.(x, y),
    "atan2" => (x, y, a) -> atan.(x, y), "remainder" => (x, y, a) -> mod.(x, y),
    "floor_divide" => (x, y, a) -> fld.(x, y),
    "eq" => (x, y, a) -> x .== y, "ne" => (x, y, a) -> x .!= y, "lt" => (x, y, a) -> x .< y,
    "le" => (x, y, a) -> x .<= y, "gt" => (x, y, a) -> x .> y, "ge" => (x, y, a) -> x .>= y,
    "logical_and" => (x, y, a) -> C.logical_and.(x, y), "logical_or" => (x, y, a) -> C.logical_or.(x, y),
    "logical_xor" => (x, y, a) -> C.logical_xor.(x, y),
    "where" => (c, x, y, a) -> ifelse.(c, x, y),
    "sum" => (x, a) -> reduced((t, d) -> sum(t; dims = d), x, a),
    "mean" => (x, a) -> reduced((t, d) -> C.mean(t; dims = d), x, a),
    "prod" => (x, a) -> reduced((t, d) -> prod(t; dims = d), x, a),
    "logsumexp" => (x, a) -> reduced((t, d) -> C.logsumexp(t; dims = d), x, a),
    "var" => (x, a) -> reduced((t, d) -> C.var(t; dims = d, corrected = a["correction"] == 1), x, a),
    "std" => (x, a) -> reduced((t, d) -> C.std(t; dims = d, corrected = a["correction"] == 1), x, a),
    "norm" => (x, a) -> reduced((t, d) -> norm(t, a["p"]; dims = d), x, a),
    "all" => (x, a) -> reduced((t, d) -> all(t; dims = d), x, a),
    "any" => (x, a) -> reduced((t, d) -> any(t; dims = d), x, a),
    "max" => (x, a) -> maximum(x), "min" => (x, a) -> minimum(x),
    "max_dim" => (x, a) -> extreme(findmax, x, a), "min_dim" => (x, a) -> extreme(findmin, x, a),
    "argmax" => (x, a) -> one_dim((t, d) -> argmax(t; dims = d), x, a),
    "argmin" => (x, a) -> one_dim((t, d) -> argmin(t; dims = d), x, a),
    "argmax_all" => (x, a) -> argmax(x), "argmin_all" => (x, a) -> argmin(x),
    "cumsum" => (x, a) -> cumsum(x; dims = jdim(a["dim"], ndims(x))),
    "cumprod" => (x, a) -> cumprod(x; dims = jdim(a["dim"], ndims(x))),
    # linear algebra and nn: ctensor's a @ b is Julia's b * a (each operand's dims reversed)
    "matmul" => (x, y, a) -> ndims(x) == 2 && ndims(y) == 2 ? y * x : C.matmul(y, x),
    "dot" => (x, y, a) -> LinearAlgebra.dot(x, y), "outer" => (x, y, a) -> C.outer(y, x),
    "linear" => (xs...) -> C.linear(xs[1:end-1]...),
    # attention: the wrappers pass tensors through (Julia's reversed dims are ctensor's own)
    "scaled_dot_product_attention" => (xs...) -> (a = xs[end]; t = xs[1:end-1];
        C.scaled_dot_product_attention(t[1], t[2], t[3]; mask = length(t) > 3 ? t[4] : nothing, dropout_p = a["dropout_p"],
                                       causal = a["is_causal"], scale = a["scale"] > 0 ? a["scale"] : nothing)),
    "multi_head_attention_forward" => (xs...) -> (a = xs[end]; t = xs[1:end-1];
        C.multi_head_attention_forward(t[1:3]..., a["num_heads"], t[4:7]...; key_padding_mask = length(t) > 7 ? t[8] : nothing,
                                       need_weights = a["need_weights"], training = false)),
    "softmax" => (x, a) -> C.softmax(x; dims = jdim(a["dim"], ndims(x))),
    "log_softmax" => (x, a) -> C.logsoftmax(x; dims = jdim(a["dim"], ndims(x))),
    # indexing: 1-based indices
    "index_select" => (x, i, a) -> C.index_select(x, jdim(a["dim"], ndims(x)), i .+ 1),
    "gather" => (x, i, a) -> C.gather(x, jdim(a["dim"], ndims(x)), i .+ 1),
    "cat" => (xs...) -> cat(xs[1:end-1]...; dims = jdim(xs[end]["dim"], ndims(xs[1]))),
    "stack" => (xs...) -> C.stack(collect(xs[1:end-1]); dims = jdim(xs[end]["dim"], ndims(xs[1]) + 1)),
)

# complex parts and views (issue 15): view_as_real's pair dim is Julia's first
merge!(OPS, Dict{String,Function}(
    "angle" => (x, a) -> angle(x), "conj" => (x, a) -> conj(x), "real" => (x, a) -> real(x),
    "imag" => (x, a) -> imag(x), "view_as_real" => (x, a) -> C.view_as_real(x),
    "view_as_complex" => (x, a) -> C.view_as_complex(x), "complex" => (x, y, a) -> complex(x, y),
    "polar" => (x, y, a) -> C.polar(x, y),
))

# views, Julia's way: reversed shapes and dims, 1-based starts and indices, ranges for slices
along(x, d, i) = x[ntuple(k -> k == jdim(d, ndims(x)) ? i : Colon(), ndims(x))...]
function permuted(x, p)  # ctensor's permute(p): Julia dim k is ctensor dim N - k
    n = ndims(x)
    pn = [d < 0 ? d + n : d for d in p]
    permutedims(x, [n - pn[n - k + 1] for k in 1:n])
end
function swapped(x, d0, d1)
    p = collect(0:ndims(x) - 1)
    d0, d1 = d0 < 0 ? d0 + ndims(x) : d0, d1 < 0 ? d1 + ndims(x) : d1
    p[d0 + 1], p[d1 + 1] = d1, d0
    permuted(x, p)
end
jshape(s) = Tuple(d == -1 ? Colon() : d for d in reverse(s))
merge!(OPS, Dict{String,Function}(
    "reshape" => (x, a) -> reshape(x, jshape(a["shape"])...),
    "view" => (x, a) -> reshape(x, jshape(a["shape"])...),
    "transpose" => (x, a) -> swapped(x, a["dim0"], a["dim1"]),
    "permute" => (x, a) -> permuted(x, a["dims"]),
    "squeeze" => (x, a) -> dropdims(x; dims = jdim(a["dim"], ndims(x))),
    "unsqueeze" => (x, a) -> C.unsqueeze(x, jdim(a["dim"], ndims(x) + 1)),
    "expand" => (x, a) -> C.expand(x, reverse(a["shape"])...),
    "flatten" => (x, a) -> C.flatten(x, jdim(a["end_dim"], ndims(x)), jdim(a["start_dim"], ndims(x))),
    "narrow" => (x, a) -> C.narrow(x, jdim(a["dim"], ndims(x)), a["start"] + 1, a["length"]),
    "slice" => (x, a) -> along(x, a["dim"], (a["start"] + 1):a["step"]:a["end"]),
    "select" => (x, a) -> along(x, a["dim"], a["index"] + 1),
    "t" => (x, a) -> transpose(x),
    "diagonal" => (x, a) -> LinearAlgebra.diag(x, -a["offset"]),
))

"Tensor input i of a case whose last argument is its args (nothing when the case does not give it)."
jopt(xs, i) = length(xs) > i ? xs[i] : nothing

"An embedding case's padding_idx in Julia's 1-based terms (TOML leaves a null one out)."
jpad(a) = haskey(a, "padding_idx") ? a["padding_idx"] + 1 : nothing

# ordering, masking, scatter, sorting, copies, conversions, mse: Julia dims, 1-based indices and positions
function rolled(x, shifts, dims)  # circshift takes one shift per Julia dim; a ctensor dim out of range stays so
    s = zeros(Int, ndims(x))
    for (sh, d) in zip(shifts, dims)
        j = jdim(d, ndims(x))
        1 <= j <= ndims(x) ? (s[j] += sh) : push!(s, sh)
    end
    circshift(x, Tuple(s))
end
keep_or_drop(r, d, a) = get(a, "keepdim", true) ? r : (dropdims(r[1]; dims = d), dropdims(r[2]; dims = d))
merge!(OPS, Dict{String,Function}(
    "flip" => (x, a) -> reverse(x; dims = Tuple(jdim(d, ndims(x)) for d in a["dims"])),
    "roll" => (x, a) -> rolled(x, a["shifts"], a["dims"]),
    "tril" => (x, a) -> LinearAlgebra.triu(x, -a["diagonal"]),  # ctensor's rows are Julia's columns
    "triu" => (x, a) -> LinearAlgebra.tril(x, -a["diagonal"]),
    "clone" => (x, a) -> copy(x), "contiguous" => (x, a) -> C.contiguous(x), "detach" => (x, a) -> detach(x),
    "squeeze_all" => (x, a) -> C.squeeze(x),
    "nonzero" => (x, a) -> reverse(C.nonzero(x); dims = 1),  # columns of Julia-order coordinates
    "masked_fill" => (x, m, a) -> C.masked_fill(x, m, a["value"]),
    "masked_select" => (x, m, a) -> C.masked_select(x, m),
    "to_dtype" => (x, a) -> to(x, ELTYPE[a["dtype"]]),
    "sort" => (x, a) -> C.sort_with_indices(x; dims = jdim(a["dim"], ndims(x)), rev = a["descending"]),
    "argsort" => (x, a) -> C.argsort(x; dims = jdim(a["dim"], ndims(x)), rev = a["descending"]),
    "topk" => (x, a) -> C.topk(x, a["k"]; dims = jdim(a["dim"], ndims(x)), largest = a["largest"]),
    "kthvalue" => (x, a) -> (d = jdim(a["dim"], ndims(x)); keep_or_drop(C.kthvalue(x, a["k"]; dims = d), d, a)),
    "mse_loss" => (x, y, a) -> C.mse(x, y; agg = Symbol(a["reduction"])),
    "scatter" => (x, i, s, a) -> C.scatter(x, jdim(a["dim"], ndims(x)), i .+ 1, s),
    "scatter_add" => (x, i, s, a) -> C.scatter_add(x, jdim(a["dim"], ndims(x)), i .+ 1, s),
    "scatter_reduce" => (x, i, s, a) -> C.scatter_reduce(x, jdim(a["dim"], ndims(x)), i .+ 1, s, Symbol(a["reduce"]);
                                                         include_self = a["include_self"]),
    # the toolbox's indexed writes (issue 14); index_put's inputs are x, values, then the index tensors (ctensor
    # order, so reversed into the Julia-order tuple index_put takes)
    "index_add" => (x, i, s, a) -> C.index_add(x, jdim(a["dim"], ndims(x)), i .+ 1, s; alpha = a["alpha"]),
    "index_copy" => (x, i, s, a) -> C.index_copy(x, jdim(a["dim"], ndims(x)), i .+ 1, s),
    # the in-place forms write into a copy of input 1, which is the result
    "scatter_" => (x, i, s, a) -> C.scatter!(copy(x), jdim(a["dim"], ndims(x)), i .+ 1, s),
    "scatter_add_" => (x, i, s, a) -> C.scatter_add!(copy(x), jdim(a["dim"], ndims(x)), i .+ 1, s),
    "scatter_reduce_" => (x, i, s, a) -> C.scatter_reduce!(copy(x), jdim(a["dim"], ndims(x)), i .+ 1, s,
                                                           Symbol(a["reduce"]); include_self = a["include_self"]),
    "index_add_" => (x, i, s, a) -> C.index_add!(copy(x), jdim(a["dim"], ndims(x)), i .+ 1, s; alpha = a["alpha"]),
    "index_copy_" => (x, i, s, a) -> C.index_copy!(copy(x), jdim(a["dim"], ndims(x)), i .+ 1, s),
    "index_put_" => (xs...) -> C.index_put!(copy(xs[1]), Tuple(reverse([i .+ 1 for i in xs[3:end-1]])), xs[2];
                                            accumulate = xs[end]["accumulate"]),
    "index_put" => (xs...) -> C.index_put(xs[1], Tuple(reverse([i .+ 1 for i in xs[3:end-1]])), xs[2];
                                          accumulate = xs[end]["accumulate"]),
    # searchsorted: 0-based insertion positions are searchsortedlast (right) and searchsortedfirst - 1 (left);
    # a 0-based sorter is made 1-based
    "searchsorted" => (xs...) -> (a = xs[end]; s = length(xs) > 3 ? xs[3] .+ 1 : nothing; i32 = a["out_int32"];
                                  a["right"] ? searchsortedlast(xs[1], xs[2]; sorter = s, out_int32 = i32) :
                                               searchsortedfirst(xs[1], xs[2]; sorter = s, out_int32 = i32) .- 1),
    "bincount" => (xs...) -> C.bincount(xs[1]; weights = length(xs) > 2 ? xs[2] : nothing, minlength = xs[end]["minlength"]),
    "histc" => (x, a) -> C.histc(x; bins = a["bins"], min = a["min"], max = a["max"]),
    "cummax" => (x, a) -> C.cummax(x; dims = jdim(a["dim"], ndims(x))),
    "cummin" => (x, a) -> C.cummin(x; dims = jdim(a["dim"], ndims(x))),
    "nan_to_num" => (x, a) -> C.nan_to_num(x; nan = get(a, "nan", nothing), posinf = get(a, "posinf", nothing),
                                           neginf = get(a, "neginf", nothing)),
    "diff" => (xs...) -> (a = xs[end]; x = xs[1];
                          diff(x; dims = jdim(a["dim"], ndims(x)), n = a["n"], prepend = a["prepend"] ? xs[2] : nothing,
                               append = a["append"] ? xs[end-1] : nothing)),
    "take_along_dim" => (x, i, a) -> C.take_along_dim(x, i .+ 1; dims = haskey(a, "dim") ? jdim(a["dim"], ndims(x)) : nothing),
    "median_dim" => (x, a) -> C.median(x; dims = jdim(a["dim"], ndims(x)), keepdim = a["keepdim"]),
    "quantile" => (x, a) -> C.quantile(x, a["q"]; dims = haskey(a, "dim") ? jdim(a["dim"], ndims(x)) : nothing,
                                       keepdim = a["keepdim"], interpolation = Symbol(a["interpolation"])),
    "cdist" => (x, y, a) -> C.cdist(x, y; p = decode(a["p"])),
    "median" => (x, a) -> C.median(x),
    "nanmedian" => (x, a) -> C.nanmedian(x),
    "nanmedian_dim" => (x, a) -> C.nanmedian(x; dims = jdim(a["dim"], ndims(x)), keepdim = a["keepdim"]),
    "nanquantile" => (x, a) -> C.nanquantile(x, a["q"]; dims = haskey(a, "dim") ? jdim(a["dim"], ndims(x)) : nothing,
                                             keepdim = a["keepdim"], interpolation = Symbol(a["interpolation"])),
    "repeat_interleave" => (xs...) -> (a = xs[end]; x = xs[1];
                                       C.repeat_interleave(x, haskey(a, "repeats") ? a["repeats"] : xs[2];
                                                           dims = haskey(a, "dim") ? jdim(a["dim"], ndims(x)) : nothing)),
    "meshgrid" => (xs...) -> C.meshgrid(xs[1:end-1]...; indexing = Symbol(xs[end]["indexing"])),
))
# nn: Julia's (W, H, C, N) layout; pairs (h, w) given as Julia tuples (w, h); labels and indices 1-based
jpair(v) = (v[2], v[1])
julia_equation(eq) = (rev(t) = join(reverse(collect(t))); lhs_rhs = split(eq, "->");
                      join(rev.(split(lhs_rhs[1], ',')), ',') * (length(lhs_rhs) > 1 ? "->" * rev(lhs_rhs[2]) : ""))
merge!(OPS, Dict{String,Function}(
    "conv2d" => (xs...) -> C.conv2d(xs[1], xs[2], length(xs) > 3 ? xs[3] : nothing; stride = jpair(xs[end]["stride"]),
                                     pad = jpair(xs[end]["padding"]), dilation = jpair(xs[end]["dilation"]),
                                     groups = xs[end]["groups"]),
    "max_pool2d" => (x, a) -> C.maxpool2d(x, jpair(a["kernel"]); stride = jpair(a["stride"]), pad = jpair(a["padding"])),
    "avg_pool2d" => (x, a) -> C.meanpool2d(x, jpair(a["kernel"]); stride = jpair(a["stride"]), pad = jpair(a["padding"])),
    "max_pool2d_ex" => (x, a) -> C.maxpool2d_with_indices(x, jpair(a["kernel"]); stride = jpair(a["stride"]),
                                                         pad = jpair(a["padding"]), dilation = jpair(a["dilation"]),
                                                         ceil_mode = a["ceil_mode"]),
    "avg_pool2d_ex" => (x, a) -> C.meanpool2d_ex(x, jpair(a["kernel"]); stride = jpair(a["stride"]), pad = jpair(a["padding"]),
                                                 ceil_mode = a["ceil_mode"], count_include_pad = a["count_include_pad"],
                                                 divisor = a["divisor_override"]),
    "adaptive_avg_pool2d" => (x, a) -> C.adaptive_meanpool2d(x, jpair(a["output_size"])),
    "adaptive_max_pool2d" => (x, a) -> C.adaptive_maxpool2d_with_indices(x, jpair(a["output_size"])),
    "cross_entropy" => (x, y, a) -> C.crossentropy(x, y .+ 1; agg = Symbol(a["reduction"]), ignore_index = a["ignore_index"] + 1),
    "nll_loss" => (x, y, a) -> C.nll_loss(x, y .+ 1; agg = Symbol(a["reduction"]), ignore_index = a["ignore_index"] + 1),
    "cross_entropy_ex" => (x, y, w, a) -> C.crossentropy(x, y .+ 1; agg = Symbol(a["reduction"]), weight = w,
                                                         ignore_index = a["ignore_index"] + 1,
                                                         label_smoothing = a["label_smoothing"]),
    "nll_loss_ex" => (x, y, w, a) -> C.nll_loss(x, y .+ 1; agg = Symbol(a["reduction"]), weight = w,
                                                ignore_index = a["ignore_index"] + 1),
    "binary_cross_entropy" => (p, y, a) -> C.binarycrossentropy(p, y; agg = Symbol(a["reduction"])),
    "binary_cross_entropy_with_logits" => (z, y, a) -> C.logitbinarycrossentropy(z, y; agg = Symbol(a["reduction"])),
    "embedding" => (w, i, a) -> C.embedding(w, i .+ 1),
    "embedding_ex" => (w, i, a) -> C.embedding_ex(w, i .+ 1; pad = jpad(a), scale_grad_by_freq = a["scale_grad_by_freq"]),
    # the output is a copy of input 1 renormalised at the indices of input 2
    "embedding_renorm_" => (w, i, a) -> C.embedding_renorm!(copy(w), i .+ 1, a["max_norm"], a["norm_type"]),
    "embedding_bag" => (xs...) -> C.embedding_bag(xs[1], xs[2] .+ 1, length(xs) > 3 ? xs[3] .+ 1 : nothing;
                                                  mode = Symbol(xs[end]["mode"]), pad = jpad(xs[end]),
                                                  per_sample_weights = length(xs) > 4 ? xs[4] : nothing,
                                                  include_last_offset = xs[end]["include_last_offset"],
                                                  scale_grad_by_freq = xs[end]["scale_grad_by_freq"]),
    # interpolate: TOML leaves a null size / scale_factor / align_corners out; sizes and factors in Julia order
    "interpolate" => (x, a) -> C.interpolate(x; size = haskey(a, "size") ? jtuple(a["size"]) : nothing,
                                             scale_factor = haskey(a, "scale_factor") ?
                                                            Tuple(reverse(Float64.(a["scale_factor"]))) : nothing,
                                             mode = Symbol(replace(a["mode"], "-" => "_")),
                                             align_corners = get(a, "align_corners", nothing),
                                             recompute_scale_factor = a["recompute_scale_factor"]),
    # normalisation layers: inputs x, then weight and bias when given, then running_mean and running_var
    "layer_norm" => (xs...) -> C.layer_norm(xs[1], reverse(xs[end]["normalized_shape"]); weight = jopt(xs, 2),
                                            bias = jopt(xs, 3), eps = xs[end]["eps"]),
    "group_norm" => (xs...) -> C.group_norm(xs[1], xs[end]["num_groups"]; weight = jopt(xs, 2), bias = jopt(xs, 3),
                                            eps = xs[end]["eps"]),
    "batch_norm" => (xs...) -> C.batch_norm(xs[1], jopt(xs, 4), jopt(xs, 5); weight = jopt(xs, 2), bias = jopt(xs, 3),
                                            training = xs[end]["training"], momentum = xs[end]["momentum"],
                                            eps = xs[end]["eps"]),
    "einsum" => (xs...) -> C.einsum(julia_equation(xs[end]["equation"]), xs[1:end-1]...),
    "split" => (x, a) -> Tuple(split(x, a["split_size"]; dims = jdim(a["dim"], ndims(x)))),
    "chunk" => (x, a) -> Tuple(C.chunk(x, a["chunks"]; dims = jdim(a["dim"], ndims(x)))),
    "unique" => (x, a) -> unique(x; sorted = a["sorted"]),
    # creation (Julia dims are the shape reversed), host data (inputs are made with tensor), scalars, moves
    "zeros" => a -> C.zeros(ELTYPE[a["dtype"]], reverse(a["shape"])...),
    "ones" => a -> C.ones(ELTYPE[a["dtype"]], reverse(a["shape"])...),
    "full" => a -> C.full(ELTYPE[a["dtype"]], a["value"], reverse(a["shape"])...),
    "scalar_tensor" => a -> C.scalar_tensor(a["value"]; dtype = ELTYPE[a["dtype"]]),
    "eye" => a -> C.eye(a["n"], a["m"]; dtype = ELTYPE[a["dtype"]]),
    "arange" => a -> C.arange(a["start"], a["end"], a["step"]; dtype = ELTYPE[a["dtype"]]),
    "linspace" => a -> C.linspace(a["start"], a["end"], a["steps"]; dtype = ELTYPE[a["dtype"]]),
    "zeros_like" => (x, a) -> C.zeros_like(x), "ones_like" => (x, a) -> C.ones_like(x),
    "full_like" => (x, a) -> C.full_like(x, a["value"]),
    "to_device" => (x, a) -> to(x, cpu),
    "tensor_from_data" => (x, a) -> x,
    "wrapped_scalar" => (x, v, a) -> x .* v, "wrapped_scalar_bool" => (x, v, a) -> x .* v,
    "tensor_from_blob" => (x, a) -> Tensor(Array(x)),  # a Julia Array wrapped without a copy
    # random and uninitialised tensors (run_case seeds the default generator with args["seed"]); randperm is 1:n
    "rand" => a -> C.rand(ELTYPE[a["dtype"]], reverse(a["shape"])...),
    "randn" => a -> C.randn(ELTYPE[a["dtype"]], reverse(a["shape"])...),
    "randint" => a -> C.randint(a["low"], a["high"], reverse(a["shape"])...; dtype = ELTYPE[a["dtype"]]),
    "randperm" => a -> C.randperm(a["n"]),
    "bernoulli" => (p, a) -> C.bernoulli(p),
    "dropout" => (x, a) -> C.dropout(x, a["p"]; training = a["training"]),
    "empty" => a -> C.empty(ELTYPE[a["dtype"]], reverse(a["shape"])...),
    "empty_like" => (x, a) -> C.empty_like(x),
    # activations, NNlib's names in dot syntax (elu's parameters select elu, selu or celu as a user writes them)
    "elu" => (x, a) -> a["input_scale"] != 1 ? C.celu.(x, a["alpha"]) : a["scale"] != 1 ? C.selu.(x) : C.elu.(x, a["alpha"]),
    "leaky_relu" => (x, a) -> C.leakyrelu.(x, a["negative_slope"]),
    "hardtanh" => (x, a) -> C.hardtanh.(x, a["min_val"], a["max_val"]),
    "hardsigmoid" => (x, a) -> C.hardsigmoid.(x), "hardswish" => (x, a) -> C.hardswish.(x),
    "mish" => (x, a) -> C.mish.(x), "log_sigmoid" => (x, a) -> C.logsigmoid.(x),
    "softsign" => (x, a) -> C.softsign.(x), "tanhshrink" => (x, a) -> C.tanhshrink.(x),
    "softshrink" => (x, a) -> C.softshrink.(x, a["lambd"]), "hardshrink" => (x, a) -> C.hardshrink.(x, a["lambd"]),
    "threshold" => (x, a) -> C.threshold.(x, a["threshold"], a["value"]),
    "softmin" => (x, a) -> C.softmin(x; dims = jdim(a["dim"], ndims(x))),
    "glu" => (x, a) -> C.glu(x, jdim(a["dim"], ndims(x))),
    "prelu" => (x, w, a) -> C.prelu(x, w),
    "rrelu" => (x, a) -> C.rrelu(x, a["lower"], a["upper"]; training = a["training"]),
    # losses of issue 14 (keywords as torch's; r... is an optional weight followed by the case's args)
    "l1_loss" => (x, y, a) -> C.l1_loss(x, y; agg = Symbol(a["reduction"])),
    "smooth_l1_loss" => (x, y, a) -> C.smooth_l1_loss(x, y; agg = Symbol(a["reduction"]), beta = a["beta"]),
    "huber_loss" => (x, y, a) -> C.huber_loss(x, y; agg = Symbol(a["reduction"]), delta = a["delta"]),
    "kl_div" => (x, y, a) -> C.kl_div(x, y; agg = Symbol(a["reduction"]), log_target = a["log_target"]),
    "soft_margin_loss" => (x, y, a) -> C.soft_margin_loss(x, y; agg = Symbol(a["reduction"])),
    "poisson_nll_loss" => (x, y, a) -> C.poisson_nll_loss(x, y; agg = Symbol(a["reduction"]), log_input = a["log_input"],
                                                          full = a["full"], eps = a["eps"]),
    "gaussian_nll_loss" => (x, y, v, a) -> C.gaussian_nll_loss(x, y, v; agg = Symbol(a["reduction"]), full = a["full"],
                                                               eps = a["eps"]),
    "hinge_embedding_loss" => (x, y, a) -> C.hinge_embedding_loss(x, y; agg = Symbol(a["reduction"]), margin = a["margin"]),
    "margin_ranking_loss" => (x1, x2, y, a) -> C.margin_ranking_loss(x1, x2, y; agg = Symbol(a["reduction"]),
                                                                     margin = a["margin"]),
    "multilabel_soft_margin_loss" => (x, y, r...) -> C.multilabel_soft_margin_loss(x, y; agg = Symbol(r[end]["reduction"]),
                                                                                   weight = length(r) > 1 ? r[1] : nothing),
    "multi_margin_loss" => (x, y, r...) -> C.multi_margin_loss(x, y .+ 1; agg = Symbol(r[end]["reduction"]), p = r[end]["p"],
                                                               margin = r[end]["margin"],
                                                               weight = length(r) > 1 ? r[1] : nothing),
    "cosine_embedding_loss" => (x1, x2, y, a) -> C.cosine_embedding_loss(x1, x2, y; agg = Symbol(a["reduction"]),
                                                                         margin = a["margin"]),
    "ctc_loss" => (lp, t, a) -> C.ctc_loss(lp, t .+ 1, a["input_lengths"], a["target_lengths"]; agg = Symbol(a["reduction"]),
                                           blank = a["blank"] + 1, zero_infinity = a["zero_infinity"]),
    "triplet_margin_loss" => (x, p, n, a) -> C.triplet_margin_loss(x, p, n; agg = Symbol(a["reduction"]), margin = a["margin"],
                                                                   p = a["p"], eps = a["eps"], swap = a["swap"]),
    # torch.linalg: LinearAlgebra's functions on matrices (Julia's orientation: a Julia m×n Tensor is the ctensor
    # matrix's transpose), torch.linalg's names on batches (the ctensor matrices as the C ABI sees them)
    # (and on non-square input, which Julia's Symmetric refuses itself with a DimensionMismatch)
    "linalg_inv" => (x, a) -> ndims(x) == 2 ? inv(x) : C.linalg_inv(x),
    "linalg_det" => (x, a) -> ndims(x) == 2 ? det(x) : C.linalg_det(x),
    "linalg_slogdet" => (x, a) -> ndims(x) == 2 ? reverse(logabsdet(x)) : C.linalg_slogdet(x),
    "linalg_solve" => (x, y, a) -> ndims(x) != 2 ? C.linalg_solve(x, y) :
        ndims(y) == 1 ? transpose(x) \ y : transpose(transpose(x) \ transpose(y)),
    "linalg_cholesky" => (x, a) -> ndims(x) != 2 ? C.linalg_cholesky(x; upper = a["upper"]) :
        a["upper"] ? transpose(cholesky(x).factors) : cholesky(x).factors,
    "linalg_qr" => (x, a) -> C.linalg_qr(x; mode = Symbol(a["mode"])),
    "linalg_eigh" => (x, a) -> ndims(x) != 2 || size(x, 1) != size(x, 2) ? C.linalg_eigh(x; uplo = a["UPLO"][1]) :
        (E = eigen(Symmetric(x, a["UPLO"] == "L" ? :U : :L)); (E.values, transpose(E.vectors))),
    "linalg_eigvalsh" => (x, a) -> ndims(x) != 2 || size(x, 1) != size(x, 2) ? C.linalg_eigvalsh(x; uplo = a["UPLO"][1]) :
        eigvals(Symmetric(x, a["UPLO"] == "L" ? :U : :L)),
    # eig/eigvals on the ctensor matrices (eigenvalues in geev's order for A as the C ABI sees it)
    "linalg_eig" => (x, a) -> C.linalg_eig(x),
    "linalg_eigvals" => (x, a) -> C.linalg_eigvals(x),
    "linalg_svd" => (x, a) -> ndims(x) != 2 ? C.linalg_svd(x; full_matrices = a["full_matrices"]) :
        (F = svd(x; full = a["full_matrices"]); (F.Vt, F.S, F.U)),
    "linalg_svdvals" => (x, a) -> ndims(x) == 2 ? svdvals(x) : C.linalg_svdvals(x),
    "linalg_matrix_power" => (x, a) -> ndims(x) == 2 ? x^a["n"] : C.linalg_matrix_power(x, a["n"]),
    "linalg_cross" => (x, y, a) -> ndims(x) == 1 ? cross(x, y) : C.linalg_cross(x, y; dims = jdim(a["dim"], ndims(x))),
    "linalg_vector_norm" => (x, a) -> C.linalg_vector_norm(x, decode(a["ord"]); dims = jdims(get(a, "dims", nothing), ndims(x)),
                                                           keepdim = a["keepdim"]),
    "linalg_matrix_norm" => (x, a) -> C.linalg_matrix_norm(x, a["ord"]; dims = Tuple(jdim(d, ndims(x)) for d in a["dims"]),
                                                           keepdim = a["keepdim"]),
    "linalg_pinv" => (x, a) -> (ndims(x) == 2 ? pinv : C.linalg_pinv)(x; atol = get(a, "atol", nothing), rtol = get(a, "rtol", nothing)),
    "linalg_matrix_rank" => (x, a) -> (ndims(x) == 2 ? rank : C.linalg_matrix_rank)(x; atol = get(a, "atol", nothing),
                                                                                   rtol = get(a, "rtol", nothing)),
    "linalg_lstsq" => (x, y, a) -> C.linalg_lstsq(x, y),
    "linalg_lstsq_ex" => (x, y, a) -> Tuple(C.linalg_lstsq_ex(x, y; rcond = get(a, "rcond", nothing),
                                                              driver = Symbol(a["driver"]))),
    "linalg_solve_triangular" => (x, y, a) -> C.linalg_solve_triangular(x, y; upper = a["upper"], left = a["left"],
                                                                      unitriangular = a["unitriangular"]),
    # recurrent nets (CTensor.rnn / rnn_cell): inputs x, hx, (cx for LSTM), then the weights; cy only for LSTM
    "rnn" => (r...) -> begin
        a, lstm = r[end], r[end]["mode"] == "lstm"
        k = lstm ? 3 : 2
        out, hy, cy = C.rnn(Symbol(a["mode"]), r[1], Tensor[r[k+1:end-1]...]; hx = r[2], cx = lstm ? r[3] : nothing,
                            has_biases = a["has_biases"], num_layers = a["num_layers"], bidirectional = a["bidirectional"],
                            batch_first = a["batch_first"], proj_size = a["proj_size"],
                            batch_sizes = get(a, "batch_sizes", nothing))
        lstm ? (out, hy, cy) : (out, hy)
    end,
    "rnn_cell" => (r...) -> begin
        a, lstm = r[end], r[end]["mode"] == "lstm"
        k = lstm ? 3 : 2
        hy, cy = C.rnn_cell(Symbol(a["mode"]), r[1], r[k+1], r[k+2]; b_ih = r[k+3], b_hh = r[k+4], hx = r[2],
                            cx = lstm ? r[3] : nothing)
        lstm ? (hy, cy) : hy
    end,
))
# issue 14: N-d arrays given as Julia tuples (reversed); argmax outputs 1-based
jtuple(v) = Tuple(reverse(Int.(v)))
merge!(OPS, Dict{String,Function}(
    "convolution" => (xs...) -> C.convolution(xs[1], xs[2], length(xs) > 3 ? xs[3] : nothing;
                                              transposed = xs[end]["transposed"], stride = jtuple(xs[end]["stride"]),
                                              pad = jtuple(xs[end]["padding"]), dilation = jtuple(xs[end]["dilation"]),
                                              groups = xs[end]["groups"],
                                              (xs[end]["transposed"] ? (output_pad = jtuple(xs[end]["output_padding"]),) : ())...),
    "max_pool_nd" => (x, a) -> C.maxpool(x, jtuple(a["kernel"]); stride = jtuple(a["stride"]), pad = jtuple(a["padding"]),
                                         dilation = jtuple(a["dilation"]), ceil_mode = a["ceil_mode"], with_indices = true),
    "avg_pool_nd" => (x, a) -> C.meanpool(x, jtuple(a["kernel"]); stride = jtuple(a["stride"]), pad = jtuple(a["padding"]),
                                          ceil_mode = a["ceil_mode"], count_include_pad = a["count_include_pad"],
                                          divisor = a["divisor_override"]),
    "adaptive_avg_pool_nd" => (x, a) -> C.adaptive_meanpool(x, jtuple(a["output_size"])),
    "adaptive_max_pool_nd" => (x, a) -> C.adaptive_maxpool(x, jtuple(a["output_size"]); with_indices = true),
    "unfold" => (x, a) -> C.unfold(x, jpair(a["kernel"]); dilation = jpair(a["dilation"]), pad = jpair(a["padding"]),
                                   stride = jpair(a["stride"])),
    "fold" => (x, a) -> C.fold(x, jpair(a["output_size"]), jpair(a["kernel"]); dilation = jpair(a["dilation"]),
                               pad = jpair(a["padding"]), stride = jpair(a["stride"])),
    "pixel_shuffle" => (x, a) -> C.pixel_shuffle(x, a["upscale_factor"]),
    "pixel_unshuffle" => (x, a) -> C.pixel_unshuffle(x, a["downscale_factor"]),
))
# binary math (issue 14): dot syntax with Base's hypot / copysign and CTensor's own names
merge!(OPS, Dict{String,Function}(
    "logaddexp" => (x, y, a) -> C.logaddexp.(x, y), "logaddexp2" => (x, y, a) -> C.logaddexp2.(x, y),
    "hypot" => (x, y, a) -> hypot.(x, y), "xlogy" => (x, y, a) -> C.xlogy.(x, y),
    "copysign" => (x, y, a) -> copysign.(x, y), "fmax" => (x, y, a) -> C.fmax.(x, y),
    "fmin" => (x, y, a) -> C.fmin.(x, y), "heaviside" => (x, y, a) -> C.heaviside.(x, y),
    "nextafter" => (x, y, a) -> C.nextafter.(x, y),
    "bitwise_and" => (x, y, a) -> x .& y, "bitwise_or" => (x, y, a) -> x .| y, "bitwise_xor" => (x, y, a) -> xor.(x, y),
    "bitwise_not" => (x, a) -> .~x, "bitwise_left_shift" => (x, y, a) -> x .<< y,
    "bitwise_right_shift" => (x, y, a) -> x .>> y, "gcd" => (x, y, a) -> gcd.(x, y), "lcm" => (x, y, a) -> lcm.(x, y),
    "addcmul" => (x, t1, t2, a) -> C.addcmul(x, t1, t2; value = a["value"]),
    "addcdiv" => (x, t1, t2, a) -> C.addcdiv(x, t1, t2; value = a["value"]),
    # more reductions and products (issue 14)
    "logcumsumexp" => (x, a) -> C.logcumsumexp(x; dims = jdim(a["dim"], ndims(x))),
    "aminmax" => (x, a) -> (d = get(a, "dim", nothing);
                            C.aminmax(x; dims = d === nothing ? nothing : jdim(d, ndims(x)), keepdims = a["keepdim"])),
    "var_mean" => (x, a) -> reduced_pair((t, d) -> C.var_mean(t; dims = d, corrected = a["correction"] == 1), x, a),
    "std_mean" => (x, a) -> reduced_pair((t, d) -> C.std_mean(t; dims = d, corrected = a["correction"] == 1), x, a),
    "kron" => (x, y, a) -> kron(x, y), "inner" => (x, y, a) -> C.inner(x, y),
    "tensordot" => (x, y, a) -> C.tensordot(x, y, [jdim(d, ndims(x)) for d in a["dims_a"]],
                                            [jdim(d, ndims(y)) for d in a["dims_b"]]),
))
const POSITION_OUTPUTS = Set(["sort", "topk", "kthvalue", "max_pool2d_ex", "adaptive_max_pool2d", "unique",
                              "max_pool_nd", "adaptive_max_pool_nd", "cummax", "cummin", "median_dim",
                              "nanmedian_dim"])

# in-place writes through a view of a copy of input 1; the result is the copy
const WRITES = Dict{String,Function}(
    "add_" => (v, o, a) -> C.add!(v, o, a["alpha"]), "sub_" => (v, o, a) -> C.sub!(v, o, a["alpha"]),
    "mul_" => (v, o, a) -> C.mul!(v, o), "div_" => (v, o, a) -> C.div!(v, o), "copy_" => (v, o, a) -> copyto!(v, o),
    "zero_" => (v, a) -> C.zero!(v), "fill_" => (v, a) -> fill!(v, a["value"]),
    "clamp_" => (v, a) -> clamp!(v, a["min"], a["max"]))
for (name, write) in WRITES
    OPS[name] = function (x, rest...)
        a = rest[end]
        y = copy(x)
        write(OPS[a["view"]](y, a["view_args"]), rest...)
        y
    end
end

"Checks Julia tensor `got` against the expected tensor (row-major shape and values); `base` 1 for 1-based positions."
function compare(what, got, want; base = 0)
    dtype(got) == want["dtype"] || throw(Problem("$what: dtype $(dtype(got)), expected $(want["dtype"])"))
    shape = collect(reverse(size(got)))
    shape == want["shape"] || throw(Problem("$what: shape $shape, expected $(want["shape"])"))
    values = vec(Array(got))  # column-major order of the reversed shape = ctensor's row-major order
    eltype(values) <: Complex && (values = vec(vcat(transpose(real.(values)), transpose(imag.(values)))))  # re, im
    atol, rtol = get(TOLERANCE, want["dtype"], (0.0, 0.0))
    haskey(want, "properties") && return check_properties(what, Float64.(values) .- base, want["properties"], atol, rtol)
    for (i, (g, w)) in enumerate(zip(values, want["values"]))
        if !haskey(TOLERANCE, want["dtype"])  # integers and bool exactly, as Int64
            Int64(g) - base == w || throw(Problem("$what: element $(i - 1) is $(Int64(g) - base), expected $w"))
            continue
        end
        g, w = Float64(g) - base, decode(w)
        (isnan(g) && isnan(w)) || g == w || abs(g - w) <= atol + rtol * abs(w) ||
            throw(Problem("$what: element $(i - 1) is $g, expected $w"))
    end
end

"Checks that values `v` have every property of `props` (README, \"Properties\")."
function check_properties(what, v, props, atol, rtol)
    for (i, x) in enumerate(v)
        at = "$what: element $(i - 1) is $x"
        if haskey(props, "range")
            lo, hi = decode.(props["range"])
            lo <= x < hi || throw(Problem("$at, outside [$lo, $hi)"))
        end
        get(props, "integral", false) && !isinteger(x) && throw(Problem("$at, not an integer"))
        if haskey(props, "zero_or")
            w = decode(props["zero_or"][i])
            x == 0 || abs(x - w) <= atol + rtol * abs(w) || throw(Problem("$at, expected 0 or $w"))
        end
        if haskey(props, "abs")  # equal up to sign: singular vectors and eigenvectors (one sign per vector)
            w = abs(decode(props["abs"][i]))
            abs(abs(x) - w) <= atol + rtol * w || throw(Problem("$at, expected +-$w"))
        end
    end
    get(props, "permutation", false) && sort(v) != 0:length(v) - 1 &&
        throw(Problem("$what: not a permutation of 0..$(length(v) - 1)"))
    mean = sum(v) / length(v)
    if haskey(props, "mean")
        m, bound = decode.(props["mean"])
        abs(mean - m) <= bound || throw(Problem("$what: mean $mean, expected $m within $bound"))
    end
    if haskey(props, "std")
        s, bound = decode.(props["std"])
        sd = sqrt(sum((v .- mean) .^ 2) / (length(v) - 1))
        abs(sd - s) <= bound || throw(Problem("$what: standard deviation $sd, expected $s within $bound"))
    end
end

const KINDS = Dict(string("CT_", k) => k for k in instances(C.ErrorKind))

function run_case(case)
    op = case["op"]
    f = get(OPS, op, nothing)
    f === nothing && throw(Problem("op $op is not exposed"))
    inputs = [make(j) for j in case["inputs"]]
    args = get(case, "args", Dict{String,Any}())
    haskey(args, "seed") && manual_seed(args["seed"])
    if haskey(case, "error")
        kind = KINDS[case["error"]]
        try
            f(inputs..., args)
        catch e
            e isa CTensorError && e.kind == kind && return
            throw(Problem("threw $(sprint(showerror, e)); expected CTensorError($kind)"))
        end
        throw(Problem("returned; expected CTensorError($kind)"))
    end
    out = f(inputs..., args)
    outs = out isa Tuple ? collect(out) : [out]
    expect = case["expect"]
    length(outs) == length(expect["outputs"]) || throw(Problem("$(length(outs)) outputs, expected $(length(expect["outputs"]))"))
    for (k, (o, w)) in enumerate(zip(outs, expect["outputs"]))
        one_based = op in INDEX_OUTPUTS || (k == 2 && (op in ("max_dim", "min_dim") || op in POSITION_OUTPUTS))
        compare("output $(k - 1)", o, w; base = one_based ? 1 : 0)
    end
    haskey(expect, "grads") || return
    backward!(outs[1], make(expect["grad_output"]))
    for (k, (x, w)) in enumerate(zip(inputs, expect["grads"]))
        isempty(w) && continue  # {} stands for null: no gradient expected
        g = grad(x)
        g === nothing && throw(Problem("input $(k - 1) got no gradient"))
        compare("gradient of input $(k - 1)", g, w)
    end
end

"Whether a case has a bfloat16 input, output, gradient or dtype argument (README: Julia runs no bfloat16 case)."
function uses_bfloat16(case)
    has(t) = t isa Dict && get(t, "dtype", "") == "bfloat16"
    any(has, case["inputs"]) && return true
    get(get(case, "args", Dict()), "dtype", "") == "bfloat16" && return true
    e = get(case, "expect", Dict())
    any(has, get(e, "outputs", [])) || any(has, get(e, "grads", []))
end

function main()
    dir = isempty(ARGS) ? joinpath(@__DIR__, "cases") : ARGS[1]
    files = sort(filter(f -> endswith(f, ".toml"), readdir(dir; join = true)))
    isempty(files) && error("no cases in $dir")
    passed, failures, ops, failed_ops, skipped = 0, String[], Set{String}(), Set{String}(), 0
    for path in files, case in Pkg.TOML.parsefile(path)["cases"]
        if uses_bfloat16(case)  # the binding has no bfloat16 element type (CTensor refuses such tensors)
            skipped += 1
            continue
        end
        push!(ops, case["op"])
        problem = try
            @ctscope begin
                run_case(case)
                nothing
            end
            nothing
        catch e
            e isa Problem ? e.what : "threw " * sprint(showerror, e)
        end
        if problem === nothing
            passed += 1
        else
            push!(failures, "$(case["id"]): $problem")
            push!(failed_ops, case["op"])
        end
    end
    foreach(l -> println("FAIL ", l), failures[1:min(end, 50)])
    length(failures) > 50 && println("... and $(length(failures) - 50) more")
    println("$passed passed, $(length(failures)) failed, $skipped bfloat16 cases not run (no Julia element type)")
    GC.gc(); GC.gc()
    live = C.live_handles()
    live == 0 || println("leaked $live handles")
    out = get(ENV, "CONFORMANCE_RESULTS_DIR", "")
    if !isempty(out)
        mkpath(out)
        write(joinpath(out, "julia.json"),  # a flat record of numbers: written directly (reading uses a library)
              "{\"language\": \"Julia\", \"run\": $(passed + length(failures)), \"passed\": $passed, " *
              "\"failed\": $(length(failures)), \"ops\": $(length(ops)), \"ops_passed\": $(length(ops) - length(failed_ops))}\n")
    end
    exit(isempty(failures) && live == 0 ? 0 : 1)
end

main()
