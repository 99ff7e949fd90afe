# test_memory.jl - handles are released by finalizers (after GC.gc()), by release! and by @ctscope; a
# released tensor throws; a finalizer stress drops 100 000 tensors. (The work runs in functions so that
# no top-level frame keeps the objects reachable.)

function make_garbage()
    x = tensor(randn(10, 10)); y = exp.(x) .+ x; z = y[2:3, :]; s = sum(z)
    a = rand(3); t = Tensor(a); u = C.unsafe_array(tensor([1.0, 2.0]))
    w = requires_grad!(tensor([1.0])); backward!(sum(w .* w)); g = grad(w)
    o = C.Adam([w]); gen = C.Generator(1)
    (_,) = custom_function("Id", g -> g, [w], [no_grad(() -> w .* 1)])
    nothing
end
stress(n) = (for i in 1:n; C.scalar_tensor(i); end; nothing)
on_task() = (fetch(@async [C.ones(Float32, 3) for _ in 1:100]); nothing)
function scoped()
    C.@ctscope begin
        a = C.ones(Float32, 4); b = a .* 2; c = b .+ 1
        c
    end
end

@testset "memory" begin
    base = gcfull()
    make_garbage()
    @test C.live_handles() > base
    @test gcfull() <= base
    x = tensor([1.0, 2.0])
    release!(x); release!(x)                      # idempotent
    @test C.is_released(x)
    @test_throws CTensorError x .+ 1
    @test_throws CTensorError x[1]
    @test sprint(show, x) == "Tensor(released)"
    before = C.live_handles()
    kept = scoped()
    @test C.live_handles() == before + 1 && Array(kept) == fill(3f0, 4)
    release!(kept)
    @test C.live_handles() == before
    @test_throws ErrorException C.@ctscope begin
        tmp = C.ones(Float32, 2); error("inside")
    end
    @test C.live_handles() == before
    stress(100_000)
    @test gcfull() <= base
    on_task()
    @test gcfull() <= base
end
