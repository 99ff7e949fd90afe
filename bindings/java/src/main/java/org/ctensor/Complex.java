// Complex.java - complex64 / complex128 for Java (issue 15): building complex tensors from parts or interleaved
// (real, imag) doubles, reading them back interleaved, real / imag views, conj, angle, polar, complex fills -
// static methods with torch's names over the C ABI (the library checks arguments; errors map to exceptions).
package org.ctensor;

import org.ctensor.internal.CT;

public final class Complex {
    private Complex() {}

    /** real + i imag (torch.complex): both FLOAT32 (COMPLEX64) or both FLOAT64 (COMPLEX128), broadcast. */
    @Op("complex")
    public static Tensor complex(Tensor real, Tensor imag) {
        long h = CT.complex(real.handle(), imag.handle());
        Native.keepAlive(real, imag);
        return Tensor.own(h);
    }

    /** abs * (cos(angle) + i sin(angle)). */
    @Op("polar")
    public static Tensor polar(Tensor abs, Tensor angle) {
        long h = CT.polar(abs.handle(), angle.handle());
        Native.keepAlive(abs, angle);
        return Tensor.own(h);
    }

    /** The real part (a view of a complex tensor; a real tensor is returned as itself). */
    @Op("real")
    public static Tensor real(Tensor x) {
        return Tensor.own(CT.real(x.handle()), x);
    }

    /** The imaginary part as a view (a DTypeException for a real tensor). */
    @Op("imag")
    public static Tensor imag(Tensor x) {
        return Tensor.own(CT.imag(x.handle()), x);
    }

    /** The [..., 2] float view of a complex tensor's (real, imag) pairs. */
    @Op("view_as_real")
    public static Tensor viewAsReal(Tensor x) {
        return Tensor.own(CT.view_as_real(x.handle()), x);
    }

    /** The complex view of a FLOAT32/FLOAT64 tensor [..., 2]. */
    @Op("view_as_complex")
    public static Tensor viewAsComplex(Tensor x) {
        return Tensor.own(CT.view_as_complex(x.handle()), x);
    }

    /** The complex conjugate (a new tensor). */
    @Op("conj")
    public static Tensor conj(Tensor x) {
        return Tensor.own(CT.conj(x.handle()), x);
    }

    /** The argument atan2(imag, real) of each element. */
    @Op("angle")
    public static Tensor angle(Tensor x) {
        return Tensor.own(CT.angle(x.handle()), x);
    }

    /** A COMPLEX64/COMPLEX128 tensor of shape filled with real + i imag. */
    @Op("full_complex")
    public static Tensor full(long[] shape, double real, double imag, DType dtype, Device device) {
        return Tensor.own(CT.full_complex(shape, real, imag, dtype.code, device.encode()));
    }

    /** A complex tensor of shape from interleaved (real, imag) doubles (COMPLEX128, or COMPLEX64 rounded). */
    public static Tensor fromInterleaved(double[] pairs, long[] shape, DType dtype) {
        long[] pshape = java.util.Arrays.copyOf(shape, shape.length + 1);
        pshape[shape.length] = 2;
        try (Tensor flat = Tensor.fromArray(pairs).reshape(pshape);
             Tensor c = viewAsComplex(flat.contiguous())) {
            return c.to(dtype);
        }
    }

    /** The elements of a complex tensor as interleaved (real, imag) doubles, row-major. */
    public static double[] toInterleaved(Tensor x) {
        try (Tensor v = viewAsReal(x)) {
            return v.toDoubleArray();
        }
    }

    /** The 0-d wrapped complex number re + i im (COMPLEX128; promotes by category only, like a Python complex). */
    @Op("wrapped_scalar_complex")
    public static Tensor wrappedScalar(double re, double im) {
        return Tensor.own(CT.wrapped_scalar_complex(re, im));
    }

    /** (re + i im) - x. */
    public static Tensor sub(double re, double im, Tensor x) {
        return x.withComplex(re, im, true, (a, b) -> CT.sub(a, b, 1.0));
    }

    /** (re + i im) / x. */
    public static Tensor div(double re, double im, Tensor x) {
        return x.withComplex(re, im, true, CT::div);
    }

    /** (re + i im) ** x. */
    public static Tensor pow(double re, double im, Tensor x) {
        return x.withComplex(re, im, true, CT::pow);
    }
}
