# test_dist.jl - CTensor.Dist under real `mpirun --oversubscribe -np 2` (and -np 4 with CTENSOR_JULIA_MPI_NP4=1: each
# julia process takes seconds to start, so 4 ranks on 2 cores take ~35 s):
# dist_worker.jl runs in one julia per rank and each rank must report its checks passed. In this process: without the
# MPI backend (CTENSOR_MPI_BACKEND naming a missing file) the first call throws ERR_NOT_COMPILED, and checks that need
# no other rank. The mpirun runs are skipped, saying why, where mpirun or libctensor_mpi.so.1 is missing.

const DIST_WORKER = joinpath(@__DIR__, "dist_worker.jl")
const PROJECT = normpath(joinpath(@__DIR__, ".."))

@testset "distributed (CTensor.Dist)" begin
    @testset "in one process" begin
        @test collect(Int32.(instances(C.Dist.ReduceOp))) == Int32[0, 1, 2, 3, 4]   # CT_REDUCE_SUM ... CT_REDUCE_PRODUCT
        pg = C.Dist.ProcessGroup(C_NULL)
        release!(pg); release!(pg)                                          # idempotent
        e = try C.Dist.rank(pg) catch err; err end
        @test e isa CTensorError && e.kind == C.ERR_INVALID_HANDLE && occursin("after release!", e.message)
        @test nameof(C.Dist) == :Dist && !isdefined(C, :Distributed)
    end
    julia = `$(Base.julia_cmd()) --startup-file=no --project=$PROJECT`
    # this process makes no other distributed call, so the backend (loaded once per process) may fail to load here
    @testset "missing backend: ERR_NOT_COMPILED" begin
        e = withenv("CTENSOR_MPI_BACKEND" => "/nonexistent/libctensor_mpi.so.1") do
            try C.Dist.world() catch err; err end
        end
        @test e isa CTensorError && e.kind == C.ERR_NOT_COMPILED && occursin("/nonexistent/libctensor_mpi.so.1", e.message)
    end
    mpirun = Sys.which("mpirun")
    backend = joinpath(dirname(C.LibCT.LIB_PATH[]), "libctensor_mpi.so.1")
    if mpirun === nothing || !isfile(backend)
        @info "SKIPPED distributed tests under mpirun: " * (mpirun === nothing ? "Open MPI's mpirun is not installed" : "the MPI backend is not built ($backend missing)")
    else
        for np in (get(ENV, "CTENSOR_JULIA_MPI_NP4", "0") == "1" ? (2, 4) : (2,))
            @testset "mpirun -np $np" begin
                out = read(ignorestatus(`$mpirun --allow-run-as-root --oversubscribe -np $np $julia $DIST_WORKER`), String)
                passed = [occursin(Regex("rank $r of $np: \\d+ checks passed"), out) for r in 0:np-1]
                @test all(passed) || (println(out); false)
            end
        end
    end
end
