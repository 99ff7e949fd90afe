# test_nn.jl - layers, losses and optimizers: values against Julia math and a small model that learns.

@testset "nn" begin
    gen = C.Generator(3)
    l = Linear(4 => 3; gen = gen)
    x = C.randn(Float32, 4, 5; gen = gen)
    W, b, X = Array(l.weight), Array(l.bias), Array(x)
    @test Array(l(x)) ≈ transpose(W) * X .+ b rtol = 1e-5
    logits = randn(3, 5); y = [1, 3, 2, 2, 1]
    lp = logits .- log.(sum(exp.(logits); dims = 1))
    @test C.crossentropy(tensor(logits), y)[] ≈ -sum(lp[y[j], j] for j in 1:5) / 5
    @test C.mse(tensor([1.0, 2.0]), tensor([0.0, 0.0]))[] ≈ 2.5
    e = Embedding(10 => 4; gen = gen)
    @test Array(e([3, 1])) == Array(e.weight)[:, [3, 1]]
    img = C.randn(Float32, 8, 8, 2, 3; gen = gen)          # (W, H, C, N)
    conv = Conv2d((3, 3), 2 => 4; pad = 1, gen = gen)
    @test size(conv(img)) == (8, 8, 4, 3)
    @test size(MaxPool(2)(img)) == (4, 4, 2, 3) && size(MeanPool(2)(img)) == (4, 4, 2, 3)
    @test Array(MaxPool(2)(img))[1, 1, 1, 1] == maximum(Array(img)[1:2, 1:2, 1, 1])
    # 1-based linear indices of the maxima in each (W, H) plane
    for (v, i) in (C.maxpool2d_with_indices(img, 2), C.adaptive_maxpool2d_with_indices(img, (3, 2)))
        V, I, A = Array(v), Array(i), Array(img)
        @test eltype(I) == Int64 && size(I) == size(V)
        @test all(V[w, h, c, n] == A[:, :, c, n][I[w, h, c, n]] for w in axes(V, 1), h in axes(V, 2), c in 1:2, n in 1:3)
    end
    bn = BatchNorm(4)
    h = bn(C.randn(Float32, 4, 16; gen = gen))
    @test all(abs.(Array(C.mean(h; dims = 2))) .< 1e-5)
    d = Dropout(0.5; gen = gen)
    @test count(iszero, Array(d(C.ones(Float32, 1000)))) in 400:600
    C.testmode!(d)
    @test Array(d(C.ones(Float32, 10))) == ones(Float32, 10)
    # a model that learns: y = 2x1 - 3x2 + 1
    model = Chain(Linear(2 => 8; gen = gen), relu, Linear(8 => 1; gen = gen))
    xs = C.randn(Float32, 2, 64; gen = gen)
    ys = sum(xs .* tensor(Float32[2, -3]); dims = 1) .+ 1
    for (opt, steps) in ((Adam(C.params(model); lr = 0.05), 300), (AdamW(C.params(model); lr = 0.01), 50),
                         (SGD(C.params(model); lr = 0.01, momentum = 0.9), 50))
        local loss
        for _ in 1:steps
            zero_grad!(opt)
            loss = C.mse(model(xs), ys)
            backward!(loss)
            step!(opt)
        end
        @test loss[] < 0.05
    end
    @test C.lr(C.lr!(SGD(C.params(model); lr = 0.1), 0.2)) == 0.2
    # a Chain of one layer (was a MethodError: Julia's default constructor tried to convert the layer)
    one = Linear(2 => 3; gen = gen)
    single = Chain(one)
    @test length(single.layers) == 1 && all(a === b for (a, b) in zip(C.params(single), C.params(one)))
    @test Array(single(xs)) == Array(one(xs))
    @test Array(Chain()(xs)) == Array(xs)
end
