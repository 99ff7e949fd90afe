# test_amp.jl - mixed precision (issue 15): autocast regions (result dtypes, nesting, float32 gradients) and the
# GradScaler (unscaled gradients, growth, a skipped step and a backed-off scale after an injected inf).
@testset "autocast and GradScaler" begin
    x = C.Tensor(Float32[0.5 0.25; -1.0 1.5; 2.0 -0.75])  # Julia 3x2 = ctensor shape [2, 3]
    w = C.requires_grad!(C.Tensor(Float32[1.0 0.5; -0.5 2.0; 0.0 1.0]))  # ctensor shape [2, 3]
    @test !C.is_autocast_enabled()
    y16 = C.autocast(Float16) do
        @test C.is_autocast_enabled()
        C.autocast(Float16; enabled = false) do
            @test !C.is_autocast_enabled()
        end
        @test C.is_autocast_enabled()
        C.linear(x, w)
    end
    @test eltype(y16) == Float16
    @test !C.is_autocast_enabled()
    y32 = C.linear(x, w)
    @test eltype(y32) == Float32
    @test isapprox(Float32.(Array(y16)), Array(y32); rtol = 1e-2, atol = 1e-2)
    loss = C.autocast(Float16) do
        sum(C.linear(x, w))
    end
    C.backward!(loss)
    g = C.grad(w)
    @test eltype(g) == Float32
    @test_throws C.CTensorError C.autocast(() -> nothing, Float64)
    C.release!(y16, y32, loss, g)

    p = C.requires_grad!(C.Tensor(Float32[1.0, 2.0]))
    s = C.GradScaler(init_scale = 8.0, growth_interval = 2)
    for _ in 1:2
        l = sum(p * 3.0f0)
        sl = C.scale(s, l)
        C.backward!(sl)
        @test C.step!(() -> nothing, s, [p])
        gp = C.grad(p)
        @test Array(gp) == Float32[3.0, 3.0]
        C.update!(s)
        C.release!(l, sl, gp)
        C.LibCT.ct_tensor_set_grad(p, C_NULL)
    end
    @test C.get_scale(s) == 16.0
    l = sum(p * Inf32)
    sl = C.scale(s, l)
    C.backward!(sl)
    @test !C.step!(() -> error("the step must be skipped"), s, [p])
    C.update!(s)
    @test C.get_scale(s) == 8.0
    @test_throws ArgumentError C.update!(s)
    @test_throws ArgumentError C.GradScaler(growth_factor = 0.5)
    C.release!(l, sl, p, x, w)
    C.release!(s)
end
