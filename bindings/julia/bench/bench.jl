# bench.jl - CTensor.jl against C and against Julia itself, in one run (medians of repeated runs):
# tiny-op overhead (x .+ y on 1 element) vs the same ct_add from C (target <= 2x), the Fashion-MNIST MLP
# epoch vs the C demo's (target <= 1.15x), and x .+ y on 1e7 Float32 vs Julia's Array broadcast (target >= 1x).
# Usage (via run_bench.sh): julia --project=bindings/julia bindings/julia/bench/bench.jl TINY_C_BIN C_DEMO_BIN
using CTensor
const C = CTensor
median(v) = (s = sort(v); isodd(length(s)) ? s[(end+1)÷2] : (s[end÷2] + s[end÷2+1]) / 2)

function tiny_julia(n; release = true)
    x, y = C.ones(Float32, 1), C.ones(Float32, 1)
    runs = Float64[]
    for r in 1:7
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

tiny_c_bin, c_demo_bin = ARGS[1], ARGS[2]
tiny_julia(1000); tiny_julia(1000; release = false)   # compile
tc = parse(Float64, strip(read(`$tiny_c_bin 200000`, String)))
tj = tiny_julia(200000)
tjf = tiny_julia(200000; release = false)
println("tiny x .+ y (1 element): Julia $(round(tj; digits = 0)) ns with release!, $(round(tjf; digits = 0)) ns via finalizers; ",
        "C $(round(tc; digits = 0)) ns; ratio $(round(tj / tc; digits = 2))x (target <= 2x)")

jn, cn = big_add(10^7)
println("x .+ y, 1e7 Float32: Julia Array $(round(jn; digits = 2)) ms, CTensor $(round(cn; digits = 2)) ms; ",
        "speed ratio $(round(jn / cn; digits = 2))x (target >= 1x)")

epochs = parse(Int, get(ENV, "BENCH_EPOCHS", "3"))
include(joinpath(@__DIR__, "..", "..", "..", "examples", "julia", "fashion_mnist.jl"))
_, jt = train(epochs; verbose = false)
ct = c_demo_epochs(c_demo_bin, epochs)
jm, cm = median(jt[2:end]), median(ct[2:end])   # epoch 1 of Julia includes compilation
println("MLP epoch (median of epochs 2..$epochs): Julia $(round(jm; digits = 2)) s, C $(round(cm; digits = 2)) s; ",
        "ratio $(round(jm / cm; digits = 2))x (target <= 1.15x)")
