//! The Rust runner of the conformance suite: every case of tests/conformance/cases/*.json (read with serde_json)
//! through the `ctensor` crate's public API, compared with the expected dtype, shape and values (per-dtype
//! tolerances, NaN equals NaN, integers exactly) and, for differentiable cases, the input gradients after
//! backward(grad_output); an error case must fail with the `Error` variant of its status. Prints the failures and
//! "N passed, N failed"; exits 1 when any failed. CONFORMANCE_RESULTS_DIR (if set) receives rust.json.
use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use ctensor::nn::{AvgPool2d, CrossEntropyLoss, MaxPool2d, Module, NllLoss};
use ctensor::{DType, EmbeddingBagMode, EmbeddingBagOptions, Error, InterpolateMode, Reduction, Resize, Tensor};
use serde_json::{json, Value};

/// Why a case failed: the library's error, or a mismatch in words.
enum Fail {
    Lib(Error),
    Problem(String),
}

impl From<Error> for Fail {
    fn from(e: Error) -> Fail {
        Fail::Lib(e)
    }
}

type Outcome<T> = std::result::Result<T, Fail>;
type Op = Box<dyn Fn(&[Tensor], &Value) -> ctensor::Result<Vec<Tensor>>>;

fn problem<T>(text: String) -> Outcome<T> {
    Err(Fail::Problem(text))
}

/// A JSON number, or "nan" / "inf" / "-inf".
fn decode(v: &Value) -> f64 {
    match v {
        Value::String(s) => s.parse().unwrap_or(f64::NAN),
        other => other.as_f64().unwrap_or(f64::NAN),
    }
}

/// A case input: a tensor (dtype, shape, row-major values, requires_grad) or a wrapped scalar.
fn make(j: &Value) -> Outcome<Tensor> {
    if let Some(s) = j.get("scalar") {
        return Ok(Tensor::wrapped_scalar(decode(s), s.is_i64() || s.is_u64())?);
    }
    if let Some(b) = j.get("bool_scalar") {
        // a Rust bool beside a tensor: the same wrapped bool its operators make
        return Ok(Tensor::wrapped_scalar_bool(b.as_i64() == Some(1))?);
    }
    if let Some(z) = j.get("complex_scalar") {
        // a Rust user's `ctensor::Complex` beside a tensor: the same wrapped complex number its operators make
        return Ok(Tensor::wrapped_scalar_complex(decode(&z[0]), decode(&z[1]))?);
    }
    let shape: Vec<i64> = j["shape"].as_array().unwrap().iter().map(|d| d.as_i64().unwrap()).collect();
    let values = j["values"].as_array().unwrap();
    let ints = || values.iter().map(|v| v.as_i64().unwrap());
    let t = match j["dtype"].as_str().unwrap() {
        "float32" => Tensor::from_slice(&values.iter().map(|v| decode(v) as f32).collect::<Vec<_>>(), &shape)?,
        "float64" => Tensor::from_slice(&values.iter().map(decode).collect::<Vec<_>>(), &shape)?,
        "int32" => Tensor::from_slice(&ints().map(|v| v as i32).collect::<Vec<_>>(), &shape)?,
        "int64" => Tensor::from_slice(&ints().collect::<Vec<_>>(), &shape)?,
        "uint8" => Tensor::from_slice(&ints().map(|v| v as u8).collect::<Vec<_>>(), &shape)?,
        "bool" => Tensor::from_slice(&ints().map(|v| v != 0).collect::<Vec<_>>(), &shape)?,
        // exact half values: float64 -> half rounds none of them
        "float16" | "bfloat16" => Tensor::from_slice(&values.iter().map(decode).collect::<Vec<_>>(), &shape)?
            .to_dtype(dtype_name(j["dtype"].as_str().unwrap()))?,
        // (re, im) pairs interleaved
        "complex64" => Tensor::from_complex_pairs(
            &values.chunks_exact(2).map(|p| [decode(&p[0]) as f32, decode(&p[1]) as f32]).collect::<Vec<_>>(),
            &shape,
        )?
        .copy()?,
        "complex128" => Tensor::from_complex_pairs(
            &values.chunks_exact(2).map(|p| [decode(&p[0]), decode(&p[1])]).collect::<Vec<_>>(),
            &shape,
        )?
        .copy()?,
        other => return problem(format!("unknown dtype {other}")),
    };
    Ok(if j.get("requires_grad") == Some(&Value::Bool(true)) { t.requires_grad_(true)? } else { t })
}

/// Checks `got` against the expected tensor JSON.
fn compare(what: &str, got: &Tensor, want: &Value) -> Outcome<()> {
    let dtype = got.dtype();
    if dtype.name() != want["dtype"].as_str().unwrap() {
        return problem(format!("{what}: dtype {}, expected {}", dtype.name(), want["dtype"]));
    }
    let shape: Vec<i64> = want["shape"].as_array().unwrap().iter().map(|d| d.as_i64().unwrap()).collect();
    if got.size() != shape {
        return problem(format!("{what}: shape {:?}, expected {shape:?}", got.size()));
    }
    if dtype.is_complex() {
        // each part with its real dtype's tolerance: the [..., 2] view against the interleaved values
        let mut parts = want.clone();
        parts["dtype"] = json!(if dtype == DType::Complex64 { "float32" } else { "float64" });
        parts["shape"].as_array_mut().unwrap().push(json!(2));
        return compare(what, &got.view_as_real()?, &parts);
    }
    let (atol, rtol) = match dtype {
        DType::Float32 => (1e-5, 1e-5),
        DType::Float64 => (1e-12, 1e-10),
        DType::Float16 => (1e-3, 1e-3), // about 2 units in the last place (README, "Tolerances")
        DType::BFloat16 => (1e-2, 1e-2),
        _ => (0.0, 0.0),
    };
    if let Some(props) = want.get("properties") {
        return check_properties(what, &got.to_dtype(DType::Float64)?.to_vec::<f64>()?, props, atol, rtol);
    }
    let values = want["values"].as_array().unwrap();
    if dtype.is_floating() {
        let got = got.to_dtype(DType::Float64)?.to_vec::<f64>()?;
        for (i, (g, w)) in got.iter().zip(values.iter().map(decode)).enumerate() {
            if !((g.is_nan() && w.is_nan()) || *g == w || (g - w).abs() <= atol + rtol * w.abs()) {
                return problem(format!("{what}: element {i} is {g}, expected {w}"));
            }
        }
    } else {
        for (i, (g, w)) in got.to_vec::<i64>()?.iter().zip(values).enumerate() {
            if Some(*g) != w.as_i64() {
                return problem(format!("{what}: element {i} is {g}, expected {w}"));
            }
        }
    }
    Ok(())
}

/// Checks that `v` has every property of `props` (README, "Properties").
fn check_properties(what: &str, v: &[f64], props: &Value, atol: f64, rtol: f64) -> Outcome<()> {
    let flag = |k: &str| props.get(k).and_then(Value::as_bool).unwrap_or(false);
    let pair = |k: &str| props.get(k).map(|p| (decode(&p[0]), decode(&p[1])));
    for (i, &x) in v.iter().enumerate() {
        if let Some((lo, hi)) = pair("range") {
            if !(x >= lo && x < hi) {
                return problem(format!("{what}: element {i} is {x}, outside [{lo}, {hi})"));
            }
        }
        if flag("integral") && x != x.floor() {
            return problem(format!("{what}: element {i} is {x}, not an integer"));
        }
        if let Some(z) = props.get("zero_or") {
            let w = decode(&z[i]);
            if x != 0.0 && (x - w).abs() > atol + rtol * w.abs() {
                return problem(format!("{what}: element {i} is {x}, expected 0 or {w}"));
            }
        }
        if let Some(a) = props.get("abs") {
            // equal up to sign: singular vectors and eigenvectors (one sign per vector)
            let w = decode(&a[i]).abs();
            if (x.abs() - w).abs() > atol + rtol * w {
                return problem(format!("{what}: element {i} is {x}, expected +-{w}"));
            }
        }
    }
    if flag("permutation") {
        let mut sorted = v.to_vec();
        sorted.sort_by(f64::total_cmp);
        if sorted.iter().enumerate().any(|(i, &x)| x != i as f64) {
            return problem(format!("{what}: not a permutation of 0..{}", v.len() as i64 - 1));
        }
    }
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    if let Some((m, bound)) = pair("mean") {
        if !((mean - m).abs() <= bound) {
            return problem(format!("{what}: mean {mean}, expected {m} within {bound}"));
        }
    }
    if let Some((s, bound)) = pair("std") {
        let sd = (v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)).sqrt();
        if !((sd - s).abs() <= bound) {
            return problem(format!("{what}: standard deviation {sd}, expected {s} within {bound}"));
        }
    }
    Ok(())
}

/// Whether `e` is the variant the binding maps status `name` to.
fn is_kind(e: &Error, name: &str) -> bool {
    match name {
        "CT_ERR_INVALID_ARGUMENT" => matches!(e, Error::InvalidArgument(_)),
        "CT_ERR_INVALID_HANDLE" => matches!(e, Error::InvalidHandle(_)),
        "CT_ERR_SHAPE" => matches!(e, Error::Shape(_)),
        "CT_ERR_DTYPE" => matches!(e, Error::DType(_)),
        "CT_ERR_DEVICE" => matches!(e, Error::Device(_)),
        "CT_ERR_INDEX" => matches!(e, Error::Index(_)),
        "CT_ERR_OUT_OF_MEMORY" => matches!(e, Error::OutOfMemory(_)),
        "CT_ERR_NOT_SUPPORTED" => matches!(e, Error::NotSupported(_)),
        "CT_ERR_AUTOGRAD" => matches!(e, Error::Autograd(_)),
        "CT_ERR_IO" => matches!(e, Error::Io(_)),
        _ => false,
    }
}

/// `dims` of a reduction case: null (every dim) is the empty slice.
fn dims(a: &Value) -> Vec<i64> {
    a.get("dims").and_then(Value::as_array).map(|d| d.iter().map(|x| x.as_i64().unwrap()).collect()).unwrap_or_default()
}

fn keepdim(a: &Value) -> bool {
    a.get("keepdim").and_then(Value::as_bool).unwrap_or(false)
}

fn dim(a: &Value) -> i64 {
    a["dim"].as_i64().unwrap()
}

fn one(t: ctensor::Result<Tensor>) -> ctensor::Result<Vec<Tensor>> {
    t.map(|t| vec![t])
}

/// An in-place op's case: `write` applied to a copy of input 0, which is the output.
fn in_place(x: &[Tensor], write: impl FnOnce(&mut Tensor) -> ctensor::Result<()>) -> ctensor::Result<Vec<Tensor>> {
    let mut y = x[0].copy()?;
    write(&mut y)?;
    Ok(vec![y])
}

fn pair(t: ctensor::Result<(Tensor, Tensor)>) -> ctensor::Result<Vec<Tensor>> {
    t.map(|(a, b)| vec![a, b])
}

type Unary = fn(&Tensor) -> ctensor::Result<Tensor>;
type Binary = fn(&Tensor, &Tensor) -> ctensor::Result<Tensor>;
type Reduce = fn(&Tensor, &[i64], bool) -> ctensor::Result<Tensor>;

/// op name -> the call a Rust user writes.
fn op_table() -> HashMap<&'static str, Op> {
    let mut t: HashMap<&'static str, Op> = HashMap::new();
    let unary: [(&'static str, Unary); 27] = [
        ("neg", Tensor::neg),
        ("abs", Tensor::abs),
        ("sign", Tensor::sign),
        ("exp", Tensor::exp),
        ("log", Tensor::log),
        ("log1p", Tensor::log1p),
        ("expm1", Tensor::expm1),
        ("sqrt", Tensor::sqrt),
        ("rsqrt", Tensor::rsqrt),
        ("sin", Tensor::sin),
        ("cos", Tensor::cos),
        ("tan", Tensor::tan),
        ("tanh", Tensor::tanh),
        ("sigmoid", Tensor::sigmoid),
        ("relu", Tensor::relu),
        ("gelu", Tensor::gelu),
        ("silu", Tensor::silu),
        ("softplus", Tensor::softplus),
        ("floor", Tensor::floor),
        ("ceil", Tensor::ceil),
        ("round", Tensor::round),
        ("reciprocal", Tensor::reciprocal),
        ("logical_not", Tensor::logical_not),
        ("max", Tensor::max),
        ("min", Tensor::min),
        ("argmax_all", Tensor::argmax_all),
        ("argmin_all", Tensor::argmin_all),
    ];
    for (name, f) in unary {
        t.insert(name, Box::new(move |x, _| one(f(&x[0]))));
    }
    let binary: [(&'static str, Binary); 33] = [
        ("mul", Tensor::mul),
        ("div", Tensor::div),
        ("pow", Tensor::pow),
        ("maximum", Tensor::maximum),
        ("minimum", Tensor::minimum),
        ("atan2", Tensor::atan2),
        ("remainder", Tensor::remainder),
        ("floor_divide", Tensor::floor_divide),
        ("eq", Tensor::eq),
        ("ne", Tensor::ne),
        ("lt", Tensor::lt),
        ("le", Tensor::le),
        ("gt", Tensor::gt),
        ("ge", Tensor::ge),
        ("logical_and", Tensor::logical_and),
        ("logical_or", Tensor::logical_or),
        ("logical_xor", Tensor::logical_xor),
        // binary math (issue 14)
        ("logaddexp", Tensor::logaddexp),
        ("logaddexp2", Tensor::logaddexp2),
        ("hypot", Tensor::hypot),
        ("xlogy", Tensor::xlogy),
        ("copysign", Tensor::copysign),
        ("fmax", Tensor::fmax),
        ("fmin", Tensor::fmin),
        ("heaviside", Tensor::heaviside),
        ("nextafter", Tensor::nextafter),
        ("bitwise_and", Tensor::bitwise_and),
        ("bitwise_or", Tensor::bitwise_or),
        ("bitwise_xor", Tensor::bitwise_xor),
        ("bitwise_left_shift", Tensor::bitwise_left_shift),
        ("bitwise_right_shift", Tensor::bitwise_right_shift),
        ("gcd", Tensor::gcd),
        ("lcm", Tensor::lcm),
    ];
    for (name, f) in binary {
        t.insert(name, Box::new(move |x, _| one(f(&x[0], &x[1]))));
    }
    t.insert("bitwise_not", Box::new(|x, _| one(x[0].bitwise_not()))); // issue 14
    t.insert("addcmul", Box::new(|x, a| one(x[0].addcmul(&x[1], &x[2], a["value"].as_f64().unwrap()))));
    t.insert("addcdiv", Box::new(|x, a| one(x[0].addcdiv(&x[1], &x[2], a["value"].as_f64().unwrap()))));
    let reduce: [(&'static str, Reduce); 6] = [
        ("sum", Tensor::sum),
        ("mean", Tensor::mean),
        ("prod", Tensor::prod),
        ("logsumexp", Tensor::logsumexp),
        ("all", Tensor::all),
        ("any", Tensor::any),
    ];
    for (name, f) in reduce {
        t.insert(name, Box::new(move |x, a| one(f(&x[0], &dims(a), keepdim(a)))));
    }
    let alpha = |a: &Value| a.get("alpha").and_then(Value::as_f64).unwrap_or(1.0);
    t.insert("add", Box::new(move |x, a| one(x[0].add_alpha(&x[1], alpha(a)))));
    t.insert("sub", Box::new(move |x, a| one(x[0].sub_alpha(&x[1], alpha(a)))));
    t.insert("where", Box::new(|x, _| one(Tensor::where_cond(&x[0], &x[1], &x[2]))));
    t.insert("pow_scalar", Box::new(|x, a| one(x[0].pow_scalar(a["exponent"].as_f64().unwrap()))));
    // unary math (issue 14)
    let unary_math: [(&'static str, Unary); 22] = [
        ("asin", Tensor::asin),
        ("acos", Tensor::acos),
        ("atan", Tensor::atan),
        ("sinh", Tensor::sinh),
        ("cosh", Tensor::cosh),
        ("asinh", Tensor::asinh),
        ("acosh", Tensor::acosh),
        ("atanh", Tensor::atanh),
        ("erf", Tensor::erf),
        ("erfc", Tensor::erfc),
        ("erfinv", Tensor::erfinv),
        ("lgamma", Tensor::lgamma),
        ("digamma", Tensor::digamma),
        ("sinc", Tensor::sinc),
        ("sgn", Tensor::sgn),
        ("deg2rad", Tensor::deg2rad),
        ("rad2deg", Tensor::rad2deg),
        ("signbit", Tensor::signbit),
        ("isposinf", Tensor::isposinf),
        ("isneginf", Tensor::isneginf),
        ("positive", Tensor::positive),
        ("i0", Tensor::i0),
    ];
    for (name, f) in unary_math {
        t.insert(name, Box::new(move |x, _| one(f(&x[0]))));
    }
    t.insert("logit", Box::new(|x, a| one(x[0].logit(a.get("eps").and_then(|e| e.as_f64())))));
    t.insert("clamp", Box::new(|x, a| one(x[0].clamp(a["min"].as_f64(), a["max"].as_f64()))));
    t.insert("var", Box::new(|x, a| one(x[0].var(&dims(a), a["correction"].as_f64().unwrap(), keepdim(a)))));
    t.insert("std", Box::new(|x, a| one(x[0].std(&dims(a), a["correction"].as_f64().unwrap(), keepdim(a)))));
    t.insert("norm", Box::new(|x, a| one(x[0].norm(a["p"].as_f64().unwrap(), &dims(a), keepdim(a)))));
    t.insert("max_dim", Box::new(|x, a| pair(x[0].max_dim(dim(a), keepdim(a)))));
    t.insert("min_dim", Box::new(|x, a| pair(x[0].min_dim(dim(a), keepdim(a)))));
    t.insert("argmax", Box::new(|x, a| one(x[0].argmax(dim(a), keepdim(a)))));
    t.insert("argmin", Box::new(|x, a| one(x[0].argmin(dim(a), keepdim(a)))));
    t.insert("cumsum", Box::new(|x, a| one(x[0].cumsum(dim(a)))));
    t.insert("cumprod", Box::new(|x, a| one(x[0].cumprod(dim(a)))));
    // complex parts and views (issue 15)
    let complex_unary: [(&'static str, Unary); 6] = [
        ("angle", Tensor::angle),
        ("conj", Tensor::conj),
        ("real", Tensor::real),
        ("imag", Tensor::imag),
        ("view_as_real", Tensor::view_as_real),
        ("view_as_complex", Tensor::view_as_complex),
    ];
    for (name, f) in complex_unary {
        t.insert(name, Box::new(move |x, _| one(f(&x[0]))));
    }
    t.insert("complex", Box::new(|x, _| one(Tensor::complex(&x[0], &x[1]))));
    t.insert("polar", Box::new(|x, _| one(Tensor::polar(&x[0], &x[1]))));
    t.extend(view_ops());
    t.insert("matmul", Box::new(|x, _| one(x[0].matmul(&x[1]))));
    t.insert("dot", Box::new(|x, _| one(x[0].dot(&x[1]))));
    t.insert("outer", Box::new(|x, _| one(x[0].outer(&x[1]))));
    t.insert("linear", Box::new(|x, _| one(x[0].linear(&x[1], x.get(2)))));
    t.insert("softmax", Box::new(|x, a| one(x[0].softmax(dim(a)))));
    t.insert("log_softmax", Box::new(|x, a| one(x[0].log_softmax(dim(a)))));
    t.insert("index_select", Box::new(|x, a| one(x[0].index_select(dim(a), &x[1]))));
    t.insert("gather", Box::new(|x, a| one(x[0].gather(dim(a), &x[1]))));
    t.insert("cat", Box::new(|x, a| one(Tensor::cat(&x.iter().collect::<Vec<_>>(), dim(a)))));
    t.insert("stack", Box::new(|x, a| one(Tensor::stack(&x.iter().collect::<Vec<_>>(), dim(a)))));
    // ordering, masking, scatter, sorting, copies, conversions, mse_loss
    t.insert("flip", Box::new(|x, a| one(x[0].flip(&ints(a, "dims")))));
    t.insert("roll", Box::new(|x, a| one(x[0].roll(&ints(a, "shifts"), &ints(a, "dims")))));
    t.insert("tril", Box::new(|x, a| one(x[0].tril(int(a, "diagonal")))));
    t.insert("triu", Box::new(|x, a| one(x[0].triu(int(a, "diagonal")))));
    t.insert("clone", Box::new(|x, _| one(x[0].copy())));
    t.insert("contiguous", Box::new(|x, _| one(x[0].contiguous())));
    t.insert("detach", Box::new(|x, _| one(x[0].detach())));
    t.insert("squeeze_all", Box::new(|x, _| one(x[0].squeeze_all())));
    t.insert("nonzero", Box::new(|x, _| one(x[0].nonzero())));
    t.insert("masked_fill", Box::new(|x, a| one(x[0].masked_fill(&x[1], a["value"].as_f64().unwrap()))));
    t.insert("masked_select", Box::new(|x, _| one(x[0].masked_select(&x[1]))));
    t.insert("to_dtype", Box::new(|x, a| one(x[0].to_dtype(dtype_arg(a)))));
    t.insert("sort", Box::new(|x, a| pair(x[0].sort(dim(a), flag(a, "descending")))));
    t.insert("argsort", Box::new(|x, a| one(x[0].argsort(dim(a), flag(a, "descending")))));
    t.insert("topk", Box::new(|x, a| pair(x[0].topk(int(a, "k"), dim(a), flag(a, "largest"), true))));
    t.insert("kthvalue", Box::new(|x, a| pair(x[0].kthvalue(int(a, "k"), dim(a), keepdim(a)))));
    t.insert("mse_loss", Box::new(|x, a| one(ctensor::nn::mse_loss(&x[0], &x[1], reduction(a)))));
    t.insert("scatter", Box::new(|x, a| one(x[0].scatter(dim(a), &x[1], &x[2]))));
    t.insert("scatter_add", Box::new(|x, a| one(x[0].scatter_add(dim(a), &x[1], &x[2]))));
    t.insert(
        "scatter_reduce",
        Box::new(|x, a| one(x[0].scatter_reduce(dim(a), &x[1], &x[2], scatter_reduce(a), flag(a, "include_self")))),
    );
    // the toolbox's indexed writes (issue 14); index_put's inputs are x, values, then the index tensors
    t.insert("index_add", Box::new(|x, a| one(x[0].index_add(dim(a), &x[1], &x[2], a["alpha"].as_f64().unwrap()))));
    t.insert("index_copy", Box::new(|x, a| one(x[0].index_copy(dim(a), &x[1], &x[2]))));
    // the in-place forms write into a copy of input 0, which is the output
    t.insert("scatter_", Box::new(|x, a| in_place(x, |y| y.scatter_(dim(a), &x[1], &x[2]))));
    t.insert("scatter_add_", Box::new(|x, a| in_place(x, |y| y.scatter_add_(dim(a), &x[1], &x[2]))));
    t.insert(
        "scatter_reduce_",
        Box::new(|x, a| {
            in_place(x, |y| y.scatter_reduce_(dim(a), &x[1], &x[2], scatter_reduce(a), flag(a, "include_self")))
        }),
    );
    t.insert(
        "index_add_",
        Box::new(|x, a| in_place(x, |y| y.index_add_(dim(a), &x[1], &x[2], a["alpha"].as_f64().unwrap()))),
    );
    t.insert("index_copy_", Box::new(|x, a| in_place(x, |y| y.index_copy_(dim(a), &x[1], &x[2]))));
    t.insert(
        "index_put_",
        Box::new(|x, a| {
            let ix: Vec<&Tensor> = x[2..].iter().collect();
            in_place(x, |y| y.index_put_(&ix, &x[1], a["accumulate"].as_bool().unwrap()))
        }),
    );
    t.insert(
        "index_put",
        Box::new(|x, a| {
            let ix: Vec<&Tensor> = x[2..].iter().collect();
            one(x[0].index_put(&ix, &x[1], a["accumulate"].as_bool().unwrap()))
        }),
    );
    t.insert(
        "searchsorted",
        Box::new(|x, a| {
            let (right, i32) = (flag(a, "right"), flag(a, "out_int32"));
            one(x[0].searchsorted(&x[1], right, i32, x.get(2)))
        }),
    );
    t.insert("bincount", Box::new(|x, a| one(x[0].bincount(x.get(1), int(a, "minlength")))));
    t.insert(
        "histc",
        Box::new(|x, a| one(x[0].histc(int(a, "bins"), a["min"].as_f64().unwrap(), a["max"].as_f64().unwrap()))),
    );
    t.insert("cummax", Box::new(|x, a| pair(x[0].cummax(dim(a)))));
    t.insert("cummin", Box::new(|x, a| pair(x[0].cummin(dim(a)))));
    t.insert("median_dim", Box::new(|x, a| pair(x[0].median_dim(dim(a), flag(a, "keepdim")))));
    t.insert(
        "quantile",
        Box::new(|x, a| {
            one(x[0].quantile(a["q"].as_f64().unwrap(), a["dim"].as_i64(), flag(a, "keepdim"), interpolation(a)))
        }),
    );
    t.insert("cdist", Box::new(|x, a| one(x[0].cdist(&x[1], decode(&a["p"]), 0))));
    t.insert("median", Box::new(|x, _| one(x[0].median())));
    t.insert("nanmedian", Box::new(|x, _| one(x[0].nanmedian())));
    t.insert("nanmedian_dim", Box::new(|x, a| pair(x[0].nanmedian_dim(dim(a), flag(a, "keepdim")))));
    // more reductions and products (issue 14)
    t.insert("logcumsumexp", Box::new(|x, a| one(x[0].logcumsumexp(dim(a)))));
    t.insert("aminmax", Box::new(|x, a| pair(x[0].aminmax(a["dim"].as_i64(), keepdim(a)))));
    t.insert("var_mean", Box::new(|x, a| pair(x[0].var_mean(&dims(a), a["correction"].as_f64().unwrap(), keepdim(a)))));
    t.insert("std_mean", Box::new(|x, a| pair(x[0].std_mean(&dims(a), a["correction"].as_f64().unwrap(), keepdim(a)))));
    t.insert("kron", Box::new(|x, _| one(x[0].kron(&x[1]))));
    t.insert("inner", Box::new(|x, _| one(x[0].inner(&x[1]))));
    t.insert("tensordot", Box::new(|x, a| one(x[0].tensordot(&x[1], &ints(a, "dims_a"), &ints(a, "dims_b")))));
    t.insert(
        "nanquantile",
        Box::new(|x, a| {
            one(x[0].nanquantile(a["q"].as_f64().unwrap(), a["dim"].as_i64(), flag(a, "keepdim"), interpolation(a)))
        }),
    );
    t.insert(
        "repeat_interleave",
        Box::new(|x, a| {
            let repeats = match a["repeats"].as_i64() {
                Some(n) => ctensor::Repeats::Count(n),
                None => ctensor::Repeats::PerSlice(&x[1]),
            };
            one(x[0].repeat_interleave(repeats, a["dim"].as_i64(), None))
        }),
    );
    t.insert(
        "meshgrid",
        Box::new(|x, a| ctensor::meshgrid(&x.iter().collect::<Vec<_>>(), a["indexing"].as_str() == Some("xy"))),
    );
    t.insert(
        "nan_to_num",
        Box::new(|x, a| one(x[0].nan_to_num(a["nan"].as_f64(), a["posinf"].as_f64(), a["neginf"].as_f64()))),
    );
    t.insert(
        "diff",
        Box::new(|x, a| {
            let (p, q) = (flag(a, "prepend"), flag(a, "append"));
            let pre = if p { Some(&x[1]) } else { None };
            let app = if q { x.last() } else { None };
            one(x[0].diff(int(a, "n"), dim(a), pre, app))
        }),
    );
    t.insert("take_along_dim", Box::new(|x, a| one(x[0].take_along_dim(&x[1], a["dim"].as_i64()))));
    t.extend(nn_ops());
    t.extend(creation_ops());
    t.extend(loss_ops());
    t.extend(linalg_ops());
    t.extend(conv_nd_ops());
    t.extend(recurrent_ops());
    // in-place writes through a view of a clone of input 0; the output is the clone
    type Write = fn(&mut Tensor, &[Tensor], &Value) -> ctensor::Result<()>;
    let writes: [(&'static str, Write); 8] = [
        ("add_", |v, x, a| v.add_alpha_(&x[1], a["alpha"].as_f64().unwrap())),
        ("sub_", |v, x, a| v.sub_alpha_(&x[1], a["alpha"].as_f64().unwrap())),
        ("mul_", |v, x, _| v.mul_(&x[1])),
        ("div_", |v, x, _| v.div_(&x[1])),
        ("copy_", |v, x, _| v.copy_(&x[1])),
        ("zero_", |v, _, _| v.zero_()),
        ("fill_", |v, _, a| v.fill_(a["value"].as_f64().unwrap())),
        ("clamp_", |v, _, a| v.clamp_(a["min"].as_f64(), a["max"].as_f64())),
    ];
    for (name, write) in writes {
        t.insert(
            name,
            Box::new(move |x, a| {
                let y = x[0].copy()?;
                let mut v =
                    view_ops()[a["view"].as_str().unwrap()](std::slice::from_ref(&y), &a["view_args"])?.remove(0);
                write(&mut v, x, a)?;
                Ok(vec![y])
            }),
        );
    }
    t
}

fn int(a: &Value, key: &str) -> i64 {
    a[key].as_i64().unwrap()
}

fn ints(a: &Value, key: &str) -> Vec<i64> {
    a[key].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect()
}

fn dtype_arg(a: &Value) -> DType {
    dtype_name(a["dtype"].as_str().unwrap())
}

fn dtype_name(name: &str) -> DType {
    match name {
        "float32" => DType::Float32,
        "float16" => DType::Float16,
        "bfloat16" => DType::BFloat16,
        "float64" => DType::Float64,
        "int32" => DType::Int32,
        "int64" => DType::Int64,
        "uint8" => DType::UInt8,
        _ => DType::Bool,
    }
}

fn reduction(a: &Value) -> Reduction {
    match a["reduction"].as_str().unwrap() {
        "none" => Reduction::None,
        "sum" => Reduction::Sum,
        _ => Reduction::Mean,
    }
}

fn pair2(a: &Value, key: &str) -> [i64; 2] {
    let v = ints(a, key);
    [v[0], v[1]]
}

/// quantile's `interpolation` argument by torch's name.
fn interpolation(a: &Value) -> ctensor::Interpolation {
    match a["interpolation"].as_str().unwrap() {
        "lower" => ctensor::Interpolation::Lower,
        "higher" => ctensor::Interpolation::Higher,
        "midpoint" => ctensor::Interpolation::Midpoint,
        "nearest" => ctensor::Interpolation::Nearest,
        _ => ctensor::Interpolation::Linear,
    }
}

fn scatter_reduce(a: &Value) -> ctensor::ScatterReduce {
    match a["reduce"].as_str().unwrap() {
        "prod" => ctensor::ScatterReduce::Prod,
        "mean" => ctensor::ScatterReduce::Mean,
        "amax" => ctensor::ScatterReduce::Amax,
        "amin" => ctensor::ScatterReduce::Amin,
        _ => ctensor::ScatterReduce::Sum,
    }
}

fn flag(a: &Value, key: &str) -> bool {
    a[key].as_bool().unwrap()
}

/// Convolution, pooling, losses, embedding, einsum, split/chunk, unique.
fn nn_ops() -> HashMap<&'static str, Op> {
    let mut t: HashMap<&'static str, Op> = HashMap::new();
    t.insert(
        "conv2d",
        Box::new(|x, a| {
            let (s, p, d) = (pair2(a, "stride"), pair2(a, "padding"), pair2(a, "dilation"));
            one(x[0].conv2d(&x[1], x.get(2), s, p, d, int(a, "groups")))
        }),
    );
    t.insert(
        "max_pool2d",
        Box::new(|x, a| one(x[0].max_pool2d(pair2(a, "kernel"), pair2(a, "stride"), pair2(a, "padding")))),
    );
    t.insert(
        "avg_pool2d",
        Box::new(|x, a| one(x[0].avg_pool2d(pair2(a, "kernel"), pair2(a, "stride"), pair2(a, "padding")))),
    );
    t.insert(
        "max_pool2d_ex",
        Box::new(|x, a| {
            let pool = MaxPool2d::new(pair2(a, "kernel"))
                .stride(pair2(a, "stride"))
                .padding(pair2(a, "padding"))
                .dilation(pair2(a, "dilation"))
                .ceil_mode(flag(a, "ceil_mode"));
            pair(pool.forward_with_indices(&x[0]))
        }),
    );
    t.insert(
        "avg_pool2d_ex",
        Box::new(|x, a| {
            let divisor = int(a, "divisor_override");
            let pool = AvgPool2d::new(pair2(a, "kernel"))
                .stride(pair2(a, "stride"))
                .padding(pair2(a, "padding"))
                .ceil_mode(flag(a, "ceil_mode"))
                .count_include_pad(flag(a, "count_include_pad"))
                .divisor_override(if divisor == 0 { None } else { Some(divisor) });
            one(pool.forward(&x[0]))
        }),
    );
    t.insert("adaptive_avg_pool2d", Box::new(|x, a| one(x[0].adaptive_avg_pool2d(pair2(a, "output_size")))));
    t.insert("adaptive_max_pool2d", Box::new(|x, a| pair(x[0].adaptive_max_pool2d(pair2(a, "output_size")))));
    t.insert(
        "cross_entropy",
        Box::new(|x, a| one(ctensor::nn::cross_entropy_ignore(&x[0], &x[1], reduction(a), int(a, "ignore_index")))),
    );
    t.insert(
        "nll_loss",
        Box::new(|x, a| one(ctensor::nn::nll_loss(&x[0], &x[1], reduction(a), int(a, "ignore_index")))),
    );
    t.insert(
        "cross_entropy_ex",
        Box::new(|x, a| {
            let loss = CrossEntropyLoss::new()
                .weight(&x[2])
                .reduction(reduction(a))
                .ignore_index(int(a, "ignore_index"))
                .label_smoothing(a["label_smoothing"].as_f64().unwrap());
            one(loss.forward(&x[0], &x[1]))
        }),
    );
    t.insert(
        "nll_loss_ex",
        Box::new(|x, a| {
            let loss = NllLoss::new().weight(&x[2]).reduction(reduction(a)).ignore_index(int(a, "ignore_index"));
            one(loss.forward(&x[0], &x[1]))
        }),
    );
    t.insert(
        "binary_cross_entropy",
        Box::new(|x, a| one(ctensor::nn::binary_cross_entropy(&x[0], &x[1], reduction(a)))),
    );
    t.insert(
        "binary_cross_entropy_with_logits",
        Box::new(|x, a| one(ctensor::nn::binary_cross_entropy_with_logits(&x[0], &x[1], reduction(a)))),
    );
    t.insert("embedding", Box::new(|x, _| one(x[0].embedding(&x[1]))));
    t.insert(
        "scaled_dot_product_attention",
        Box::new(|x, a| {
            let scale = a["scale"].as_f64().unwrap();
            let (p, causal) = (a["dropout_p"].as_f64().unwrap(), flag(a, "is_causal"));
            let scale = Some(scale).filter(|s| *s > 0.0);
            one(x[0].scaled_dot_product_attention(&x[1], &x[2], x.get(3), p, causal, scale, None))
        }),
    );
    t.insert(
        "multi_head_attention_forward",
        Box::new(|x, a| {
            let need_weights = flag(a, "need_weights");
            let opts = ctensor::MhaOptions { key_padding_mask: x.get(7), need_weights, ..Default::default() };
            let (heads, bias_in, bias_out) = (int(a, "num_heads"), Some(&x[4]), Some(&x[6]));
            let (out, w) = ctensor::multi_head_attention_forward(
                &x[0], &x[1], &x[2], heads, &x[3], bias_in, &x[5], bias_out, opts,
            )?;
            Ok(std::iter::once(out).chain(w).collect())
        }),
    );
    t.insert(
        "embedding_ex",
        Box::new(|x, a| one(x[0].embedding_ex(&x[1], a["padding_idx"].as_i64(), a["scale_grad_by_freq"].as_bool().unwrap()))),
    );
    // the output is a clone of input 0 renormalised at the indices of input 1
    t.insert(
        "embedding_renorm_",
        Box::new(|x, a| {
            let y = x[0].copy()?;
            y.embedding_renorm_(&x[1], a["max_norm"].as_f64().unwrap(), a["norm_type"].as_f64().unwrap())?;
            Ok(vec![y])
        }),
    );
    t.insert(
        "embedding_bag",
        Box::new(|x, a| {
            let mode = match a["mode"].as_str().unwrap() {
                "sum" => EmbeddingBagMode::Sum,
                "mean" => EmbeddingBagMode::Mean,
                _ => EmbeddingBagMode::Max,
            };
            let options = EmbeddingBagOptions {
                mode,
                include_last_offset: a["include_last_offset"].as_bool().unwrap(),
                padding_idx: a["padding_idx"].as_i64(),
                scale_grad_by_freq: a["scale_grad_by_freq"].as_bool().unwrap(),
            };
            one(x[0].embedding_bag(&x[1], x.get(2), x.get(3), options))
        }),
    );
    // interpolate: torch's mode names; size / scale_factor null (none) or one value per spatial dim
    t.insert(
        "interpolate",
        Box::new(|x, a| {
            let mode = match a["mode"].as_str().unwrap() {
                "nearest" => InterpolateMode::Nearest,
                "nearest-exact" => InterpolateMode::NearestExact,
                "bicubic" => InterpolateMode::Bicubic,
                "area" => InterpolateMode::Area,
                _ => InterpolateMode::Linear,
            };
            let resize = if a["size"].is_null() {
                Resize::Scale(a["scale_factor"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect())
            } else {
                Resize::Size(ints(a, "size"))
            };
            let recompute = a["recompute_scale_factor"].as_bool().unwrap();
            one(x[0].interpolate(&resize, mode, a["align_corners"].as_bool(), recompute))
        }),
    );
    // normalisation layers: inputs x, then weight and bias when given, then running_mean and running_var
    t.insert(
        "layer_norm",
        Box::new(|x, a| one(x[0].layer_norm(&ints(a, "normalized_shape"), x.get(1), x.get(2), a["eps"].as_f64().unwrap()))),
    );
    t.insert(
        "group_norm",
        Box::new(|x, a| one(x[0].group_norm(int(a, "num_groups"), x.get(1), x.get(2), a["eps"].as_f64().unwrap()))),
    );
    t.insert(
        "batch_norm",
        Box::new(|x, a| {
            one(x[0].batch_norm(x.get(3), x.get(4), x.get(1), x.get(2), a["training"].as_bool().unwrap(),
                                a["momentum"].as_f64().unwrap(), a["eps"].as_f64().unwrap()))
        }),
    );
    t.insert(
        "einsum",
        Box::new(|x, a| one(Tensor::einsum(a["equation"].as_str().unwrap(), &x.iter().collect::<Vec<_>>()))),
    );
    t.insert("split", Box::new(|x, a| x[0].split(int(a, "split_size"), dim(a))));
    t.insert("chunk", Box::new(|x, a| x[0].chunk(int(a, "chunks"), dim(a))));
    t.insert(
        "unique",
        Box::new(|x, a| x[0].unique_all(flag(a, "sorted")).map(|u| vec![u.values, u.inverse, u.counts])),
    );
    t
}

/// Creation, host data (every tensor input is made with `Tensor::from_slice`), language scalars, moves.
fn creation_ops() -> HashMap<&'static str, Op> {
    let mut t: HashMap<&'static str, Op> = HashMap::new();
    t.insert("zeros", Box::new(|_, a| one(Tensor::zeros(&ints(a, "shape"), dtype_arg(a)))));
    t.insert("ones", Box::new(|_, a| one(Tensor::ones(&ints(a, "shape"), dtype_arg(a)))));
    t.insert("full", Box::new(|_, a| one(Tensor::full(&ints(a, "shape"), a["value"].as_f64().unwrap(), dtype_arg(a)))));
    t.insert("scalar_tensor", Box::new(|_, a| one(Tensor::scalar(a["value"].as_f64().unwrap(), dtype_arg(a)))));
    t.insert("eye", Box::new(|_, a| one(Tensor::eye(int(a, "n"), int(a, "m"), dtype_arg(a)))));
    t.insert(
        "arange",
        Box::new(|_, a| {
            let f = |k: &str| a[k].as_f64().unwrap();
            one(Tensor::arange(f("start"), f("end"), f("step"), dtype_arg(a)))
        }),
    );
    t.insert(
        "linspace",
        Box::new(|_, a| {
            let f = |k: &str| a[k].as_f64().unwrap();
            one(Tensor::linspace(f("start"), f("end"), int(a, "steps"), dtype_arg(a)))
        }),
    );
    t.insert("zeros_like", Box::new(|x, _| one(x[0].zeros_like())));
    t.insert("ones_like", Box::new(|x, _| one(x[0].ones_like())));
    t.insert("full_like", Box::new(|x, a| one(x[0].full_like(a["value"].as_f64().unwrap()))));
    t.insert("to_device", Box::new(|x, _| one(x[0].to_device(ctensor::Device::Cpu))));
    t.insert("tensor_from_data", Box::new(|x, _| Ok(vec![x[0].clone()])));
    t.insert("wrapped_scalar", Box::new(|x, _| one(x[0].mul(&x[1]))));
    t.insert("wrapped_scalar_bool", Box::new(|x, _| one(x[0].mul(&x[1]))));
    t.insert(
        "tensor_from_blob",
        Box::new(|x, _| {
            one(match x[0].dtype() {
                DType::Float32 => rewrap::<f32>(&x[0]),
                DType::Float64 => rewrap::<f64>(&x[0]),
                DType::Int32 => rewrap::<i32>(&x[0]),
                DType::Int64 => rewrap::<i64>(&x[0]),
                DType::UInt8 => rewrap::<u8>(&x[0]),
                _ => rewrap::<bool>(&x[0]),
            })
        }),
    );
    // random and uninitialised tensors (run_case seeds the default generator with args["seed"])
    t.insert("rand", Box::new(|_, a| one(Tensor::rand(&ints(a, "shape"), dtype_arg(a), None))));
    t.insert("randn", Box::new(|_, a| one(Tensor::randn(&ints(a, "shape"), dtype_arg(a), None))));
    t.insert(
        "randint",
        Box::new(|_, a| one(Tensor::randint(int(a, "low"), int(a, "high"), &ints(a, "shape"), dtype_arg(a), None))),
    );
    t.insert("randperm", Box::new(|_, a| one(Tensor::randperm(int(a, "n"), ctensor::Device::Cpu, None))));
    t.insert("bernoulli", Box::new(|x, _| one(x[0].bernoulli(None))));
    t.insert("dropout", Box::new(|x, a| one(x[0].dropout(a["p"].as_f64().unwrap(), flag(a, "training"), None))));
    t.insert("empty", Box::new(|_, a| one(Tensor::empty(&ints(a, "shape"), dtype_arg(a)))));
    t.insert("empty_like", Box::new(|x, _| one(x[0].empty_like())));
    // activations (elu's parameters select ELU, SELU or CELU as a user writes them)
    t.insert(
        "elu",
        Box::new(|x, a| {
            let f = |k: &str| a[k].as_f64().unwrap();
            one(if f("input_scale") != 1.0 {
                x[0].celu(f("alpha"))
            } else if f("scale") != 1.0 {
                x[0].selu()
            } else {
                x[0].elu(f("alpha"))
            })
        }),
    );
    t.insert("leaky_relu", Box::new(|x, a| one(x[0].leaky_relu(a["negative_slope"].as_f64().unwrap()))));
    t.insert(
        "hardtanh",
        Box::new(|x, a| one(x[0].hardtanh(a["min_val"].as_f64().unwrap(), a["max_val"].as_f64().unwrap()))),
    );
    t.insert("hardsigmoid", Box::new(|x, _| one(x[0].hardsigmoid())));
    t.insert("hardswish", Box::new(|x, _| one(x[0].hardswish())));
    t.insert("mish", Box::new(|x, _| one(x[0].mish())));
    t.insert("log_sigmoid", Box::new(|x, _| one(x[0].log_sigmoid())));
    t.insert("softsign", Box::new(|x, _| one(x[0].softsign())));
    t.insert("tanhshrink", Box::new(|x, _| one(x[0].tanhshrink())));
    t.insert("softshrink", Box::new(|x, a| one(x[0].softshrink(a["lambd"].as_f64().unwrap()))));
    t.insert("hardshrink", Box::new(|x, a| one(x[0].hardshrink(a["lambd"].as_f64().unwrap()))));
    t.insert(
        "threshold",
        Box::new(|x, a| one(x[0].threshold(a["threshold"].as_f64().unwrap(), a["value"].as_f64().unwrap()))),
    );
    t.insert("softmin", Box::new(|x, a| one(x[0].softmin(dim(a)))));
    t.insert("glu", Box::new(|x, a| one(x[0].glu(dim(a)))));
    t.insert("prelu", Box::new(|x, _| one(x[0].prelu(&x[1]))));
    t.insert(
        "rrelu",
        Box::new(|x, a| {
            let f = |k: &str| a[k].as_f64().unwrap();
            one(x[0].rrelu(f("lower"), f("upper"), flag(a, "training"), None))
        }),
    );
    t
}

/// x's values moved into a Vec that a new tensor then owns without a copy (`Tensor::from_vec`, ct_tensor_from_blob).
fn rewrap<T: ctensor::Element + Send>(x: &Tensor) -> ctensor::Result<Tensor> {
    Tensor::from_vec(x.to_vec::<T>()?, &x.size())
}

/// The view ops (also the views that the in-place cases write through).
/// The losses of issue 14 (`ctensor::nn` functions; kl_div's "batchmean" is `kl_div_batchmean`; an optional weight
/// is the input after the required ones).
fn loss_ops() -> HashMap<&'static str, Op> {
    use ctensor::nn;
    let mut t: HashMap<&'static str, Op> = HashMap::new();
    let f = |a: &Value, k: &str| a[k].as_f64().unwrap();
    t.insert("l1_loss", Box::new(|x, a| one(nn::l1_loss(&x[0], &x[1], reduction(a)))));
    t.insert("smooth_l1_loss", Box::new(move |x, a| one(nn::smooth_l1_loss(&x[0], &x[1], reduction(a), f(a, "beta")))));
    t.insert("huber_loss", Box::new(move |x, a| one(nn::huber_loss(&x[0], &x[1], reduction(a), f(a, "delta")))));
    t.insert(
        "kl_div",
        Box::new(|x, a| {
            let log_target = flag(a, "log_target");
            one(if a["reduction"] == "batchmean" {
                nn::kl_div_batchmean(&x[0], &x[1], log_target)
            } else {
                nn::kl_div(&x[0], &x[1], reduction(a), log_target)
            })
        }),
    );
    t.insert("soft_margin_loss", Box::new(|x, a| one(nn::soft_margin_loss(&x[0], &x[1], reduction(a)))));
    t.insert(
        "poisson_nll_loss",
        Box::new(move |x, a| {
            one(nn::poisson_nll_loss(&x[0], &x[1], flag(a, "log_input"), flag(a, "full"), f(a, "eps"), reduction(a)))
        }),
    );
    t.insert(
        "gaussian_nll_loss",
        Box::new(move |x, a| {
            one(nn::gaussian_nll_loss(&x[0], &x[1], &x[2], flag(a, "full"), f(a, "eps"), reduction(a)))
        }),
    );
    t.insert(
        "hinge_embedding_loss",
        Box::new(move |x, a| one(nn::hinge_embedding_loss(&x[0], &x[1], f(a, "margin"), reduction(a)))),
    );
    t.insert(
        "margin_ranking_loss",
        Box::new(move |x, a| one(nn::margin_ranking_loss(&x[0], &x[1], &x[2], f(a, "margin"), reduction(a)))),
    );
    t.insert(
        "multilabel_soft_margin_loss",
        Box::new(|x, a| one(nn::multilabel_soft_margin_loss(&x[0], &x[1], x.get(2), reduction(a)))),
    );
    t.insert(
        "multi_margin_loss",
        Box::new(move |x, a| {
            one(nn::multi_margin_loss(&x[0], &x[1], int(a, "p"), f(a, "margin"), x.get(2), reduction(a)))
        }),
    );
    t.insert(
        "cosine_embedding_loss",
        Box::new(move |x, a| one(nn::cosine_embedding_loss(&x[0], &x[1], &x[2], f(a, "margin"), reduction(a)))),
    );
    t.insert(
        "triplet_margin_loss",
        Box::new(move |x, a| {
            let (m, p, eps) = (f(a, "margin"), f(a, "p"), f(a, "eps"));
            one(nn::triplet_margin_loss(&x[0], &x[1], &x[2], m, p, eps, flag(a, "swap"), reduction(a)))
        }),
    );
    t.insert(
        "ctc_loss",
        Box::new(|x, a| {
            let (il, tl) = (ints(a, "input_lengths"), ints(a, "target_lengths"));
            one(nn::ctc_loss(&x[0], &x[1], &il, &tl, int(a, "blank"), reduction(a), flag(a, "zero_infinity")))
        }),
    );
    t
}

fn view_ops() -> HashMap<&'static str, Op> {
    let mut t: HashMap<&'static str, Op> = HashMap::new();
    t.insert("reshape", Box::new(|x, a| one(x[0].reshape(&ints(a, "shape")))));
    t.insert("view", Box::new(|x, a| one(x[0].view(&ints(a, "shape")))));
    t.insert("expand", Box::new(|x, a| one(x[0].expand(&ints(a, "shape")))));
    t.insert("permute", Box::new(|x, a| one(x[0].permute(&ints(a, "dims")))));
    t.insert("transpose", Box::new(|x, a| one(x[0].transpose(int(a, "dim0"), int(a, "dim1")))));
    t.insert("squeeze", Box::new(|x, a| one(x[0].squeeze(dim(a)))));
    t.insert("unsqueeze", Box::new(|x, a| one(x[0].unsqueeze(dim(a)))));
    t.insert("flatten", Box::new(|x, a| one(x[0].flatten(int(a, "start_dim"), int(a, "end_dim")))));
    t.insert("narrow", Box::new(|x, a| one(x[0].narrow(dim(a), int(a, "start"), int(a, "length")))));
    t.insert("slice", Box::new(|x, a| one(x[0].slice(dim(a), int(a, "start"), int(a, "end"), int(a, "step")))));
    t.insert("select", Box::new(|x, a| one(x[0].select(dim(a), int(a, "index")))));
    t.insert("t", Box::new(|x, _| one(x[0].t())));
    t.insert("diagonal", Box::new(|x, a| one(x[0].diagonal(int(a, "offset"), int(a, "dim1"), int(a, "dim2")))));
    t
}

fn run_case(case: &Value, table: &HashMap<&'static str, Op>) -> Outcome<()> {
    let op = case["op"].as_str().unwrap();
    let Some(f) = table.get(op) else { return problem(format!("op {op} is not exposed")) };
    let inputs = case["inputs"].as_array().unwrap().iter().map(make).collect::<Outcome<Vec<Tensor>>>()?;
    if let Some(seed) = case["args"].get("seed").and_then(Value::as_u64) {
        ctensor::manual_seed(seed)?;
    }
    let result = f(&inputs, &case["args"]);
    if let Some(status) = case.get("error").and_then(Value::as_str) {
        return match result {
            Err(e) if is_kind(&e, status) => Ok(()),
            Err(e) => problem(format!("failed with {e:?}; expected the Error variant of {status}")),
            Ok(_) => problem(format!("returned; expected {status}")),
        };
    }
    let outs = result?;
    let expect = &case["expect"];
    let want = expect["outputs"].as_array().unwrap();
    if outs.len() != want.len() {
        return problem(format!("{} outputs, expected {}", outs.len(), want.len()));
    }
    for (k, (o, w)) in outs.iter().zip(want).enumerate() {
        compare(&format!("output {k}"), o, w)?;
    }
    if let Some(grads) = expect.get("grads").and_then(Value::as_array) {
        outs[0].backward_with(Some(&make(&expect["grad_output"])?), false, false)?;
        for (k, (x, w)) in inputs.iter().zip(grads).enumerate() {
            if w.is_null() {
                continue;
            }
            let Some(g) = x.grad() else { return problem(format!("input {k} got no gradient")) };
            compare(&format!("gradient of input {k}"), &g, w)?;
        }
    }
    Ok(())
}

fn main() {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("CONFORMANCE_CASES_DIR").map(PathBuf::from).unwrap_or_else(|| here.join("../cases"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no cases in {}", dir.display());
    let table = op_table();
    let (mut passed, mut failures) = (0usize, Vec::new());
    let (mut ops, mut failed_ops) = (BTreeSet::new(), BTreeSet::new());
    for path in &files {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        for case in doc["cases"].as_array().unwrap() {
            let op = case["op"].as_str().unwrap().to_string();
            ops.insert(op.clone());
            match run_case(case, &table) {
                Ok(()) => passed += 1,
                Err(fail) => {
                    let why = match fail {
                        Fail::Lib(e) => format!("raised {e}"),
                        Fail::Problem(p) => p,
                    };
                    failures.push(format!("{}: {why}", case["id"].as_str().unwrap()));
                    failed_ops.insert(op);
                }
            }
        }
    }
    for line in failures.iter().take(50) {
        println!("FAIL {line}");
    }
    if failures.len() > 50 {
        println!("... and {} more", failures.len() - 50);
    }
    println!("{passed} passed, {} failed", failures.len());
    let leaked = ctensor::live_handles();
    if leaked != 0 {
        println!("leaked {leaked} handles");
    }
    if let Some(out) = std::env::var_os("CONFORMANCE_RESULTS_DIR") {
        let result = json!({"language": "Rust", "run": passed + failures.len(), "passed": passed,
                            "failed": failures.len(), "ops": ops.len(), "ops_passed": ops.len() - failed_ops.len()});
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(PathBuf::from(out).join("rust.json"), result.to_string() + "\n").unwrap();
    }
    std::process::exit(if failures.is_empty() && leaked == 0 { 0 } else { 1 });
}

/// torch.linalg (tch-rs's linalg_* method names).
fn linalg_ops() -> HashMap<&'static str, Op> {
    use ctensor::{QrMode, Uplo};
    let uplo = |a: &Value| if a["UPLO"].as_str() == Some("U") { Uplo::Upper } else { Uplo::Lower };
    let mut t: HashMap<&'static str, Op> = HashMap::new();
    t.insert("linalg_inv", Box::new(|x, _| one(x[0].linalg_inv())));
    t.insert("linalg_det", Box::new(|x, _| one(x[0].linalg_det())));
    t.insert("linalg_slogdet", Box::new(|x, _| pair(x[0].linalg_slogdet())));
    t.insert("linalg_solve", Box::new(|x, _| one(x[0].linalg_solve(&x[1]))));
    t.insert("linalg_cholesky", Box::new(|x, a| one(x[0].linalg_cholesky(flag(a, "upper")))));
    t.insert(
        "linalg_qr",
        Box::new(|x, a| {
            let mode = match a["mode"].as_str() {
                Some("complete") => QrMode::Complete,
                Some("r") => QrMode::R,
                _ => QrMode::Reduced,
            };
            pair(x[0].linalg_qr(mode))
        }),
    );
    t.insert("linalg_eigh", Box::new(move |x, a| pair(x[0].linalg_eigh(uplo(a)))));
    t.insert("linalg_eigvalsh", Box::new(move |x, a| one(x[0].linalg_eigvalsh(uplo(a)))));
    t.insert("linalg_eig", Box::new(|x, _| pair(x[0].linalg_eig())));
    t.insert("linalg_eigvals", Box::new(|x, _| one(x[0].linalg_eigvals())));
    t.insert("linalg_svd", Box::new(|x, a| x[0].linalg_svd(flag(a, "full_matrices")).map(|(u, s, vh)| vec![u, s, vh])));
    t.insert("linalg_svdvals", Box::new(|x, _| one(x[0].linalg_svdvals())));
    t.insert("linalg_matrix_power", Box::new(|x, a| one(x[0].linalg_matrix_power(a["n"].as_i64().unwrap()))));
    t.insert("linalg_cross", Box::new(|x, a| one(x[0].linalg_cross(&x[1], dim(a)))));
    t.insert(
        "linalg_vector_norm",
        Box::new(|x, a| {
            let dims = if a["dims"].is_null() { vec![] } else { ints(a, "dims") };
            one(x[0].linalg_vector_norm(decode(&a["ord"]), &dims, flag(a, "keepdim")))
        }),
    );
    t.insert(
        "linalg_matrix_norm",
        Box::new(|x, a| {
            let d = ints(a, "dims");
            one(x[0].linalg_matrix_norm(a["ord"].as_str().unwrap(), d[0], d[1], flag(a, "keepdim")))
        }),
    );
    t.insert("linalg_pinv", Box::new(|x, a| one(x[0].linalg_pinv(a["atol"].as_f64(), a["rtol"].as_f64()))));
    t.insert(
        "linalg_matrix_rank",
        Box::new(|x, a| one(x[0].linalg_matrix_rank(a["atol"].as_f64(), a["rtol"].as_f64()))),
    );
    t.insert("linalg_lstsq", Box::new(|x, _| one(x[0].linalg_lstsq(&x[1]))));
    t.insert(
        "linalg_lstsq_ex",
        Box::new(|x, a| {
            let driver = match a["driver"].as_str().unwrap() {
                "gels" => ctensor::LstsqDriver::Gels,
                "gelsd" => ctensor::LstsqDriver::Gelsd,
                "gelss" => ctensor::LstsqDriver::Gelss,
                _ => ctensor::LstsqDriver::Gelsy,
            };
            let r = x[0].linalg_lstsq_ex(&x[1], a["rcond"].as_f64(), driver)?;
            Ok(vec![r.solution, r.residuals, r.rank, r.singular_values])
        }),
    );
    t.insert(
        "linalg_solve_triangular",
        Box::new(|x, a| {
            one(x[0].linalg_solve_triangular(&x[1], flag(a, "upper"), flag(a, "left"), flag(a, "unitriangular")))
        }),
    );
    t
}

/// `N` values of an array argument.
fn arr<const N: usize>(a: &Value, key: &str) -> [i64; N] {
    ints(a, key).try_into().expect("an array of the spatial rank")
}

fn conv_nd<const N: usize>(x: &[Tensor], a: &Value) -> ctensor::Result<Vec<Tensor>> {
    let o = ctensor::nn::ConvOptions::<N> {
        stride: arr(a, "stride"),
        padding: arr(a, "padding"),
        dilation: arr(a, "dilation"),
        output_padding: arr(a, "output_padding"),
        groups: int(a, "groups"),
    };
    if flag(a, "transposed") {
        return one(x[0].conv_transpose(&x[1], x.get(2), &o));
    }
    let (s, p, d) = (o.stride.to_vec(), o.padding.to_vec(), o.dilation.to_vec());
    match N {
        1 => one(x[0].conv1d(&x[1], x.get(2), s[0], p[0], d[0], o.groups)),
        2 => one(x[0].conv2d(&x[1], x.get(2), [s[0], s[1]], [p[0], p[1]], [d[0], d[1]], o.groups)),
        _ => one(x[0].conv3d(&x[1], x.get(2), [s[0], s[1], s[2]], [p[0], p[1], p[2]], [d[0], d[1], d[2]], o.groups)),
    }
}

fn pool_options<const N: usize>(a: &Value) -> ctensor::nn::PoolOptions<N> {
    let mut o = ctensor::nn::PoolOptions::new(arr(a, "kernel"));
    o.stride = arr(a, "stride");
    o.padding = arr(a, "padding");
    if a.get("dilation").is_some() {
        o.dilation = arr(a, "dilation");
    }
    o.ceil_mode = flag(a, "ceil_mode");
    if a.get("count_include_pad").is_some() {
        o.count_include_pad = flag(a, "count_include_pad");
        o.divisor_override = int(a, "divisor_override");
    }
    o
}

fn pool_nd<const N: usize>(op: &str, x: &[Tensor], a: &Value) -> ctensor::Result<Vec<Tensor>> {
    match op {
        "max_pool_nd" => pair(x[0].max_pool_nd(&pool_options::<N>(a))),
        "avg_pool_nd" => one(x[0].avg_pool_nd(&pool_options::<N>(a))),
        "adaptive_avg_pool_nd" => one(x[0].adaptive_avg_pool_nd::<N>(arr(a, "output_size"))),
        _ => pair(x[0].adaptive_max_pool_nd::<N>(arr(a, "output_size"))),
    }
}

/// Issue 14: N-d convolution and pooling (dispatched on `ndim_spatial`), unfold / fold, pixel_shuffle.
fn conv_nd_ops() -> HashMap<&'static str, Op> {
    let mut t: HashMap<&'static str, Op> = HashMap::new();
    t.insert(
        "convolution",
        Box::new(|x, a| match int(a, "ndim_spatial") {
            1 => conv_nd::<1>(x, a),
            2 => conv_nd::<2>(x, a),
            _ => conv_nd::<3>(x, a),
        }),
    );
    for op in ["max_pool_nd", "avg_pool_nd", "adaptive_avg_pool_nd", "adaptive_max_pool_nd"] {
        t.insert(
            op,
            Box::new(move |x, a| match int(a, "ndim_spatial") {
                1 => pool_nd::<1>(op, x, a),
                2 => pool_nd::<2>(op, x, a),
                _ => pool_nd::<3>(op, x, a),
            }),
        );
    }
    t.insert(
        "unfold",
        Box::new(|x, a| {
            one(x[0].unfold_blocks(pair2(a, "kernel"), pair2(a, "dilation"), pair2(a, "padding"), pair2(a, "stride")))
        }),
    );
    t.insert(
        "fold",
        Box::new(|x, a| {
            one(x[0].fold_blocks(
                pair2(a, "output_size"),
                pair2(a, "kernel"),
                pair2(a, "dilation"),
                pair2(a, "padding"),
                pair2(a, "stride"),
            ))
        }),
    );
    t.insert("pixel_shuffle", Box::new(|x, a| one(x[0].pixel_shuffle(int(a, "upscale_factor")))));
    t.insert("pixel_unshuffle", Box::new(|x, a| one(x[0].pixel_unshuffle(int(a, "downscale_factor")))));
    t
}

/// The recurrent nets (ctensor::rnn): inputs x, hx, (cx for LSTM), then the weights; cy only for LSTM.
fn recurrent_ops() -> HashMap<&'static str, Op> {
    use ctensor::rnn::{self, RnnMode};
    fn mode(a: &Value) -> RnnMode {
        match a["mode"].as_str() {
            Some("rnn_relu") => RnnMode::RnnRelu,
            Some("rnn_tanh") => RnnMode::RnnTanh,
            Some("lstm") => RnnMode::Lstm,
            _ => RnnMode::Gru,
        }
    }
    let mut t: HashMap<&'static str, Op> = HashMap::new();
    t.insert(
        "rnn",
        Box::new(|x, a| {
            let m = mode(a);
            let k = if m == RnnMode::Lstm { 3 } else { 2 };
            let ws: Vec<&Tensor> = x[k..].iter().collect();
            let bs = a.get("batch_sizes").map(|_| ints(a, "batch_sizes"));
            let (out, hy, cy) = rnn::rnn(
                m,
                &x[0],
                Some(&x[1]),
                if k == 3 { Some(&x[2]) } else { None },
                &ws,
                flag(a, "has_biases"),
                int(a, "num_layers"),
                0.0,
                false,
                flag(a, "bidirectional"),
                flag(a, "batch_first"),
                int(a, "proj_size"),
                bs.as_deref(),
                None,
            )?;
            Ok([out, hy].into_iter().chain(cy).collect())
        }),
    );
    t.insert(
        "rnn_cell",
        Box::new(|x, a| {
            let m = mode(a);
            let k = if m == RnnMode::Lstm { 3 } else { 2 };
            let cx = if k == 3 { Some(&x[2]) } else { None };
            let (hy, cy) = rnn::rnn_cell(m, &x[0], Some(&x[1]), cx, &x[k], &x[k + 1], Some(&x[k + 2]), Some(&x[k + 3]))?;
            Ok(std::iter::once(hy).chain(cy).collect())
        }),
    );
    t
}
