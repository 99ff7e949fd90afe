# errors.jl - the one mapping of ct_status to a Julia exception: CTensorError with a kind and the message
# of ct_last_error, thrown by the @check macro around every fallible ccall.

"Status kinds of ctensor (the values of ct_status)."
@enum ErrorKind::Int32 begin
    ERR_INVALID_ARGUMENT = 1
    ERR_INVALID_HANDLE = 2
    ERR_SHAPE = 3
    ERR_DTYPE = 4
    ERR_DEVICE = 5
    ERR_INDEX = 6
    ERR_OUT_OF_MEMORY = 7
    ERR_NOT_COMPILED = 8
    ERR_NOT_SUPPORTED = 9
    ERR_AUTOGRAD = 10
    ERR_INTERNAL = 11
    ERR_CALLBACK = 12
    ERR_VERSION = 13
    ERR_IO = 14
    ERR_DISTRIBUTED = 15
    ERR_UNKNOWN = 99
end

"A failed ctensor call: `kind` (an ErrorKind), `status` (the raw code) and the library's message."
struct CTensorError <: Exception
    kind::ErrorKind
    status::Int32
    message::String
end

Base.showerror(io::IO, e::CTensorError) = print(io, "CTensorError(", e.kind, "): ", e.message)

"Builds the CTensorError for a non-OK status from this thread's last error message."
function status_error(st::Integer)
    kind = st in Int32.(instances(ErrorKind)) ? ErrorKind(st) : ERR_UNKNOWN
    CTensorError(kind, Int32(st), unsafe_string(LibCT.ct_last_error()))
end

@noinline throw_status(st::Integer) = throw(status_error(st))

"`@check LibCT.ct_xxx(...)`: runs the call and throws a CTensorError unless it returned CT_OK."
macro check(ex)
    quote
        local st = $(esc(ex))
        st == 0 || throw_status(st)
        nothing
    end
end
