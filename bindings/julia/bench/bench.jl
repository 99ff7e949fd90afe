# bench.jl - CTensor.jl against C and against Julia itself, in one run (medians of interleaved rounds):
# tiny-op overhead (x .+ y on 1 element) vs the same ct_add from C (target <= 2x), the Fashion-MNIST MLP
# epoch vs the C demo's (target <= 1.15x), and x .+ y on 1e7 Float32 vs Julia's Array broadcast (target >= 1x).
# Usage (via run_bench.sh): julia --project=bindings/julia bindings/julia/bench/bench.jl TINY_C_BIN C_DEMO_BIN
using CTensor
const C = CTensor
median(v) = (s = sort(v); isodd(length(s)) ? s[(end+1)÷2] : (s[end÷2] + s[end÷2+1]) / 2)

function tiny_julia(n; release = true)
    x, y = C.ones(Float32, 1), C.ones(Float32, 1)
    runs = Float64[]
    for r in 1:3
        GC.gc()
        t0 = time_ns()
        for i in 1:n
            z = x .+ y
            release && release!(z)
        end
        push!(runs, (time_ns() - t0) / n)
    end
    median(runs)
end

function big_add(n)
    a, b = rand(Float32, n), rand(Float32, n)
    x, y = tensor(a), tensor(b)
    tj, tc = Float64[], Float64[]
    for r in 1:9   # alternate, each measured after a collection
        GC.gc(); t0 = time_ns(); c = a .+ b; push!(tj, (time_ns() - t0) / 1e6)
        c = nothing
        GC.gc(); t0 = time_ns(); z = x .+ y; push!(tc, (time_ns() - t0) / 1e6); release!(z)
    end
    @assert Array(x .+ y) == a .+ b
    median(tj), median(tc)
end

function c_demo_epochs(bin, epochs)
    out = read(`$bin $epochs`, String)
    [parse(Float64, m[1]) for m in eachmatch(r"epoch \d+ .* ([0-9.]+) s", out)]
end

fmt(r) = "$(round(median(r); digits = 2))x (rounds $(join(map(x -> round(x; digits = 2), r), ", ")))"

# The machine is shared and noisy: each comparison runs in interleaved rounds (C, then Julia) and reports the
# median of the per-round ratios, so a slow spell hits both sides of a ratio instead of one.
tiny_c_bin, c_demo_bin = ARGS[1], ARGS[2]

# The MLP first, in a fresh process state (the tiny-op runs leave 100 000 tensors to the finalizers).
include(joinpath(@__DIR__, "..", "..", "..", "examples", "julia", "fashion_mnist.jl"))
train(1; verbose = false)   # compile
mlp = Float64[]
jm = cm = 0.0
for r in 1:parse(Int, get(ENV, "BENCH_ROUNDS", "3"))   # a round: 2 epochs in C, 2 in Julia; the second epochs compared
    global cm = c_demo_epochs(c_demo_bin, 2)[2]
    global jm = train(2; verbose = false)[2][2]
    push!(mlp, jm / cm)
end
println("MLP epoch (second epoch of each round): Julia $(round(jm; digits = 2)) s, C $(round(cm; digits = 2)) s; ",
        "ratio $(fmt(mlp)) (target <= 1.15x)")

GC.gc()
tiny_julia(1000); tiny_julia(1000; release = false)   # compile
tiny = Float64[]
tj = tc = 0.0
for r in 1:5
    global tc = parse(Float64, strip(read(`$tiny_c_bin 100000`, String)))
    global tj = tiny_julia(100000)
    push!(tiny, tj / tc)
end
tjf = tiny_julia(100000; release = false)
println("tiny x .+ y (1 element): Julia $(round(tj; digits = 0)) ns with release!, $(round(tjf; digits = 0)) ns via finalizers; ",
        "C $(round(tc; digits = 0)) ns; ratio $(fmt(tiny)) (target <= 2x)")

jn, cn = big_add(10^7)
println("x .+ y, 1e7 Float32: Julia Array $(round(jn; digits = 2)) ms, CTensor $(round(cn; digits = 2)) ms; ",
        "speed ratio $(round(jn / cn; digits = 2))x (target >= 1x)")
