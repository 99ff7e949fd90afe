# show.jl - printing: Julia's own array display of the values, plus a line with dtype, device and grad info.

function info(t::Tensor)
    is_released(t) && return "released"
    s = "dtype=$(dtype(t)), device=$(device(t))"
    requires_grad(t) && (s *= ", requires_grad=true")
    n = grad_fn_name(t)
    isempty(n) || (s *= ", grad_fn=$n")
    s
end

function Base.show(io::IO, ::MIME"text/plain", t::Tensor)
    if is_released(t)
        print(io, summary_line(t), " (released)")
        return
    end
    print(io, summary_line(t), " [", info(t), "]")
    length(t) == 0 && return
    println(io, ":")
    a = Array(t)
    Base.print_array(IOContext(io, :compact => true, :limit => true), ndims(a) == 0 ? a[] : a)
end
summary_line(t::Tensor{T,N}) where {T,N} = string(join(size(t), "×"), N == 1 ? "-element " : N == 0 ? "0-dim " : " ", "Tensor{$T,$N}")
Base.show(io::IO, t::Tensor) = is_released(t) ? print(io, "Tensor(released)") : print(io, "Tensor(", Array(t), ")")
Base.summary(io::IO, t::Tensor) = print(io, summary_line(t))
