# test_autograd.jl - gradients against central finite differences in Float64, no_grad/detach, and custom
# functions whose backward is Julia code (a Julia exception inside becomes ERR_CALLBACK).

function fd_grad(f, a; h = 1e-6)
    g = similar(a)
    for i in eachindex(a)
        p = copy(a); p[i] += h; m = copy(a); m[i] -= h
        g[i] = (f(p) - f(m)) / 2h
    end
    g
end

@testset "gradients vs finite differences" begin
    fs = [x -> sum(exp.(x) .* x),
          x -> sum(tanh.(x * transpose(x))),
          x -> sum(C.softmax(x; dims = 1) .^ 2),
          x -> sum(max.(x, 0.1) ./ (1 .+ x .^ 2)),
          x -> sum(sum(x; dims = 2) .* 3)]
    a = randn(3, 4)
    for f in fs
        x = requires_grad!(tensor(a))
        y = f(x)
        backward!(y)
        @test Array(grad(x)) ≈ fd_grad(p -> f(tensor(p))[], a) rtol = 1e-5 atol = 1e-7
    end
end

@testset "grad mode, detach" begin
    x = requires_grad!(tensor([1.0, 2.0]))
    y = no_grad() do
        x .* 2
    end
    @test !C.requires_grad(y)
    @test C.is_grad_enabled()
    @test !C.requires_grad(detach(x .* 2))
    z = x .* x
    @test C.requires_grad(z) && C.grad_fn_name(z) == "MulBackward"
    @test occursin("requires_grad=true", sprint(show, MIME"text/plain"(), x))
end

@testset "custom functions" begin
    # y = x^3 computed outside the graph, backward 3x^2 * g written in Julia
    a = [0.5, -1.5, 2.0]
    x = requires_grad!(tensor(a))
    out = no_grad(() -> x .^ 3)
    calls = Ref(0)
    (y,) = custom_function("Cube", g -> (calls[] += 1; 3 .* x .^ 2 .* g), [x], [out])
    @test C.grad_fn_name(y) == "Cube"
    backward!(sum(y .* 2))
    @test Array(grad(x)) ≈ 6 .* a .^ 2 && calls[] == 1
    # a Julia exception inside the backward
    x2 = requires_grad!(tensor(a))
    (y2,) = custom_function("Broken", g -> error("boom"), [x2], [no_grad(() -> x2 .* 1)])
    e = try backward!(sum(y2)); nothing catch err; err end
    @test e isa CTensorError && e.kind == C.ERR_CALLBACK && occursin("boom", e.message)
end
