# runtests.jl - CTensor.jl's tests: the ccall layer against the header, ops.tsv coverage, values against
# Julia arrays and LinearAlgebra, finite-difference gradients, broadcasting and views, error kinds,
# leaks (live-handle counter, also at exit), a finalizer stress, finalizers on a worker thread, custom
# functions, nn and optimizers.
using CTensor, Test, LinearAlgebra, Libdl
const C = CTensor
const REPO = normpath(joinpath(@__DIR__, "..", "..", ".."))

function gcfull()
    GC.gc(); GC.gc()
    C.unpin!(); C.custom_live()
    C.live_handles()
end

const START_HANDLES = gcfull()

@testset "CTensor" begin
include("test_header.jl")
include("test_arrays.jl")
include("test_autograd.jl")
include("test_errors.jl")
include("test_memory.jl")
include("test_nn.jl")
include("test_conv_nd.jl")
include("test_activations.jl")
include("test_losses.jl")
include("test_rnn.jl")
include("test_linalg.jl")
include("test_attention.jl")
include("test_toolbox.jl")
include("test_toolbox_stats.jl")
include("test_complex.jl")
include("test_complex_scalars.jl")
include("test_linalg_complex.jl")
include("test_embedding_bag.jl")
include("test_resample.jl")
include("test_norms.jl")
include("test_safetensors.jl")
include("test_dtypes_half.jl")
include("test_threads.jl")
include("test_dist.jl")
include("test_amp.jl")
include("test_unary_math.jl")
include("test_binary_math.jl")
include("test_promotion.jl")
include("test_more_ops.jl")
@testset "no handles left at exit" begin
    @test gcfull() == START_HANDLES
end
end
