# optim.jl - optimizers (SGD, Adam, AdamW) over parameter Tensors, stepping inside the library.

"An optimizer over a list of parameter Tensors (released by its finalizer or release!)."
mutable struct Optimizer
    handle::Ptr{Cvoid}
    params::Vector{Tensor}
    function Optimizer(c, ps::Vector, args...)
        h = Ptr{Cvoid}[handle(p) for p in ps]
        r = Ref{Ptr{Cvoid}}(C_NULL)
        GC.@preserve ps @check c(h, Int32(length(h)), args..., r)
        finalizer(release!, new(r[], Vector{Tensor}(ps)))
    end
end
release!(o::Optimizer) = (h = o.handle; o.handle = C_NULL; LibCT.ct_optimizer_release(h); nothing)
Base.unsafe_convert(::Type{Ptr{Cvoid}}, o::Optimizer) =
    o.handle == C_NULL ? throw(CTensorError(ERR_INVALID_HANDLE, 2, "CTensor: optimizer used after release!")) : o.handle

SGD(ps; lr::Real, momentum::Real = 0, dampening::Real = 0, weight_decay::Real = 0, nesterov::Bool = false) =
    Optimizer(LibCT.ct_optim_sgd_new, collect(ps), Float64(lr), Float64(momentum), Float64(dampening), Float64(weight_decay), Int32(nesterov))
Adam(ps; lr::Real = 1e-3, betas = (0.9, 0.999), eps::Real = 1e-8, weight_decay::Real = 0) =
    Optimizer(LibCT.ct_optim_adam_new, collect(ps), Float64(lr), Float64(betas[1]), Float64(betas[2]), Float64(eps), Float64(weight_decay))
AdamW(ps; lr::Real = 1e-3, betas = (0.9, 0.999), eps::Real = 1e-8, weight_decay::Real = 1e-2) =
    Optimizer(LibCT.ct_optim_adamw_new, collect(ps), Float64(lr), Float64(betas[1]), Float64(betas[2]), Float64(eps), Float64(weight_decay))

step!(o::Optimizer) = (@check(LibCT.ct_optimizer_step(o)); o)
zero_grad!(o::Optimizer; set_to_none::Bool = true) = (@check(LibCT.ct_optimizer_zero_grad(o, Int32(set_to_none))); o)
lr(o::Optimizer) = (r = Ref(0.0); @check(LibCT.ct_optimizer_get_lr(o, r)); r[])
lr!(o::Optimizer, v::Real) = (@check(LibCT.ct_optimizer_set_lr(o, Float64(v))); o)
hparam(o::Optimizer, name::AbstractString) = (r = Ref(0.0); @check(LibCT.ct_optimizer_get_hparam(o, name, r)); r[])
hparam!(o::Optimizer, name::AbstractString, v::Real) = (@check(LibCT.ct_optimizer_set_hparam(o, name, Float64(v))); o)
