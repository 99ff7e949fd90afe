# test_errors.jl - every status kind maps to its CTensorError kind with the library's message; real
# failures of each kind the library can be made to produce.

errkind(f) = try f(); nothing catch e; e isa CTensorError ? e.kind : e end

@testset "error kinds" begin
    for k in instances(C.ErrorKind)
        k == C.ERR_UNKNOWN && continue
        C.LibCT.ct_set_error(Int32(k), "message $k")
        e = C.status_error(Int32(k))
        @test e.kind == k && e.message == "message $k"
    end
    @test C.status_error(Int32(77)).kind == C.ERR_UNKNOWN
    x = tensor(randn(2, 3))
    @test errkind(() -> C.SGD([requires_grad!(tensor([1.0]))]; lr = -1)) == C.ERR_INVALID_ARGUMENT
    r = tensor([1.0]); release!(r)
    @test errkind(() -> r .+ 1) == C.ERR_INVALID_HANDLE
    @test C.LibCT.ct_tensor_ndim(C_NULL, Ref{Int32}(0)) == Int32(C.ERR_INVALID_HANDLE)
    @test errkind(() -> x * x) == C.ERR_SHAPE
    @test errkind(() -> requires_grad!(tensor([1, 2]))) == C.ERR_DTYPE
    @test errkind(() -> C.to(x, cuda(0))) in (C.ERR_NOT_COMPILED, C.ERR_DEVICE, nothing)
    @test errkind(() -> C.narrow(x, 2, 5, 1)) == C.ERR_INDEX
    @test errkind(() -> cumsum(x; dims = 3)) == C.ERR_INDEX       # a Julia dim out of range: as the library's
    @test errkind(() -> sum(x; dims = 0)) == C.ERR_INDEX
    @test errkind(() -> x .+ tensor(randn(4))) == C.ERR_SHAPE     # shapes that do not broadcast
    @test errkind(() -> exp.(x) .* tensor(randn(2, 4))) == C.ERR_SHAPE
    @test errkind(() -> C.zeros(Float32, 1 << 40, 1 << 10)) == C.ERR_OUT_OF_MEMORY
    o = C.SGD([requires_grad!(tensor([1.0]))]; lr = 0.1)
    @test errkind(() -> C.@check C.LibCT.ct_optimizer_get_step(o, Int32(0), Ref{Int64}(0))) == C.ERR_NOT_SUPPORTED
    w = requires_grad!(tensor([1.0, 2.0])); l = sum(w .* w); backward!(l)
    @test errkind(() -> backward!(l)) == C.ERR_AUTOGRAD
    @test errkind(() -> C.@check C.LibCT.ct_check_abi(Int32(2), Int32(0))) == C.ERR_VERSION
    e = try x * x catch err; err end
    @test occursin("matmul", e.message) && occursin("CTensorError(ERR_SHAPE)", sprint(showerror, e))
end

@testset "cpu memory limit" begin
    a = C.ones(Float32, 64, 64)
    s = cpu_memory_stats()
    @test s.limit === nothing && s.allocated >= 64 * 64 * 4
    set_cpu_memory_limit!(s.allocated)  # nothing more may be allocated
    e = try
        a .+ a
    catch err
        err
    finally
        set_cpu_memory_limit!(nothing)
    end
    @test e isa CTensorError && e.kind == C.ERR_OUT_OF_MEMORY && occursin("memory limit", e.message)
    @test cpu_memory_stats().limit === nothing
    @test Array(a .+ a) == fill(2f0, 64, 64)  # inputs intact, the next call succeeds
    @test errkind(() -> set_cpu_memory_limit!(-7)) == C.ERR_INVALID_ARGUMENT
end
