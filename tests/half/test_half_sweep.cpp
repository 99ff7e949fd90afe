// test_half_sweep.cpp - every float-taking op with float16 and bfloat16 inputs (issue 15): each conformance case
// (tests/conformance/cases, the C runner's op table in conformance/c_ops.h: one row per op) whose floating inputs
// share one dtype is run twice through the C ABI - with those inputs rounded to the half dtype, and with the same
// rounded values in the case's own dtype (the reference) - and the half outputs must be the reference rounded
// (half tolerances: the op computes in float32 and rounds once, Note [Half compute]), floating outputs in the half
// dtype, integer outputs (indices, counts) unchanged, gradients in the half dtype close to the reference's.
// Ops the suite has no case for get rows in kExtraCases; optimizer steps are checked in test_half_optim.cpp.
#include <gtest/gtest.h>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include "conformance/c_ops.h"

using namespace conformance;

namespace {

// The ops of abi/ops.tsv that the conformance cases lack, as cases of the same form (none today: every op has
// conformance cases; a new op without them gets a row here until it does).
const char* kExtraCases = "[]";

std::map<std::string, Op> sweep_table() { return op_table(); }

ct_dtype dtype_of(ct_tensor t) {
    ct_dtype d;
    ok(ct_tensor_dtype(t, &d), "tensor_dtype");
    return d;
}
bool is_float(ct_dtype d) { return d == CT_FLOAT32 || d == CT_FLOAT64 || is_half(d); }

// t cast to d (no graph: the result is a fresh leaf).
T cast(ct_tensor t, ct_dtype d) {
    T r;
    ok(ct_to_dtype(t, d, &r.h), "to_dtype");
    T leaf;
    ok(ct_detach(r.h, &leaf.h), "detach");
    return leaf;
}

std::vector<int64_t> shape_of(ct_tensor t) {
    int64_t dims[16];
    int32_t nd = 0;
    ok(ct_tensor_shape(t, dims, 16, &nd), "tensor_shape");
    return std::vector<int64_t>(dims, dims + nd);
}

struct Run {
    ct_status st = CT_OK;
    std::string error;
    Outs outs;
    std::vector<T> grads;  // one per input, empty handle where none
};

// Runs case c with its floating inputs given as `floats` (the rest made from the JSON), then backward of the first
// output with a grad_output of ones in that output's dtype when the case is differentiable.
Run run(const Json& c, const std::map<std::string, Op>& table, const std::vector<T>& floats, const Json& args) {
    Run r;
    Inputs in;
    size_t k = 0;
    for (const Json& j : c["inputs"]) {
        if (j.contains("dtype") && kDTypes.count(j["dtype"]) && is_float(kDTypes.at(j["dtype"]))) {
            in.emplace_back();
            ok(ct_detach(floats[k++].h, &in.back().h), "detach");
            if (j.value("requires_grad", false)) ok(ct_tensor_set_requires_grad(in.back().h, 1), "set_requires_grad");
        } else {
            in.push_back(make(j));
        }
    }
    if (args.contains("seed")) ok(ct_manual_seed(args["seed"].get<uint64_t>()), "manual_seed");
    r.outs.reserve(16);
    r.st = table.at(c["op"].get<std::string>())(in, args, r.outs);
    if (r.st != CT_OK) {
        r.error = ct_last_error();
        return r;
    }
    bool wants_grad = false;
    for (const T& t : in) {
        int32_t rg = 0;
        ok(ct_tensor_requires_grad(t.h, &rg), "requires_grad");
        wants_grad |= rg != 0;
    }
    int32_t out_rg = 0;
    if (!r.outs.empty()) ok(ct_tensor_requires_grad(r.outs[0].h, &out_rg), "requires_grad");
    if (wants_grad && out_rg) {
        T go;
        ok(ct_ones_like(r.outs[0].h, &go.h), "ones_like");
        r.st = ct_backward(r.outs[0].h, go.h, 0, 0);
        if (r.st != CT_OK) {
            r.error = std::string("backward: ") + ct_last_error();
            return r;
        }
    }
    for (const T& t : in) {
        r.grads.emplace_back();
        ok(ct_tensor_grad(t.h, &r.grads.back().h), "tensor_grad");
    }
    return r;
}

// "" when got (half) matches want (the reference) rounded to half, else the problem; a reference output in the
// case's floating dtype `from` must be half in got. abs_only: compare |values|
// (sign-ambiguous vectors, README "Properties").
std::string close(ct_tensor got, ct_tensor want, ct_dtype from, ct_dtype half, bool abs_only, double slack) {
    ct_dtype gd = dtype_of(got), wd = dtype_of(want);
    ct_dtype expect = wd == from ? half : wd;
    if (gd != expect) return std::string("dtype ") + ct_dtype_name(gd) + ", expected " + ct_dtype_name(expect);
    if (shape_of(got) != shape_of(want)) return "shape differs";
    // the reference rounded to half (a float32 value past the half range is +-inf there, as in torch)
    std::vector<double> g = host_values(got), w = host_values(expect == half ? cast(want, half).h : want);
    double scale = 1;
    for (double v : w)
        if (std::isfinite(v)) scale = std::max(scale, std::fabs(v));
    const double eps = half == CT_FLOAT16 ? 0x1p-10 : 0x1p-7;  // one unit in the last place at 1
    for (size_t i = 0; i < g.size(); ++i) {
        double a = abs_only ? std::fabs(g[i]) : g[i], b = abs_only ? std::fabs(w[i]) : w[i];
        if ((std::isnan(a) && std::isnan(b)) || a == b) continue;
        if (!is_float(gd) || std::fabs(a - b) > slack * eps * (std::fabs(b) + scale))
            return "element " + std::to_string(i) + " is " + std::to_string(g[i]) + ", reference " + std::to_string(w[i]);
    }
    return "";
}

// Ops that refuse float16/bfloat16 by design, with CT_ERR_DTYPE: complex, polar and view_as_complex would make
// complex32, which ctensor lacks (torch refuses them for half too); nextafter's result is the neighbour in the
// storage type itself, which a float32 computation rounded back does not give.
// linalg_eig/eigvals: their outputs are complex, so complex32 too.
const std::set<std::string> kRefusesHalf = {"complex", "polar", "view_as_complex", "nextafter", "linalg_eig",
                                            "linalg_eigvals"};

// The problem of case c in dtype half ("" when none, "skip" when the case does not apply).
std::string sweep_case(const Json& c, const std::map<std::string, Op>& table, ct_dtype half) {
    if (c.contains("error") || !table.count(c["op"].get<std::string>())) return "skip";
    for (const Json& j : c["inputs"])  // complex operands test complex promotion, not half
        if (j.contains("complex_scalar") || (j.contains("dtype") && j["dtype"].get<std::string>().rfind("complex", 0) == 0))
            return "skip";
    // the floating inputs, which must share one dtype (a float32 + float64 case tests promotion, not half)
    std::set<std::string> fdtypes;
    for (const Json& j : c["inputs"])
        if (j.contains("dtype") && is_float(kDTypes.at(j["dtype"]))) fdtypes.insert(j["dtype"].get<std::string>());
    Json args = c["args"];
    const bool dtype_arg = args.contains("dtype") && is_float(kDTypes.at(args["dtype"]));
    if (fdtypes.size() > 1 || (fdtypes.empty() && !dtype_arg)) return "skip";
    const ct_dtype from = kDTypes.at(fdtypes.empty() ? args["dtype"].get<std::string>() : *fdtypes.begin());
    std::vector<T> rounded, halves;
    for (const Json& j : c["inputs"]) {
        if (!j.contains("dtype") || !is_float(kDTypes.at(j["dtype"]))) continue;
        Json plain = j;
        plain.erase("requires_grad");
        T x = make(plain);
        halves.push_back(cast(x.h, half));
        rounded.push_back(cast(halves.back().h, kDTypes.at(j["dtype"])));
    }
    Json half_args = args;
    if (dtype_arg && fdtypes.empty()) half_args["dtype"] = half == CT_FLOAT16 ? "float16" : "bfloat16";
    Run ref = run(c, table, rounded, args);
    if (ref.st != CT_OK) return "skip";  // the reference fails on the rounded values (e.g. a singular matrix)
    Run got = run(c, table, halves, half_args);
    if (kRefusesHalf.count(c["op"].get<std::string>()))
        return got.st == CT_ERR_DTYPE ? "" : std::string("expected CT_ERR_DTYPE (refused by design), got ") + ct_status_name(got.st);
    if (got.st != CT_OK) return std::string("REFUSED ") + ct_status_name(got.st) + ": " + got.error;
    if (got.outs.size() != ref.outs.size()) return "wrong number of outputs";
    const bool random = args.contains("seed");
    const Json& outs = c.contains("expect") ? c["expect"]["outputs"] : Json::array();
    for (size_t k = 0; k < got.outs.size(); ++k) {
        const Json props = k < outs.size() && outs[k].contains("properties") ? outs[k]["properties"] : Json();
        if (random || (!props.is_null() && !props.contains("abs"))) {  // values the generator draws: dtype only
            ct_dtype gd = dtype_of(got.outs[k].h), wd = dtype_of(ref.outs[k].h);
            if (gd != (wd == from ? half : wd)) return "output " + std::to_string(k) + ": dtype";
            continue;
        }
        std::string p = close(got.outs[k].h, ref.outs[k].h, from, half, !props.is_null(), 4);
        if (!p.empty()) return "output " + std::to_string(k) + ": " + p;
    }
    for (size_t k = 0; k < got.grads.size(); ++k) {
        if (!ref.grads[k].h && !got.grads[k].h) continue;
        if (!got.grads[k].h || !ref.grads[k].h) return "gradient of input " + std::to_string(k) + " missing";
        std::string p = close(got.grads[k].h, ref.grads[k].h, from, half, false, 16);  // a chain of half roundings
        if (!p.empty()) return "gradient of input " + std::to_string(k) + ": " + p;
    }
    return "";
}

std::vector<Json> all_cases() {
    std::vector<Json> cases;
    std::vector<std::string> files;
    if (DIR* d = opendir(CT_CONFORMANCE_CASES)) {
        while (dirent* e = readdir(d)) {
            std::string name = e->d_name;
            if (name.size() > 5 && name.substr(name.size() - 5) == ".json") files.push_back(name);
        }
        closedir(d);
    }
    std::sort(files.begin(), files.end());
    for (const std::string& f : files) {
        std::ifstream in(std::string(CT_CONFORMANCE_CASES) + "/" + f);
        Json doc = Json::parse(in);
        for (const Json& c : doc["cases"]) cases.push_back(c);
    }
    Json extra = Json::parse(kExtraCases);
    for (const Json& c : extra) cases.push_back(c);
    return cases;
}

class HalfSweep : public ::testing::TestWithParam<ct_dtype> {};

TEST_P(HalfSweep, EveryOpAcceptsHalfAndMatchesFloat32Rounded) {
    const ct_dtype half = GetParam();
    const auto table = sweep_table();
    std::map<std::string, std::string> failed;  // op -> first problem
    std::set<std::string> swept;
    for (const Json& c : all_cases()) {
        const std::string op = c["op"].get<std::string>();
        std::string p;
        try {
            p = sweep_case(c, table, half);
        } catch (const Problem& e) {
            p = e.what;
        } catch (const std::exception& e) {
            p = e.what();
        }
        if (p == "skip") continue;
        swept.insert(op);
        if (!p.empty() && !failed.count(op)) failed[op] = c["id"].get<std::string>() + ": " + p;
    }
    for (auto& [op, p] : failed) ADD_FAILURE() << op << " (" << ct_dtype_name(half) << "): " << p;
    std::printf("%s: %zu ops swept, %zu failed\n", ct_dtype_name(half), swept.size(), failed.size());
    EXPECT_GE(swept.size(), 200u);  // the sweep reaches (nearly) every float-taking op of abi/ops.tsv
    EXPECT_EQ(ct_live_handles(), 0);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, HalfSweep, ::testing::Values(CT_FLOAT16, CT_BFLOAT16),
                         [](const auto& info) { return std::string(ct_dtype_name(info.param)); });

}  // namespace
