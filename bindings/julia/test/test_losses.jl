# test_losses.jl - the further losses (CTensor.l1_loss ... triplet_margin_loss, not exported, like mse): values
# against Julia formulas in Julia layout (features first, 1-based labels), gradients against finite
# differences, :batchmean, and error kinds.
@testset "losses" begin
    x, y = [0.3 -1.2 0.7; 2.1 -0.4 1.5], [0.5 0.2 -0.9; 1.0 -1.4 0.1]     # Julia (2, 3): 3 samples of 2 features
    X, Y = tensor(x), tensor(y)
    d = x .- y
    @test Array(C.l1_loss(X, Y; agg = :none)) ≈ abs.(d)
    @test C.item(C.mae(X, Y)) ≈ sum(abs.(d)) / 6
    @test C.item(C.smooth_l1_loss(X, Y; agg = :sum, beta = 0.8)) ≈ sum(v -> abs(v) < 0.8 ? 0.5v^2 / 0.8 : abs(v) - 0.4, d)
    @test C.item(C.huber_loss(X, Y; delta = 0.5)) ≈ sum(v -> abs(v) < 0.5 ? 0.5v^2 : 0.5 * (abs(v) - 0.25), d) / 6
    p = [0.2 0.5 0.4; 0.8 0.5 0.6]
    @test C.item(C.kl_div(X, tensor(p); agg = :batchmean)) ≈ sum(p .* (log.(p) .- x)) / 3   # batch = last Julia dim
    s = [1.0 -1.0 1.0; -1.0 -1.0 1.0]
    @test Array(C.soft_margin_loss(X, tensor(s); agg = :none)) ≈ log1p.(exp.(-x .* s))
    @test Array(C.hinge_embedding_loss(X, tensor(s); agg = :none, margin = 0.5)) ≈ [v == 1 ? a : max(0.5 - a, 0) for (a, v) in zip(x, s)]
    @test C.item(C.poisson_nll_loss(X, tensor(abs.(y)); agg = :sum)) ≈ sum(exp.(x) .- abs.(y) .* x)
    var = [0.5, 1.5, 2.0]                                                  # one variance per sample: (3,)
    @test C.item(C.gaussian_nll_loss(X, Y, tensor(var); agg = :sum)) ≈ sum(0.5 .* (log.(var') .+ d .^ 2 ./ var'))
    labels = [2, 1, 2]                                                     # 1-based classes of the 3 samples
    mm = [sum(max(1.0 - x[labels[j], j] + x[i, j], 0) for i in 1:2 if i != labels[j]) / 2 for j in 1:3]
    @test Array(C.multi_margin_loss(X, labels; agg = :none)) ≈ mm
    t = [1.0 0.0 1.0; 0.0 0.0 1.0]
    ls(v) = min(v, 0) - log1p(exp(-abs(v)))
    @test Array(C.multilabel_soft_margin_loss(X, tensor(t); agg = :none)) ≈ vec(sum(-(t .* ls.(x) .+ (1 .- t) .* ls.(-x)); dims = 1)) ./ 2
    yc = tensor([1.0, -1.0, 1.0])
    cs = [dot(x[:, j], y[:, j]) / sqrt((dot(x[:, j], x[:, j]) + 1e-12) * (dot(y[:, j], y[:, j]) + 1e-12)) for j in 1:3]
    @test Array(C.cosine_embedding_loss(X, Y, yc; agg = :none, margin = 0.1)) ≈ [1 - cs[1], max(cs[2] - 0.1, 0), 1 - cs[3]]
    @test Array(C.margin_ranking_loss(tensor(x[1, :]), tensor(y[1, :]), yc; agg = :none)) ≈ max.(-[1, -1, 1] .* (x[1, :] .- y[1, :]), 0)
    z = [0.1 0.9 -0.3; 0.4 -0.2 1.2]
    dist(a, b) = [norm(a[:, j] .- b[:, j] .+ 1e-6) for j in 1:3]
    @test Array(C.triplet_margin_loss(X, Y, tensor(z); agg = :none)) ≈ max.(1 .+ dist(x, y) .- dist(x, z), 0)

    # gradients against central differences
    for f in (t -> C.smooth_l1_loss(t, Y; agg = :sum, beta = 0.5), t -> C.multi_margin_loss(t, labels; p = 2),
              t -> C.cosine_embedding_loss(t, Y, yc), t -> C.triplet_margin_loss(t, Y, tensor(z); swap = true),
              t -> C.gaussian_nll_loss(Y, X, t .* t; full = true))
        g = requires_grad!(tensor(x))
        backward!(f(g))
        fd = [(C.item(f(tensor(x .+ (reshape(1:6, 2, 3) .== i) .* 1e-6))) - C.item(f(tensor(x .- (reshape(1:6, 2, 3) .== i) .* 1e-6)))) / 2e-6
              for i in 1:6]
        @test vec(Array(grad(g))) ≈ fd rtol = 1e-5
    end

    # CTC of logsoftmax over the classes (Julia dim 1): one step, one label is that label's probability
    z1 = [0.5, 1.5, -1.0]
    @test C.item(C.ctc_loss(C.logsoftmax(tensor(reshape(z1, 3, 1)); dims = 1), [2], [1], [1])) ≈ -log(exp(1.5) / sum(exp.(z1)))
    zc = reshape([0.3, -1.2, 0.7, 2.1, -0.4, 1.5, 0.2, 0.9, -0.6, 1.1, 0.0, -0.8], 3, 2, 2)  # (C, N, T)
    fctc(t) = C.ctc_loss(C.logsoftmax(t; dims = 1), [2 3; 3 1], [2, 2], [2, 1]; agg = :sum)    # labels (S, N), 1-based
    g = requires_grad!(tensor(zc))
    backward!(fctc(g))
    fd = [(C.item(fctc(tensor(zc .+ (reshape(1:12, 3, 2, 2) .== i) .* 1e-6))) -
           C.item(fctc(tensor(zc .- (reshape(1:12, 3, 2, 2) .== i) .* 1e-6)))) / 2e-6 for i in 1:12]
    @test vec(Array(grad(g))) ≈ fd rtol = 1e-5

    errkind(f) = try f(); nothing catch err; err.kind end
    @test errkind(() -> C.ctc_loss(C.logsoftmax(tensor(zc); dims = 1), [2 4; 3 1], [2, 2], [2, 1])) == C.ERR_INDEX
    @test errkind(() -> C.multi_margin_loss(X, [3, 1, 1])) == C.ERR_INDEX        # label 3 of 2 classes
    @test errkind(() -> C.triplet_margin_loss(X, tensor([1.0, 2.0]), Y)) == C.ERR_SHAPE
    @test errkind(() -> C.huber_loss(X, Y; delta = 0)) == C.ERR_INVALID_ARGUMENT
end
