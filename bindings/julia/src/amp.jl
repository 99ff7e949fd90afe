# amp.jl - mixed precision (issue 15): autocast(f, T) runs f() inside an autocast region (matmul, linear and
# convolutions in T, losses and linear algebra in Float32; thread-local, nested regions restore the outer state),
# and GradScaler, torch's gradient scaler. Julia has no bfloat16 element type, so T is Float16 here (a bfloat16
# region works through the C ABI, but its results cannot be wrapped as Julia arrays).

"Runs f() in an autocast region of element type T (Float16) on `device` (cpu or cuda): autocast(Float16) do ... end."
function autocast(f, ::Type{T}; device::Device = cpu, enabled::Bool = true) where {T}
    prev_dtype = Ref{Int32}(0)
    @check LibCT.ct_autocast_set_dtype(device.type, dtype_of(T), prev_dtype)
    prev = Ref{Int32}(0)
    @check LibCT.ct_autocast_set_enabled(device.type, Int32(enabled), prev)
    LibCT.ct_autocast_increment_nesting()
    try
        return f()
    finally
        LibCT.ct_autocast_decrement_nesting()
        LibCT.ct_autocast_set_enabled(device.type, prev[], C_NULL)
        LibCT.ct_autocast_set_dtype(device.type, prev_dtype[], C_NULL)
    end
end

"Whether this thread is inside an enabled autocast region for `device`'s type."
function is_autocast_enabled(device::Device = cpu)
    e = Ref{Int32}(0)
    @check LibCT.ct_autocast_is_enabled(device.type, e)
    e[] == 1
end

"Gradient scaling as torch's GradScaler (defaults init_scale 65536, growth 2, backoff 0.5, interval 2000)."
mutable struct GradScaler
    scale::Tensor
    growth_tracker::Tensor
    found_inf::Union{Tensor,Nothing}
    growth_factor::Float64
    backoff_factor::Float64
    growth_interval::Int
end

function GradScaler(; init_scale::Real = 65536.0, growth_factor::Real = 2.0, backoff_factor::Real = 0.5,
                    growth_interval::Integer = 2000, device::Device = cpu)
    (growth_factor > 1 && backoff_factor < 1 && growth_interval >= 1) ||
        throw(ArgumentError("GradScaler: growth_factor ($growth_factor) must be > 1, backoff_factor " *
                            "($backoff_factor) < 1 and growth_interval ($growth_interval) >= 1"))
    GradScaler(full(Float32, init_scale, 1; device = device), full(Int32, 0, 1; device = device), nothing,
               Float64(growth_factor), Float64(backoff_factor), Int(growth_interval))
end

"loss * the current scale."
scale(s::GradScaler, loss::Tensor) = newtensor(o -> LibCT.ct_mul(loss, s.scale, o))
"The current scale as a Float64."
get_scale(s::GradScaler) = Float64(Array(s.scale)[1])

"Divides the gradients of params by the scale in place (once per iteration) and records inf/NaN."
function unscale!(s::GradScaler, params)
    s.found_inf === nothing || throw(ArgumentError("GradScaler: already unscaled since the last update!"))
    grads = [g for g in (grad(p) for p in params) if g !== nothing]
    inv = full(Float32, 1 / get_scale(s), 1; device = device(s.scale))
    found = full(Float32, 0, 1; device = device(s.scale))
    hs = Ptr{Cvoid}[handle(g) for g in grads]
    GC.@preserve grads @check LibCT.ct_amp_non_finite_check_and_unscale_(hs, Int32(length(hs)), found, inv)
    release!(inv)
    foreach(release!, grads)
    s.found_inf = found
    nothing
end

"Unscales (unless unscale! ran) and calls f() only when no gradient held an inf or NaN; returns whether it ran."
function step!(f, s::GradScaler, params)
    s.found_inf === nothing && unscale!(s, params)
    Array(s.found_inf)[1] != 0 && return false
    f()
    true
end

"Backs the scale off after an iteration that found inf/NaN, grows it after growth_interval clean ones."
function update!(s::GradScaler)
    found = s.found_inf
    found === nothing && throw(ArgumentError("GradScaler: no inf checks were recorded (call step! first)"))
    @check LibCT.ct_amp_update_scale_(s.scale, s.growth_tracker, found, s.growth_factor, s.backoff_factor,
                                      Int64(s.growth_interval))
    s.found_inf = nothing
    release!(found)
    nothing
end

"Releases the scaler's tensors now."
release!(s::GradScaler) = (release!(s.scale); release!(s.growth_tracker);
                           s.found_inf === nothing || release!(s.found_inf); nothing)
