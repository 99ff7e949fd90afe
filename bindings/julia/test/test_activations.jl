# test_activations.jl - the activations with NNlib's names: Tensor results equal the scalar definitions
# broadcast over a Julia array, dot syntax with parameters, gradients against finite differences, GLU,
# softmin, PReLU and RReLU, and error kinds.
@testset "activations" begin
    a = Float64[-4, -3, -1.5, -0.5, 0, 0.25, 1, 3, 7]
    x = tensor(a)
    for (f, params) in ((C.elu, (0.7,)), (C.selu, ()), (C.celu, (1.5,)), (C.leakyrelu, (0.2,)),
                        (C.hardtanh, (-0.5, 2.0)), (C.relu6, ()), (C.softshrink, (0.5,)), (C.hardshrink, (0.5,)),
                        (C.trelu, (1.0,)), (C.hardsigmoid, ()), (C.hardswish, ()), (C.mish, ()),
                        (C.logsigmoid, ()), (C.softsign, ()), (C.tanhshrink, ()))
        @test Array(f.(x, params...)) ≈ f.(a, params...)
        @test Array(f(x, params...)) ≈ f.(a, params...)
    end
    @test Array(C.threshold.(x, 0.5, -9.0)) == [v > 0.5 ? v : -9.0 for v in a]

    # gradients against central differences
    b = Float64[-1.2, -0.3, 0.4, 1.7, 2.5, -2.2]
    for f in (t -> C.elu.(t, 0.7), t -> C.selu.(t), t -> C.celu.(t, 2.0), t -> C.mish.(t), t -> C.logsigmoid.(t),
              t -> C.softsign.(t), t -> C.hardswish.(t), t -> C.leakyrelu.(t, 0.1), t -> C.softshrink.(t, 0.5))
        t = requires_grad!(tensor(b))
        backward!(sum(f(t)))
        fd = [(sum(Array(f(tensor(b .+ (1:6 .== i) .* 1e-6)))) - sum(Array(f(tensor(b .- (1:6 .== i) .* 1e-6))))) / 2e-6
              for i in 1:6]
        @test Array(grad(t)) ≈ fd rtol = 1e-5
    end

    m = tensor(reshape(collect(1.0:8.0), 2, 4))                   # Julia 2x4 = ctensor [4, 2]
    g = Array(C.glu(m, 2))                                        # halves along Julia dim 2
    @test g ≈ collect(reshape(1.0:4.0, 2, 2)) .* (1 ./ (1 .+ exp.(-collect(reshape(5.0:8.0, 2, 2)))))
    s = Array(C.softmin(m; dims = 1))
    @test s ≈ exp.(-collect(reshape(1.0:8.0, 2, 4))) ./ sum(exp.(-collect(reshape(1.0:8.0, 2, 4))); dims = 1)
    w = tensor([0.1, 0.2])
    p = tensor(reshape(Float64[-1, 2, -3, 4, -5, 6], 3, 2, 1))    # ctensor [1, 2, 3]: channels = Julia dim 2
    @test Array(C.prelu(p, w))[:, :, 1] ≈ [-0.1 4; 2 -1.0; -0.3 6]
    r = Array(C.rrelu(tensor(-ones(1000)), 0.1, 0.3))
    @test all(-0.3 .< r .<= -0.1) && abs(sum(r) / 1000 + 0.2) < 0.01
    @test Array(C.rrelu(tensor(-ones(3)), 0.1, 0.3; training = false)) ≈ fill(-0.2, 3)

    kind(f) = try f(); nothing catch e; e isa CTensorError ? e.kind : e end
    @test kind(() -> C.softshrink(x, -1)) == C.ERR_INVALID_ARGUMENT
    @test kind(() -> C.glu(tensor(ones(3, 2)), 1)) == C.ERR_SHAPE
    @test kind(() -> C.elu(tensor([1, 2]))) == C.ERR_DTYPE
    @test kind(() -> C.celu(x, 0)) == C.ERR_INVALID_ARGUMENT
end
