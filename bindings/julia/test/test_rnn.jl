# test_rnn.jl - the recurrent wrappers (CTensor.rnn, CTensor.rnn_cell, not exported): a tanh cell against its
# closed form in Julia layout, an LSTM stack equal to stepping its cell, and a bad hidden state as a shape error.
@testset "rnn" begin
    # input 2, hidden 1, batch 1: h' = tanh(w . x + b_ih + u * h + b_hh)
    x, w, u = [0.5, -1.0], [0.3, 0.7], -0.4
    h, _ = C.rnn_cell(:rnn_tanh, tensor(reshape(x, 2, 1)), tensor(reshape(w, 2, 1)), tensor(fill(u, 1, 1));
                      b_ih = tensor([0.1]), b_hh = tensor([-0.2]), hx = tensor(fill(0.25, 1, 1)))
    @test Array(h) ≈ fill(tanh(sum(w .* x) + 0.1 + u * 0.25 - 0.2), 1, 1)
    wih, whh = tensor(rand(3, 8) .- 0.5), tensor(rand(2, 8) .- 0.5)          # Julia (input, 4 * hidden)
    xs = rand(3, 2, 4)                                                      # (input, batch, seq)
    out, hy, cy = C.rnn(:lstm, tensor(xs), [wih, whh]; has_biases = false)
    @test size(out) == (2, 2, 4) && size(hy) == (2, 2, 1) && size(cy) == (2, 2, 1)
    hc, cc = nothing, nothing
    for t in 1:4
        hc, cc = C.rnn_cell(:lstm, tensor(xs[:, :, t]), wih, whh; hx = hc, cx = cc)
        @test Array(hc) ≈ Array(out)[:, :, t]
    end
    @test Array(cc) ≈ Array(cy)[:, :, 1]
    err = try C.rnn(:gru, tensor(xs), [tensor(rand(3, 6)), tensor(rand(2, 6))]; has_biases = false,
                    hx = tensor(rand(5, 2, 1))); nothing catch e; e end
    @test err isa CTensorError && occursin("expected hx of shape [1, 2, 2], got [1, 2, 5]", err.message)
    @test_throws ArgumentError C.rnn(:lstmx, tensor(xs), [wih, whh])
end
