// c_ops.h - the C runner's case machinery, shared by the conformance runner (run_c.cpp) and the half sweep
// (tests/half/test_half_sweep.cpp): tensors from a case's JSON, the comparison with per-dtype tolerances, and the
// table op name -> call through the C ABI (one row per op of abi/ops.tsv that the suite covers).
#pragma once
#include <ctensor.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace conformance {

using Json = nlohmann::json;

// Owns one handle.
struct T {
    ct_tensor h = nullptr;
    T() = default;
    T(const T&) = delete;
    T(T&& o) noexcept : h(o.h) { o.h = nullptr; }
    ~T() { ct_tensor_release(h); }
};

// A failed check: the case's problem in words.
struct Problem {
    std::string what;
};

void ok(ct_status st, const std::string& call) {
    if (st != CT_OK) throw Problem{call + " failed: " + ct_status_name(st) + ": " + ct_last_error()};
}

const std::map<std::string, ct_dtype> kDTypes = {{"float32", CT_FLOAT32}, {"float64", CT_FLOAT64}, {"int32", CT_INT32},
                                                 {"int64", CT_INT64},     {"uint8", CT_UINT8},     {"bool", CT_BOOL},
                                                 {"float16", CT_FLOAT16}, {"bfloat16", CT_BFLOAT16},
                                                 {"complex64", CT_COMPLEX64}, {"complex128", CT_COMPLEX128}};

bool is_half(ct_dtype dt) { return dt == CT_FLOAT16 || dt == CT_BFLOAT16; }
bool is_complex(ct_dtype dt) { return dt == CT_COMPLEX64 || dt == CT_COMPLEX128; }
// The real dtype of a complex dtype's parts, and the JSON of a complex tensor as its view_as_real: the same
// interleaved (re, im) values with a trailing dim of 2.
const char* parts_dtype(ct_dtype dt) { return dt == CT_COMPLEX64 ? "float32" : "float64"; }
Json as_parts(const Json& j, ct_dtype dt) {
    Json r = j;
    r["dtype"] = parts_dtype(dt);
    r["shape"].push_back(2);
    r.erase("requires_grad");
    return r;
}

double decode(const Json& v) {
    if (v.is_string()) return std::stod(v.get<std::string>());  // "nan", "inf", "-inf"
    return v.get<double>();
}

// A tensor from a case's JSON (values converted to its dtype), or a wrapped scalar for {"scalar": v}.
T make(const Json& j) {
    T t;
    if (j.contains("scalar")) {
        const Json& v = j["scalar"];
        ok(ct_wrapped_scalar(decode(v), v.is_number_integer() ? 1 : 0, &t.h), "wrapped_scalar");
        return t;
    }
    if (j.contains("bool_scalar")) {  // a language's bool
        ok(ct_wrapped_scalar_bool(j["bool_scalar"].get<int32_t>(), &t.h), "wrapped_scalar_bool");
        return t;
    }
    if (j.contains("complex_scalar")) {  // a language's complex number
        ok(ct_wrapped_scalar_complex(decode(j["complex_scalar"][0]), decode(j["complex_scalar"][1]), &t.h),
           "wrapped_scalar_complex");
        return t;
    }
    ct_dtype dt = kDTypes.at(j["dtype"].get<std::string>());
    if (is_complex(dt)) {  // (re, im) pairs interleaved: the complex view of a [..., 2] float tensor, copied
        T parts = make(as_parts(j, dt)), view;
        ok(ct_view_as_complex(parts.h, &view.h), "view_as_complex");
        ok(ct_clone(view.h, &t.h), "clone");
        if (j.value("requires_grad", false)) ok(ct_tensor_set_requires_grad(t.h, 1), "set_requires_grad");
        return t;
    }
    std::vector<int64_t> shape = j["shape"].get<std::vector<int64_t>>();
    const Json& values = j["values"];
    if (is_half(dt)) {  // the values are exact half values: float64 -> half rounds none of them
        T f64 = make(Json{{"dtype", "float64"}, {"shape", j["shape"]}, {"values", values}});
        ok(ct_to_dtype(f64.h, dt, &t.h), "to_dtype");
        if (j.value("requires_grad", false)) ok(ct_tensor_set_requires_grad(t.h, 1), "set_requires_grad");
        return t;
    }
    std::vector<unsigned char> bytes(values.size() * (size_t)ct_dtype_size(dt));
    for (size_t i = 0; i < values.size(); ++i) {
        unsigned char* p = bytes.data() + i * (size_t)ct_dtype_size(dt);
        switch (dt) {
        case CT_FLOAT32: *reinterpret_cast<float*>(p) = (float)decode(values[i]); break;
        case CT_FLOAT64: *reinterpret_cast<double*>(p) = decode(values[i]); break;
        case CT_INT32: *reinterpret_cast<int32_t*>(p) = values[i].get<int32_t>(); break;
        case CT_INT64: *reinterpret_cast<int64_t*>(p) = values[i].get<int64_t>(); break;
        default: *p = (unsigned char)values[i].get<int64_t>(); break;  // uint8, bool (0 or 1)
        }
    }
    ok(ct_tensor_from_data(bytes.data(), (int64_t)bytes.size(), shape.data(), (int32_t)shape.size(), dt, ct_cpu(), &t.h),
       "tensor_from_data");
    if (j.value("requires_grad", false)) ok(ct_tensor_set_requires_grad(t.h, 1), "set_requires_grad");
    return t;
}

// The values of tensor t (any dtype) as doubles, in row-major order.
std::vector<double> host_values(ct_tensor t) {
    T f64;
    ok(ct_to_dtype(t, CT_FLOAT64, &f64.h), "to_dtype");
    int64_t n = 0;
    ok(ct_tensor_numel(f64.h, &n), "tensor_numel");
    std::vector<double> v((size_t)n);
    ok(ct_tensor_copy_to_host(f64.h, v.data(), n * (int64_t)sizeof(double)), "copy_to_host");
    return v;
}

// Checks that values have every property of props (README, "Properties"); throws a Problem naming `what`.
void check_properties(const std::string& what, const std::vector<double>& v, const Json& props, double atol,
                      double rtol) {
    auto fail = [&](const std::string& s) { throw Problem{what + ": " + s}; };
    for (size_t i = 0; i < v.size(); ++i) {
        const std::string at = "element " + std::to_string(i) + " is " + std::to_string(v[i]);
        if (props.contains("range") && !(v[i] >= decode(props["range"][0]) && v[i] < decode(props["range"][1])))
            fail(at + ", outside [" + props["range"][0].dump() + ", " + props["range"][1].dump() + ")");
        if (props.value("integral", false) && v[i] != std::floor(v[i])) fail(at + ", not an integer");
        if (props.contains("zero_or")) {
            double w = decode(props["zero_or"][i]);
            if (v[i] != 0 && std::fabs(v[i] - w) > atol + rtol * std::fabs(w)) fail(at + ", expected 0 or " + std::to_string(w));
        }
        if (props.contains("abs")) {  // equal up to sign: singular vectors and eigenvectors (one sign per vector)
            double w = std::fabs(decode(props["abs"][i]));
            if (std::fabs(std::fabs(v[i]) - w) > atol + rtol * w) fail(at + ", expected +-" + std::to_string(w));
        }
    }
    if (props.value("permutation", false)) {
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        for (size_t i = 0; i < sorted.size(); ++i)
            if (sorted[i] != (double)i) fail("not a permutation of 0.." + std::to_string((long long)v.size() - 1));
    }
    double mean = 0, ss = 0;
    for (double x : v) mean += x / (double)v.size();
    for (double x : v) ss += (x - mean) * (x - mean);
    if (props.contains("mean") && !(std::fabs(mean - decode(props["mean"][0])) <= decode(props["mean"][1])))
        fail("mean " + std::to_string(mean) + ", expected " + props["mean"].dump() + " (value, bound)");
    double sd = std::sqrt(ss / (double)(v.size() - 1));
    if (props.contains("std") && !(std::fabs(sd - decode(props["std"][0])) <= decode(props["std"][1])))
        fail("standard deviation " + std::to_string(sd) + ", expected " + props["std"].dump() + " (value, bound)");
}

// Checks tensor t against the expected JSON (values, or properties of values); throws a Problem naming `what`.
void compare(const std::string& what, ct_tensor t, const Json& want) {
    ct_dtype dt;
    ok(ct_tensor_dtype(t, &dt), "tensor_dtype");
    if (ct_dtype_name(dt) != want["dtype"].get<std::string>())
        throw Problem{what + ": dtype " + ct_dtype_name(dt) + ", expected " + want["dtype"].get<std::string>()};
    int64_t dims[16];
    int32_t nd = 0;
    ok(ct_tensor_shape(t, dims, 16, &nd), "tensor_shape");
    if (std::vector<int64_t>(dims, dims + nd) != want["shape"].get<std::vector<int64_t>>())
        throw Problem{what + ": shape " + Json(std::vector<int64_t>(dims, dims + nd)).dump() + ", expected " +
                      want["shape"].dump()};
    const bool floating = dt == CT_FLOAT32 || dt == CT_FLOAT64 || is_half(dt);
    // tolerances (README): float64 1e-10 rel, float32 1e-5, float16 1e-3, bfloat16 1e-2 (about 2 units in the
    // last place of each half format: torch and ctensor may round an intermediate differently)
    const double atol = dt == CT_FLOAT32 ? 1e-5 : dt == CT_FLOAT16 ? 1e-3 : dt == CT_BFLOAT16 ? 1e-2 : 1e-12;
    const double rtol = dt == CT_FLOAT32 ? 1e-5 : dt == CT_FLOAT16 ? 1e-3 : dt == CT_BFLOAT16 ? 1e-2 : 1e-10;
    if (is_complex(dt)) {  // each part with its real dtype's tolerance
        T parts;
        ok(ct_view_as_real(t, &parts.h), "view_as_real");
        compare(what, parts.h, as_parts(want, dt));
        return;
    }
    if (want.contains("properties")) {
        check_properties(what, host_values(t), want["properties"], floating ? atol : 0, floating ? rtol : 0);
        return;
    }
    const Json& values = want["values"];
    int64_t n = (int64_t)values.size();
    std::vector<unsigned char> bytes((size_t)n * (size_t)ct_dtype_size(dt));
    ok(ct_tensor_copy_to_host(t, bytes.data(), (int64_t)bytes.size()), "copy_to_host");
    const std::vector<double> halves = is_half(dt) ? host_values(t) : std::vector<double>{};
    for (int64_t i = 0; i < n; ++i) {
        const unsigned char* p = bytes.data() + i * ct_dtype_size(dt);
        if (floating) {
            double g = is_half(dt) ? halves[(size_t)i]
                       : dt == CT_FLOAT32 ? *reinterpret_cast<const float*>(p) : *reinterpret_cast<const double*>(p);
            double w = decode(values[i]);
            if ((std::isnan(g) && std::isnan(w)) || g == w || std::fabs(g - w) <= atol + rtol * std::fabs(w)) continue;
            throw Problem{what + ": element " + std::to_string(i) + " is " + std::to_string(g) + ", expected " +
                          std::to_string(w)};
        }
        int64_t g = dt == CT_INT64 ? *reinterpret_cast<const int64_t*>(p)
                    : dt == CT_INT32 ? *reinterpret_cast<const int32_t*>(p) : (int64_t)*p;
        if (g != values[i].get<int64_t>())
            throw Problem{what + ": element " + std::to_string(i) + " is " + std::to_string(g) + ", expected " +
                          values[i].dump()};
    }
}

using Inputs = std::vector<T>;
using Outs = std::vector<T>;
using Op = std::function<ct_status(const Inputs&, const Json&, Outs&)>;

// A new out-parameter slot (o has reserved room: earlier slots stay valid).
ct_tensor* out_slot(Outs& o) {
    o.emplace_back();
    return &o.back().h;
}

// The dtype named by args["dtype"], and the reduction named by args["reduction"].
ct_dtype dtype_arg(const Json& a) { return kDTypes.at(a["dtype"].get<std::string>()); }
int32_t reduction_arg(const Json& a) {
    static const std::map<std::string, int32_t> reductions = {
        {"none", CT_REDUCTION_NONE}, {"mean", CT_REDUCTION_MEAN}, {"sum", CT_REDUCTION_SUM},
        {"batchmean", CT_REDUCTION_BATCHMEAN}};
    return reductions.at(a["reduction"].get<std::string>());
}
// scatter_reduce's reduction named by args["reduce"].
int32_t scatter_reduce_arg(const Json& a) {
    static const std::map<std::string, int32_t> reduces = {{"sum", CT_SCATTER_SUM}, {"prod", CT_SCATTER_PROD},
        {"mean", CT_SCATTER_MEAN}, {"amax", CT_SCATTER_AMAX}, {"amin", CT_SCATTER_AMIN}};
    return reduces.at(a["reduce"].get<std::string>());
}

// dims of a reduction case: null = every dim (ndims 0).
std::vector<int64_t> dims_of(const Json& a) {
    return a.contains("dims") && !a["dims"].is_null() ? a["dims"].get<std::vector<int64_t>>() : std::vector<int64_t>{};
}

const Op& view_op(const std::string& name);

std::map<std::string, Op> op_table() {
    std::map<std::string, Op> t;
    using Unary = ct_status (*)(ct_tensor, ct_tensor*);
    const std::vector<std::pair<const char*, Unary>> unary = {
        {"neg", ct_neg},       {"abs", ct_abs},         {"sign", ct_sign},       {"exp", ct_exp},
        {"log", ct_log},       {"log1p", ct_log1p},     {"expm1", ct_expm1},     {"sqrt", ct_sqrt},
        {"rsqrt", ct_rsqrt},   {"sin", ct_sin},         {"cos", ct_cos},         {"tan", ct_tan},
        {"tanh", ct_tanh},     {"sigmoid", ct_sigmoid}, {"relu", ct_relu},       {"gelu", ct_gelu},
        {"silu", ct_silu},     {"softplus", ct_softplus}, {"floor", ct_floor},   {"ceil", ct_ceil},
        {"round", ct_round},   {"reciprocal", ct_reciprocal}, {"logical_not", ct_logical_not},
        {"max", ct_max},       {"min", ct_min},         {"argmax_all", ct_argmax_all}, {"argmin_all", ct_argmin_all},
        {"bitwise_not", ct_bitwise_not}};
    for (auto& [name, fn] : unary)
        t[name] = [fn = fn](const Inputs& x, const Json&, Outs& o) { return fn(x[0].h, out_slot(o)); };
    // complex parts and views (issue 15)
    for (auto& [name, fn] : std::vector<std::pair<const char*, Unary>>{
             {"angle", ct_angle}, {"conj", ct_conj}, {"real", ct_real}, {"imag", ct_imag},
             {"view_as_real", ct_view_as_real}, {"view_as_complex", ct_view_as_complex}})
        t[name] = [fn = fn](const Inputs& x, const Json&, Outs& o) { return fn(x[0].h, out_slot(o)); };
    using Binary = ct_status (*)(ct_tensor, ct_tensor, ct_tensor*);
    const std::vector<std::pair<const char*, Binary>> binary = {
        {"mul", ct_mul}, {"div", ct_div}, {"pow", ct_pow}, {"maximum", ct_maximum}, {"minimum", ct_minimum},
        {"atan2", ct_atan2}, {"remainder", ct_remainder}, {"floor_divide", ct_floor_divide}, {"eq", ct_eq}, {"ne", ct_ne}, {"lt", ct_lt},
        {"le", ct_le}, {"gt", ct_gt}, {"ge", ct_ge}, {"logical_and", ct_logical_and}, {"logical_or", ct_logical_or},
        {"logical_xor", ct_logical_xor},
        // binary math (issue 14)
        {"logaddexp", ct_logaddexp}, {"logaddexp2", ct_logaddexp2}, {"hypot", ct_hypot}, {"xlogy", ct_xlogy},
        {"copysign", ct_copysign}, {"fmax", ct_fmax}, {"fmin", ct_fmin}, {"heaviside", ct_heaviside},
        {"nextafter", ct_nextafter}, {"bitwise_and", ct_bitwise_and}, {"bitwise_or", ct_bitwise_or},
        {"bitwise_xor", ct_bitwise_xor}, {"bitwise_left_shift", ct_bitwise_left_shift},
        {"bitwise_right_shift", ct_bitwise_right_shift}, {"gcd", ct_gcd}, {"lcm", ct_lcm},
        {"complex", ct_complex}, {"polar", ct_polar}};
    for (auto& [name, fn] : binary)
        t[name] = [fn = fn](const Inputs& x, const Json&, Outs& o) { return fn(x[0].h, x[1].h, out_slot(o)); };
    t["add"] = [](const Inputs& x, const Json& a, Outs& o) { return ct_add(x[0].h, x[1].h, a.value("alpha", 1.0), out_slot(o)); };
    t["addcmul"] = [](const Inputs& x, const Json& a, Outs& o) {  // issue 14
        return ct_addcmul(x[0].h, x[1].h, x[2].h, a.value("value", 1.0), out_slot(o));
    };
    t["addcdiv"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_addcdiv(x[0].h, x[1].h, x[2].h, a.value("value", 1.0), out_slot(o));
    };
    t["sub"] = [](const Inputs& x, const Json& a, Outs& o) { return ct_sub(x[0].h, x[1].h, a.value("alpha", 1.0), out_slot(o)); };
    t["where"] = [](const Inputs& x, const Json&, Outs& o) { return ct_where(x[0].h, x[1].h, x[2].h, out_slot(o)); };
    // unary math (issue 14)
    const std::vector<std::pair<const char*, Unary>> unary_math = {
        {"asin", ct_asin},
        {"acos", ct_acos},
        {"atan", ct_atan},
        {"sinh", ct_sinh},
        {"cosh", ct_cosh},
        {"asinh", ct_asinh},
        {"acosh", ct_acosh},
        {"atanh", ct_atanh},
        {"erf", ct_erf},
        {"erfc", ct_erfc},
        {"erfinv", ct_erfinv},
        {"lgamma", ct_lgamma},
        {"digamma", ct_digamma},
        {"sinc", ct_sinc},
        {"sgn", ct_sgn},
        {"deg2rad", ct_deg2rad},
        {"rad2deg", ct_rad2deg},
        {"signbit", ct_signbit},
        {"isposinf", ct_isposinf},
        {"isneginf", ct_isneginf},
        {"positive", ct_positive},
        {"i0", ct_i0},
    };
    for (auto& [name, fn] : unary_math)
        t[name] = [fn = fn](const Inputs& x, const Json&, Outs& o) { return fn(x[0].h, out_slot(o)); };
    t["logit"] = [](const Inputs& x, const Json& a, Outs& o) { return ct_logit(x[0].h, a.value("eps", -1.0), out_slot(o)); };
    t["pow_scalar"] = [](const Inputs& x, const Json& a, Outs& o) { return ct_pow_scalar(x[0].h, a["exponent"].get<double>(), out_slot(o)); };
    t["clamp"] = [](const Inputs& x, const Json& a, Outs& o) {
        bool lo = !a["min"].is_null(), hi = !a["max"].is_null();
        return ct_clamp(x[0].h, lo ? a["min"].get<double>() : 0.0, lo, hi ? a["max"].get<double>() : 0.0, hi, out_slot(o));
    };
    using Reduce = ct_status (*)(ct_tensor, const int64_t*, int32_t, int32_t, ct_tensor*);
    const std::vector<std::pair<const char*, Reduce>> reduce = {{"sum", ct_sum},   {"mean", ct_mean}, {"prod", ct_prod},
                                                                {"logsumexp", ct_logsumexp}, {"all", ct_all}, {"any", ct_any}};
    for (auto& [name, fn] : reduce)
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) {
            std::vector<int64_t> d = dims_of(a);
            return fn(x[0].h, d.data(), (int32_t)d.size(), a.value("keepdim", false), out_slot(o));
        };
    t["var"] = [](const Inputs& x, const Json& a, Outs& o) {
        std::vector<int64_t> d = dims_of(a);
        return ct_var(x[0].h, d.data(), (int32_t)d.size(), a["correction"].get<double>(), a["keepdim"].get<bool>(), out_slot(o));
    };
    t["std"] = [](const Inputs& x, const Json& a, Outs& o) {
        std::vector<int64_t> d = dims_of(a);
        return ct_std(x[0].h, d.data(), (int32_t)d.size(), a["correction"].get<double>(), a["keepdim"].get<bool>(), out_slot(o));
    };
    t["norm"] = [](const Inputs& x, const Json& a, Outs& o) {
        std::vector<int64_t> d = dims_of(a);
        return ct_norm(x[0].h, a["p"].get<double>(), d.data(), (int32_t)d.size(), a["keepdim"].get<bool>(), out_slot(o));
    };
    using DimPair = ct_status (*)(ct_tensor, int64_t, int32_t, ct_tensor*, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, DimPair>>{{"max_dim", ct_max_dim}, {"min_dim", ct_min_dim}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) {
            ct_tensor* v = out_slot(o);
            ct_tensor* i = out_slot(o);
            return fn(x[0].h, a["dim"].get<int64_t>(), a["keepdim"].get<bool>(), v, i);
        };
    using DimKeep = ct_status (*)(ct_tensor, int64_t, int32_t, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, DimKeep>>{{"argmax", ct_argmax}, {"argmin", ct_argmin}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) {
            return fn(x[0].h, a["dim"].get<int64_t>(), a["keepdim"].get<bool>(), out_slot(o));
        };
    using Dim = ct_status (*)(ct_tensor, int64_t, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, Dim>>{{"cumsum", ct_cumsum}, {"cumprod", ct_cumprod}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) { return fn(x[0].h, a["dim"].get<int64_t>(), out_slot(o)); };
    // views
    using Shape = ct_status (*)(ct_tensor, const int64_t*, int32_t, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, Shape>>{{"reshape", ct_reshape}, {"view", ct_view},
                                                                        {"expand", ct_expand}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) {
            std::vector<int64_t> s = a["shape"].get<std::vector<int64_t>>();
            return fn(x[0].h, s.data(), (int32_t)s.size(), out_slot(o));
        };
    t["permute"] = [](const Inputs& x, const Json& a, Outs& o) {
        std::vector<int64_t> p = a["dims"].get<std::vector<int64_t>>();
        return ct_permute(x[0].h, p.data(), (int32_t)p.size(), out_slot(o));
    };
    t["transpose"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_transpose(x[0].h, a["dim0"].get<int64_t>(), a["dim1"].get<int64_t>(), out_slot(o));
    };
    for (auto& [name, fn] : std::vector<std::pair<const char*, Dim>>{{"squeeze", ct_squeeze}, {"unsqueeze", ct_unsqueeze},
                                                                      {"softmax", ct_softmax}, {"log_softmax", ct_log_softmax}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) { return fn(x[0].h, a["dim"].get<int64_t>(), out_slot(o)); };
    t["flatten"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_flatten(x[0].h, a["start_dim"].get<int64_t>(), a["end_dim"].get<int64_t>(), out_slot(o));
    };
    t["narrow"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_narrow(x[0].h, a["dim"].get<int64_t>(), a["start"].get<int64_t>(), a["length"].get<int64_t>(), out_slot(o));
    };
    t["slice"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_slice(x[0].h, a["dim"].get<int64_t>(), a["start"].get<int64_t>(), a["end"].get<int64_t>(),
                        a["step"].get<int64_t>(), out_slot(o));
    };
    t["select"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_select(x[0].h, a["dim"].get<int64_t>(), a["index"].get<int64_t>(), out_slot(o));
    };
    t["diagonal"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_diagonal(x[0].h, a["offset"].get<int64_t>(), a["dim1"].get<int64_t>(), a["dim2"].get<int64_t>(), out_slot(o));
    };
    t["t"] = [](const Inputs& x, const Json&, Outs& o) { return ct_t(x[0].h, out_slot(o)); };
    // linear algebra, nn, indexing
    for (auto& [name, fn] : std::vector<std::pair<const char*, Binary>>{{"matmul", ct_matmul}, {"dot", ct_dot}, {"outer", ct_outer}})
        t[name] = [fn = fn](const Inputs& x, const Json&, Outs& o) { return fn(x[0].h, x[1].h, out_slot(o)); };
    t["linear"] = [](const Inputs& x, const Json&, Outs& o) {
        return ct_linear(x[0].h, x[1].h, x.size() > 2 ? x[2].h : nullptr, out_slot(o));
    };
    using Index = ct_status (*)(ct_tensor, int64_t, ct_tensor, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, Index>>{{"index_select", ct_index_select}, {"gather", ct_gather}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) { return fn(x[0].h, a["dim"].get<int64_t>(), x[1].h, out_slot(o)); };
    using List = ct_status (*)(const ct_tensor*, int32_t, int64_t, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, List>>{{"cat", ct_cat}, {"stack", ct_stack}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) {
            std::vector<ct_tensor> hs;
            for (const T& v : x) hs.push_back(v.h);
            return fn(hs.data(), (int32_t)hs.size(), a["dim"].get<int64_t>(), out_slot(o));
        };
    // ordering, masking, scatter, sorting, copies, conversions, mse_loss
    t["flip"] = [](const Inputs& x, const Json& a, Outs& o) {
        std::vector<int64_t> d = a["dims"].get<std::vector<int64_t>>();
        return ct_flip(x[0].h, d.data(), (int32_t)d.size(), out_slot(o));
    };
    t["roll"] = [](const Inputs& x, const Json& a, Outs& o) {
        std::vector<int64_t> s = a["shifts"].get<std::vector<int64_t>>(), d = a["dims"].get<std::vector<int64_t>>();
        return ct_roll(x[0].h, s.data(), (int32_t)s.size(), d.data(), (int32_t)d.size(), out_slot(o));
    };
    for (auto& [name, fn] : std::vector<std::pair<const char*, Dim>>{{"tril", ct_tril}, {"triu", ct_triu}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) { return fn(x[0].h, a["diagonal"].get<int64_t>(), out_slot(o)); };
    for (auto& [name, fn] : std::vector<std::pair<const char*, Unary>>{
             {"clone", ct_clone}, {"contiguous", ct_contiguous}, {"detach", ct_detach}, {"squeeze_all", ct_squeeze_all},
             {"nonzero", ct_nonzero}})
        t[name] = [fn = fn](const Inputs& x, const Json&, Outs& o) { return fn(x[0].h, out_slot(o)); };
    t["masked_fill"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_masked_fill(x[0].h, x[1].h, a["value"].get<double>(), out_slot(o));
    };
    t["masked_select"] = [](const Inputs& x, const Json&, Outs& o) { return ct_masked_select(x[0].h, x[1].h, out_slot(o)); };
    t["to_dtype"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_to_dtype(x[0].h, dtype_arg(a), out_slot(o));
    };
    t["sort"] = [](const Inputs& x, const Json& a, Outs& o) {
        ct_tensor* v = out_slot(o);
        ct_tensor* i = out_slot(o);
        return ct_sort(x[0].h, a["dim"].get<int64_t>(), a["descending"].get<bool>(), 1, v, i);
    };
    t["argsort"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_argsort(x[0].h, a["dim"].get<int64_t>(), a["descending"].get<bool>(), 1, out_slot(o));
    };
    t["topk"] = [](const Inputs& x, const Json& a, Outs& o) {
        ct_tensor* v = out_slot(o);
        ct_tensor* i = out_slot(o);
        return ct_topk(x[0].h, a["k"].get<int64_t>(), a["dim"].get<int64_t>(), a["largest"].get<bool>(), 1, v, i);
    };
    t["kthvalue"] = [](const Inputs& x, const Json& a, Outs& o) {
        ct_tensor* v = out_slot(o);
        ct_tensor* i = out_slot(o);
        return ct_kthvalue(x[0].h, a["k"].get<int64_t>(), a["dim"].get<int64_t>(), a["keepdim"].get<bool>(), v, i);
    };
    t["mse_loss"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_mse_loss(x[0].h, x[1].h, reduction_arg(a), out_slot(o));
    };
    using Scatter = ct_status (*)(ct_tensor, int64_t, ct_tensor, ct_tensor, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, Scatter>>{{"scatter", ct_scatter}, {"scatter_add", ct_scatter_add}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) {
            return fn(x[0].h, a["dim"].get<int64_t>(), x[1].h, x[2].h, out_slot(o));
        };
    t["scatter_reduce"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_scatter_reduce(x[0].h, a["dim"].get<int64_t>(), x[1].h, x[2].h, scatter_reduce_arg(a),
                                 a["include_self"].get<bool>(), out_slot(o));
    };
    // convolution, pooling, losses, embedding, einsum, split/chunk, unique
    auto pair2 = [](const Json& a, const char* key) { return a[key].get<std::vector<int64_t>>(); };
    t["conv2d"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto s = pair2(a, "stride"), p = pair2(a, "padding"), d = pair2(a, "dilation");
        return ct_conv2d(x[0].h, x[1].h, x.size() > 2 ? x[2].h : nullptr, s.data(), p.data(), d.data(),
                         a["groups"].get<int64_t>(), out_slot(o));
    };
    using Pool = ct_status (*)(ct_tensor, const int64_t*, const int64_t*, const int64_t*, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, Pool>>{{"max_pool2d", ct_max_pool2d}, {"avg_pool2d", ct_avg_pool2d}})
        t[name] = [fn = fn, pair2](const Inputs& x, const Json& a, Outs& o) {
            auto k = pair2(a, "kernel"), s = pair2(a, "stride"), p = pair2(a, "padding");
            return fn(x[0].h, k.data(), s.data(), p.data(), out_slot(o));
        };
    t["max_pool2d_ex"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto k = pair2(a, "kernel"), s = pair2(a, "stride"), p = pair2(a, "padding"), d = pair2(a, "dilation");
        ct_tensor* v = out_slot(o);
        ct_tensor* i = out_slot(o);
        return ct_max_pool2d_ex(x[0].h, k.data(), s.data(), p.data(), d.data(), a["ceil_mode"].get<bool>(), v, i);
    };
    t["avg_pool2d_ex"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto k = pair2(a, "kernel"), s = pair2(a, "stride"), p = pair2(a, "padding");
        return ct_avg_pool2d_ex(x[0].h, k.data(), s.data(), p.data(), a["ceil_mode"].get<bool>(),
                                a["count_include_pad"].get<bool>(), a["divisor_override"].get<int64_t>(), out_slot(o));
    };
    t["adaptive_avg_pool2d"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto s = pair2(a, "output_size");
        return ct_adaptive_avg_pool2d(x[0].h, s.data(), out_slot(o));
    };
    t["adaptive_max_pool2d"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto s = pair2(a, "output_size");
        ct_tensor* v = out_slot(o);
        ct_tensor* i = out_slot(o);
        return ct_adaptive_max_pool2d(x[0].h, s.data(), v, i);
    };
    // issue 14: N-d convolution and pooling, unfold / fold, pixel_shuffle
    t["convolution"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto s = pair2(a, "stride"), p = pair2(a, "padding"), d = pair2(a, "dilation"), op = pair2(a, "output_padding");
        return ct_convolution(x[0].h, x[1].h, x.size() > 2 ? x[2].h : nullptr, s.data(), p.data(), d.data(),
                              a["ndim_spatial"].get<int32_t>(), a["transposed"].get<bool>(), op.data(),
                              a["groups"].get<int64_t>(), out_slot(o));
    };
    t["max_pool_nd"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto k = pair2(a, "kernel"), s = pair2(a, "stride"), p = pair2(a, "padding"), d = pair2(a, "dilation");
        ct_tensor* v = out_slot(o);
        ct_tensor* i = out_slot(o);
        return ct_max_pool_nd(x[0].h, a["ndim_spatial"].get<int32_t>(), k.data(), s.data(), p.data(), d.data(),
                              a["ceil_mode"].get<bool>(), v, i);
    };
    t["avg_pool_nd"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto k = pair2(a, "kernel"), s = pair2(a, "stride"), p = pair2(a, "padding");
        return ct_avg_pool_nd(x[0].h, a["ndim_spatial"].get<int32_t>(), k.data(), s.data(), p.data(),
                              a["ceil_mode"].get<bool>(), a["count_include_pad"].get<bool>(),
                              a["divisor_override"].get<int64_t>(), out_slot(o));
    };
    t["adaptive_avg_pool_nd"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto s = pair2(a, "output_size");
        return ct_adaptive_avg_pool_nd(x[0].h, a["ndim_spatial"].get<int32_t>(), s.data(), out_slot(o));
    };
    t["adaptive_max_pool_nd"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto s = pair2(a, "output_size");
        ct_tensor* v = out_slot(o);
        ct_tensor* i = out_slot(o);
        return ct_adaptive_max_pool_nd(x[0].h, a["ndim_spatial"].get<int32_t>(), s.data(), v, i);
    };
    t["unfold"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto k = pair2(a, "kernel"), d = pair2(a, "dilation"), p = pair2(a, "padding"), s = pair2(a, "stride");
        return ct_unfold(x[0].h, k.data(), d.data(), p.data(), s.data(), out_slot(o));
    };
    t["fold"] = [pair2](const Inputs& x, const Json& a, Outs& o) {
        auto os = pair2(a, "output_size"), k = pair2(a, "kernel"), d = pair2(a, "dilation"), p = pair2(a, "padding"),
             s = pair2(a, "stride");
        return ct_fold(x[0].h, os.data(), k.data(), d.data(), p.data(), s.data(), out_slot(o));
    };
    t["pixel_shuffle"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_pixel_shuffle(x[0].h, a["upscale_factor"].get<int64_t>(), out_slot(o));
    };
    t["pixel_unshuffle"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_pixel_unshuffle(x[0].h, a["downscale_factor"].get<int64_t>(), out_slot(o));
    };
    t["cross_entropy"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_cross_entropy(x[0].h, x[1].h, reduction_arg(a), a["ignore_index"].get<int64_t>(), out_slot(o));
    };
    t["nll_loss"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_nll_loss(x[0].h, x[1].h, reduction_arg(a), a["ignore_index"].get<int64_t>(), out_slot(o));
    };
    t["cross_entropy_ex"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_cross_entropy_ex(x[0].h, x[1].h, x[2].h, reduction_arg(a), a["ignore_index"].get<int64_t>(),
                                   a["label_smoothing"].get<double>(), out_slot(o));
    };
    t["nll_loss_ex"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_nll_loss_ex(x[0].h, x[1].h, x[2].h, reduction_arg(a), a["ignore_index"].get<int64_t>(), out_slot(o));
    };
    t["binary_cross_entropy"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_binary_cross_entropy(x[0].h, x[1].h, reduction_arg(a), out_slot(o));
    };
    t["binary_cross_entropy_with_logits"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_binary_cross_entropy_with_logits(x[0].h, x[1].h, reduction_arg(a), out_slot(o));
    };
    t["embedding"] = [](const Inputs& x, const Json&, Outs& o) { return ct_embedding(x[0].h, x[1].h, out_slot(o)); };
    // padding_idx: null (none) or an int
    auto padding = [](const Json& a) { return a["padding_idx"].is_null() ? int64_t{0} : a["padding_idx"].get<int64_t>(); };
    auto has_padding = [](const Json& a) { return a["padding_idx"].is_null() ? 0 : 1; };
    t["embedding_ex"] = [=](const Inputs& x, const Json& a, Outs& o) {
        return ct_embedding_ex(x[0].h, x[1].h, padding(a), has_padding(a), a["scale_grad_by_freq"].get<bool>() ? 1 : 0,
                               out_slot(o));
    };
    // the output is a clone of input 0 renormalised at the indices of input 1
    t["embedding_renorm_"] = [](const Inputs& x, const Json& a, Outs& o) {
        ct_tensor* y = out_slot(o);
        ct_status st = ct_clone(x[0].h, y);
        return st != CT_OK ? st : ct_embedding_renorm_(*y, x[1].h, a["max_norm"].get<double>(), a["norm_type"].get<double>());
    };
    t["embedding_bag"] = [=](const Inputs& x, const Json& a, Outs& o) {
        const std::string mode = a["mode"].get<std::string>();
        int32_t m = mode == "sum" ? CT_EMBEDDING_BAG_SUM : mode == "mean" ? CT_EMBEDDING_BAG_MEAN : CT_EMBEDDING_BAG_MAX;
        return ct_embedding_bag(x[0].h, x[1].h, x.size() > 2 ? x[2].h : nullptr, m, x.size() > 3 ? x[3].h : nullptr,
                                a["include_last_offset"].get<bool>() ? 1 : 0, padding(a), has_padding(a),
                                a["scale_grad_by_freq"].get<bool>() ? 1 : 0, out_slot(o));
    };
    // interpolate: torch's mode names; size / scale_factor null (none) or one value per spatial dim
    t["interpolate"] = [](const Inputs& x, const Json& a, Outs& o) {
        const std::string m = a["mode"].get<std::string>();
        const int32_t mode = m == "nearest" ? CT_INTERP_NEAREST : m == "nearest-exact" ? CT_INTERP_NEAREST_EXACT
                             : m == "bicubic" ? CT_INTERP_BICUBIC : m == "area" ? CT_INTERP_AREA : CT_INTERP_LINEAR;
        std::vector<int64_t> size;
        std::vector<double> scale;
        if (!a["size"].is_null()) size = a["size"].get<std::vector<int64_t>>();
        if (!a["scale_factor"].is_null()) scale = a["scale_factor"].get<std::vector<double>>();
        const int32_t align = a["align_corners"].is_null() ? -1 : a["align_corners"].get<bool>() ? 1 : 0;
        return ct_interpolate(x[0].h, size.empty() ? nullptr : size.data(), scale.empty() ? nullptr : scale.data(),
                              (int32_t)std::max(size.size(), scale.size()), mode, align,
                              a["recompute_scale_factor"].get<bool>() ? 1 : 0, out_slot(o));
    };
    // normalisation layers: inputs x, then weight and bias when given, then running_mean and running_var
    auto opt_in = [](const Inputs& x, size_t i) { return x.size() > i ? x[i].h : nullptr; };
    t["layer_norm"] = [=](const Inputs& x, const Json& a, Outs& o) {
        std::vector<int64_t> ns = a["normalized_shape"].get<std::vector<int64_t>>();
        return ct_layer_norm(x[0].h, ns.data(), (int32_t)ns.size(), opt_in(x, 1), opt_in(x, 2), a["eps"].get<double>(),
                             out_slot(o));
    };
    t["group_norm"] = [=](const Inputs& x, const Json& a, Outs& o) {
        return ct_group_norm(x[0].h, a["num_groups"].get<int64_t>(), opt_in(x, 1), opt_in(x, 2), a["eps"].get<double>(),
                             out_slot(o));
    };
    t["batch_norm"] = [=](const Inputs& x, const Json& a, Outs& o) {
        return ct_batch_norm(x[0].h, opt_in(x, 3), opt_in(x, 4), opt_in(x, 1), opt_in(x, 2),
                             a["training"].get<bool>() ? 1 : 0, a["momentum"].get<double>(), a["eps"].get<double>(),
                             out_slot(o));
    };
    t["einsum"] = [](const Inputs& x, const Json& a, Outs& o) {
        std::vector<ct_tensor> hs;
        for (const T& v : x) hs.push_back(v.h);
        return ct_einsum(a["equation"].get<std::string>().c_str(), hs.data(), (int32_t)hs.size(), out_slot(o));
    };
    using Pieces = ct_status (*)(ct_tensor, int64_t, int64_t, ct_tensor*, int32_t, int32_t*);
    for (auto& [name, fn, key] : std::vector<std::tuple<const char*, Pieces, const char*>>{
             {"split", ct_split, "split_size"}, {"chunk", ct_chunk, "chunks"}})
        t[name] = [fn = fn, key = key](const Inputs& x, const Json& a, Outs& o) {
            ct_tensor pieces[16] = {};
            int32_t n = 0;
            ct_status st = fn(x[0].h, a[key].get<int64_t>(), a["dim"].get<int64_t>(), pieces, 16, &n);
            for (int32_t k = 0; st == CT_OK && k < n; ++k) *out_slot(o) = pieces[k];
            return st;
        };
    t["unique"] = [](const Inputs& x, const Json& a, Outs& o) {
        ct_tensor* v = out_slot(o);
        ct_tensor* i = out_slot(o);
        ct_tensor* c = out_slot(o);
        return ct_unique(x[0].h, a["sorted"].get<bool>(), v, i, c);
    };
    // creation, host data, wrapped scalars, moves
    using Make = ct_status (*)(const int64_t*, int32_t, ct_dtype, ct_device, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, Make>>{{"zeros", ct_zeros}, {"ones", ct_ones}})
        t[name] = [fn = fn](const Inputs&, const Json& a, Outs& o) {
            std::vector<int64_t> s = a["shape"].get<std::vector<int64_t>>();
            return fn(s.data(), (int32_t)s.size(), dtype_arg(a), ct_cpu(), out_slot(o));
        };
    t["full"] = [](const Inputs&, const Json& a, Outs& o) {
        std::vector<int64_t> s = a["shape"].get<std::vector<int64_t>>();
        return ct_full(s.data(), (int32_t)s.size(), a["value"].get<double>(), dtype_arg(a), ct_cpu(), out_slot(o));
    };
    t["scalar_tensor"] = [](const Inputs&, const Json& a, Outs& o) {
        return ct_scalar_tensor(a["value"].get<double>(), dtype_arg(a), ct_cpu(), out_slot(o));
    };
    t["eye"] = [](const Inputs&, const Json& a, Outs& o) {
        return ct_eye(a["n"].get<int64_t>(), a["m"].get<int64_t>(), dtype_arg(a), ct_cpu(), out_slot(o));
    };
    t["arange"] = [](const Inputs&, const Json& a, Outs& o) {
        return ct_arange(a["start"].get<double>(), a["end"].get<double>(), a["step"].get<double>(), dtype_arg(a), ct_cpu(),
                         out_slot(o));
    };
    t["linspace"] = [](const Inputs&, const Json& a, Outs& o) {
        return ct_linspace(a["start"].get<double>(), a["end"].get<double>(), a["steps"].get<int64_t>(), dtype_arg(a),
                           ct_cpu(), out_slot(o));
    };
    for (auto& [name, fn] : std::vector<std::pair<const char*, Unary>>{{"zeros_like", ct_zeros_like}, {"ones_like", ct_ones_like}})
        t[name] = [fn = fn](const Inputs& x, const Json&, Outs& o) { return fn(x[0].h, out_slot(o)); };
    t["full_like"] = [](const Inputs& x, const Json& a, Outs& o) { return ct_full_like(x[0].h, a["value"].get<double>(), out_slot(o)); };
    t["to_device"] = [](const Inputs& x, const Json&, Outs& o) { return ct_to_device(x[0].h, ct_cpu(), out_slot(o)); };
    // every tensor input was made with ct_tensor_from_data (above); the case checks what it made
    t["tensor_from_data"] = [](const Inputs& x, const Json&, Outs& o) { *out_slot(o) = ct_tensor_retain(x[0].h); return CT_OK; };
    // input 0's values copied into malloc()ed memory that the tensor then owns without a copy (free as deleter)
    t["tensor_from_blob"] = [](const Inputs& x, const Json&, Outs& o) {
        int64_t dims[16], n = 0;
        int32_t nd = 0;
        ct_dtype dt;
        ok(ct_tensor_shape(x[0].h, dims, 16, &nd), "tensor_shape");
        ok(ct_tensor_dtype(x[0].h, &dt), "tensor_dtype");
        ok(ct_tensor_numel(x[0].h, &n), "tensor_numel");
        std::unique_ptr<void, void (*)(void*)> data(std::malloc((size_t)std::max<int64_t>(n * ct_dtype_size(dt), 1)),
                                                    std::free);
        ok(ct_tensor_copy_to_host(x[0].h, data.get(), n * ct_dtype_size(dt)), "copy_to_host");
        auto deleter = [](void* p, void*) { std::free(p); };
        ct_status st = ct_tensor_from_blob(data.get(), dims, nullptr, nd, dt, ct_cpu(), deleter, nullptr, out_slot(o));
        if (st == CT_OK) data.release();  // the tensor owns it now; on failure the deleter is not called
        return st;
    };
    // random and uninitialised tensors (run_case seeds the default generator with args["seed"])
    using Random = ct_status (*)(const int64_t*, int32_t, ct_dtype, ct_device, ct_generator, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, Random>>{{"rand", ct_rand}, {"randn", ct_randn}})
        t[name] = [fn = fn](const Inputs&, const Json& a, Outs& o) {
            std::vector<int64_t> s = a["shape"].get<std::vector<int64_t>>();
            return fn(s.data(), (int32_t)s.size(), dtype_arg(a), ct_cpu(), nullptr, out_slot(o));
        };
    t["randint"] = [](const Inputs&, const Json& a, Outs& o) {
        std::vector<int64_t> s = a["shape"].get<std::vector<int64_t>>();
        return ct_randint(a["low"].get<int64_t>(), a["high"].get<int64_t>(), s.data(), (int32_t)s.size(), dtype_arg(a),
                          ct_cpu(), nullptr, out_slot(o));
    };
    t["randperm"] = [](const Inputs&, const Json& a, Outs& o) {
        return ct_randperm(a["n"].get<int64_t>(), ct_cpu(), nullptr, out_slot(o));
    };
    t["bernoulli"] = [](const Inputs& x, const Json&, Outs& o) { return ct_bernoulli(x[0].h, nullptr, out_slot(o)); };
    t["dropout"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_dropout(x[0].h, a["p"].get<double>(), a["training"].get<bool>() ? 1 : 0, nullptr, out_slot(o));
    };
    t["empty"] = [](const Inputs&, const Json& a, Outs& o) {
        std::vector<int64_t> s = a["shape"].get<std::vector<int64_t>>();
        return ct_empty(s.data(), (int32_t)s.size(), dtype_arg(a), ct_cpu(), out_slot(o));
    };
    t["empty_like"] = [](const Inputs& x, const Json&, Outs& o) { return ct_empty_like(x[0].h, out_slot(o)); };
    // activations (torch.nn.functional's)
    for (auto& [name, fn] : std::vector<std::pair<const char*, Unary>>{
             {"hardsigmoid", ct_hardsigmoid}, {"hardswish", ct_hardswish}, {"mish", ct_mish},
             {"log_sigmoid", ct_log_sigmoid}, {"softsign", ct_softsign}, {"tanhshrink", ct_tanhshrink}})
        t[name] = [fn = fn](const Inputs& x, const Json&, Outs& o) { return fn(x[0].h, out_slot(o)); };
    auto num = [](const Json& a, const char* k) { return a[k].get<double>(); };
    t["elu"] = [num](const Inputs& x, const Json& a, Outs& o) {
        return ct_elu(x[0].h, num(a, "alpha"), num(a, "scale"), num(a, "input_scale"), out_slot(o));
    };
    t["leaky_relu"] = [num](const Inputs& x, const Json& a, Outs& o) {
        return ct_leaky_relu(x[0].h, num(a, "negative_slope"), out_slot(o));
    };
    t["hardtanh"] = [num](const Inputs& x, const Json& a, Outs& o) {
        return ct_hardtanh(x[0].h, num(a, "min_val"), num(a, "max_val"), out_slot(o));
    };
    t["softshrink"] = [num](const Inputs& x, const Json& a, Outs& o) { return ct_softshrink(x[0].h, num(a, "lambd"), out_slot(o)); };
    t["hardshrink"] = [num](const Inputs& x, const Json& a, Outs& o) { return ct_hardshrink(x[0].h, num(a, "lambd"), out_slot(o)); };
    t["threshold"] = [num](const Inputs& x, const Json& a, Outs& o) {
        return ct_threshold(x[0].h, num(a, "threshold"), num(a, "value"), out_slot(o));
    };
    t["softmin"] = [](const Inputs& x, const Json& a, Outs& o) { return ct_softmin(x[0].h, a["dim"].get<int64_t>(), out_slot(o)); };
    t["glu"] = [](const Inputs& x, const Json& a, Outs& o) { return ct_glu(x[0].h, a["dim"].get<int64_t>(), out_slot(o)); };
    t["prelu"] = [](const Inputs& x, const Json&, Outs& o) { return ct_prelu(x[0].h, x[1].h, out_slot(o)); };
    t["rrelu"] = [num](const Inputs& x, const Json& a, Outs& o) {
        return ct_rrelu(x[0].h, num(a, "lower"), num(a, "upper"), a["training"].get<bool>() ? 1 : 0, nullptr, out_slot(o));
    };
    // losses (issue 14); optional weights are the input after the required ones, NULL when absent
    auto flag = [](const Json& a, const char* k) { return a[k].get<bool>() ? 1 : 0; };
    auto opt = [](const Inputs& x, size_t i) { return x.size() > i ? x[i].h : nullptr; };
    t["l1_loss"] = [](const Inputs& x, const Json& a, Outs& o) { return ct_l1_loss(x[0].h, x[1].h, reduction_arg(a), out_slot(o)); };
    t["smooth_l1_loss"] = [num](const Inputs& x, const Json& a, Outs& o) {
        return ct_smooth_l1_loss(x[0].h, x[1].h, reduction_arg(a), num(a, "beta"), out_slot(o));
    };
    t["huber_loss"] = [num](const Inputs& x, const Json& a, Outs& o) {
        return ct_huber_loss(x[0].h, x[1].h, reduction_arg(a), num(a, "delta"), out_slot(o));
    };
    t["kl_div"] = [flag](const Inputs& x, const Json& a, Outs& o) {
        return ct_kl_div(x[0].h, x[1].h, reduction_arg(a), flag(a, "log_target"), out_slot(o));
    };
    t["soft_margin_loss"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_soft_margin_loss(x[0].h, x[1].h, reduction_arg(a), out_slot(o));
    };
    t["poisson_nll_loss"] = [num, flag](const Inputs& x, const Json& a, Outs& o) {
        return ct_poisson_nll_loss(x[0].h, x[1].h, reduction_arg(a), flag(a, "log_input"), flag(a, "full"), num(a, "eps"),
                                   out_slot(o));
    };
    t["gaussian_nll_loss"] = [num, flag](const Inputs& x, const Json& a, Outs& o) {
        return ct_gaussian_nll_loss(x[0].h, x[1].h, x[2].h, reduction_arg(a), flag(a, "full"), num(a, "eps"), out_slot(o));
    };
    t["hinge_embedding_loss"] = [num](const Inputs& x, const Json& a, Outs& o) {
        return ct_hinge_embedding_loss(x[0].h, x[1].h, reduction_arg(a), num(a, "margin"), out_slot(o));
    };
    t["margin_ranking_loss"] = [num](const Inputs& x, const Json& a, Outs& o) {
        return ct_margin_ranking_loss(x[0].h, x[1].h, x[2].h, reduction_arg(a), num(a, "margin"), out_slot(o));
    };
    t["multilabel_soft_margin_loss"] = [opt](const Inputs& x, const Json& a, Outs& o) {
        return ct_multilabel_soft_margin_loss(x[0].h, x[1].h, opt(x, 2), reduction_arg(a), out_slot(o));
    };
    t["multi_margin_loss"] = [num, opt](const Inputs& x, const Json& a, Outs& o) {
        return ct_multi_margin_loss(x[0].h, x[1].h, reduction_arg(a), a["p"].get<int64_t>(), num(a, "margin"), opt(x, 2),
                                    out_slot(o));
    };
    t["cosine_embedding_loss"] = [num](const Inputs& x, const Json& a, Outs& o) {
        return ct_cosine_embedding_loss(x[0].h, x[1].h, x[2].h, reduction_arg(a), num(a, "margin"), out_slot(o));
    };
    t["triplet_margin_loss"] = [num, flag](const Inputs& x, const Json& a, Outs& o) {
        return ct_triplet_margin_loss(x[0].h, x[1].h, x[2].h, reduction_arg(a), num(a, "margin"), num(a, "p"),
                                      num(a, "eps"), flag(a, "swap"), out_slot(o));
    };
    t["ctc_loss"] = [flag](const Inputs& x, const Json& a, Outs& o) {
        auto il = a["input_lengths"].get<std::vector<int64_t>>(), tl = a["target_lengths"].get<std::vector<int64_t>>();
        return ct_ctc_loss(x[0].h, x[1].h, il.data(), tl.data(), (int64_t)il.size(), reduction_arg(a),
                           a["blank"].get<int64_t>(), flag(a, "zero_infinity"), out_slot(o));
    };
    t["scaled_dot_product_attention"] = [num, flag](const Inputs& x, const Json& a, Outs& o) {
        return ct_scaled_dot_product_attention(x[0].h, x[1].h, x[2].h, x.size() > 3 ? x[3].h : nullptr,
                                               num(a, "dropout_p"), flag(a, "is_causal"), num(a, "scale"), nullptr,
                                               out_slot(o));
    };
    t["multi_head_attention_forward"] = [flag](const Inputs& x, const Json& a, Outs& o) {
        ct_tensor* out = out_slot(o);
        return ct_multi_head_attention_forward(x[0].h, x[1].h, x[2].h, a["num_heads"].get<int64_t>(), x[3].h, x[4].h,
                                               nullptr, nullptr, 0, 0.0, x[5].h, x[6].h, 0,
                                               x.size() > 7 ? x[7].h : nullptr, flag(a, "need_weights"), nullptr,
                                               nullptr, nullptr, nullptr, 1, 0, nullptr, out, out_slot(o));
    };
    // torch.linalg
    for (auto& [name, fn] : std::vector<std::pair<const char*, Unary>>{
             {"linalg_inv", ct_linalg_inv}, {"linalg_det", ct_linalg_det}, {"linalg_svdvals", ct_linalg_svdvals}})
        t[name] = [fn = fn](const Inputs& x, const Json&, Outs& o) { return fn(x[0].h, out_slot(o)); };
    auto upper = [](const Json& a) { return a["UPLO"].get<std::string>() == "U" ? 1 : 0; };
    t["linalg_slogdet"] = [](const Inputs& x, const Json&, Outs& o) {
        ct_tensor* s = out_slot(o);
        return ct_linalg_slogdet(x[0].h, s, out_slot(o));
    };
    t["linalg_solve"] = [](const Inputs& x, const Json&, Outs& o) { return ct_linalg_solve(x[0].h, x[1].h, out_slot(o)); };
    t["linalg_cholesky"] = [flag](const Inputs& x, const Json& a, Outs& o) {
        return ct_linalg_cholesky(x[0].h, flag(a, "upper"), out_slot(o));
    };
    t["linalg_qr"] = [](const Inputs& x, const Json& a, Outs& o) {
        static const std::map<std::string, ct_qr_mode> modes = {
            {"reduced", CT_QR_REDUCED}, {"complete", CT_QR_COMPLETE}, {"r", CT_QR_R}};
        ct_tensor* q = out_slot(o);
        return ct_linalg_qr(x[0].h, modes.at(a["mode"].get<std::string>()), q, out_slot(o));
    };
    t["linalg_eigh"] = [upper](const Inputs& x, const Json& a, Outs& o) {
        ct_tensor* w = out_slot(o);
        return ct_linalg_eigh(x[0].h, upper(a), w, out_slot(o));
    };
    t["linalg_eigvalsh"] = [upper](const Inputs& x, const Json& a, Outs& o) {
        return ct_linalg_eigvalsh(x[0].h, upper(a), out_slot(o));
    };
    t["linalg_eig"] = [](const Inputs& x, const Json&, Outs& o) {
        ct_tensor* l = out_slot(o);
        return ct_linalg_eig(x[0].h, l, out_slot(o));
    };
    t["linalg_eigvals"] = [](const Inputs& x, const Json&, Outs& o) { return ct_linalg_eigvals(x[0].h, out_slot(o)); };
    t["linalg_svd"] = [flag](const Inputs& x, const Json& a, Outs& o) {
        ct_tensor* u = out_slot(o);
        ct_tensor* s = out_slot(o);
        return ct_linalg_svd(x[0].h, flag(a, "full_matrices"), u, s, out_slot(o));
    };
    t["linalg_matrix_power"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_linalg_matrix_power(x[0].h, a["n"].get<int64_t>(), out_slot(o));
    };
    t["linalg_cross"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_linalg_cross(x[0].h, x[1].h, a["dim"].get<int64_t>(), out_slot(o));
    };
    t["linalg_vector_norm"] = [flag](const Inputs& x, const Json& a, Outs& o) {
        std::vector<int64_t> d = dims_of(a);
        return ct_linalg_vector_norm(x[0].h, decode(a["ord"]), d.data(), (int32_t)d.size(), flag(a, "keepdim"),
                                     out_slot(o));
    };
    t["linalg_matrix_norm"] = [flag](const Inputs& x, const Json& a, Outs& o) {
        auto d = a["dims"].get<std::vector<int64_t>>();
        return ct_linalg_matrix_norm(x[0].h, a["ord"].get<std::string>().c_str(), d[0], d[1], flag(a, "keepdim"),
                                     out_slot(o));
    };
    auto tol = [](const Json& a, const char* k) { return a[k].is_null() ? -1.0 : a[k].get<double>(); };
    t["linalg_pinv"] = [tol](const Inputs& x, const Json& a, Outs& o) {
        return ct_linalg_pinv(x[0].h, tol(a, "atol"), tol(a, "rtol"), out_slot(o));
    };
    t["linalg_matrix_rank"] = [tol](const Inputs& x, const Json& a, Outs& o) {
        return ct_linalg_matrix_rank(x[0].h, tol(a, "atol"), tol(a, "rtol"), out_slot(o));
    };
    t["linalg_lstsq"] = [](const Inputs& x, const Json&, Outs& o) { return ct_linalg_lstsq(x[0].h, x[1].h, out_slot(o)); };
    t["linalg_lstsq_ex"] = [](const Inputs& x, const Json& a, Outs& o) {
        static const std::map<std::string, int32_t> drivers = {{"gelsy", CT_LSTSQ_GELSY}, {"gels", CT_LSTSQ_GELS},
                                                               {"gelsd", CT_LSTSQ_GELSD}, {"gelss", CT_LSTSQ_GELSS}};
        double rcond = a["rcond"].is_null() ? -1.0 : a["rcond"].get<double>();
        ct_tensor* xs = out_slot(o);
        ct_tensor* res = out_slot(o);
        ct_tensor* rank = out_slot(o);
        return ct_linalg_lstsq_ex(x[0].h, x[1].h, rcond, drivers.at(a["driver"].get<std::string>()), xs, res, rank,
                                  out_slot(o));
    };
    // recurrent nets (issue 14): inputs x, hx, (cx for LSTM), then the weights; cy only for LSTM
    static const std::map<std::string, int32_t> modes = {
        {"rnn_relu", CT_RNN_RELU}, {"rnn_tanh", CT_RNN_TANH}, {"lstm", CT_RNN_LSTM}, {"gru", CT_RNN_GRU}};
    t["rnn"] = [flag](const Inputs& x, const Json& a, Outs& o) {
        const int32_t mode = modes.at(a["mode"].get<std::string>());
        const size_t first_w = mode == CT_RNN_LSTM ? 3 : 2;
        std::vector<ct_tensor> w;
        for (size_t i = first_w; i < x.size(); ++i) w.push_back(x[i].h);
        std::vector<int64_t> bs = a.value("batch_sizes", std::vector<int64_t>{});
        ct_tensor* out = out_slot(o);
        ct_tensor* hy = out_slot(o);
        return ct_rnn(mode, x[0].h, x[1].h, mode == CT_RNN_LSTM ? x[2].h : nullptr, w.data(), (int32_t)w.size(),
                      flag(a, "has_biases"), a["num_layers"].get<int64_t>(), 0.0, 0, flag(a, "bidirectional"),
                      flag(a, "batch_first"), a["proj_size"].get<int64_t>(), a.contains("batch_sizes") ? bs.data() : nullptr,
                      (int64_t)bs.size(), nullptr, out, hy, mode == CT_RNN_LSTM ? out_slot(o) : nullptr);
    };
    t["rnn_cell"] = [](const Inputs& x, const Json& a, Outs& o) {
        const int32_t mode = modes.at(a["mode"].get<std::string>());
        const size_t k = mode == CT_RNN_LSTM ? 3 : 2;
        ct_tensor* hy = out_slot(o);
        return ct_rnn_cell(mode, x[0].h, x[1].h, k == 3 ? x[2].h : nullptr, x[k].h, x[k + 1].h, x[k + 2].h,
                           x[k + 3].h, hy, mode == CT_RNN_LSTM ? out_slot(o) : nullptr);
    };
    t["linalg_solve_triangular"] = [flag](const Inputs& x, const Json& a, Outs& o) {
        return ct_linalg_solve_triangular(x[0].h, x[1].h, flag(a, "upper"), flag(a, "left"), flag(a, "unitriangular"),
                                          out_slot(o));
    };
    // the toolbox's indexed writes (issue 14); index_put's inputs are x, values, then the index tensors
    t["index_add"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_index_add(x[0].h, a["dim"].get<int64_t>(), x[1].h, x[2].h, a["alpha"].get<double>(), out_slot(o));
    };
    t["index_copy"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_index_copy(x[0].h, a["dim"].get<int64_t>(), x[1].h, x[2].h, out_slot(o));
    };
    t["index_put"] = [](const Inputs& x, const Json& a, Outs& o) {
        std::vector<ct_tensor> ix;
        for (size_t k = 2; k < x.size(); ++k) ix.push_back(x[k].h);
        return ct_index_put(x[0].h, ix.data(), (int32_t)ix.size(), x[1].h, a["accumulate"].get<bool>(), out_slot(o));
    };
    // the in-place forms write into a clone of input 0, which is the output
    using InPlace = std::function<ct_status(ct_tensor, const Inputs&, const Json&)>;
    const std::vector<std::pair<const char*, InPlace>> in_place = {
        {"scatter_", [](ct_tensor y, const Inputs& x, const Json& a) { return ct_scatter_(y, a["dim"].get<int64_t>(), x[1].h, x[2].h); }},
        {"scatter_add_", [](ct_tensor y, const Inputs& x, const Json& a) {
             return ct_scatter_add_(y, a["dim"].get<int64_t>(), x[1].h, x[2].h);
         }},
        {"scatter_reduce_", [](ct_tensor y, const Inputs& x, const Json& a) {
             return ct_scatter_reduce_(y, a["dim"].get<int64_t>(), x[1].h, x[2].h, scatter_reduce_arg(a),
                                       a["include_self"].get<bool>());
         }},
        {"index_add_", [](ct_tensor y, const Inputs& x, const Json& a) {
             return ct_index_add_(y, a["dim"].get<int64_t>(), x[1].h, x[2].h, a["alpha"].get<double>());
         }},
        {"index_copy_", [](ct_tensor y, const Inputs& x, const Json& a) {
             return ct_index_copy_(y, a["dim"].get<int64_t>(), x[1].h, x[2].h);
         }},
        {"index_put_", [](ct_tensor y, const Inputs& x, const Json& a) {
             std::vector<ct_tensor> ix;
             for (size_t k = 2; k < x.size(); ++k) ix.push_back(x[k].h);
             return ct_index_put_(y, ix.data(), (int32_t)ix.size(), x[1].h, a["accumulate"].get<bool>());
         }}};
    for (auto& [name, write] : in_place)
        t[name] = [write = write](const Inputs& x, const Json& a, Outs& o) {
            ct_tensor* y = out_slot(o);
            ct_status st = ct_clone(x[0].h, y);
            return st != CT_OK ? st : write(*y, x, a);
        };
    t["searchsorted"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_searchsorted(x[0].h, x[1].h, a["right"].get<bool>(), a["out_int32"].get<bool>(),
                               x.size() > 2 ? x[2].h : nullptr, out_slot(o));
    };
    t["bincount"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_bincount(x[0].h, x.size() > 1 ? x[1].h : nullptr, a["minlength"].get<int64_t>(), out_slot(o));
    };
    t["histc"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_histc(x[0].h, a["bins"].get<int64_t>(), a["min"].get<double>(), a["max"].get<double>(), out_slot(o));
    };
    t["nan_to_num"] = [](const Inputs& x, const Json& a, Outs& o) {
        auto opt = [&](const char* k) { return a[k].is_null() ? 0.0 : a[k].get<double>(); };
        auto has = [&](const char* k) { return (int32_t)!a[k].is_null(); };
        return ct_nan_to_num(x[0].h, opt("nan"), has("nan"), opt("posinf"), has("posinf"), opt("neginf"), has("neginf"),
                             out_slot(o));
    };
    t["diff"] = [](const Inputs& x, const Json& a, Outs& o) {
        bool p = a["prepend"].get<bool>(), q = a["append"].get<bool>();
        return ct_diff(x[0].h, a["n"].get<int64_t>(), a["dim"].get<int64_t>(), p ? x[1].h : nullptr,
                       q ? x[p ? 2 : 1].h : nullptr, out_slot(o));
    };
    t["take_along_dim"] = [](const Inputs& x, const Json& a, Outs& o) {
        bool has = !a["dim"].is_null();
        return ct_take_along_dim(x[0].h, x[1].h, has ? a["dim"].get<int64_t>() : 0, has, out_slot(o));
    };
    using CumExtreme = ct_status (*)(ct_tensor, int64_t, ct_tensor*, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, CumExtreme>>{{"cummax", ct_cummax}, {"cummin", ct_cummin}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) {
            ct_tensor* v = out_slot(o);
            return fn(x[0].h, a["dim"].get<int64_t>(), v, out_slot(o));
        };
    // the rest of the toolbox: median along a dim, quantile with a scalar q, cdist
    t["median_dim"] = [](const Inputs& x, const Json& a, Outs& o) {
        ct_tensor* v = out_slot(o);
        return ct_median_dim(x[0].h, a["dim"].get<int64_t>(), a["keepdim"].get<bool>(), v, out_slot(o));
    };
    t["quantile"] = [](const Inputs& x, const Json& a, Outs& o) {
        static const std::map<std::string, int32_t> modes = {{"linear", CT_QUANTILE_LINEAR}, {"lower", CT_QUANTILE_LOWER},
            {"higher", CT_QUANTILE_HIGHER}, {"midpoint", CT_QUANTILE_MIDPOINT}, {"nearest", CT_QUANTILE_NEAREST}};
        bool has = !a["dim"].is_null();
        return ct_quantile(x[0].h, nullptr, a["q"].get<double>(), has ? a["dim"].get<int64_t>() : 0, has,
                           a["keepdim"].get<bool>(), modes.at(a["interpolation"].get<std::string>()), out_slot(o));
    };
    t["cdist"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_cdist(x[0].h, x[1].h, decode(a["p"]), 0, out_slot(o));
    };
    t["median"] = [](const Inputs& x, const Json&, Outs& o) { return ct_median(x[0].h, out_slot(o)); };
    t["nanmedian"] = [](const Inputs& x, const Json&, Outs& o) { return ct_nanmedian(x[0].h, out_slot(o)); };
    t["nanmedian_dim"] = [](const Inputs& x, const Json& a, Outs& o) {
        ct_tensor* v = out_slot(o);
        return ct_nanmedian_dim(x[0].h, a["dim"].get<int64_t>(), a["keepdim"].get<bool>(), v, out_slot(o));
    };
    t["nanquantile"] = [](const Inputs& x, const Json& a, Outs& o) {
        static const std::map<std::string, int32_t> modes = {{"linear", CT_QUANTILE_LINEAR}, {"lower", CT_QUANTILE_LOWER},
            {"higher", CT_QUANTILE_HIGHER}, {"midpoint", CT_QUANTILE_MIDPOINT}, {"nearest", CT_QUANTILE_NEAREST}};
        bool has = !a["dim"].is_null();
        return ct_nanquantile(x[0].h, nullptr, a["q"].get<double>(), has ? a["dim"].get<int64_t>() : 0, has,
                              a["keepdim"].get<bool>(), modes.at(a["interpolation"].get<std::string>()), out_slot(o));
    };
    // repeats: the integer args["repeats"], or input 1 (an int64 tensor) when that is null
    t["repeat_interleave"] = [](const Inputs& x, const Json& a, Outs& o) {
        bool has_dim = !a["dim"].is_null(), counts = a["repeats"].is_null();
        return ct_repeat_interleave(x[0].h, counts ? x[1].h : nullptr, counts ? 0 : a["repeats"].get<int64_t>(),
                                    has_dim ? a["dim"].get<int64_t>() : 0, has_dim, 0, 0, out_slot(o));
    };
    t["meshgrid"] = [](const Inputs& x, const Json& a, Outs& o) {
        std::vector<ct_tensor> hs, grids(x.size(), nullptr);
        for (const T& v : x) hs.push_back(v.h);
        int32_t indexing = a["indexing"].get<std::string>() == "xy" ? CT_MESHGRID_XY : CT_MESHGRID_IJ;
        ct_status st = ct_meshgrid(hs.data(), (int32_t)hs.size(), indexing, grids.data(), (int32_t)grids.size());
        for (size_t k = 0; st == CT_OK && k < grids.size(); ++k) *out_slot(o) = grids[k];
        return st;
    };
    // input 1 is a wrapped scalar (ct_wrapped_scalar, as {"scalar": v} inputs are made above)
    t["wrapped_scalar"] = [](const Inputs& x, const Json&, Outs& o) { return ct_mul(x[0].h, x[1].h, out_slot(o)); };
    t["wrapped_scalar_bool"] = [](const Inputs& x, const Json&, Outs& o) { return ct_mul(x[0].h, x[1].h, out_slot(o)); };
    // in-place writes through a view of a clone of input 0; the output is the clone
    using Write = std::function<ct_status(ct_tensor, const Inputs&, const Json&)>;
    const std::vector<std::pair<const char*, Write>> writes = {
        {"add_", [](ct_tensor v, const Inputs& x, const Json& a) { return ct_add_(v, x[1].h, a.value("alpha", 1.0)); }},
        {"sub_", [](ct_tensor v, const Inputs& x, const Json& a) { return ct_sub_(v, x[1].h, a.value("alpha", 1.0)); }},
        {"mul_", [](ct_tensor v, const Inputs& x, const Json&) { return ct_mul_(v, x[1].h); }},
        {"div_", [](ct_tensor v, const Inputs& x, const Json&) { return ct_div_(v, x[1].h); }},
        {"copy_", [](ct_tensor v, const Inputs& x, const Json&) { return ct_copy_(v, x[1].h); }},
        {"zero_", [](ct_tensor v, const Inputs&, const Json&) { return ct_zero_(v); }},
        {"fill_", [](ct_tensor v, const Inputs&, const Json& a) { return ct_fill_(v, a["value"].get<double>()); }},
        {"clamp_", [](ct_tensor v, const Inputs&, const Json& a) {
             return ct_clamp_(v, a["min"].get<double>(), 1, a["max"].get<double>(), 1);
         }}};
    for (auto& [name, write] : writes)
        t[name] = [write = write](const Inputs& x, const Json& a, Outs& o) {
            ct_tensor* y = out_slot(o);
            ct_status st = ct_clone(x[0].h, y);
            if (st != CT_OK) return st;
            Inputs base;
            base.emplace_back();
            base.back().h = ct_tensor_retain(*y);
            Outs view;
            view.reserve(4);
            st = view_op(a["view"].get<std::string>())(base, a["view_args"], view);
            return st != CT_OK ? st : write(view[0].h, x, a);
        };
    // more reductions and products (issue 14)
    t["logcumsumexp"] = [](const Inputs& x, const Json& a, Outs& o) {
        return ct_logcumsumexp(x[0].h, a["dim"].get<int64_t>(), out_slot(o));
    };
    t["aminmax"] = [](const Inputs& x, const Json& a, Outs& o) {
        bool has = !a["dim"].is_null();
        ct_tensor* lo = out_slot(o);
        return ct_aminmax(x[0].h, has ? a["dim"].get<int64_t>() : 0, has, a["keepdim"].get<bool>(), lo, out_slot(o));
    };
    using StatMean = ct_status (*)(ct_tensor, const int64_t*, int32_t, double, int32_t, ct_tensor*, ct_tensor*);
    for (auto& [name, fn] : std::vector<std::pair<const char*, StatMean>>{{"var_mean", ct_var_mean}, {"std_mean", ct_std_mean}})
        t[name] = [fn = fn](const Inputs& x, const Json& a, Outs& o) {
            std::vector<int64_t> d = dims_of(a);
            ct_tensor* s = out_slot(o);
            return fn(x[0].h, d.data(), (int32_t)d.size(), a["correction"].get<double>(), a["keepdim"].get<bool>(), s,
                      out_slot(o));
        };
    t["kron"] = [](const Inputs& x, const Json&, Outs& o) { return ct_kron(x[0].h, x[1].h, out_slot(o)); };
    t["inner"] = [](const Inputs& x, const Json&, Outs& o) { return ct_inner(x[0].h, x[1].h, out_slot(o)); };
    t["tensordot"] = [](const Inputs& x, const Json& a, Outs& o) {
        std::vector<int64_t> da = a["dims_a"].get<std::vector<int64_t>>(), db = a["dims_b"].get<std::vector<int64_t>>();
        return ct_tensordot(x[0].h, x[1].h, da.data(), (int32_t)da.size(), db.data(), (int32_t)db.size(), out_slot(o));
    };
    return t;
}

// The view op of the table by name (for the in-place cases, which write through one).
const Op& view_op(const std::string& name) {
    static const std::map<std::string, Op> table = op_table();
    return table.at(name);
}

void run_case(const Json& c, const std::map<std::string, Op>& table) {
    auto it = table.find(c["op"].get<std::string>());
    if (it == table.end()) throw Problem{"op " + c["op"].get<std::string>() + " is not exposed"};
    Inputs inputs;
    for (const Json& j : c["inputs"]) inputs.push_back(make(j));
    if (c["args"].contains("seed")) ok(ct_manual_seed(c["args"]["seed"].get<uint64_t>()), "manual_seed");
    Outs outs;
    outs.reserve(16);  // out_slot pointers stay valid while an op fills several
    ct_status st = it->second(inputs, c["args"], outs);
    if (c.contains("error")) {
        if (ct_status_name(st) != c["error"].get<std::string>())
            throw Problem{std::string("returned ") + ct_status_name(st) + ", expected " + c["error"].get<std::string>()};
        return;
    }
    ok(st, c["op"].get<std::string>());
    const Json& expect = c["expect"];
    if (outs.size() != expect["outputs"].size()) throw Problem{"wrong number of outputs"};
    for (size_t k = 0; k < outs.size(); ++k) compare("output " + std::to_string(k), outs[k].h, expect["outputs"][k]);
    if (!expect.contains("grads")) return;
    T go = make(expect["grad_output"]);
    ok(ct_backward(outs[0].h, go.h, 0, 0), "backward");
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (expect["grads"][k].is_null()) continue;
        T g;
        ok(ct_tensor_grad(inputs[k].h, &g.h), "tensor_grad");
        if (!g.h) throw Problem{"input " + std::to_string(k) + " got no gradient"};
        compare("gradient of input " + std::to_string(k), g.h, expect["grads"][k]);
    }
}

}  // namespace conformance
