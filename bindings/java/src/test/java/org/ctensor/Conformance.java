// Conformance.java - the Java runner of the conformance suite (tests/conformance/cases/*.json, read with Gson):
// every case through org.ctensor's public API, compared with the expected dtype, shape and values (per-dtype
// tolerances, NaN equals NaN, integers exactly) and the input gradients after backward(gradOutput); an error case
// must throw the exception class of its status. main prints failures and "N passed, N failed" (exit 1 on any).
package org.ctensor;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.ctensor.nn.Functional;
import org.ctensor.nn.Recurrent;

public final class Conformance {
    /** The counts of one run. */
    public static final class Result {
        public int passed;
        public final List<String> failures = new ArrayList<>();
        public final TreeSet<String> ops = new TreeSet<>(), failedOps = new TreeSet<>();
    }

    /** A mismatch, in words. */
    private static final class Problem extends Exception {
        private static final long serialVersionUID = 1L;

        Problem(String what) {
            super(what);
        }
    }

    /** An op: the inputs (Tensor, or Double for a wrapped scalar) and args to its outputs. */
    private interface Op {
        Tensor[] call(Object[] x, JsonObject a);
    }

    private static final Map<String, Class<? extends CTensorException>> ERRORS = Map.of(
            "CT_ERR_INVALID_ARGUMENT", InvalidArgumentException.class, "CT_ERR_SHAPE", ShapeException.class,
            "CT_ERR_DTYPE", DTypeException.class, "CT_ERR_DEVICE", DeviceException.class,
            "CT_ERR_INDEX", IndexException.class, "CT_ERR_OUT_OF_MEMORY", OutOfMemoryException.class,
            "CT_ERR_NOT_SUPPORTED", NotSupportedException.class, "CT_ERR_AUTOGRAD", AutogradException.class,
            "CT_ERR_IO", FileException.class);

    private Conformance() {}

    static double decode(JsonElement v) {
        String s = v.getAsJsonPrimitive().isString() ? v.getAsString() : null;
        if (s == null) return v.getAsDouble();
        return s.equals("nan") ? Double.NaN : s.equals("inf") ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
    }

    /** An embedding case's padding_idx: null when the JSON gives null. */
    static Long paddingIdx(JsonObject a) {
        JsonElement e = a.get("padding_idx");
        return e == null || e.isJsonNull() ? null : e.getAsLong();
    }

    static boolean isNull(JsonElement e) {
        return e == null || e.isJsonNull();
    }

    static double[] doubles(JsonElement a) {
        double[] out = new double[a.getAsJsonArray().size()];
        for (int i = 0; i < out.length; ++i) out[i] = a.getAsJsonArray().get(i).getAsDouble();
        return out;
    }

    /** torch's interpolate mode name as a Resample.Mode constant name. */
    static String interpMode(String m) {
        return m.equals("bilinear") || m.equals("trilinear") ? "LINEAR" : m.replace('-', '_').toUpperCase(java.util.Locale.ROOT);
    }

    static long[] longs(JsonElement a) {
        if (a == null || a.isJsonNull()) return new long[0];
        long[] out = new long[a.getAsJsonArray().size()];
        for (int i = 0; i < out.length; ++i) out[i] = a.getAsJsonArray().get(i).getAsLong();
        return out;
    }

    /** A case input: a new Tensor, a Double for {"scalar": v}, a Boolean for {"bool_scalar": 0 or 1}, or a double[]
     * {re, im} for {"complex_scalar": [re, im]}. */
    static Object make(JsonObject j) {
        if (j.has("scalar")) return decode(j.get("scalar"));
        if (j.has("bool_scalar")) return j.get("bool_scalar").getAsInt() == 1;
        if (j.has("complex_scalar")) {
            JsonArray z = j.getAsJsonArray("complex_scalar");
            return new double[] {decode(z.get(0)), decode(z.get(1))};
        }
        long[] shape = longs(j.get("shape"));
        JsonArray v = j.getAsJsonArray("values");
        int n = v.size();
        Tensor t;
        switch (j.get("dtype").getAsString()) {
            case "float32": { float[] d = new float[n]; for (int i = 0; i < n; ++i) d[i] = (float) decode(v.get(i)); t = Tensor.fromData(d, shape, DType.FLOAT32, Device.CPU); break; }
            case "float64": { double[] d = new double[n]; for (int i = 0; i < n; ++i) d[i] = decode(v.get(i)); t = Tensor.fromData(d, shape, DType.FLOAT64, Device.CPU); break; }
            case "int32": { int[] d = new int[n]; for (int i = 0; i < n; ++i) d[i] = v.get(i).getAsInt(); t = Tensor.fromData(d, shape, DType.INT32, Device.CPU); break; }
            case "int64": { long[] d = new long[n]; for (int i = 0; i < n; ++i) d[i] = v.get(i).getAsLong(); t = Tensor.fromData(d, shape, DType.INT64, Device.CPU); break; }
            case "uint8": { byte[] d = new byte[n]; for (int i = 0; i < n; ++i) d[i] = (byte) v.get(i).getAsInt(); t = Tensor.fromData(d, shape, DType.UINT8, Device.CPU); break; }
            case "bool": { boolean[] d = new boolean[n]; for (int i = 0; i < n; ++i) d[i] = v.get(i).getAsInt() != 0; t = Tensor.fromData(d, shape, DType.BOOL, Device.CPU); break; }
            case "float16": case "bfloat16": {  // exact half values: float64 -> half rounds none of them
                double[] d = new double[n];
                for (int i = 0; i < n; ++i) d[i] = decode(v.get(i));
                try (Tensor f64 = Tensor.fromData(d, shape, DType.FLOAT64, Device.CPU)) { t = f64.to(dtype(j)); }
                break;
            }
            case "complex64": case "complex128": {  // (re, im) pairs interleaved
                double[] d = new double[n];
                for (int i = 0; i < n; ++i) d[i] = decode(v.get(i));
                try (Tensor c = Complex.fromInterleaved(d, shape, dtype(j))) { t = c.copy(); }
                break;
            }
            default: throw new IllegalArgumentException("unknown dtype " + j.get("dtype"));
        }
        if (j.has("requires_grad") && j.get("requires_grad").getAsBoolean()) t.requiresGrad(true);
        return t;
    }

    static void compare(String what, Tensor got, JsonObject want) throws Problem {
        DType dt = got.dtype();
        if (!dt.pyName().equals(want.get("dtype").getAsString()))
            throw new Problem(what + ": dtype " + dt.pyName() + ", expected " + want.get("dtype").getAsString());
        if (!Arrays.equals(got.shape(), longs(want.get("shape"))))
            throw new Problem(what + ": shape " + Arrays.toString(got.shape()) + ", expected " + want.get("shape"));
        if (dt.isComplex()) {  // each part with its real dtype's tolerance: the [..., 2] view against the pairs
            JsonObject parts = want.deepCopy();
            parts.addProperty("dtype", dt == DType.COMPLEX64 ? "float32" : "float64");
            parts.getAsJsonArray("shape").add(2);
            compare(what, Complex.viewAsReal(got), parts);
            return;
        }
        // half: about 2 units in the last place (README, "Tolerances")
        double atol = dt == DType.FLOAT32 ? 1e-5 : dt == DType.FLOAT64 ? 1e-12 : dt == DType.FLOAT16 ? 1e-3 : dt == DType.BFLOAT16 ? 1e-2 : 0;
        double rtol = dt == DType.FLOAT32 ? 1e-5 : dt == DType.FLOAT64 ? 1e-10 : dt == DType.FLOAT16 ? 1e-3 : dt == DType.BFLOAT16 ? 1e-2 : 0;
        if (want.has("properties")) {
            checkProperties(what, got.toDoubleArray(), want.getAsJsonObject("properties"), atol, rtol);
            return;
        }
        JsonArray v = want.getAsJsonArray("values");
        if (dt.isFloatingPoint()) {
            double[] g = got.toDoubleArray();
            for (int i = 0; i < g.length; ++i) {
                double w = decode(v.get(i));
                if ((Double.isNaN(g[i]) && Double.isNaN(w)) || g[i] == w || Math.abs(g[i] - w) <= atol + rtol * Math.abs(w)) continue;
                throw new Problem(what + ": element " + i + " is " + g[i] + ", expected " + w);
            }
        } else {
            long[] g = got.toLongArray();
            for (int i = 0; i < g.length; ++i)
                if (g[i] != v.get(i).getAsLong()) throw new Problem(what + ": element " + i + " is " + g[i] + ", expected " + v.get(i));
        }
    }

    /** Checks that v has every property of props (tests/conformance/README.md, "Properties"). */
    static void checkProperties(String what, double[] v, JsonObject props, double atol, double rtol) throws Problem {
        boolean integral = props.has("integral") && props.get("integral").getAsBoolean();
        for (int i = 0; i < v.length; ++i) {
            String at = what + ": element " + i + " is " + v[i];
            if (props.has("range")) {
                double lo = decode(props.getAsJsonArray("range").get(0)), hi = decode(props.getAsJsonArray("range").get(1));
                if (!(v[i] >= lo && v[i] < hi)) throw new Problem(at + ", outside [" + lo + ", " + hi + ")");
            }
            if (integral && v[i] != Math.floor(v[i])) throw new Problem(at + ", not an integer");
            if (props.has("zero_or")) {
                double w = decode(props.getAsJsonArray("zero_or").get(i));
                if (v[i] != 0 && Math.abs(v[i] - w) > atol + rtol * Math.abs(w)) throw new Problem(at + ", expected 0 or " + w);
            }
            if (props.has("abs")) {  // equal up to sign: singular vectors and eigenvectors (one sign per vector)
                double w = Math.abs(decode(props.getAsJsonArray("abs").get(i)));
                if (Math.abs(Math.abs(v[i]) - w) > atol + rtol * w) throw new Problem(at + ", expected +-" + w);
            }
        }
        if (props.has("permutation") && props.get("permutation").getAsBoolean()) {
            double[] sorted = v.clone();
            Arrays.sort(sorted);
            for (int i = 0; i < sorted.length; ++i)
                if (sorted[i] != i) throw new Problem(what + ": not a permutation of 0.." + (sorted.length - 1));
        }
        double mean = Arrays.stream(v).sum() / v.length, ss = 0;
        for (double x : v) ss += (x - mean) * (x - mean);
        double sd = Math.sqrt(ss / (v.length - 1));
        if (props.has("mean") && !(Math.abs(mean - decode(props.getAsJsonArray("mean").get(0))) <= decode(props.getAsJsonArray("mean").get(1))))
            throw new Problem(what + ": mean " + mean + ", expected " + props.get("mean") + " (value, bound)");
        if (props.has("std") && !(Math.abs(sd - decode(props.getAsJsonArray("std").get(0))) <= decode(props.getAsJsonArray("std").get(1))))
            throw new Problem(what + ": standard deviation " + sd + ", expected " + props.get("std") + " (value, bound)");
    }

    static Tensor tensor(Object x) {
        if (x instanceof double[]) return Complex.wrappedScalar(((double[]) x)[0], ((double[]) x)[1]);
        if (x instanceof Boolean) return Tensor.wrappedScalarBool((Boolean) x);
        return x instanceof Tensor ? (Tensor) x : Tensor.wrappedScalar((Double) x, false);
    }

    /** x op (re + i im), and (re + i im) op x: the Java API's complex-number overloads (issue 15). */
    private interface ComplexOp {
        Tensor apply(Tensor x, double re, double im);
    }

    /** Routes the cases of ops with complex-number overloads through them (alpha 1 only; others keep op). */
    static void complexOverloads(Map<String, Op> t) {
        Map<String, ComplexOp[]> overloads = new HashMap<>();
        overloads.put("add", new ComplexOp[] {(x, re, im) -> x.add(re, im), (x, re, im) -> x.add(re, im)});
        overloads.put("sub", new ComplexOp[] {(x, re, im) -> x.sub(re, im), (x, re, im) -> Complex.sub(re, im, x)});
        overloads.put("mul", new ComplexOp[] {(x, re, im) -> x.mul(re, im), (x, re, im) -> x.mul(re, im)});
        overloads.put("div", new ComplexOp[] {(x, re, im) -> x.div(re, im), (x, re, im) -> Complex.div(re, im, x)});
        overloads.put("pow", new ComplexOp[] {(x, re, im) -> x.pow(re, im), (x, re, im) -> Complex.pow(re, im, x)});
        overloads.put("eq", new ComplexOp[] {(x, re, im) -> x.eq(re, im), (x, re, im) -> x.eq(re, im)});
        overloads.put("ne", new ComplexOp[] {(x, re, im) -> x.ne(re, im), (x, re, im) -> x.ne(re, im)});
        overloads.forEach((name, f) -> {
            Op plain = t.get(name);
            t.put(name, (x, a) -> {
                boolean unitAlpha = !a.has("alpha") || a.get("alpha").getAsDouble() == 1.0;
                for (int side = 0; unitAlpha && x.length == 2 && side < 2; ++side) {
                    if (!(x[1 - side] instanceof double[]) || !(x[side] instanceof Tensor)) continue;
                    double[] z = (double[]) x[1 - side];
                    return one(f[side].apply((Tensor) x[side], z[0], z[1]));
                }
                return plain.call(x, a);
            });
        });
    }

    /** args[key] as a Double, null when absent or JSON null. */
    static Double optDouble(JsonObject a, String key) {
        return a.has(key) && !a.get(key).isJsonNull() ? a.get(key).getAsDouble() : null;
    }

    static Tensor[] one(Tensor t) {
        return new Tensor[] {t};
    }

    static DType dtype(JsonObject a) {
        return DType.valueOf(a.get("dtype").getAsString().toUpperCase(java.util.Locale.ROOT));
    }

    static org.ctensor.nn.Reduction reduction(JsonObject a) {
        return org.ctensor.nn.Reduction.valueOf(a.get("reduction").getAsString().toUpperCase(java.util.Locale.ROOT));
    }

    static Tensor[] pair(Tensor.Pair p) {
        return new Tensor[] {p.values, p.indices};
    }

    /** A binary op: tensor with tensor, and with a Java double where the API has that overload (else wrapped). */
    static Op binary(BiFunction<Tensor, Tensor, Tensor> f, BiFunction<Tensor, Double, Tensor> withDouble) {
        return (x, a) -> one(x[1] instanceof Double && withDouble != null ? withDouble.apply((Tensor) x[0], (Double) x[1])
                                                                           : f.apply(tensor(x[0]), tensor(x[1])));
    }

    static boolean keepdim(JsonObject a) {
        return a.has("keepdim") && a.get("keepdim").getAsBoolean();
    }

    static long dim(JsonObject a) {
        return a.get("dim").getAsLong();
    }

    static Toolbox.ScatterReduce scatterReduceArg(JsonObject a) {
        return Toolbox.ScatterReduce.valueOf(a.get("reduce").getAsString().toUpperCase(java.util.Locale.ROOT));
    }

    static Map<String, Op> opTable() {
        Map<String, Op> t = new HashMap<>();
        Map<String, Function<Tensor, Tensor>> unary = new HashMap<>();
        unary.put("neg", Tensor::neg); unary.put("abs", Tensor::abs); unary.put("sign", Tensor::sign);
        unary.put("exp", Tensor::exp); unary.put("log", Tensor::log); unary.put("log1p", Tensor::log1p);
        unary.put("expm1", Tensor::expm1); unary.put("sqrt", Tensor::sqrt); unary.put("rsqrt", Tensor::rsqrt);
        unary.put("sin", Tensor::sin); unary.put("cos", Tensor::cos); unary.put("tan", Tensor::tan);
        unary.put("tanh", Tensor::tanh); unary.put("sigmoid", Tensor::sigmoid); unary.put("relu", Tensor::relu);
        unary.put("gelu", Tensor::gelu); unary.put("silu", Tensor::silu); unary.put("softplus", Tensor::softplus);
        unary.put("floor", Tensor::floor); unary.put("ceil", Tensor::ceil); unary.put("round", Tensor::round);
        unary.put("reciprocal", Tensor::reciprocal); unary.put("logical_not", Tensor::logicalNot);
        unary.put("max", Tensor::max); unary.put("min", Tensor::min);
        unary.put("argmax_all", Tensor::argmax); unary.put("argmin_all", Tensor::argmin);
        unary.forEach((name, f) -> t.put(name, (x, a) -> one(f.apply((Tensor) x[0]))));
        t.put("add", (x, a) -> a.has("alpha") ? one(tensor(x[0]).add(tensor(x[1]), a.get("alpha").getAsDouble()))
                                              : binary(Tensor::add, Tensor::add).call(x, a));
        t.put("sub", (x, a) -> a.has("alpha") ? one(tensor(x[0]).sub(tensor(x[1]), a.get("alpha").getAsDouble()))
                                              : binary(Tensor::sub, Tensor::sub).call(x, a));
        t.put("mul", binary(Tensor::mul, Tensor::mul));
        t.put("div", binary(Tensor::div, Tensor::div));
        t.put("remainder", binary(Tensor::remainder, Tensor::remainder));
        t.put("floor_divide", binary(Tensor::floorDivide, Tensor::floorDivide));
        t.put("eq", binary(Tensor::eq, Tensor::eq));
        t.put("ne", binary(Tensor::ne, Tensor::ne));
        t.put("lt", binary(Tensor::lt, Tensor::lt));
        t.put("le", binary(Tensor::le, Tensor::le));
        t.put("gt", binary(Tensor::gt, Tensor::gt));
        t.put("ge", binary(Tensor::ge, Tensor::ge));
        t.put("pow", binary(Tensor::pow, null)); // pow(double) is the op pow_scalar
        t.put("maximum", binary(Tensor::maximum, null));
        t.put("minimum", binary(Tensor::minimum, null));
        t.put("atan2", binary(Tensor::atan2, null));
        t.put("logical_and", binary(Tensor::logicalAnd, null));
        t.put("logical_or", binary(Tensor::logicalOr, null));
        t.put("logical_xor", binary(Tensor::logicalXor, null));
        // binary math (issue 14)
        t.put("logaddexp", binary(Tensor::logaddexp, null));
        t.put("logaddexp2", binary(Tensor::logaddexp2, null));
        t.put("hypot", binary(Tensor::hypot, null));
        t.put("xlogy", binary(Tensor::xlogy, null));
        t.put("copysign", binary(Tensor::copysign, null));
        t.put("fmax", binary(Tensor::fmax, null));
        t.put("fmin", binary(Tensor::fmin, null));
        t.put("heaviside", binary(Tensor::heaviside, null));
        t.put("nextafter", binary(Tensor::nextafter, null));
        t.put("bitwise_and", binary(Tensor::bitwiseAnd, null));
        t.put("bitwise_or", binary(Tensor::bitwiseOr, null));
        t.put("bitwise_xor", binary(Tensor::bitwiseXor, null));
        t.put("bitwise_left_shift", binary(Tensor::bitwiseLeftShift, null));
        t.put("bitwise_right_shift", binary(Tensor::bitwiseRightShift, null));
        t.put("gcd", binary(Tensor::gcd, null));
        t.put("lcm", binary(Tensor::lcm, null));
        t.put("bitwise_not", (x, a) -> one(tensor(x[0]).bitwiseNot()));
        t.put("addcmul", (x, a) -> one(tensor(x[0]).addcmul(tensor(x[1]), tensor(x[2]), a.get("value").getAsDouble())));
        t.put("addcdiv", (x, a) -> one(tensor(x[0]).addcdiv(tensor(x[1]), tensor(x[2]), a.get("value").getAsDouble())));
        t.put("where", (x, a) -> one(Tensor.where(tensor(x[0]), tensor(x[1]), tensor(x[2]))));
        t.put("pow_scalar", (x, a) -> one(((Tensor) x[0]).pow(a.get("exponent").getAsDouble())));
        // unary math (issue 14)
        Map<String, Function<Tensor, Tensor>> unaryMath = new HashMap<>();
        unaryMath.put("asin", UnaryMath::asin);
        unaryMath.put("acos", UnaryMath::acos);
        unaryMath.put("atan", UnaryMath::atan);
        unaryMath.put("sinh", UnaryMath::sinh);
        unaryMath.put("cosh", UnaryMath::cosh);
        unaryMath.put("asinh", UnaryMath::asinh);
        unaryMath.put("acosh", UnaryMath::acosh);
        unaryMath.put("atanh", UnaryMath::atanh);
        unaryMath.put("erf", UnaryMath::erf);
        unaryMath.put("erfc", UnaryMath::erfc);
        unaryMath.put("erfinv", UnaryMath::erfinv);
        unaryMath.put("lgamma", UnaryMath::lgamma);
        unaryMath.put("digamma", UnaryMath::digamma);
        unaryMath.put("sinc", UnaryMath::sinc);
        unaryMath.put("sgn", UnaryMath::sgn);
        unaryMath.put("deg2rad", UnaryMath::deg2rad);
        unaryMath.put("rad2deg", UnaryMath::rad2deg);
        unaryMath.put("signbit", UnaryMath::signbit);
        unaryMath.put("isposinf", UnaryMath::isposinf);
        unaryMath.put("isneginf", UnaryMath::isneginf);
        unaryMath.put("positive", UnaryMath::positive);
        unaryMath.put("i0", UnaryMath::i0);
        unaryMath.forEach((name, f) -> t.put(name, (x, a) -> one(f.apply((Tensor) x[0]))));
        t.put("logit", (x, a) -> one(UnaryMath.logit((Tensor) x[0], a.has("eps") ? a.get("eps").getAsDouble() : -1.0)));
        t.put("clamp", (x, a) -> {
            Tensor v = (Tensor) x[0];
            boolean lo = !a.get("min").isJsonNull(), hi = !a.get("max").isJsonNull();
            if (lo && hi) return one(v.clamp(a.get("min").getAsDouble(), a.get("max").getAsDouble()));
            return one(lo ? v.clampMin(a.get("min").getAsDouble()) : v.clampMax(a.get("max").getAsDouble()));
        });
        t.put("sum", (x, a) -> one(((Tensor) x[0]).sum(longs(a.get("dims")), keepdim(a))));
        t.put("mean", (x, a) -> one(((Tensor) x[0]).mean(longs(a.get("dims")), keepdim(a))));
        t.put("prod", (x, a) -> one(((Tensor) x[0]).prod(longs(a.get("dims")), keepdim(a))));
        t.put("logsumexp", (x, a) -> one(((Tensor) x[0]).logsumexp(longs(a.get("dims")), keepdim(a))));
        t.put("all", (x, a) -> one(((Tensor) x[0]).all(longs(a.get("dims")), keepdim(a))));
        t.put("any", (x, a) -> one(((Tensor) x[0]).any(longs(a.get("dims")), keepdim(a))));
        t.put("var", (x, a) -> one(((Tensor) x[0]).var(longs(a.get("dims")), a.get("correction").getAsDouble(), keepdim(a))));
        t.put("std", (x, a) -> one(((Tensor) x[0]).std(longs(a.get("dims")), a.get("correction").getAsDouble(), keepdim(a))));
        t.put("norm", (x, a) -> one(((Tensor) x[0]).norm(a.get("p").getAsDouble(), longs(a.get("dims")), keepdim(a))));
        t.put("max_dim", (x, a) -> { Tensor.Pair p = ((Tensor) x[0]).max(dim(a), keepdim(a)); return new Tensor[] {p.values, p.indices}; });
        t.put("min_dim", (x, a) -> { Tensor.Pair p = ((Tensor) x[0]).min(dim(a), keepdim(a)); return new Tensor[] {p.values, p.indices}; });
        t.put("argmax", (x, a) -> one(((Tensor) x[0]).argmax(dim(a), keepdim(a))));
        t.put("argmin", (x, a) -> one(((Tensor) x[0]).argmin(dim(a), keepdim(a))));
        t.put("cumsum", (x, a) -> one(((Tensor) x[0]).cumsum(dim(a))));
        t.put("cumprod", (x, a) -> one(((Tensor) x[0]).cumprod(dim(a))));
        t.putAll(viewOps());
        t.put("matmul", (x, a) -> one(((Tensor) x[0]).matmul((Tensor) x[1])));
        t.put("dot", (x, a) -> one(((Tensor) x[0]).dot((Tensor) x[1])));
        t.put("outer", (x, a) -> one(((Tensor) x[0]).outer((Tensor) x[1])));
        t.put("linear", (x, a) -> one(org.ctensor.nn.Functional.linear((Tensor) x[0], (Tensor) x[1], x.length > 2 ? (Tensor) x[2] : null)));
        t.put("softmax", (x, a) -> one(((Tensor) x[0]).softmax(dim(a))));
        t.put("log_softmax", (x, a) -> one(((Tensor) x[0]).logSoftmax(dim(a))));
        t.put("index_select", (x, a) -> one(((Tensor) x[0]).indexSelect(dim(a), (Tensor) x[1])));
        t.put("gather", (x, a) -> one(((Tensor) x[0]).gather(dim(a), (Tensor) x[1])));
        t.put("cat", (x, a) -> one(Tensor.cat(dim(a), Arrays.copyOf(x, x.length, Tensor[].class))));
        t.put("stack", (x, a) -> one(Tensor.stack(dim(a), Arrays.copyOf(x, x.length, Tensor[].class))));
        // ordering, masking, scatter, sorting, copies, conversions, mse_loss
        t.put("flip", (x, a) -> one(((Tensor) x[0]).flip(longs(a.get("dims")))));
        t.put("roll", (x, a) -> one(((Tensor) x[0]).roll(longs(a.get("shifts")), longs(a.get("dims")))));
        t.put("tril", (x, a) -> one(((Tensor) x[0]).tril(arg(a, "diagonal"))));
        t.put("triu", (x, a) -> one(((Tensor) x[0]).triu(arg(a, "diagonal"))));
        t.put("clone", (x, a) -> one(((Tensor) x[0]).copy()));
        t.put("contiguous", (x, a) -> one(((Tensor) x[0]).contiguous()));
        t.put("detach", (x, a) -> one(((Tensor) x[0]).detach()));
        t.put("squeeze_all", (x, a) -> one(((Tensor) x[0]).squeeze()));
        t.put("nonzero", (x, a) -> one(((Tensor) x[0]).nonzero()));
        t.put("masked_fill", (x, a) -> one(((Tensor) x[0]).maskedFill((Tensor) x[1], a.get("value").getAsDouble())));
        t.put("masked_select", (x, a) -> one(((Tensor) x[0]).maskedSelect((Tensor) x[1])));
        t.put("to_dtype", (x, a) -> one(((Tensor) x[0]).to(dtype(a))));
        t.put("sort", (x, a) -> pair(((Tensor) x[0]).sort(dim(a), a.get("descending").getAsBoolean())));
        t.put("argsort", (x, a) -> one(((Tensor) x[0]).argsort(dim(a), a.get("descending").getAsBoolean())));
        t.put("topk", (x, a) -> pair(((Tensor) x[0]).topk(arg(a, "k"), dim(a), a.get("largest").getAsBoolean())));
        t.put("kthvalue", (x, a) -> pair(((Tensor) x[0]).kthvalue(arg(a, "k"), dim(a), keepdim(a))));
        t.put("mse_loss", (x, a) -> one(org.ctensor.nn.Functional.mseLoss((Tensor) x[0], (Tensor) x[1], reduction(a))));
        t.put("scatter", (x, a) -> one(((Tensor) x[0]).scatter(dim(a), (Tensor) x[1], (Tensor) x[2])));
        t.put("scatter_add", (x, a) -> one(((Tensor) x[0]).scatterAdd(dim(a), (Tensor) x[1], (Tensor) x[2])));
        t.put("scatter_reduce", (x, a) -> one(Toolbox.scatterReduce((Tensor) x[0], dim(a), (Tensor) x[1], (Tensor) x[2],
                scatterReduceArg(a), a.get("include_self").getAsBoolean())));
        // the toolbox's indexed writes (issue 14); index_put's inputs are x, values, then the index tensors
        t.put("index_add", (x, a) -> one(Toolbox.indexAdd((Tensor) x[0], dim(a), (Tensor) x[1], (Tensor) x[2],
                a.get("alpha").getAsDouble())));
        t.put("index_copy", (x, a) -> one(Toolbox.indexCopy((Tensor) x[0], dim(a), (Tensor) x[1], (Tensor) x[2])));
        // the in-place forms write into a copy of input 0, which is the output
        t.put("scatter_", (x, a) -> one(Toolbox.scatterInPlace(((Tensor) x[0]).copy(), dim(a), (Tensor) x[1], (Tensor) x[2])));
        t.put("scatter_add_", (x, a) -> one(Toolbox.scatterAddInPlace(((Tensor) x[0]).copy(), dim(a), (Tensor) x[1], (Tensor) x[2])));
        t.put("scatter_reduce_", (x, a) -> one(Toolbox.scatterReduceInPlace(((Tensor) x[0]).copy(), dim(a), (Tensor) x[1],
                (Tensor) x[2], scatterReduceArg(a), a.get("include_self").getAsBoolean())));
        t.put("index_add_", (x, a) -> one(Toolbox.indexAddInPlace(((Tensor) x[0]).copy(), dim(a), (Tensor) x[1], (Tensor) x[2],
                a.get("alpha").getAsDouble())));
        t.put("index_copy_", (x, a) -> one(Toolbox.indexCopyInPlace(((Tensor) x[0]).copy(), dim(a), (Tensor) x[1], (Tensor) x[2])));
        t.put("index_put_", (x, a) -> {
            Tensor[] ix = new Tensor[x.length - 2];
            for (int k = 2; k < x.length; ++k) ix[k - 2] = (Tensor) x[k];
            return one(Toolbox.indexPutInPlace(((Tensor) x[0]).copy(), ix, (Tensor) x[1], a.get("accumulate").getAsBoolean()));
        });
        t.put("index_put", (x, a) -> {
            Tensor[] ix = new Tensor[x.length - 2];
            for (int k = 2; k < x.length; ++k) ix[k - 2] = (Tensor) x[k];
            return one(Toolbox.indexPut((Tensor) x[0], ix, (Tensor) x[1], a.get("accumulate").getAsBoolean()));
        });
        t.put("searchsorted", (x, a) -> one(Toolbox.searchsorted((Tensor) x[0], (Tensor) x[1], a.get("right").getAsBoolean(),
                a.get("out_int32").getAsBoolean(), x.length > 2 ? (Tensor) x[2] : null)));
        t.put("bincount", (x, a) -> one(Toolbox.bincount((Tensor) x[0], x.length > 1 ? (Tensor) x[1] : null, arg(a, "minlength"))));
        t.put("histc", (x, a) -> one(Toolbox.histc((Tensor) x[0], arg(a, "bins"), a.get("min").getAsDouble(),
                a.get("max").getAsDouble())));
        t.put("cummax", (x, a) -> pair(Toolbox.cummax((Tensor) x[0], dim(a))));
        t.put("cummin", (x, a) -> pair(Toolbox.cummin((Tensor) x[0], dim(a))));
        t.put("median_dim", (x, a) -> pair(ToolboxStats.median((Tensor) x[0], dim(a), bool(a, "keepdim"))));
        t.put("quantile", (x, a) -> one(ToolboxStats.quantile((Tensor) x[0], a.get("q").getAsDouble(),
                a.get("dim").isJsonNull() ? null : a.get("dim").getAsLong(), bool(a, "keepdim"),
                ToolboxStats.Interpolation.valueOf(a.get("interpolation").getAsString().toUpperCase(java.util.Locale.ROOT)))));
        t.put("cdist", (x, a) -> one(ToolboxStats.cdist((Tensor) x[0], (Tensor) x[1], decode(a.get("p")), 0)));
        t.put("median", (x, a) -> one(ToolboxStats.median((Tensor) x[0])));
        t.put("nanmedian", (x, a) -> one(ToolboxStats.nanmedian((Tensor) x[0])));
        t.put("nanmedian_dim", (x, a) -> pair(ToolboxStats.nanmedian((Tensor) x[0], dim(a), bool(a, "keepdim"))));
        // more reductions and products (issue 14)
        t.put("logcumsumexp", (x, a) -> one(MoreOps.logcumsumexp((Tensor) x[0], dim(a))));
        t.put("aminmax", (x, a) -> MoreOps.aminmax((Tensor) x[0], a.get("dim").isJsonNull() ? null : a.get("dim").getAsLong(), keepdim(a)));
        t.put("var_mean", (x, a) -> MoreOps.varMean((Tensor) x[0], longs(a.get("dims")), a.get("correction").getAsDouble(), keepdim(a)));
        t.put("std_mean", (x, a) -> MoreOps.stdMean((Tensor) x[0], longs(a.get("dims")), a.get("correction").getAsDouble(), keepdim(a)));
        t.put("kron", (x, a) -> one(MoreOps.kron((Tensor) x[0], (Tensor) x[1])));
        t.put("inner", (x, a) -> one(MoreOps.inner((Tensor) x[0], (Tensor) x[1])));
        t.put("tensordot", (x, a) -> one(MoreOps.tensordot((Tensor) x[0], (Tensor) x[1], longs(a.get("dims_a")), longs(a.get("dims_b")))));
        t.put("nanquantile", (x, a) -> one(ToolboxStats.nanquantile((Tensor) x[0], a.get("q").getAsDouble(),
                a.get("dim").isJsonNull() ? null : a.get("dim").getAsLong(), bool(a, "keepdim"),
                ToolboxStats.Interpolation.valueOf(a.get("interpolation").getAsString().toUpperCase(java.util.Locale.ROOT)))));
        t.put("repeat_interleave", (x, a) -> {
            Long d = a.get("dim").isJsonNull() ? null : a.get("dim").getAsLong();
            return one(a.get("repeats").isJsonNull() ? ToolboxStats.repeatInterleave((Tensor) x[0], (Tensor) x[1], d, null)
                    : ToolboxStats.repeatInterleave((Tensor) x[0], a.get("repeats").getAsLong(), d));
        });
        t.put("meshgrid", (x, a) -> ToolboxStats.meshgrid("xy".equals(a.get("indexing").getAsString()),
                Arrays.copyOf(x, x.length, Tensor[].class)));
        t.put("nan_to_num", (x, a) -> one(Toolbox.nanToNum((Tensor) x[0], optDouble(a, "nan"), optDouble(a, "posinf"),
                optDouble(a, "neginf"))));
        t.put("diff", (x, a) -> {
            boolean p = a.get("prepend").getAsBoolean(), q = a.get("append").getAsBoolean();
            return one(Toolbox.diff((Tensor) x[0], arg(a, "n"), dim(a), p ? (Tensor) x[1] : null,
                    q ? (Tensor) x[x.length - 1] : null));
        });
        t.put("take_along_dim", (x, a) -> one(Toolbox.takeAlongDim((Tensor) x[0], (Tensor) x[1],
                a.get("dim").isJsonNull() ? null : dim(a))));
        // convolution, pooling, losses, embedding, einsum, split/chunk, unique
        t.put("conv2d", (x, a) -> one(org.ctensor.nn.Functional.conv2d((Tensor) x[0], (Tensor) x[1], x.length > 2 ? (Tensor) x[2] : null,
                longs(a.get("stride")), longs(a.get("padding")), longs(a.get("dilation")), arg(a, "groups"))));
        t.put("max_pool2d", (x, a) -> one(org.ctensor.nn.Functional.maxPool2d((Tensor) x[0], longs(a.get("kernel")),
                longs(a.get("stride")), longs(a.get("padding")))));
        t.put("avg_pool2d", (x, a) -> one(org.ctensor.nn.Functional.avgPool2d((Tensor) x[0], longs(a.get("kernel")),
                longs(a.get("stride")), longs(a.get("padding")))));
        t.put("max_pool2d_ex", (x, a) -> org.ctensor.nn.Functional.maxPool2dWithIndices((Tensor) x[0], longs(a.get("kernel")),
                longs(a.get("stride")), longs(a.get("padding")), longs(a.get("dilation")), a.get("ceil_mode").getAsBoolean()));
        t.put("avg_pool2d_ex", (x, a) -> one(org.ctensor.nn.Functional.avgPool2d((Tensor) x[0], longs(a.get("kernel")),
                longs(a.get("stride")), longs(a.get("padding")), a.get("ceil_mode").getAsBoolean(),
                a.get("count_include_pad").getAsBoolean(), arg(a, "divisor_override"))));
        t.put("adaptive_avg_pool2d", (x, a) -> one(org.ctensor.nn.Functional.adaptiveAvgPool2d((Tensor) x[0], longs(a.get("output_size")))));
        t.put("adaptive_max_pool2d", (x, a) -> org.ctensor.nn.Functional.adaptiveMaxPool2d((Tensor) x[0], longs(a.get("output_size"))));
        // issue 14: N-d convolution and pooling, unfold / fold, pixel_shuffle
        t.put("convolution", (x, a) -> one(org.ctensor.nn.ConvNd.convolution((Tensor) x[0], (Tensor) x[1], x.length > 2 ? (Tensor) x[2] : null,
                longs(a.get("stride")), longs(a.get("padding")), longs(a.get("dilation")), a.get("transposed").getAsBoolean(),
                longs(a.get("output_padding")), arg(a, "groups"))));
        t.put("max_pool_nd", (x, a) -> org.ctensor.nn.ConvNd.maxPool((Tensor) x[0], longs(a.get("kernel")), longs(a.get("stride")),
                longs(a.get("padding")), longs(a.get("dilation")), a.get("ceil_mode").getAsBoolean()));
        t.put("avg_pool_nd", (x, a) -> one(org.ctensor.nn.ConvNd.avgPool((Tensor) x[0], longs(a.get("kernel")), longs(a.get("stride")),
                longs(a.get("padding")), a.get("ceil_mode").getAsBoolean(), a.get("count_include_pad").getAsBoolean(),
                arg(a, "divisor_override"))));
        t.put("adaptive_avg_pool_nd", (x, a) -> one(org.ctensor.nn.ConvNd.adaptiveAvgPool((Tensor) x[0], longs(a.get("output_size")))));
        t.put("adaptive_max_pool_nd", (x, a) -> org.ctensor.nn.ConvNd.adaptiveMaxPool((Tensor) x[0], longs(a.get("output_size"))));
        t.put("unfold", (x, a) -> one(org.ctensor.nn.ConvNd.unfold((Tensor) x[0], longs(a.get("kernel")), longs(a.get("dilation")),
                longs(a.get("padding")), longs(a.get("stride")))));
        t.put("fold", (x, a) -> one(org.ctensor.nn.ConvNd.fold((Tensor) x[0], longs(a.get("output_size")), longs(a.get("kernel")),
                longs(a.get("dilation")), longs(a.get("padding")), longs(a.get("stride")))));
        t.put("pixel_shuffle", (x, a) -> one(org.ctensor.nn.ConvNd.pixelShuffle((Tensor) x[0], arg(a, "upscale_factor"))));
        t.put("pixel_unshuffle", (x, a) -> one(org.ctensor.nn.ConvNd.pixelUnshuffle((Tensor) x[0], arg(a, "downscale_factor"))));
        t.put("cross_entropy", (x, a) -> one(org.ctensor.nn.Functional.crossEntropy((Tensor) x[0], (Tensor) x[1], reduction(a), arg(a, "ignore_index"))));
        t.put("nll_loss", (x, a) -> one(org.ctensor.nn.Functional.nllLoss((Tensor) x[0], (Tensor) x[1], reduction(a), arg(a, "ignore_index"))));
        t.put("cross_entropy_ex", (x, a) -> one(org.ctensor.nn.Functional.crossEntropy((Tensor) x[0], (Tensor) x[1], (Tensor) x[2],
                reduction(a), arg(a, "ignore_index"), a.get("label_smoothing").getAsDouble())));
        t.put("nll_loss_ex", (x, a) -> one(org.ctensor.nn.Functional.nllLoss((Tensor) x[0], (Tensor) x[1], (Tensor) x[2],
                reduction(a), arg(a, "ignore_index"))));
        t.put("binary_cross_entropy", (x, a) -> one(org.ctensor.nn.Functional.binaryCrossEntropy((Tensor) x[0], (Tensor) x[1], reduction(a))));
        t.put("binary_cross_entropy_with_logits", (x, a) -> one(org.ctensor.nn.Functional.binaryCrossEntropyWithLogits(
                (Tensor) x[0], (Tensor) x[1], reduction(a))));
        t.put("embedding", (x, a) -> one(org.ctensor.nn.Functional.embedding((Tensor) x[0], (Tensor) x[1])));
        t.put("scaled_dot_product_attention", (x, a) -> one(org.ctensor.nn.Functional.scaledDotProductAttention(
                (Tensor) x[0], (Tensor) x[1], (Tensor) x[2], x.length > 3 ? (Tensor) x[3] : null, num(a, "dropout_p"),
                a.get("is_causal").getAsBoolean(), num(a, "scale"), null)));
        t.put("multi_head_attention_forward", (x, a) -> org.ctensor.nn.Functional.multiHeadAttentionForward(
                (Tensor) x[0], (Tensor) x[1], (Tensor) x[2], arg(a, "num_heads"), (Tensor) x[3], (Tensor) x[4], (Tensor) x[5],
                (Tensor) x[6], x.length > 7 ? (Tensor) x[7] : null, null, a.get("need_weights").getAsBoolean(), 0, false, null));
        t.put("embedding_ex", (x, a) -> one(org.ctensor.nn.Embeddings.embedding((Tensor) x[0], (Tensor) x[1], paddingIdx(a),
                a.get("scale_grad_by_freq").getAsBoolean())));
        t.put("embedding_renorm_", (x, a) -> {  // the output is a clone of input 0 renormalised at input 1's indices
            Tensor y = ((Tensor) x[0]).copy();
            org.ctensor.nn.Embeddings.embeddingRenorm_(y, (Tensor) x[1], a.get("max_norm").getAsDouble(),
                    a.get("norm_type").getAsDouble());
            return one(y);
        });
        t.put("embedding_bag", (x, a) -> one(org.ctensor.nn.Embeddings.embeddingBag((Tensor) x[0], (Tensor) x[1],
                x.length > 2 ? (Tensor) x[2] : null,
                org.ctensor.nn.Embeddings.BagMode.valueOf(a.get("mode").getAsString().toUpperCase(java.util.Locale.ROOT)),
                x.length > 3 ? (Tensor) x[3] : null, a.get("include_last_offset").getAsBoolean(), paddingIdx(a),
                a.get("scale_grad_by_freq").getAsBoolean())));
        t.put("interpolate", (x, a) -> one(org.ctensor.nn.Resample.interpolate((Tensor) x[0],
                isNull(a.get("size")) ? null : longs(a.get("size")), isNull(a.get("scale_factor")) ? null : doubles(a.get("scale_factor")),
                org.ctensor.nn.Resample.Mode.valueOf(interpMode(a.get("mode").getAsString())),
                isNull(a.get("align_corners")) ? null : a.get("align_corners").getAsBoolean(),
                a.get("recompute_scale_factor").getAsBoolean())));
        // normalisation layers: inputs x, then weight and bias when given, then running_mean and running_var
        t.put("layer_norm", (x, a) -> one(org.ctensor.nn.Norms.layerNorm((Tensor) x[0], longs(a.get("normalized_shape")),
                x.length > 1 ? (Tensor) x[1] : null, x.length > 2 ? (Tensor) x[2] : null, a.get("eps").getAsDouble())));
        t.put("group_norm", (x, a) -> one(org.ctensor.nn.Norms.groupNorm((Tensor) x[0], a.get("num_groups").getAsLong(),
                x.length > 1 ? (Tensor) x[1] : null, x.length > 2 ? (Tensor) x[2] : null, a.get("eps").getAsDouble())));
        t.put("batch_norm", (x, a) -> one(org.ctensor.nn.Norms.batchNorm((Tensor) x[0], x.length > 3 ? (Tensor) x[3] : null,
                x.length > 4 ? (Tensor) x[4] : null, x.length > 1 ? (Tensor) x[1] : null, x.length > 2 ? (Tensor) x[2] : null,
                a.get("training").getAsBoolean(), a.get("momentum").getAsDouble(), a.get("eps").getAsDouble())));
        t.put("einsum", (x, a) -> one(Tensor.einsum(a.get("equation").getAsString(), Arrays.copyOf(x, x.length, Tensor[].class))));
        t.put("split", (x, a) -> ((Tensor) x[0]).split(arg(a, "split_size"), dim(a)));
        t.put("chunk", (x, a) -> ((Tensor) x[0]).chunk(arg(a, "chunks"), dim(a)));
        t.put("unique", (x, a) -> ((Tensor) x[0]).unique(a.get("sorted").getAsBoolean()));
        // creation, host data (every tensor input is made with Tensor.fromData), language scalars, moves
        t.put("zeros", (x, a) -> one(Tensor.zeros(longs(a.get("shape")), dtype(a), Device.CPU)));
        t.put("ones", (x, a) -> one(Tensor.ones(longs(a.get("shape")), dtype(a), Device.CPU)));
        t.put("full", (x, a) -> one(Tensor.full(longs(a.get("shape")), a.get("value").getAsDouble(), dtype(a), Device.CPU)));
        t.put("scalar_tensor", (x, a) -> one(Tensor.scalar(a.get("value").getAsDouble(), dtype(a), Device.CPU)));
        t.put("eye", (x, a) -> one(Tensor.eye(arg(a, "n"), arg(a, "m"), dtype(a), Device.CPU)));
        t.put("arange", (x, a) -> one(Tensor.arange(a.get("start").getAsDouble(), a.get("end").getAsDouble(),
                a.get("step").getAsDouble(), dtype(a), Device.CPU)));
        t.put("linspace", (x, a) -> one(Tensor.linspace(a.get("start").getAsDouble(), a.get("end").getAsDouble(),
                arg(a, "steps"), dtype(a), Device.CPU)));
        t.put("zeros_like", (x, a) -> one(((Tensor) x[0]).zerosLike()));
        t.put("ones_like", (x, a) -> one(((Tensor) x[0]).onesLike()));
        t.put("full_like", (x, a) -> one(((Tensor) x[0]).fullLike(a.get("value").getAsDouble())));
        t.put("to_device", (x, a) -> one(((Tensor) x[0]).to(Device.parse(a.get("device").getAsString()))));
        t.put("tensor_from_data", (x, a) -> one((Tensor) x[0]));
        // input 0's bytes in a new direct buffer that the tensor then views without a copy
        t.put("tensor_from_blob", (x, a) -> one(Tensor.fromBuffer(((Tensor) x[0]).toBuffer(), ((Tensor) x[0]).dtype(), ((Tensor) x[0]).shape())));
        // random and uninitialised tensors (runCase seeds the default generator with args.seed)
        t.put("rand", (x, a) -> one(Tensor.rand(null, longs(a.get("shape")), dtype(a), Device.CPU)));
        t.put("randn", (x, a) -> one(Tensor.randn(null, longs(a.get("shape")), dtype(a), Device.CPU)));
        t.put("randint", (x, a) -> one(Tensor.randint(null, arg(a, "low"), arg(a, "high"), longs(a.get("shape")), dtype(a), Device.CPU)));
        t.put("randperm", (x, a) -> one(Tensor.randperm(null, arg(a, "n"))));
        t.put("bernoulli", (x, a) -> one(((Tensor) x[0]).bernoulli(null)));
        t.put("dropout", (x, a) -> one(org.ctensor.nn.Functional.dropout((Tensor) x[0], a.get("p").getAsDouble(), a.get("training").getAsBoolean(), null)));
        t.put("empty", (x, a) -> one(Tensor.empty(longs(a.get("shape")), dtype(a), Device.CPU)));
        t.put("empty_like", (x, a) -> one(((Tensor) x[0]).emptyLike()));
        // activations (elu's parameters select ELU, SELU or CELU as a user writes them)
        t.put("elu", (x, a) -> {
            Tensor v = (Tensor) x[0];
            double alpha = a.get("alpha").getAsDouble();
            return one(a.get("input_scale").getAsDouble() != 1 ? v.celu(alpha) : a.get("scale").getAsDouble() != 1 ? v.selu() : v.elu(alpha));
        });
        t.put("leaky_relu", (x, a) -> one(((Tensor) x[0]).leakyRelu(a.get("negative_slope").getAsDouble())));
        t.put("hardtanh", (x, a) -> one(((Tensor) x[0]).hardtanh(a.get("min_val").getAsDouble(), a.get("max_val").getAsDouble())));
        t.put("hardsigmoid", (x, a) -> one(((Tensor) x[0]).hardsigmoid()));
        t.put("hardswish", (x, a) -> one(((Tensor) x[0]).hardswish()));
        t.put("mish", (x, a) -> one(((Tensor) x[0]).mish()));
        t.put("log_sigmoid", (x, a) -> one(((Tensor) x[0]).logSigmoid()));
        t.put("softsign", (x, a) -> one(((Tensor) x[0]).softsign()));
        t.put("tanhshrink", (x, a) -> one(((Tensor) x[0]).tanhshrink()));
        t.put("softshrink", (x, a) -> one(((Tensor) x[0]).softshrink(a.get("lambd").getAsDouble())));
        t.put("hardshrink", (x, a) -> one(((Tensor) x[0]).hardshrink(a.get("lambd").getAsDouble())));
        t.put("threshold", (x, a) -> one(((Tensor) x[0]).threshold(a.get("threshold").getAsDouble(), a.get("value").getAsDouble())));
        t.put("softmin", (x, a) -> one(((Tensor) x[0]).softmin(dim(a))));
        t.put("glu", (x, a) -> one(((Tensor) x[0]).glu(dim(a))));
        t.put("prelu", (x, a) -> one(((Tensor) x[0]).prelu((Tensor) x[1])));
        t.put("rrelu", (x, a) -> one(((Tensor) x[0]).rrelu(a.get("lower").getAsDouble(), a.get("upper").getAsDouble(), a.get("training").getAsBoolean(), null)));
        // losses (issue 14): org.ctensor.nn.Functional; an optional weight is the input after the required ones
        t.put("l1_loss", (x, a) -> one(Functional.l1Loss((Tensor) x[0], (Tensor) x[1], reduction(a))));
        t.put("smooth_l1_loss", (x, a) -> one(Functional.smoothL1Loss((Tensor) x[0], (Tensor) x[1], reduction(a), num(a, "beta"))));
        t.put("huber_loss", (x, a) -> one(Functional.huberLoss((Tensor) x[0], (Tensor) x[1], reduction(a), num(a, "delta"))));
        t.put("kl_div", (x, a) -> one(Functional.klDiv((Tensor) x[0], (Tensor) x[1], reduction(a), bool(a, "log_target"))));
        t.put("soft_margin_loss", (x, a) -> one(Functional.softMarginLoss((Tensor) x[0], (Tensor) x[1], reduction(a))));
        t.put("poisson_nll_loss", (x, a) -> one(Functional.poissonNllLoss((Tensor) x[0], (Tensor) x[1], bool(a, "log_input"),
                                                                  bool(a, "full"), num(a, "eps"), reduction(a))));
        t.put("gaussian_nll_loss", (x, a) -> one(Functional.gaussianNllLoss((Tensor) x[0], (Tensor) x[1], (Tensor) x[2],
                                                                    bool(a, "full"), num(a, "eps"), reduction(a))));
        t.put("hinge_embedding_loss", (x, a) -> one(Functional.hingeEmbeddingLoss((Tensor) x[0], (Tensor) x[1], num(a, "margin"), reduction(a))));
        t.put("margin_ranking_loss", (x, a) -> one(Functional.marginRankingLoss((Tensor) x[0], (Tensor) x[1], (Tensor) x[2],
                                                                        num(a, "margin"), reduction(a))));
        t.put("multilabel_soft_margin_loss", (x, a) -> one(Functional.multilabelSoftMarginLoss((Tensor) x[0], (Tensor) x[1],
                                                                                       x.length > 2 ? (Tensor) x[2] : null, reduction(a))));
        t.put("multi_margin_loss", (x, a) -> one(Functional.multiMarginLoss((Tensor) x[0], (Tensor) x[1], arg(a, "p"), num(a, "margin"),
                                                                    x.length > 2 ? (Tensor) x[2] : null, reduction(a))));
        t.put("cosine_embedding_loss", (x, a) -> one(Functional.cosineEmbeddingLoss((Tensor) x[0], (Tensor) x[1], (Tensor) x[2],
                                                                            num(a, "margin"), reduction(a))));
        t.put("triplet_margin_loss", (x, a) -> one(Functional.tripletMarginLoss((Tensor) x[0], (Tensor) x[1], (Tensor) x[2], num(a, "margin"),
                                                                        num(a, "p"), num(a, "eps"), bool(a, "swap"), reduction(a))));
        t.put("ctc_loss", (x, a) -> one(Functional.ctcLoss((Tensor) x[0], (Tensor) x[1], longs(a.get("input_lengths")),
                                                           longs(a.get("target_lengths")), arg(a, "blank"), reduction(a),
                                                           bool(a, "zero_infinity"))));
        // torch.linalg (org.ctensor.Linalg)
        t.put("linalg_inv", (x, a) -> one(Linalg.inv((Tensor) x[0])));
        t.put("linalg_det", (x, a) -> one(Linalg.det((Tensor) x[0])));
        t.put("linalg_slogdet", (x, a) -> {
            Linalg.SignLogDet r = Linalg.slogdet((Tensor) x[0]);
            return new Tensor[] {r.sign, r.logabsdet};
        });
        t.put("linalg_solve", (x, a) -> one(Linalg.solve((Tensor) x[0], (Tensor) x[1])));
        t.put("linalg_cholesky", (x, a) -> one(Linalg.cholesky((Tensor) x[0], a.get("upper").getAsBoolean())));
        t.put("linalg_qr", (x, a) -> {
            Linalg.QR r = Linalg.qr((Tensor) x[0], Linalg.QrMode.valueOf(a.get("mode").getAsString().toUpperCase(java.util.Locale.ROOT)));
            return new Tensor[] {r.q, r.r};
        });
        t.put("linalg_eigh", (x, a) -> {
            Linalg.Eigh r = Linalg.eigh((Tensor) x[0], a.get("UPLO").getAsString().equals("U"));
            return new Tensor[] {r.eigenvalues, r.eigenvectors};
        });
        t.put("linalg_eigvalsh", (x, a) -> one(Linalg.eigvalsh((Tensor) x[0], a.get("UPLO").getAsString().equals("U"))));
        t.put("linalg_eig", (x, a) -> {
            Linalg.Eigh r = Linalg.eig((Tensor) x[0]);
            return new Tensor[] {r.eigenvalues, r.eigenvectors};
        });
        t.put("linalg_eigvals", (x, a) -> one(Linalg.eigvals((Tensor) x[0])));
        t.put("linalg_svd", (x, a) -> {
            Linalg.SVD r = Linalg.svd((Tensor) x[0], a.get("full_matrices").getAsBoolean());
            return new Tensor[] {r.u, r.s, r.vh};
        });
        t.put("linalg_svdvals", (x, a) -> one(Linalg.svdvals((Tensor) x[0])));
        t.put("linalg_matrix_power", (x, a) -> one(Linalg.matrixPower((Tensor) x[0], a.get("n").getAsLong())));
        t.put("linalg_cross", (x, a) -> one(Linalg.cross((Tensor) x[0], (Tensor) x[1], dim(a))));
        t.put("linalg_vector_norm", (x, a) -> one(Linalg.vectorNorm((Tensor) x[0], decode(a.get("ord")),
                a.get("dims").isJsonNull() ? new long[0] : longs(a.get("dims")), a.get("keepdim").getAsBoolean())));
        t.put("linalg_matrix_norm", (x, a) -> {
            long[] d = longs(a.get("dims"));
            return one(Linalg.matrixNorm((Tensor) x[0], a.get("ord").getAsString(), d[0], d[1], a.get("keepdim").getAsBoolean()));
        });
        t.put("linalg_pinv", (x, a) -> one(Linalg.pinv((Tensor) x[0], optDouble(a, "atol"), optDouble(a, "rtol"))));
        t.put("linalg_matrix_rank", (x, a) -> one(Linalg.matrixRank((Tensor) x[0], optDouble(a, "atol"), optDouble(a, "rtol"))));
        t.put("linalg_lstsq", (x, a) -> one(Linalg.lstsq((Tensor) x[0], (Tensor) x[1])));
        t.put("linalg_lstsq_ex", (x, a) -> {
            Linalg.Lstsq r = Linalg.lstsq((Tensor) x[0], (Tensor) x[1],
                    a.get("rcond").isJsonNull() ? null : a.get("rcond").getAsDouble(),
                    Linalg.LstsqDriver.valueOf(a.get("driver").getAsString().toUpperCase(java.util.Locale.ROOT)));
            return new Tensor[] {r.solution, r.residuals, r.rank, r.singularValues};
        });
        // recurrent nets (org.ctensor.nn.Recurrent): inputs x, hx, (cx for LSTM), then the weights; cy only for LSTM
        t.put("rnn", (x, a) -> {
            Recurrent.Mode m = Recurrent.Mode.valueOf(a.get("mode").getAsString().toUpperCase(java.util.Locale.ROOT));
            int k = m == Recurrent.Mode.LSTM ? 3 : 2;
            Tensor[] w = new Tensor[x.length - k];
            for (int i = k; i < x.length; ++i) w[i - k] = (Tensor) x[i];
            Tensor[] r = Recurrent.rnn(m, (Tensor) x[0], (Tensor) x[1], k == 3 ? (Tensor) x[2] : null, w, bool(a, "has_biases"),
                                       arg(a, "num_layers"), 0, false, bool(a, "bidirectional"), bool(a, "batch_first"),
                                       arg(a, "proj_size"), a.has("batch_sizes") ? longs(a.get("batch_sizes")) : null, null);
            return r[2] == null ? new Tensor[] {r[0], r[1]} : r;
        });
        t.put("rnn_cell", (x, a) -> {
            Recurrent.Mode m = Recurrent.Mode.valueOf(a.get("mode").getAsString().toUpperCase(java.util.Locale.ROOT));
            int k = m == Recurrent.Mode.LSTM ? 3 : 2;
            Tensor[] r = Recurrent.rnnCell(m, (Tensor) x[0], (Tensor) x[1], k == 3 ? (Tensor) x[2] : null, (Tensor) x[k],
                                           (Tensor) x[k + 1], (Tensor) x[k + 2], (Tensor) x[k + 3]);
            return r[1] == null ? new Tensor[] {r[0]} : r;
        });
        t.put("linalg_solve_triangular", (x, a) -> one(Linalg.solveTriangular((Tensor) x[0], (Tensor) x[1],
                a.get("upper").getAsBoolean(), a.get("left").getAsBoolean(), a.get("unitriangular").getAsBoolean())));
        t.put("wrapped_scalar", (x, a) -> one(((Tensor) x[0]).mul(Tensor.wrappedScalar((Double) x[1], a.get("is_integer").getAsBoolean()))));
        t.put("wrapped_scalar_bool", (x, a) -> one(((Tensor) x[0]).mul(Tensor.wrappedScalarBool((Boolean) x[1]))));
        // in-place writes through a view of a clone of input 0; the output is the clone
        Map<String, Write> writes = Map.of(
                "add_", (v, x, a) -> v.addInPlace((Tensor) x[1], a.get("alpha").getAsDouble()),
                "sub_", (v, x, a) -> v.subInPlace((Tensor) x[1], a.get("alpha").getAsDouble()),
                "mul_", (v, x, a) -> v.mulInPlace((Tensor) x[1]),
                "div_", (v, x, a) -> v.divInPlace((Tensor) x[1]),
                "copy_", (v, x, a) -> v.copyFrom((Tensor) x[1]),
                "zero_", (v, x, a) -> v.zero(),
                "fill_", (v, x, a) -> v.fill(a.get("value").getAsDouble()),
                "clamp_", (v, x, a) -> v.clampInPlace(a.get("min").getAsDouble(), a.get("max").getAsDouble()));
        writes.forEach((name, w) -> t.put(name, (x, a) -> {
            Tensor y = ((Tensor) x[0]).copy();
            w.apply(viewOps().get(a.get("view").getAsString()).call(new Object[] {y}, a.getAsJsonObject("view_args"))[0], x, a);
            return one(y);
        }));
        t.putAll(complexOps());
        complexOverloads(t);
        return t;
    }

    /** A write through a view: the view, the case's inputs and args. */
    private interface Write {
        Tensor apply(Tensor view, Object[] x, JsonObject a);
    }

    static long arg(JsonObject a, String key) {
        return a.get(key).getAsLong();
    }

    static double num(JsonObject a, String key) {
        return a.get(key).getAsDouble();
    }

    static boolean bool(JsonObject a, String key) {
        return a.get(key).getAsBoolean();
    }

    /** The view ops (also the views that the in-place cases write through). */
    static Map<String, Op> viewOps() {
        Map<String, Op> t = new HashMap<>();
        t.put("reshape", (x, a) -> one(((Tensor) x[0]).reshape(longs(a.get("shape")))));
        t.put("view", (x, a) -> one(((Tensor) x[0]).view(longs(a.get("shape")))));
        t.put("expand", (x, a) -> one(((Tensor) x[0]).expand(longs(a.get("shape")))));
        t.put("permute", (x, a) -> one(((Tensor) x[0]).permute(longs(a.get("dims")))));
        t.put("transpose", (x, a) -> one(((Tensor) x[0]).transpose(arg(a, "dim0"), arg(a, "dim1"))));
        t.put("squeeze", (x, a) -> one(((Tensor) x[0]).squeeze(dim(a))));
        t.put("unsqueeze", (x, a) -> one(((Tensor) x[0]).unsqueeze(dim(a))));
        t.put("flatten", (x, a) -> one(((Tensor) x[0]).flatten(arg(a, "start_dim"), arg(a, "end_dim"))));
        t.put("narrow", (x, a) -> one(((Tensor) x[0]).narrow(dim(a), arg(a, "start"), arg(a, "length"))));
        t.put("slice", (x, a) -> one(((Tensor) x[0]).slice(dim(a), arg(a, "start"), arg(a, "end"), arg(a, "step"))));
        t.put("select", (x, a) -> one(((Tensor) x[0]).select(dim(a), arg(a, "index"))));
        t.put("t", (x, a) -> one(((Tensor) x[0]).t()));
        t.put("diagonal", (x, a) -> one(((Tensor) x[0]).diagonal(arg(a, "offset"), arg(a, "dim1"), arg(a, "dim2"))));
        return t;
    }

    /** The complex parts and views (issue 15). */
    static Map<String, Op> complexOps() {
        Map<String, Op> t = new HashMap<>();
        t.put("angle", (x, a) -> one(Complex.angle((Tensor) x[0])));
        t.put("conj", (x, a) -> one(Complex.conj((Tensor) x[0])));
        t.put("real", (x, a) -> one(Complex.real((Tensor) x[0])));
        t.put("imag", (x, a) -> one(Complex.imag((Tensor) x[0])));
        t.put("view_as_real", (x, a) -> one(Complex.viewAsReal((Tensor) x[0])));
        t.put("view_as_complex", (x, a) -> one(Complex.viewAsComplex((Tensor) x[0])));
        t.put("complex", (x, a) -> one(Complex.complex((Tensor) x[0], (Tensor) x[1])));
        t.put("polar", (x, a) -> one(Complex.polar((Tensor) x[0], (Tensor) x[1])));
        return t;
    }

    static void runCase(JsonObject c, Map<String, Op> table) throws Problem {
        Op op = table.get(c.get("op").getAsString());
        if (op == null) throw new Problem("op " + c.get("op").getAsString() + " is not exposed");
        JsonArray in = c.getAsJsonArray("inputs");
        Object[] x = new Object[in.size()];
        for (int i = 0; i < x.length; ++i) x[i] = make(in.get(i).getAsJsonObject());
        JsonObject args = c.getAsJsonObject("args");
        if (args.has("seed")) Generator.manualSeed(args.get("seed").getAsLong());
        if (c.has("error")) {
            String status = c.get("error").getAsString();
            Class<? extends CTensorException> kind = ERRORS.getOrDefault(status, CTensorException.class);
            try {
                op.call(x, args);
            } catch (CTensorException e) {
                if (kind.isInstance(e)) return;
                throw new Problem("threw " + e.getClass().getSimpleName() + ": " + e.getMessage() + "; expected " + kind.getSimpleName() + " (" + status + ")");
            }
            throw new Problem("returned; expected " + status);
        }
        Tensor[] outs = op.call(x, args);
        JsonObject expect = c.getAsJsonObject("expect");
        JsonArray want = expect.getAsJsonArray("outputs");
        if (outs.length != want.size()) throw new Problem(outs.length + " outputs, expected " + want.size());
        for (int k = 0; k < outs.length; ++k) compare("output " + k, outs[k], want.get(k).getAsJsonObject());
        if (!expect.has("grads")) return;
        outs[0].backward((Tensor) make(expect.getAsJsonObject("grad_output")));
        JsonArray grads = expect.getAsJsonArray("grads");
        for (int k = 0; k < x.length; ++k) {
            if (grads.get(k).isJsonNull()) continue;
            Tensor g = ((Tensor) x[k]).grad();
            if (g == null) throw new Problem("input " + k + " got no gradient");
            compare("gradient of input " + k, g, grads.get(k).getAsJsonObject());
        }
    }

    /** Runs every case of dir/*.json; each case's tensors are closed by a TensorScope. */
    public static Result run(Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
        }
        if (files.isEmpty()) throw new IOException("no cases in " + dir);
        Map<String, Op> table = opTable();
        Result r = new Result();
        for (Path f : files) {
            JsonArray cases;
            try (Reader rd = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                cases = JsonParser.parseReader(rd).getAsJsonObject().getAsJsonArray("cases");
            }
            for (JsonElement e : cases) {
                JsonObject c = e.getAsJsonObject();
                String op = c.get("op").getAsString();
                r.ops.add(op);
                try (TensorScope scope = new TensorScope()) {
                    runCase(c, table);
                    r.passed++;
                } catch (Problem | RuntimeException ex) {
                    String why = ex instanceof Problem ? ex.getMessage() : "threw " + ex;
                    r.failures.add(c.get("id").getAsString() + ": " + why);
                    r.failedOps.add(op);
                }
            }
        }
        return r;
    }

    /** The cases folder: -Dctensor.conformance.cases, else tests/conformance/cases above the working directory. */
    public static Path casesDir() {
        String p = System.getProperty("ctensor.conformance.cases");
        if (p != null) return Paths.get(p);
        Path d = Paths.get("").toAbsolutePath();
        while (d != null && !Files.isDirectory(d.resolve("tests/conformance/cases"))) d = d.getParent();
        if (d == null) throw new IllegalStateException("tests/conformance/cases not found (set -Dctensor.conformance.cases)");
        return d.resolve("tests/conformance/cases");
    }

    /** Prints the failures and the closing line; writes java.json into CONFORMANCE_RESULTS_DIR when it is set. */
    public static void report(Result r) throws IOException {
        r.failures.stream().limit(50).forEach(l -> System.out.println("FAIL " + l));
        if (r.failures.size() > 50) System.out.println("... and " + (r.failures.size() - 50) + " more");
        System.out.println(r.passed + " passed, " + r.failures.size() + " failed");
        String out = System.getenv("CONFORMANCE_RESULTS_DIR");
        if (out == null) return;
        JsonObject j = new JsonObject();
        j.addProperty("language", "Java");
        j.addProperty("run", r.passed + r.failures.size());
        j.addProperty("passed", r.passed);
        j.addProperty("failed", r.failures.size());
        j.addProperty("ops", r.ops.size());
        j.addProperty("ops_passed", r.ops.size() - r.failedOps.size());
        Files.createDirectories(Paths.get(out));
        Files.writeString(Paths.get(out, "java.json"), j + "\n");
    }

    public static void main(String[] args) throws IOException {
        Result r = run(args.length > 0 ? Paths.get(args[0]) : casesDir());
        report(r);
        long live = Tensor.liveHandles();
        if (live != 0) System.out.println("leaked " + live + " handles");
        System.exit(r.failures.isEmpty() && live == 0 ? 0 : 1);
    }
}
