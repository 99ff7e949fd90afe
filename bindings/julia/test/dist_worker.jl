# dist_worker.jl - run by test_dist.jl under `mpirun -np N` (one julia per rank): every collective of CTensor.Dist
# checked against values each rank computes locally (rank r contributes i + r at element i, 1-based), async works,
# subgroups, a send/recv ring, a shape mismatch failing on every rank, the live-handle count, and
# Dist.DistributedDataParallel: SGD steps on each rank's columns (one with a no_sync micro-batch) equal single-process
# steps over the combined batch. Prints "rank R of N: K checks passed".
using CTensor
using CTensor.Dist
const C = CTensor
const D = CTensor.Dist

const CHECKS = Ref(0)
const RANK = Ref(-1)
check(cond, what) = (cond || error("rank $(RANK[]): $what"); CHECKS[] += 1; nothing)
errof(f) = try f(); nothing catch e; e end
iskind(e, k) = e isa CTensorError && e.kind == k

contribution(r) = Float64[i + r for i in 1:6]       # Julia size (3, 2) below: ctensor shape [2, 3]

"op over the ranks' values `vals` in the arithmetic of T (integers wrap)."
function reduce_local(vals, op, ::Type{T}) where {T}
    T <: Integer && op in (D.SUM, D.PRODUCT) && return Float64(reduce(op == D.SUM ? (+) : (*), T.(vals)))
    op == D.SUM ? sum(vals) : op == D.PRODUCT ? prod(vals) : op == D.MEAN ? sum(vals) / length(vals) :
    op == D.MAX ? maximum(vals) : minimum(vals)
end

function collectives(pg)
    r, n = D.rank(pg), nranks(pg)
    for T in (Float32, Float64, Int32, Int64, UInt8), op in instances(ReduceOp)
        t = tensor(reshape(T.(contribution(r)), 3, 2))
        if op == D.MEAN && !(T <: AbstractFloat)
            check(iskind(errof(() -> all_reduce!(pg, t; op = op)), C.ERR_DTYPE), "mean of $T is ERR_DTYPE")
            continue
        end
        all_reduce!(pg, t; op = op)
        want = [reduce_local([contribution(q)[i] for q in 0:n-1], op, T) for i in 1:6]
        check(vec(Float64.(Array(t))) == want, "all_reduce! $T $op: $(vec(Array(t))) vs $want")
    end
    flags(q) = [(i + q) % 3 == 0 for i in 1:6]
    for op in (D.SUM, D.MAX, D.MIN, D.PRODUCT)
        t = tensor(flags(r))
        all_reduce!(pg, t; op = op)
        want = [(op in (D.SUM, D.MAX) ? any : all)(flags(q)[i] for q in 0:n-1) for i in 1:6]
        check(Array(t) == want, "all_reduce! Bool $op")
    end

    total = [sum(contribution(q)[i] for q in 0:n-1) for i in 1:6]
    t = tensor(contribution(r))
    w = all_reduce!(pg, t; async = true)
    wait(w)
    check(w isa Work && is_completed(w), "async all_reduce! completes")
    release!(w)
    check(Array(t) == total, "async all_reduce! value")
    b = tensor(Int64.(contribution(r)))
    w = bcast!(pg, b; root = 0, async = true)
    while !is_completed(w) yield() end
    wait(w)
    release!(w)
    check(Array(b) == contribution(0), "async bcast! value")

    m = tensor(reshape(contribution(r), 3, 2))
    v = permutedims(m, (2, 1))                        # a non-contiguous view
    bcast!(pg, v; root = n - 1)
    check(Array(v) == permutedims(reshape(contribution(n - 1), 3, 2)), "bcast! into a transposed view")

    for T in (Float32, Int32, UInt8)
        g = all_gather(pg, tensor(reshape(T.(contribution(r)), 3, 2)))
        check(size(g) == (3, 2, n) && eltype(g) == T, "all_gather size and type")
        check(all(Array(g)[:, :, q+1] == reshape(T.(contribution(q)), 3, 2) for q in 0:n-1), "all_gather $T")
    end

    # column q (0-based) holds r * 10 + q; this rank's part is column `r` of the sum
    for T in (Float64, Int64)
        x = tensor(T[r * 10 + q for _ in 1:2, q in 0:n-1])
        s = reduce_scatter(pg, x)
        v = T(sum(q * 10 + r for q in 0:n-1))
        check(size(s) == (2, 1) && Array(s) == fill(v, 2, 1), "reduce_scatter $T")
    end

    nxt, prv = (r + 1) % n, (r + n - 1) % n           # a ring; even ranks send first
    payload, got = tensor(Int64[r, r * r]), tensor(zeros(Int64, 2))
    if iseven(r)
        send(pg, payload, nxt; tag = 7); recv!(pg, got, prv; tag = 7)
    else
        recv!(pg, got, prv; tag = 7); send(pg, payload, nxt; tag = 7)
    end
    check(Array(got) == [prv, prv * prv], "send/recv! ring")

    evens = collect(0:2:n-1)
    g = subgroup(pg, evens)
    single = tensor(ones(Float32, 1))
    if iseven(r)
        all_reduce!(g, single)
        check(D.rank(g) == r ÷ 2 && nranks(g) == length(evens) && ismember(g), "subgroup rank and size")
        check(Array(single) == [length(evens)], "subgroup all_reduce!")
    else
        check(D.rank(g) == -1 && nranks(g) == 0 && !ismember(g), "non-member of a subgroup")
        check(iskind(errof(() -> all_reduce!(g, single)), C.ERR_INVALID_ARGUMENT), "a non-member's collective")
    end
    release!(g)
    barrier(pg)

    checks!(pg, false)                                # without the agreement checks results stay right
    t = tensor(contribution(r))
    all_reduce!(pg, t)
    check(Array(t) == total, "all_reduce! without checks")
    checks!(pg, true)                                 # back on: the mismatch below is caught
    bad = tensor(ones(Float32, r == 0 ? 3 : 4))      # every rank throws, none hangs; the group stays usable
    e = errof(() -> all_reduce!(pg, bad))
    check(iskind(e, C.ERR_DISTRIBUTED) && occursin("all_reduce", e.message) && occursin("shape", e.message), "mismatch: $e")
    check(iskind(errof(() -> bcast!(pg, bad; root = n)), C.ERR_INDEX), "root outside the group")
    barrier(pg)
end

# columns `ids` of step `step`'s global batch: x (3, n), y (1, n) in Float32 (features first, batch last)
batch(ids, step) = (tensor(Float32[sin((i * 3 + j + step * 11) * 0.13) for j in 0:2, i in ids]),
                    tensor(Float32[cos(i * 0.7 + step) for _ in 1:1, i in ids]))
mlp(seed) = (g = Generator(seed); m = Chain(Linear(3 => 4; gen = g), x -> tanh.(x), Linear(4 => 1; gen = g)); release!(g); m)
loss(m, (x, y)) = C.mse(m(x), y)

function data_parallel(pg)
    r, n = D.rank(pg), nranks(pg)
    ddp = DistributedDataParallel(pg, mlp(100 + r); bucket_bytes = 64)   # broadcasts rank 0's (seed 100) weights
    ref = mlp(100)
    check(all(Array(p) == Array(q) for (p, q) in zip(C.params(ddp), C.params(ref))), "DDP broadcast rank 0's params")
    check(bucket_count(ddp) >= 2, "64-byte buckets: $(bucket_count(ddp))")
    opt, refopt = SGD(C.params(ddp); lr = 0.1), SGD(C.params(ref); lr = 0.1)
    localids, globalids = 4r:4r+3, 0:4n-1
    for step in 0:2
        zero_grad!(opt); backward!(loss(ddp, batch(localids, step))); step!(opt)
        zero_grad!(refopt); backward!(loss(ref, batch(globalids, step))); step!(refopt)
    end
    zero_grad!(opt)                                  # accumulation: two local columns under no_sync, then two more
    no_sync(ddp) do
        backward!(loss(ddp, batch(4r:4r+1, 3)))
    end
    backward!(loss(ddp, batch(4r+2:4r+3, 3)))
    finish!(ddp)                                     # nothing left open: a no-op
    step!(opt)
    zero_grad!(refopt)
    backward!(loss(ref, batch(filter(i -> i % 4 < 2, globalids), 3)) + loss(ref, batch(filter(i -> i % 4 >= 2, globalids), 3)))
    step!(refopt)
    for (p, q) in zip(C.params(ddp), C.params(ref))
        check(maximum(abs.(Array(p) .- Array(q))) <= 1e-5, "DDP params $(Array(p)) vs single process $(Array(q))")
    end
    release!(ddp); release!(opt); release!(refopt)
    one = DistributedDataParallel(pg, C.params(ref))   # the default 25 MiB: one bucket per element type
    check(bucket_count(one) == 1, "default buckets: one")
    release!(one)
    foreach(release!, C.params(ddp)); foreach(release!, C.params(ref))
    used, unused = requires_grad!(tensor(ones(2))), requires_grad!(tensor(ones(3)))
    d = DistributedDataParallel(pg, [used, unused])   # a param the backward never reaches: finish! counts it as zero
    backward!(sum(used .* (r + 1)))
    finish!(d)
    check(Array(grad(used)) == fill((n + 1) / 2, 2), "finish! averages a round left open")
    release!(d)
    bn = C.BatchNorm(3)                              # buffers: broadcast from rank 0 by the constructor and each call
    bn.running_mean .= Float32(r + 1)
    d = DistributedDataParallel(pg, bn)
    check(Array(bn.running_mean) == Float32[1, 1, 1], "constructor broadcasts buffers")
    bn.running_mean .= Float32(r + 5)
    C.testmode!(d.model)
    d(tensor(ones(Float32, 3, 2)))
    check(Array(bn.running_mean) == Float32[5, 5, 5], "a call broadcasts buffers")
    release!(d)
    odd = requires_grad!(tensor(zeros(Float32, r == 0 ? 2 : 3)))   # other shapes on some rank: every rank throws
    e = errof(() -> DistributedDataParallel(pg, [odd]))
    check(iskind(e, C.ERR_DISTRIBUTED), "DDP over mismatched shapes: $e")
end

function main()
    GC.gc(); GC.gc()
    before = C.live_handles()
    pg = timeout!(D.world(), 30)
    RANK[] = D.rank(pg)
    n = nranks(pg)
    @ctscope (collectives(pg); nothing)
    @ctscope (data_parallel(pg); nothing)
    release!(pg)
    GC.gc(); GC.gc()
    check(C.live_handles() == before, "no handles leaked ($(C.live_handles()) vs $before)")
    print("rank $(RANK[]) of $n: $(CHECKS[]) checks passed\n")   # one write: ranks share the terminal
end
main()
