# norms.jl - the normalisation layers over the C ABI's fused ct_layer_norm / ct_group_norm / ct_batch_norm, and the
# LayerNorm / GroupNorm layers (BatchNorm, in nn.jl, calls batch_norm). Julia layout: x (W, H, C, N) or (C, N) is
# ctensor's [N, C, H, W] / [N, C]; layer_norm normalises over Julia's leading dims (ctensor's trailing ones).

"""
    layer_norm(x, normalized_shape; weight = nothing, bias = nothing, eps = 1e-5)

x normalised over its leading dims, which must equal normalized_shape (a tuple in Julia order; biased variance),
then weight .* x .+ bias (each of size normalized_shape).
"""
function layer_norm(x::Tensor, normalized_shape; weight = nothing, bias = nothing, eps::Real = 1e-5)
    ns = reverse(collect(Int64, normalized_shape))
    newtensor(o -> LibCT.ct_layer_norm(x, ns, Int32(length(ns)), opt(weight), opt(bias), Float64(eps), o))
end

"group_norm(x, groups; weight, bias, eps): x (…, C, N) normalised in `groups` groups of channels per sample."
group_norm(x::Tensor, groups::Integer; weight = nothing, bias = nothing, eps::Real = 1e-5) =
    newtensor(o -> LibCT.ct_group_norm(x, Int64(groups), opt(weight), opt(bias), Float64(eps), o))

"""
    batch_norm(x, running_mean, running_var; weight, bias, training = true, momentum = 0.1, eps = 1e-5)

x (…, C, N) normalised per channel: training by the batch's statistics (running_mean / running_var, when not
`nothing`, move by momentum in place, unbiased variance), else by the running statistics (required).
"""
batch_norm(x::Tensor, running_mean = nothing, running_var = nothing; weight = nothing, bias = nothing,
           training::Bool = true, momentum::Real = 0.1, eps::Real = 1e-5) =
    newtensor(o -> LibCT.ct_batch_norm(x, opt(running_mean), opt(running_var), opt(weight), opt(bias),
                                       Int32(training), Float64(momentum), Float64(eps), o))

"LayerNorm(shape...; eps = 1e-5): layer_norm over the leading dims `shape`, weight ones and bias zeros."
struct LayerNorm <: Layer
    shape::Tuple
    weight::Tensor
    bias::Tensor
    eps::Float64
end
LayerNorm(shape::Integer...; eps = 1e-5) =
    LayerNorm(shape, requires_grad!(ones(Float32, shape...)), requires_grad!(zeros(Float32, shape...)), eps)
(l::LayerNorm)(x::Tensor) = layer_norm(x, l.shape; weight = l.weight, bias = l.bias, eps = l.eps)
params(l::LayerNorm) = [l.weight, l.bias]

"GroupNorm(groups, C; eps = 1e-5): group_norm with weight ones and bias zeros per channel."
struct GroupNorm <: Layer
    groups::Int
    weight::Tensor{Float32,1}
    bias::Tensor{Float32,1}
    eps::Float64
end
GroupNorm(groups::Integer, c::Integer; eps = 1e-5) =
    GroupNorm(groups, requires_grad!(ones(Float32, c)), requires_grad!(zeros(Float32, c)), eps)
(g::GroupNorm)(x::Tensor) = group_norm(x, g.groups; weight = g.weight, bias = g.bias, eps = g.eps)
params(g::GroupNorm) = [g.weight, g.bias]

merge!(OPS, Dict{String,Any}("layer_norm" => layer_norm, "group_norm" => group_norm, "batch_norm" => batch_norm))
