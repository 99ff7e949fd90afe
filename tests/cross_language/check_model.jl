# check_model.jl - Julia's part of run.sh: loads a model file (Linear(5, 8), ReLU, Linear(8, 3) as 0.weight,
# 0.bias, 2.weight, 2.bias, with `input` and the trainer's `logits`), recomputes the logits with CTensor and
# compares them with the stored ones (max |diff| <= 1e-6). Usage: julia --project=bindings/julia check_model.jl FILE
using CTensor
const C = CTensor

tensors, metadata = load_safetensors(ARGS[1])
f = Dict(tensors)
# Julia sees each tensor with its dims reversed: input (5, batch), weights (in, out); linear keeps the meaning.
logits = C.linear(relu(C.linear(f["input"], f["0.weight"], f["0.bias"])), f["2.weight"], f["2.bias"])
worst = maximum(abs.(Array(logits) .- Array(f["logits"])))
println("julia: logits of the model trained in $(get(metadata, "trained_by", "?")): max |diff| = $worst over $(length(logits)) values")
exit(worst <= 1e-6 ? 0 : 1)
