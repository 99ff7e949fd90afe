# rnn.jl - recurrent nets (issue 14): thin wrappers over ct_rnn (the fused stack) and ct_rnn_cell (one step). Julia
# dims are the C dims reversed: x is (input_size, batch, seq) ((input_size, seq, batch) with batch_first, or
# (input_size, rows) packed with batch_sizes), states (hidden, batch, layers * directions), torch's weights in its
# order (per layer and direction: w_ih, w_hh, then b_ih, b_hh, then w_hr), each in Julia layout (input, gates * hidden).

const RNN_MODES = Dict(:rnn_relu => Int32(0), :rnn_tanh => Int32(1), :lstm => Int32(2), :gru => Int32(3))

function _rnn_mode(m::Symbol)
    haskey(RNN_MODES, m) || throw(ArgumentError("rnn: mode must be :rnn_relu, :rnn_tanh, :lstm or :gru, got :$m"))
    RNN_MODES[m]
end
_wrap_opt(h::Ptr{Cvoid}) = h == C_NULL ? nothing : wrap(h)

"""
    rnn(mode, x, weights; hx, cx, has_biases, num_layers, dropout, train, bidirectional, batch_first, proj_size,
        batch_sizes) -> (output, hy, cy)

The fused recurrent stack (torch's _VF.lstm / gru / rnn_tanh / rnn_relu); cy is `nothing` unless mode is :lstm.
"""
function rnn(mode::Symbol, x::Tensor, weights::AbstractVector{<:Tensor}; hx = nothing, cx = nothing,
             has_biases::Bool = true, num_layers::Integer = 1, dropout::Real = 0.0, train::Bool = false,
             bidirectional::Bool = false, batch_first::Bool = false, proj_size::Integer = 0, batch_sizes = nothing)
    ws = Ptr{Cvoid}[handle(w) for w in weights]
    bs = batch_sizes === nothing ? Int64[] : Int64.(collect(batch_sizes))
    out, hy, cy = Ref{Ptr{Cvoid}}(C_NULL), Ref{Ptr{Cvoid}}(C_NULL), Ref{Ptr{Cvoid}}(C_NULL)
    GC.@preserve weights ws bs begin
        bsp = batch_sizes === nothing ? Ptr{Int64}(C_NULL) : pointer(bs)
        @check LibCT.ct_rnn(_rnn_mode(mode), x, opt(hx), opt(cx), pointer(ws), Int32(length(ws)), Int32(has_biases),
                            Int64(num_layers), Float64(dropout), Int32(train), Int32(bidirectional), Int32(batch_first),
                            Int64(proj_size), bsp, Int64(length(bs)), C_NULL, out, hy, cy)
    end
    (wrap(out[]), wrap(hy[]), _wrap_opt(cy[]))
end

"""
    rnn_cell(mode, x, w_ih, w_hh; b_ih, b_hh, hx, cx) -> (hy, cy)

One step of a cell: x (input_size, batch) or (input_size,); cy is `nothing` unless mode is :lstm.
"""
function rnn_cell(mode::Symbol, x::Tensor, w_ih::Tensor, w_hh::Tensor; b_ih = nothing, b_hh = nothing, hx = nothing,
                  cx = nothing)
    hy, cy = Ref{Ptr{Cvoid}}(C_NULL), Ref{Ptr{Cvoid}}(C_NULL)
    @check LibCT.ct_rnn_cell(_rnn_mode(mode), x, opt(hx), opt(cx), w_ih, w_hh, opt(b_ih), opt(b_hh), hy, cy)
    (wrap(hy[]), _wrap_opt(cy[]))
end
