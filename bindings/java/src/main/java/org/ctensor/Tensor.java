// Tensor.java - the user-facing tensor: views, elementwise ops, reductions, linear algebra, indexing, sorting and
// in-place ops, each a thin call of the generated JNI layer. Ownership, metadata, data out and autograd are in
// TensorCore, the static factories in TensorFactories (both inherited, so Tensor.zeros(...) and t.shape() work).
// A closed tensor throws IllegalStateException; every failed native call throws a CTensorException subclass.
package org.ctensor;

import java.lang.ref.Reference;
import java.util.function.LongBinaryOperator;
import org.ctensor.internal.CT;

public final class Tensor extends TensorCore {
    private Tensor(long handle) {
        super(handle);
    }

    /** Wraps a new native reference (ownership passes to the Tensor). */
    static Tensor own(long handle) {
        return new Tensor(handle);
    }

    /** own() after a call that used a's handle (see Note [Keep alive] in Native.java). */
    static Tensor own(long handle, Object a) {
        Reference.reachabilityFence(a);
        return new Tensor(handle);
    }

    static Tensor own(long handle, Object a, Object b) {
        Reference.reachabilityFence(a);
        Reference.reachabilityFence(b);
        return new Tensor(handle);
    }

    static Tensor own(long handle, Object a, Object b, Object c) {
        Reference.reachabilityFence(a);
        Reference.reachabilityFence(b);
        Reference.reachabilityFence(c);
        return new Tensor(handle);
    }

    @Op("empty_like")
    public Tensor emptyLike() {
        return own(CT.empty_like(handle()), this);
    }

    @Op("zeros_like")
    public Tensor zerosLike() {
        return own(CT.zeros_like(handle()), this);
    }

    @Op("ones_like")
    public Tensor onesLike() {
        return own(CT.ones_like(handle()), this);
    }

    @Op("full_like")
    public Tensor fullLike(double value) {
        return own(CT.full_like(handle(), value), this);
    }

    /** 0/1 draws with this tensor's probabilities. */
    @Op("bernoulli")
    public Tensor bernoulli(Generator gen) {
        return own(CT.bernoulli(handle(), Generator.handleOf(gen)), this, gen);
    }

    @Op("reshape")
    public Tensor reshape(long... shape) {
        return own(CT.reshape(handle(), shape), this);
    }

    @Op("view")
    public Tensor view(long... shape) {
        return own(CT.view(handle(), shape), this);
    }

    @Op("transpose")
    public Tensor transpose(long d0, long d1) {
        return own(CT.transpose(handle(), d0, d1), this);
    }

    @Op("permute")
    public Tensor permute(long... perm) {
        return own(CT.permute(handle(), perm), this);
    }

    @Op("squeeze")
    public Tensor squeeze(long dim) {
        return own(CT.squeeze(handle(), dim), this);
    }

    @Op("squeeze_all")
    public Tensor squeeze() {
        return own(CT.squeeze_all(handle()), this);
    }

    @Op("unsqueeze")
    public Tensor unsqueeze(long dim) {
        return own(CT.unsqueeze(handle(), dim), this);
    }

    @Op("expand")
    public Tensor expand(long... shape) {
        return own(CT.expand(handle(), shape), this);
    }

    @Op("flatten")
    public Tensor flatten(long startDim, long endDim) {
        return own(CT.flatten(handle(), startDim, endDim), this);
    }

    public Tensor flatten() {
        return flatten(0, -1);
    }

    @Op("narrow")
    public Tensor narrow(long dim, long start, long length) {
        return own(CT.narrow(handle(), dim, start, length), this);
    }

    /** Python slice start:end:step of dim. */
    @Op("slice")
    public Tensor slice(long dim, long start, long end, long step) {
        return own(CT.slice(handle(), dim, start, end, step), this);
    }

    public Tensor slice(long dim, long start, long end) {
        return slice(dim, start, end, 1);
    }

    /** Index index of dim, removing dim. */
    @Op("select")
    public Tensor select(long dim, long index) {
        return own(CT.select(handle(), dim, index), this);
    }

    /** x[i0][i1]... (each index selects along the leading dim; negatives count from the end). */
    public Tensor get(long... indices) {
        Tensor t = share();
        for (long i : indices) {
            Tensor next = t.select(0, i);
            t.close();
            t = next;
        }
        return t;
    }

    @Op("diagonal")
    public Tensor diagonal(long offset, long dim1, long dim2) {
        return own(CT.diagonal(handle(), offset, dim1, dim2), this);
    }

    public Tensor diagonal() {
        return diagonal(0, 0, 1);
    }

    @Op("contiguous")
    public Tensor contiguous() {
        return own(CT.contiguous(handle()), this);
    }

    @Op("clone")
    public Tensor copy() {
        return own(CT.clone(handle()), this);
    }

    @Op("detach")
    public Tensor detach() {
        return own(CT.detach(handle()), this);
    }

    @Op("to_dtype")
    public Tensor to(DType dtype) {
        return own(CT.to_dtype(handle(), dtype.code), this);
    }

    @Op("to_device")
    public Tensor to(Device device) {
        return own(CT.to_device(handle(), device.encode()), this);
    }

    @Op("flip")
    public Tensor flip(long... dims) {
        return own(CT.flip(handle(), dims), this);
    }

    @Op("roll")
    public Tensor roll(long[] shifts, long[] dims) {
        return own(CT.roll(handle(), shifts, dims), this);
    }

    /** Rolls the flattened tensor by shift. */
    public Tensor roll(long shift) {
        return roll(new long[] {shift}, new long[0]);
    }

    @Op("tril")
    public Tensor tril(long diagonal) {
        return own(CT.tril(handle(), diagonal), this);
    }

    @Op("triu")
    public Tensor triu(long diagonal) {
        return own(CT.triu(handle(), diagonal), this);
    }

    @Op("neg")
    public Tensor neg() {
        return own(CT.neg(handle()), this);
    }

    @Op("abs")
    public Tensor abs() {
        return own(CT.abs(handle()), this);
    }

    @Op("sign")
    public Tensor sign() {
        return own(CT.sign(handle()), this);
    }

    @Op("exp")
    public Tensor exp() {
        return own(CT.exp(handle()), this);
    }

    @Op("log")
    public Tensor log() {
        return own(CT.log(handle()), this);
    }

    @Op("log1p")
    public Tensor log1p() {
        return own(CT.log1p(handle()), this);
    }

    @Op("expm1")
    public Tensor expm1() {
        return own(CT.expm1(handle()), this);
    }

    @Op("sqrt")
    public Tensor sqrt() {
        return own(CT.sqrt(handle()), this);
    }

    @Op("rsqrt")
    public Tensor rsqrt() {
        return own(CT.rsqrt(handle()), this);
    }

    @Op("sin")
    public Tensor sin() {
        return own(CT.sin(handle()), this);
    }

    @Op("cos")
    public Tensor cos() {
        return own(CT.cos(handle()), this);
    }

    @Op("tan")
    public Tensor tan() {
        return own(CT.tan(handle()), this);
    }

    @Op("tanh")
    public Tensor tanh() {
        return own(CT.tanh(handle()), this);
    }

    @Op("sigmoid")
    public Tensor sigmoid() {
        return own(CT.sigmoid(handle()), this);
    }

    @Op("relu")
    public Tensor relu() {
        return own(CT.relu(handle()), this);
    }

    @Op("gelu")
    public Tensor gelu() {
        return own(CT.gelu(handle()), this);
    }

    @Op("silu")
    public Tensor silu() {
        return own(CT.silu(handle()), this);
    }

    @Op("softplus")
    public Tensor softplus() {
        return own(CT.softplus(handle()), this);
    }

    // ---- torch.nn.functional's further activations (gradients as torch's, also at the kinks) ----

    private static final double SELU_ALPHA = 1.6732632423543772848, SELU_SCALE = 1.0507009873554804934;

    /** ELU: x if x > 0, else alpha * (e^x - 1). */
    public Tensor elu(double alpha) {
        return elu(alpha, 1.0, 1.0);
    }

    /** scale * (x if x > 0 else alpha * (e^(inputScale * x) - 1)): the op under ELU, SELU and CELU. */
    @Op("elu")
    public Tensor elu(double alpha, double scale, double inputScale) {
        return own(CT.elu(handle(), alpha, scale, inputScale), this);
    }

    /** SELU: ELU with the self-normalising constants, scaled. */
    public Tensor selu() {
        return elu(SELU_ALPHA, SELU_SCALE, 1.0);
    }

    /** CELU: max(0, x) + min(0, alpha * (e^(x / alpha) - 1)); alpha must not be 0. */
    public Tensor celu(double alpha) {
        if (alpha == 0) throw new InvalidArgumentException(CT.CT_ERR_INVALID_ARGUMENT, "celu: alpha cannot be 0", null);
        return elu(alpha, 1.0, 1.0 / alpha);
    }

    /** x if x > 0, else negativeSlope * x. */
    @Op("leaky_relu")
    public Tensor leakyRelu(double negativeSlope) {
        return own(CT.leaky_relu(handle(), negativeSlope), this);
    }

    /** x clamped to [minVal, maxVal], gradient strictly inside. */
    @Op("hardtanh")
    public Tensor hardtanh(double minVal, double maxVal) {
        return own(CT.hardtanh(handle(), minVal, maxVal), this);
    }

    /** min(max(x, 0), 6). */
    public Tensor relu6() {
        return hardtanh(0.0, 6.0);
    }

    /** clamp(x / 6 + 1/2, 0, 1). */
    @Op("hardsigmoid")
    public Tensor hardsigmoid() {
        return own(CT.hardsigmoid(handle()), this);
    }

    /** x * clamp(x + 3, 0, 6) / 6. */
    @Op("hardswish")
    public Tensor hardswish() {
        return own(CT.hardswish(handle()), this);
    }

    /** x - lambd above lambd, x + lambd below -lambd, else 0 (lambd >= 0). */
    @Op("softshrink")
    public Tensor softshrink(double lambd) {
        return own(CT.softshrink(handle(), lambd), this);
    }

    /** x where |x| > lambd, else 0. */
    @Op("hardshrink")
    public Tensor hardshrink(double lambd) {
        return own(CT.hardshrink(handle(), lambd), this);
    }

    /** x where x > threshold, else value (in this tensor's dtype). */
    @Op("threshold")
    public Tensor threshold(double threshold, double value) {
        return own(CT.threshold(handle(), threshold, value), this);
    }

    /** x * tanh(softplus(x)). */
    @Op("mish")
    public Tensor mish() {
        return own(CT.mish(handle()), this);
    }

    /** log(sigmoid(x)), stable. */
    @Op("log_sigmoid")
    public Tensor logSigmoid() {
        return own(CT.log_sigmoid(handle()), this);
    }

    /** x / (1 + |x|). */
    @Op("softsign")
    public Tensor softsign() {
        return own(CT.softsign(handle()), this);
    }

    /** x - tanh(x). */
    @Op("tanhshrink")
    public Tensor tanhshrink() {
        return own(CT.tanhshrink(handle()), this);
    }

    /** softmax(-x) along dim. */
    @Op("softmin")
    public Tensor softmin(long dim) {
        return own(CT.softmin(handle(), dim), this);
    }

    /** a * sigmoid(b) for the halves a, b of this tensor along dim (its size must be even). */
    @Op("glu")
    public Tensor glu(long dim) {
        return own(CT.glu(handle(), dim), this);
    }

    /** x if x > 0, else weight * x; weight has 1 element or one per channel (dim 1). */
    @Op("prelu")
    public Tensor prelu(Tensor weight) {
        return own(CT.prelu(handle(), weight.handle()), this, weight);
    }

    /** x if x > 0, else r * x: r ~ U(lower, upper) per element when training (gen null: the default), else (lower + upper) / 2. */
    @Op("rrelu")
    public Tensor rrelu(double lower, double upper, boolean training, Generator gen) {
        return own(CT.rrelu(handle(), lower, upper, training ? 1 : 0, gen == null ? 0 : gen.handle()), this, gen);
    }

    @Op("floor")
    public Tensor floor() {
        return own(CT.floor(handle()), this);
    }

    @Op("ceil")
    public Tensor ceil() {
        return own(CT.ceil(handle()), this);
    }

    @Op("round")
    public Tensor round() {
        return own(CT.round(handle()), this);
    }

    @Op("reciprocal")
    public Tensor reciprocal() {
        return own(CT.reciprocal(handle()), this);
    }

    @Op("logical_not")
    public Tensor logicalNot() {
        return own(CT.logical_not(handle()), this);
    }

    @Op("pow_scalar")
    public Tensor pow(double exponent) {
        return own(CT.pow_scalar(handle(), exponent), this);
    }

    @Op("clamp")
    public Tensor clamp(double min, double max) {
        return own(CT.clamp(handle(), min, 1, max, 1), this);
    }

    public Tensor clampMin(double min) {
        return own(CT.clamp(handle(), min, 1, 0, 0), this);
    }

    public Tensor clampMax(double max) {
        return own(CT.clamp(handle(), 0, 0, max, 1), this);
    }

    @Op("softmax")
    public Tensor softmax(long dim) {
        return own(CT.softmax(handle(), dim), this);
    }

    @Op("log_softmax")
    public Tensor logSoftmax(long dim) {
        return own(CT.log_softmax(handle(), dim), this);
    }

    /** The dtype of an elementwise op of this and other (torch.result_type): a 0-d tensor only promotes when it is
     *  of a higher category. */
    public DType resultType(Tensor other) {
        DType d = DType.of((int) CT.result_type(handle(), other.handle()));
        Reference.reachabilityFence(this);
        Reference.reachabilityFence(other);
        return d;
    }

    private Tensor withScalar(double value, LongBinaryOperator op) {
        long s = CT.wrapped_scalar(value, 0);
        try {
            return own(op.applyAsLong(handle(), s), this);
        } finally {
            CT.tensor_release(s);
        }
    }

    @Op("add")
    public Tensor add(Tensor other) {
        return own(CT.add(handle(), other.handle(), 1.0), this, other);
    }

    /** this + alpha * other. */
    public Tensor add(Tensor other, double alpha) {
        return own(CT.add(handle(), other.handle(), alpha), this, other);
    }

    public Tensor add(double value) {
        return withScalar(value, (a, b) -> CT.add(a, b, 1.0));
    }

    @Op("sub")
    public Tensor sub(Tensor other) {
        return own(CT.sub(handle(), other.handle(), 1.0), this, other);
    }

    public Tensor sub(Tensor other, double alpha) {
        return own(CT.sub(handle(), other.handle(), alpha), this, other);
    }

    public Tensor sub(double value) {
        return withScalar(value, (a, b) -> CT.sub(a, b, 1.0));
    }

    @Op("mul")
    public Tensor mul(Tensor other) {
        return own(CT.mul(handle(), other.handle()), this, other);
    }

    public Tensor mul(double value) {
        return withScalar(value, CT::mul);
    }

    @Op("div")
    public Tensor div(Tensor other) {
        return own(CT.div(handle(), other.handle()), this, other);
    }

    public Tensor div(double value) {
        return withScalar(value, CT::div);
    }

    @Op("pow")
    public Tensor pow(Tensor exponent) {
        return own(CT.pow(handle(), exponent.handle()), this, exponent);
    }

    @Op("maximum")
    public Tensor maximum(Tensor other) {
        return own(CT.maximum(handle(), other.handle()), this, other);
    }

    @Op("minimum")
    public Tensor minimum(Tensor other) {
        return own(CT.minimum(handle(), other.handle()), this, other);
    }

    @Op("atan2")
    public Tensor atan2(Tensor other) {
        return own(CT.atan2(handle(), other.handle()), this, other);
    }

    /** Python's {@code //}: the floor of this / other; integers exactly (Long.MIN_VALUE // -1 wraps); no gradient. */
    @Op("floor_divide")
    public Tensor floorDivide(Tensor other) {
        return own(CT.floor_divide(handle(), other.handle()), this, other);
    }

    public Tensor floorDivide(double value) {
        return withScalar(value, CT::floor_divide);
    }

    @Op("remainder")
    public Tensor remainder(Tensor other) {
        return own(CT.remainder(handle(), other.handle()), this, other);
    }

    public Tensor remainder(double value) {
        return withScalar(value, CT::remainder);
    }

    @Op("eq")
    public Tensor eq(Tensor other) {
        return own(CT.eq(handle(), other.handle()), this, other);
    }

    public Tensor eq(double value) {
        return withScalar(value, CT::eq);
    }

    @Op("ne")
    public Tensor ne(Tensor other) {
        return own(CT.ne(handle(), other.handle()), this, other);
    }

    public Tensor ne(double value) {
        return withScalar(value, CT::ne);
    }

    @Op("lt")
    public Tensor lt(Tensor other) {
        return own(CT.lt(handle(), other.handle()), this, other);
    }

    public Tensor lt(double value) {
        return withScalar(value, CT::lt);
    }

    @Op("le")
    public Tensor le(Tensor other) {
        return own(CT.le(handle(), other.handle()), this, other);
    }

    public Tensor le(double value) {
        return withScalar(value, CT::le);
    }

    @Op("gt")
    public Tensor gt(Tensor other) {
        return own(CT.gt(handle(), other.handle()), this, other);
    }

    public Tensor gt(double value) {
        return withScalar(value, CT::gt);
    }

    @Op("ge")
    public Tensor ge(Tensor other) {
        return own(CT.ge(handle(), other.handle()), this, other);
    }

    public Tensor ge(double value) {
        return withScalar(value, CT::ge);
    }

    @Op("logical_and")
    public Tensor logicalAnd(Tensor other) {
        return own(CT.logical_and(handle(), other.handle()), this, other);
    }

    @Op("logical_or")
    public Tensor logicalOr(Tensor other) {
        return own(CT.logical_or(handle(), other.handle()), this, other);
    }

    @Op("logical_xor")
    public Tensor logicalXor(Tensor other) {
        return own(CT.logical_xor(handle(), other.handle()), this, other);
    }

    /** cond ? a : b elementwise (broadcasting). */
    @Op("where")
    public static Tensor where(Tensor cond, Tensor a, Tensor b) {
        return own(CT.where(cond.handle(), a.handle(), b.handle()), cond, a, b);
    }

    private static final long[] ALL = new long[0];

    @Op("sum")
    public Tensor sum(long[] dims, boolean keepdim) {
        return own(CT.sum(handle(), dims, keepdim ? 1 : 0), this);
    }

    public Tensor sum(long... dims) {
        return sum(dims, false);
    }

    @Op("mean")
    public Tensor mean(long[] dims, boolean keepdim) {
        return own(CT.mean(handle(), dims, keepdim ? 1 : 0), this);
    }

    public Tensor mean(long... dims) {
        return mean(dims, false);
    }

    @Op("prod")
    public Tensor prod(long[] dims, boolean keepdim) {
        return own(CT.prod(handle(), dims, keepdim ? 1 : 0), this);
    }

    public Tensor prod(long... dims) {
        return prod(dims, false);
    }

    /** Variance with the given correction (1 = unbiased). */
    @Op("var")
    public Tensor var(long[] dims, double correction, boolean keepdim) {
        return own(CT.var(handle(), dims, correction, keepdim ? 1 : 0), this);
    }

    public Tensor var(long... dims) {
        return var(dims, 1.0, false);
    }

    @Op("std")
    public Tensor std(long[] dims, double correction, boolean keepdim) {
        return own(CT.std(handle(), dims, correction, keepdim ? 1 : 0), this);
    }

    public Tensor std(long... dims) {
        return std(dims, 1.0, false);
    }

    @Op("logsumexp")
    public Tensor logsumexp(long[] dims, boolean keepdim) {
        return own(CT.logsumexp(handle(), dims, keepdim ? 1 : 0), this);
    }

    public Tensor logsumexp(long... dims) {
        return logsumexp(dims, false);
    }

    /** p-norm (Double.POSITIVE_INFINITY for the max norm). */
    @Op("norm")
    public Tensor norm(double p, long[] dims, boolean keepdim) {
        return own(CT.norm(handle(), p, dims, keepdim ? 1 : 0), this);
    }

    public Tensor norm() {
        return norm(2.0, ALL, false);
    }

    @Op("all")
    public Tensor all(long[] dims, boolean keepdim) {
        return own(CT.all(handle(), dims, keepdim ? 1 : 0), this);
    }

    public Tensor all(long... dims) {
        return all(dims, false);
    }

    @Op("any")
    public Tensor any(long[] dims, boolean keepdim) {
        return own(CT.any(handle(), dims, keepdim ? 1 : 0), this);
    }

    public Tensor any(long... dims) {
        return any(dims, false);
    }

    @Op("max")
    public Tensor max() {
        return own(CT.max(handle()), this);
    }

    @Op("min")
    public Tensor min() {
        return own(CT.min(handle()), this);
    }

    /** Largest values along dim and their int64 positions. */
    @Op("max_dim")
    public Pair max(long dim, boolean keepdim) {
        long[] v = new long[1], i = new long[1];
        CT.max_dim(handle(), dim, keepdim ? 1 : 0, v, i);
        Native.keepAlive(this);
        return Pair.own(v, i);
    }

    @Op("min_dim")
    public Pair min(long dim, boolean keepdim) {
        long[] v = new long[1], i = new long[1];
        CT.min_dim(handle(), dim, keepdim ? 1 : 0, v, i);
        Native.keepAlive(this);
        return Pair.own(v, i);
    }

    @Op("argmax")
    public Tensor argmax(long dim, boolean keepdim) {
        return own(CT.argmax(handle(), dim, keepdim ? 1 : 0), this);
    }

    @Op("argmax_all")
    public Tensor argmax() {
        return own(CT.argmax_all(handle()), this);
    }

    @Op("argmin")
    public Tensor argmin(long dim, boolean keepdim) {
        return own(CT.argmin(handle(), dim, keepdim ? 1 : 0), this);
    }

    @Op("argmin_all")
    public Tensor argmin() {
        return own(CT.argmin_all(handle()), this);
    }

    @Op("cumsum")
    public Tensor cumsum(long dim) {
        return own(CT.cumsum(handle(), dim), this);
    }

    @Op("cumprod")
    public Tensor cumprod(long dim) {
        return own(CT.cumprod(handle(), dim), this);
    }

    @Op("matmul")
    public Tensor matmul(Tensor other) {
        return own(CT.matmul(handle(), other.handle()), this, other);
    }

    @Op("dot")
    public Tensor dot(Tensor other) {
        return own(CT.dot(handle(), other.handle()), this, other);
    }

    @Op("outer")
    public Tensor outer(Tensor other) {
        return own(CT.outer(handle(), other.handle()), this, other);
    }

    /** Transpose of a 2-D tensor. */
    @Op("t")
    public Tensor t() {
        return own(CT.t(handle()), this);
    }

    @Op("einsum")
    public static Tensor einsum(String equation, Tensor... operands) {
        return own(CT.einsum(equation, handles(operands)), operands);
    }

    @Op("index_select")
    public Tensor indexSelect(long dim, Tensor index) {
        return own(CT.index_select(handle(), dim, index.handle()), this, index);
    }

    @Op("gather")
    public Tensor gather(long dim, Tensor index) {
        return own(CT.gather(handle(), dim, index.handle()), this, index);
    }

    @Op("scatter")
    public Tensor scatter(long dim, Tensor index, Tensor src) {
        return own(CT.scatter(handle(), dim, index.handle(), src.handle()), this, index, src);
    }

    @Op("scatter_add")
    public Tensor scatterAdd(long dim, Tensor index, Tensor src) {
        return own(CT.scatter_add(handle(), dim, index.handle(), src.handle()), this, index, src);
    }

    @Op("masked_fill")
    public Tensor maskedFill(Tensor mask, double value) {
        return own(CT.masked_fill(handle(), mask.handle(), value), this, mask);
    }

    @Op("masked_select")
    public Tensor maskedSelect(Tensor mask) {
        return own(CT.masked_select(handle(), mask.handle()), this, mask);
    }

    @Op("nonzero")
    public Tensor nonzero() {
        return own(CT.nonzero(handle()), this);
    }

    @Op("cat")
    public static Tensor cat(long dim, Tensor... tensors) {
        return own(CT.cat(handles(tensors), dim), tensors);
    }

    @Op("stack")
    public static Tensor stack(long dim, Tensor... tensors) {
        return own(CT.stack(handles(tensors), dim), tensors);
    }

    private static Tensor[] pieces(long count, java.util.function.ToLongFunction<long[]> call) {
        long[] outs = new long[(int) count];
        call.applyAsLong(outs);
        Tensor[] ts = new Tensor[outs.length];
        for (int i = 0; i < ts.length; ++i) ts[i] = own(outs[i]);
        return ts;
    }

    @Op("split")
    public Tensor[] split(long splitSize, long dim) {
        long h = handle();
        long n = CT.split(h, splitSize, dim, null);
        return pieces(n, outs -> CT.split(h, splitSize, dim, outs));
    }

    @Op("chunk")
    public Tensor[] chunk(long chunks, long dim) {
        long h = handle();
        long n = CT.chunk(h, chunks, dim, null);
        return pieces(n, outs -> CT.chunk(h, chunks, dim, outs));
    }

    /** Two results (values and int64 indices); closing the pair closes both. */
    public static final class Pair implements AutoCloseable {
        public final Tensor values;
        public final Tensor indices;

        Pair(Tensor values, Tensor indices) {
            this.values = values;
            this.indices = indices;
        }

        /** The pair owning the handles a two-output C call wrote into v[0] and i[0]. */
        static Pair own(long[] v, long[] i) {
            return new Pair(Tensor.own(v[0]), Tensor.own(i[0]));
        }

        @Override
        public void close() {
            values.close();
            indices.close();
        }
    }

    @Op("sort")
    public Pair sort(long dim, boolean descending) {
        long[] v = new long[1], i = new long[1];
        CT.sort(handle(), dim, descending ? 1 : 0, 1, v, i);
        Native.keepAlive(this);
        return Pair.own(v, i);
    }

    @Op("argsort")
    public Tensor argsort(long dim, boolean descending) {
        return own(CT.argsort(handle(), dim, descending ? 1 : 0, 1), this);
    }

    @Op("topk")
    public Pair topk(long k, long dim, boolean largest) {
        long[] v = new long[1], i = new long[1];
        CT.topk(handle(), k, dim, largest ? 1 : 0, 1, v, i);
        Native.keepAlive(this);
        return Pair.own(v, i);
    }

    @Op("kthvalue")
    public Pair kthvalue(long k, long dim, boolean keepdim) {
        long[] v = new long[1], i = new long[1];
        CT.kthvalue(handle(), k, dim, keepdim ? 1 : 0, v, i);
        Native.keepAlive(this);
        return Pair.own(v, i);
    }

    /** Distinct values: [values, inverse (this shape), counts]. */
    @Op("unique")
    public Tensor[] unique(boolean sorted) {
        long[] v = new long[1], inv = new long[1], c = new long[1];
        CT.unique(handle(), sorted ? 1 : 0, v, inv, c);
        Native.keepAlive(this);
        return new Tensor[] {own(v[0]), own(inv[0]), own(c[0])};
    }

    @Op("add_")
    public Tensor addInPlace(Tensor other, double alpha) {
        CT.add_(handle(), other.handle(), alpha);
        Native.keepAlive(this, other);
        return this;
    }

    public Tensor addInPlace(Tensor other) {
        return addInPlace(other, 1.0);
    }

    @Op("sub_")
    public Tensor subInPlace(Tensor other, double alpha) {
        CT.sub_(handle(), other.handle(), alpha);
        Native.keepAlive(this, other);
        return this;
    }

    @Op("mul_")
    public Tensor mulInPlace(Tensor other) {
        CT.mul_(handle(), other.handle());
        Native.keepAlive(this, other);
        return this;
    }

    public Tensor mulInPlace(double value) {
        long s = CT.wrapped_scalar(value, 0);
        try {
            CT.mul_(handle(), s);
            Native.keepAlive(this);
        } finally {
            CT.tensor_release(s);
        }
        return this;
    }

    @Op("div_")
    public Tensor divInPlace(Tensor other) {
        CT.div_(handle(), other.handle());
        Native.keepAlive(this, other);
        return this;
    }

    @Op("zero_")
    public Tensor zero() {
        CT.zero_(handle());
        Native.keepAlive(this);
        return this;
    }

    @Op("fill_")
    public Tensor fill(double value) {
        CT.fill_(handle(), value);
        Native.keepAlive(this);
        return this;
    }

    /** Copies src (broadcast, converted) into this tensor, e.g. into a slice view. */
    @Op("copy_")
    public Tensor copyFrom(Tensor src) {
        CT.copy_(handle(), src.handle());
        Native.keepAlive(this, src);
        return this;
    }

    @Op("clamp_")
    public Tensor clampInPlace(double min, double max) {
        CT.clamp_(handle(), min, 1, max, 1);
        Native.keepAlive(this);
        return this;
    }

    // ---- binary math (issue 14) ----

    /** log(e^this + e^other) without overflow (floating tensors only). */
    @Op("logaddexp")
    public Tensor logaddexp(Tensor other) {
        return own(CT.logaddexp(handle(), other.handle()), this, other);
    }

    /** log2(2^this + 2^other) without overflow (floating tensors only). */
    @Op("logaddexp2")
    public Tensor logaddexp2(Tensor other) {
        return own(CT.logaddexp2(handle(), other.handle()), this, other);
    }

    /** sqrt(this^2 + other^2) without intermediate overflow (floating tensors only). */
    @Op("hypot")
    public Tensor hypot(Tensor other) {
        return own(CT.hypot(handle(), other.handle()), this, other);
    }

    /** this * log(other), 0 where this == 0 and NaN where other is NaN; integers give FLOAT32. */
    @Op("xlogy")
    public Tensor xlogy(Tensor other) {
        return own(CT.xlogy(handle(), other.handle()), this, other);
    }

    /** The magnitude of this with the sign of other; integers give FLOAT32. */
    @Op("copysign")
    public Tensor copysign(Tensor other) {
        return own(CT.copysign(handle(), other.handle()), this, other);
    }

    /** The larger element, a NaN ignored unless both are NaN (maximum propagates NaN). */
    @Op("fmax")
    public Tensor fmax(Tensor other) {
        return own(CT.fmax(handle(), other.handle()), this, other);
    }

    /** The smaller element, a NaN ignored unless both are NaN (minimum propagates NaN). */
    @Op("fmin")
    public Tensor fmin(Tensor other) {
        return own(CT.fmin(handle(), other.handle()), this, other);
    }

    /** 0 where this &lt; 0, other where this == 0, 1 where this &gt; 0 (one dtype for both; no gradient). */
    @Op("heaviside")
    public Tensor heaviside(Tensor other) {
        return own(CT.heaviside(handle(), other.handle()), this, other);
    }

    /** The next representable value after this towards other (FLOAT32 / FLOAT64 only; no gradient). */
    @Op("nextafter")
    public Tensor nextafter(Tensor other) {
        return own(CT.nextafter(handle(), other.handle()), this, other);
    }

    /** this &amp; other, bitwise (BOOL: logical and). */
    @Op("bitwise_and")
    public Tensor bitwiseAnd(Tensor other) {
        return own(CT.bitwise_and(handle(), other.handle()), this, other);
    }

    /** this | other, bitwise (BOOL: logical or). */
    @Op("bitwise_or")
    public Tensor bitwiseOr(Tensor other) {
        return own(CT.bitwise_or(handle(), other.handle()), this, other);
    }

    /** this ^ other, bitwise (BOOL: logical xor). */
    @Op("bitwise_xor")
    public Tensor bitwiseXor(Tensor other) {
        return own(CT.bitwise_xor(handle(), other.handle()), this, other);
    }

    /** this &lt;&lt; other (wrapping); counts outside [0, bits) give 0. */
    @Op("bitwise_left_shift")
    public Tensor bitwiseLeftShift(Tensor other) {
        return own(CT.bitwise_left_shift(handle(), other.handle()), this, other);
    }

    /** this &gt;&gt; other (arithmetic for signed types); counts outside [0, bits) give the sign fill. */
    @Op("bitwise_right_shift")
    public Tensor bitwiseRightShift(Tensor other) {
        return own(CT.bitwise_right_shift(handle(), other.handle()), this, other);
    }

    /** The greatest common divisor (&gt;= 0; gcd(0, 0) = 0) of integer tensors. */
    @Op("gcd")
    public Tensor gcd(Tensor other) {
        return own(CT.gcd(handle(), other.handle()), this, other);
    }

    /** The least common multiple |this / gcd * other| (0 when either is 0) of integer tensors. */
    @Op("lcm")
    public Tensor lcm(Tensor other) {
        return own(CT.lcm(handle(), other.handle()), this, other);
    }

    /** ~this, bitwise (BOOL: logical not). */
    @Op("bitwise_not")
    public Tensor bitwiseNot() {
        return own(CT.bitwise_not(handle()), this);
    }

    /** this + value * t1 * t2 (broadcast over the three). */
    @Op("addcmul")
    public Tensor addcmul(Tensor t1, Tensor t2, double value) {
        return own(CT.addcmul(handle(), t1.handle(), t2.handle(), value), this, t1, t2);
    }

    /** this + value * t1 / t2 (t1 and t2 may not both be integer tensors). */
    @Op("addcdiv")
    public Tensor addcdiv(Tensor t1, Tensor t2, double value) {
        return own(CT.addcdiv(handle(), t1.handle(), t2.handle(), value), this, t1, t2);
    }

    // ---- complex numbers beside a tensor (issue 15): re + i im as ct_wrapped_scalar_complex, promoted as torch
    // promotes a Python complex (FLOAT32 / integer / BOOL / FLOAT16 -> COMPLEX64, FLOAT64 -> COMPLEX128, complex
    // keeps its dtype). The number on the left: Complex.sub / Complex.div. ----

    Tensor withComplex(double re, double im, boolean scalarFirst, LongBinaryOperator op) {
        long s = CT.wrapped_scalar_complex(re, im);
        try {
            return own(scalarFirst ? op.applyAsLong(s, handle()) : op.applyAsLong(handle(), s), this);
        } finally {
            CT.tensor_release(s);
        }
    }

    /** this + (re + i im). */
    public Tensor add(double re, double im) {
        return withComplex(re, im, false, (a, b) -> CT.add(a, b, 1.0));
    }

    /** this - (re + i im). */
    public Tensor sub(double re, double im) {
        return withComplex(re, im, false, (a, b) -> CT.sub(a, b, 1.0));
    }

    /** this * (re + i im). */
    public Tensor mul(double re, double im) {
        return withComplex(re, im, false, CT::mul);
    }

    /** this / (re + i im). */
    public Tensor div(double re, double im) {
        return withComplex(re, im, false, CT::div);
    }

    /** this ** (re + i im). */
    public Tensor pow(double re, double im) {
        return withComplex(re, im, false, CT::pow);
    }

    /** this == re + i im (BOOL). */
    public Tensor eq(double re, double im) {
        return withComplex(re, im, false, CT::eq);
    }

    /** this != re + i im (BOOL); ordering with a complex number is refused (NotSupportedException), as torch. */
    public Tensor ne(double re, double im) {
        return withComplex(re, im, false, CT::ne);
    }
}
