# test_threads.jl - finalizers run on another thread: the loop body on thread 2 (run_tests.sh starts julia with
# 2 threads) makes tensors with autograd graphs and views, drops them and collects there, so their finalizers
# (and ct_tensor_release) run on that thread: the handles are gone before that thread's loop body returns.

@noinline function make_graphs(n)  # its own frame, so nothing it made stays rooted in the caller's
    for j in 1:n
        x = requires_grad!(tensor([1.0, 2.0]))
        backward!(sum(x .* x))
        g = grad(x); v = x[1:1]
    end
    nothing
end

function garbage_on_worker(n)
    worker = Threads.Atomic{Int}(0)
    after = Threads.Atomic{Int}(-1)
    Threads.@threads for i in 1:Threads.nthreads()
        if Threads.threadid() == Threads.nthreads()  # the last thread (not the main one when there are two)
            make_graphs(n)
            GC.gc(); GC.gc()                         # this thread collects: finalizers run here
            after[] = C.live_handles()
            worker[] = Threads.threadid()
        end
    end
    (worker[], after[])
end

@testset "finalizers on another thread" begin
    base = gcfull()
    worker, after = garbage_on_worker(2000)
    Threads.nthreads() > 1 && @test worker != Threads.threadid()
    # released by the worker's collection (of the 5 handles of each of 2000 steps, at most the last step's may
    # still be rooted in a register of the worker's frame)
    @test 0 <= after <= base + 5
    @test gcfull() <= base
end
