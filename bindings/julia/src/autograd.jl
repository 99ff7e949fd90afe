# autograd.jl - gradients: requires_grad!, backward!, grad, no_grad, and custom functions whose backward
# is a Julia function, called through a @cfunction trampoline (a Julia exception becomes CT_ERR_CALLBACK).

"Marks t (a floating leaf) as requiring grad; returns t."
requires_grad!(t::Tensor, on::Bool = true) = (@check(LibCT.ct_tensor_set_requires_grad(t, Int32(on))); t)
requires_grad(t::Tensor) = (r = Ref{Int32}(0); @check(LibCT.ct_tensor_requires_grad(t, r)); r[] == 1)
is_leaf(t::Tensor) = (r = Ref{Int32}(0); @check(LibCT.ct_tensor_is_leaf(t, r)); r[] == 1)
"t's accumulated gradient, or `nothing`."
function grad(t::Tensor)
    g = Ref{Ptr{Cvoid}}(C_NULL)
    @check LibCT.ct_tensor_grad(t, g)
    g[] == C_NULL ? nothing : wrap(g[])
end
set_grad!(t::Tensor, g::Union{Tensor,Nothing}) = (@check(LibCT.ct_tensor_set_grad(t, g === nothing ? C_NULL : handle(g))); t)
retain_grad!(t::Tensor) = (@check(LibCT.ct_tensor_retain_grad(t)); t)
function grad_fn_name(t::Tensor)
    buf = fill(0x00, 128); n = Ref{Int32}(0)
    @check LibCT.ct_tensor_grad_fn_name(t, buf, Int32(length(buf)), n)
    unsafe_string(pointer(buf))
end

"Backpropagates from t (one element unless grad_output is given)."
function backward!(t::Tensor, grad_output::Union{Tensor,Nothing} = nothing; retain_graph::Bool = false, create_graph::Bool = false)
    @check LibCT.ct_backward(t, grad_output === nothing ? C_NULL : handle(grad_output), Int32(retain_graph), Int32(create_graph))
    nothing
end

"Gradients of outputs w.r.t. inputs (not accumulated into grad); `nothing` where unused."
function gradient(outputs::Vector{<:Tensor}, inputs::Vector{<:Tensor}; retain_graph::Bool = false,
                  create_graph::Bool = false, allow_unused::Bool = false)
    o = Ptr{Cvoid}[handle(t) for t in outputs]; i = Ptr{Cvoid}[handle(t) for t in inputs]
    g = fill(C_NULL, length(i))
    GC.@preserve outputs inputs @check LibCT.ct_autograd_grad(o, Int32(length(o)), C_NULL, i, Int32(length(i)),
        Int32(retain_graph), Int32(create_graph), Int32(allow_unused), g)
    [p == C_NULL ? nothing : wrap(p) for p in g]
end

"Runs f() with grad mode off on this thread (restored afterwards): no_grad() do ... end."
function no_grad(f)
    prev = Ref{Int32}(0)
    @check LibCT.ct_set_grad_enabled(Int32(0), prev)
    try
        return f()
    finally
        LibCT.ct_set_grad_enabled(prev[], C_NULL)
    end
end
is_grad_enabled() = LibCT.ct_is_grad_enabled() == 1

# ---- custom functions ----------------------------------------------------------------------------------
# A registry keeps each backward closure alive while its node exists; ctx is the address of the entry's
# flag. The node's release (possibly inside a finalizer) only sets the flag; entries are swept later.
const CUSTOM = Dict{Ptr{Cvoid},Tuple{Any,Base.RefValue{Int}}}()

function custom_backward(ctx::Ptr{Cvoid}, gout::Ptr{Ptr{Cvoid}}, nout::Int32, gin::Ptr{Ptr{Cvoid}}, nin::Int32)::Int32
    try
        f = CUSTOM[ctx][1]
        gs = [wrap(LibCT.ct_tensor_retain(unsafe_load(gout, k))) for k in 1:nout]
        res = f(gs...)
        res = res isa Tuple ? res : (res,)
        length(res) == nin || error("custom backward returned $(length(res)) gradients for $nin inputs")
        for k in 1:nin
            r = res[k]
            unsafe_store!(gin, r === nothing ? C_NULL : LibCT.ct_tensor_retain(handle(r)), k)
        end
        foreach(release!, gs)
        return Int32(0)
    catch err
        LibCT.ct_set_error(Int32(ERR_CALLBACK), "Julia custom backward failed: " * sprint(showerror, err))
        return Int32(ERR_CALLBACK)
    end
end
custom_release(ctx::Ptr{Cvoid}) = (unsafe_store!(Ptr{Int}(ctx), 1); nothing)
const BACKWARD_C = Ref{Ptr{Cvoid}}(C_NULL)
const RELEASE_C = Ref{Ptr{Cvoid}}(C_NULL)
"Number of custom-function closures still held (their nodes alive); sweeps the released ones."
custom_live() = (filter!(kv -> kv[2][2][] == 0, CUSTOM); length(CUSTOM))

"""
    custom_function(name, backward, inputs, outputs) -> results

Attaches `outputs` (computed by the caller, e.g. under no_grad) to a node whose backward is
`backward(grad_outputs...)`, returning one gradient (or `nothing`) per input. A Julia exception inside
becomes a CTensorError of kind ERR_CALLBACK from backward!.
"""
function custom_function(name::AbstractString, backward, inputs::Vector{<:Tensor}, outputs::Vector{<:Tensor})
    custom_live()
    flag = Ref(0)
    id = Ptr{Cvoid}(pointer_from_objref(flag))
    CUSTOM[id] = (backward, flag)
    i = Ptr{Cvoid}[handle(t) for t in inputs]; o = Ptr{Cvoid}[handle(t) for t in outputs]
    res = fill(C_NULL, length(o))
    GC.@preserve inputs outputs @check LibCT.ct_custom_function_apply(name, i, Int32(length(i)), o, Int32(length(o)),
        BACKWARD_C[], id, RELEASE_C[], res)
    map(wrap, res)
end
