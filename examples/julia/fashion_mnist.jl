# fashion_mnist.jl - the Fashion-MNIST MLP of examples/fashion_mnist/fashion_mnist.c in Julia with CTensor:
# 784-256-128-10, ReLU, Adam 1e-3, batch 128, same seeds and normalisation; one line per epoch; exits
# nonzero below 84% test accuracy. Usage: julia --project=bindings/julia examples/julia/fashion_mnist.jl [EPOCHS]
using CTensor
const C = CTensor

const LIBZ = "libz.so.1"

"Whole content of a gzip file (read through zlib)."
function read_gz(path::AbstractString)
    f = ccall((:gzopen, LIBZ), Ptr{Cvoid}, (Cstring, Cstring), path, "rb")
    f == C_NULL && error("cannot read $path (install the Debian package dataset-fashion-mnist)")
    out = UInt8[]; buf = Vector{UInt8}(undef, 1 << 20)
    while (n = ccall((:gzread, LIBZ), Cint, (Ptr{Cvoid}, Ptr{UInt8}, Cuint), f, buf, length(buf))) > 0
        append!(out, view(buf, 1:n))
    end
    ccall((:gzclose, LIBZ), Cint, (Ptr{Cvoid},), f)
    out
end
be32(b, i) = Int(b[i]) << 24 | Int(b[i+1]) << 16 | Int(b[i+2]) << 8 | Int(b[i+3])

"Images (784, n) Float32 normalised like the C demo, labels (n,) as 1-based classes."
function load(dir, prefix)
    img = read_gz(joinpath(dir, "$prefix-images-idx3-ubyte.gz"))
    lab = read_gz(joinpath(dir, "$prefix-labels-idx1-ubyte.gz"))
    n, rows, cols = be32(img, 5), be32(img, 9), be32(img, 13)
    x = reshape((Float32.(img[17:16+n*rows*cols]) ./ 255f0 .- 0.2860f0) ./ 0.3530f0, rows * cols, n)
    (x, Int64.(lab[9:8+n]) .+ 1)
end

r2(x) = round(x; digits = 2)
r4(x) = round(x; digits = 4)
count_correct(logits, y) = C.@ctscope Int(sum(vec(argmax(logits; dims = 1)) .== y)[])

function evaluate(model, x, y; batch = 1000)
    correct = 0
    no_grad() do
        for s in 1:batch:size(x, 2)
            idx = s:min(s + batch - 1, size(x, 2))
            correct += C.@ctscope count_correct(model(tensor(x[:, idx])), tensor(y[idx]))
        end
    end
    correct / size(x, 2)
end

"Trains for `epochs`; returns (test accuracy, seconds of each epoch's training and evaluation)."
function train(epochs; dir = get(ENV, "FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist"), verbose = true)
    (xtr, ytr), (xte, yte) = load(dir, "train"), load(dir, "t10k")
    batch = 128
    gen, shuffle_gen = C.Generator(42), C.Generator(7)
    model = Chain(Linear(784 => 256; gen = gen), relu, Linear(256 => 128; gen = gen), relu, Linear(128 => 10; gen = gen))
    opt = Adam(C.params(model); lr = 1e-3, betas = (0.9, 0.999), eps = 1e-8, weight_decay = 0)
    verbose && println("ctensor $(C.LibCT.ct_version()) from Julia: Fashion-MNIST $(size(xtr, 2)) train / $(size(xte, 2)) test images, ",
                       "MLP 784-256-128-10, Adam, batch $batch, $(C.LibCT.ct_get_num_threads()) threads")
    xbuf = Matrix{Float32}(undef, 784, batch); ybuf = Vector{Int64}(undef, batch)
    acc, times = 0.0, Float64[]
    for epoch in 1:epochs
        t0 = time()
        perm = Array(C.randperm(size(xtr, 2); gen = shuffle_gen))
        loss_sum, correct, steps = 0.0, 0, 0
        for s in 1:batch:size(xtr, 2)-batch+1
            for i in 1:batch
                r = perm[s+i-1]
                copyto!(xbuf, (i - 1) * 784 + 1, xtr, (r - 1) * 784 + 1, 784)
                ybuf[i] = ytr[r]
            end
            C.@ctscope begin   # every tensor of the step is released when it ends
                x, y = tensor(xbuf), tensor(ybuf)
                logits = model(x)
                loss = C.crossentropy(logits, y)
                zero_grad!(opt)
                backward!(loss)
                step!(opt)
                loss_sum += loss[]
                correct += no_grad(() -> count_correct(logits, y))
                steps += 1
                nothing
            end
        end
        acc = evaluate(model, xte, yte)
        push!(times, time() - t0)
        verbose && println("epoch $epoch  loss $(r4(loss_sum / steps))  train acc $(r2(100 * correct / (steps * batch)))%  ",
                           "test acc $(r2(100 * acc))%  $(r2(times[end])) s")
    end
    (acc, times)
end

if abspath(PROGRAM_FILE) == @__FILE__
    epochs = length(ARGS) >= 1 ? parse(Int, ARGS[1]) : 5
    acc, _ = train(epochs)
    if acc < 0.84
        println("test accuracy $(round(100acc; digits = 2))% is below the 84% target")
        exit(1)
    end
end
