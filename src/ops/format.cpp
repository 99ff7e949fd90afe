// format.cpp - PyTorch-like text of a tensor, following torch/_tensor_str.py: a formatter chooses one
// style (integral "1.", fixed "1.5000" or scientific "1.0000e+08") and one width for all printed values,
// vectors wrap at 80 columns, tensors of more than 1000 elements print 3 edge items per dim around "...".
#include <cmath>
#include <cstdio>
#include <memory>
#include "autograd/node.h"
#include "core/scalar_math.h"
#include "ops/format.h"
#include "ops/device_ops.h"

namespace ct {
namespace {

constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int64_t kLineWidth = 80;

// Reads elements of t by storage offset (relative to t's first element) as double or int64; part 1 reads the
// imaginary part of a complex element (part 0 its real part, as convert does).
struct Reader {
    const Tensor& t;
    int part = 0;
    double as_double(int64_t off) const {
        return dispatch_storage(t.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            if constexpr (IsComplexType<T>::value) {
                if (part == 1) return (double)t.data<T>()[off].imag();
            }
            return math::convert<double>(t.data<T>()[off]);
        });
    }
    int64_t as_int(int64_t off) const {
        return dispatch_storage(t.dtype(), [&](auto tag) {
            using T = typename decltype(tag)::type;
            return math::convert<int64_t>(t.data<T>()[off]);
        });
    }
};

// Python's "{:.{p}f}" / "{:.{p}e}" for doubles (nan and inf spelled as Python spells them).
std::string py_float(double v, int precision, bool sci) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[512];
    std::snprintf(buf, sizeof buf, sci ? "%.*e" : "%.*f", precision, v);
    return buf;
}

// Offsets of the printed elements in row-major order (edge items only when summarising).
void collect(const Tensor& t, size_t d, int64_t off, bool summarize, std::vector<int64_t>& out) {
    if (d == (size_t)t.dim()) {
        out.push_back(off);
        return;
    }
    int64_t n = t.sizes()[d], st = t.strides()[d];
    for (int64_t i = 0; i < n; ++i) {
        if (summarize && n > 2 * kEdgeItems && i == kEdgeItems) i = n - kEdgeItems;
        collect(t, d + 1, off + i * st, summarize, out);
    }
}

// torch._tensor_str._Formatter: one style and one width for every printed value. A complex tensor gets two,
// one over the real parts (part 0) and one over the imaginary parts (part 1), as torch.
class Formatter {
  public:
    Formatter(const Tensor& t, const std::vector<int64_t>& offs, int part = 0)
        : r_{t, part}, floating_(is_floating(t.dtype()) || is_complex(t.dtype())) {
        if (!floating_) {
            for (int64_t o : offs) width_ = std::max(width_, text(o).size());
            return;
        }
        std::vector<double> vals;  // nonzero finite values decide the style
        for (int64_t o : offs) {
            double v = r_.as_double(o);
            if (std::isfinite(v) && v != 0) vals.push_back(v);
        }
        if (vals.empty()) return;
        double lo = INFINITY, hi = 0;
        for (double v : vals) {
            lo = std::min(lo, std::fabs(v)), hi = std::max(hi, std::fabs(v));
            if (v != std::ceil(v)) int_mode_ = false;
        }
        sci_ = hi / lo > 1000.0 || hi > 1.0e8 || (!int_mode_ && lo < 1.0e-4);
        for (double v : vals) {
            size_t w = sci_ ? py_float(v, kPrecision, true).size()
                            : (int_mode_ ? py_float(v, 0, false).size() + 1 : py_float(v, kPrecision, false).size());
            width_ = std::max(width_, w);
        }
    }
    size_t width() const { return width_; }
    // The value at offset o, right-aligned to the common width.
    std::string format(int64_t o) const {
        std::string s = text(o);
        return s.size() < width_ ? std::string(width_ - s.size(), ' ') + s : s;
    }

  private:
    std::string text(int64_t o) const {
        if (r_.t.dtype() == DType::Bool) return r_.as_int(o) ? "True" : "False";
        if (!floating_) return std::to_string(r_.as_int(o));
        double v = r_.as_double(o);
        if (sci_) return py_float(v, kPrecision, true);
        if (int_mode_) return py_float(v, 0, false) + (std::isfinite(v) ? "." : "");
        return py_float(v, kPrecision, false);
    }
    Reader r_;
    bool floating_;
    bool int_mode_ = true;
    bool sci_ = false;
    size_t width_ = 1;
};

std::string join(const std::vector<std::string>& parts, const std::string& sep) {
    std::string s;
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? sep : "") + parts[i];
    return s;
}

// torch._tensor_str._tensor_str_with_formatter for dims d.. of t starting at offset off.
// One element: a complex one is "re+imj" with each part formatted by its own formatter (torch's _val_formatter).
std::string element(const Formatter& f, const Formatter* f2, int64_t o) {
    if (!f2) return f.format(o);
    std::string im = f2->format(o) + "j";
    im.erase(0, im.find_first_not_of(' '));
    return f.format(o) + (im[0] == '+' || im[0] == '-' ? "" : "+") + im;
}

std::string body(const Tensor& t, const Formatter& f, const Formatter* f2, size_t d, int64_t off, int64_t indent,
                 bool summarize) {
    int64_t n = t.sizes()[d], st = t.strides()[d];
    size_t rest = (size_t)t.dim() - d;
    std::vector<std::string> items;
    for (int64_t i = 0; i < n; ++i) {
        if (summarize && n > 2 * kEdgeItems && i == kEdgeItems) {
            items.push_back(rest == 1 ? " ..." : "...");
            i = n - kEdgeItems;
        }
        items.push_back(rest == 1 ? element(f, f2, off + i * st)
                                  : body(t, f, f2, d + 1, off + i * st, indent + 1, summarize));
    }
    if (rest > 1) return "[" + join(items, "," + std::string(rest - 1, '\n') + std::string(indent + 1, ' ')) + "]";
    const int64_t element_width = (int64_t)(f.width() + 2 + (f2 ? f2->width() + 1 : 0));
    int64_t per_line = std::max<int64_t>(1, (kLineWidth - indent) / element_width);
    std::vector<std::string> lines;
    for (size_t i = 0; i < items.size(); i += (size_t)per_line) {
        std::vector<std::string> chunk(items.begin() + i, items.begin() + std::min(items.size(), i + (size_t)per_line));
        lines.push_back(join(chunk, ", "));
    }
    return "[" + join(lines, ",\n" + std::string(indent + 1, ' ')) + "]";
}

// torch._tensor_str._add_suffixes: ", suffix" on the last line, or a new line past 80 columns.
std::string add_suffixes(std::string s, const std::vector<std::string>& suffixes, int64_t indent) {
    size_t nl = s.rfind('\n');
    int64_t last_line = (int64_t)s.size() - (nl == std::string::npos ? -1 : (int64_t)nl) + 1;
    for (const std::string& suf : suffixes) {
        if (last_line + (int64_t)suf.size() + 2 > kLineWidth) {
            s += ",\n" + std::string(indent, ' ') + suf;
            last_line = indent + (int64_t)suf.size();
        } else {
            s += ", " + suf;
            last_line += (int64_t)suf.size() + 2;
        }
    }
    return s + ")";
}

}  // namespace

std::string tensor_repr(const Tensor& t) {
    const std::string prefix = "tensor(";
    const int64_t indent = (int64_t)prefix.size();
    std::vector<std::string> suffixes;
    if (!t.device().is_cpu()) suffixes.push_back("device='" + device_str(t.device()) + "'");
    std::string text;
    if (t.numel() == 0) {
        if (t.dim() != 1) {
            std::vector<std::string> dims;
            for (int64_t s : t.sizes()) dims.push_back(std::to_string(s));
            suffixes.push_back("size=(" + join(dims, ", ") + ")");
        }
        if (t.dtype() != DType::Float32) suffixes.push_back(std::string("dtype=") + dtype_name(t.dtype()));
        text = "[]";
    } else {
        DType d = t.dtype();
        if (d != DType::Float32 && d != DType::Int64 && d != DType::Bool && d != DType::Complex64)  // torch's defaults
            suffixes.push_back(std::string("dtype=") + dtype_name(d));
        bool summarize = t.numel() > kThreshold;
        // a CUDA tensor is read from one host copy (contiguous, so offsets are collected on it)
        const Tensor host = t.device().is_cpu() ? t : copy_to_device(t, Device{});
        std::vector<int64_t> offs;
        collect(host, 0, 0, summarize, offs);
        Formatter f(host, offs);
        std::unique_ptr<Formatter> f2;
        if (is_complex(d)) f2 = std::make_unique<Formatter>(host, offs, 1);
        text = host.dim() == 0 ? element(f, f2.get(), 0) : body(host, f, f2.get(), 0, 0, indent, summarize);
    }
    if (auto fn = grad_fn_of(t)) suffixes.push_back("grad_fn=<" + fn->name() + ">");
    else if (tensor_requires_grad(t)) suffixes.push_back("requires_grad=True");
    return add_suffixes(prefix + text, suffixes, indent);
}

}  // namespace ct
