// UnaryMath.java - the unary math ops of issue 14 for Java: inverse and hyperbolic trigonometry, erf / erfc /
// erfinv, lgamma / digamma, logit, sinc, sgn, angle conversions, sign-bit and infinity tests, positive and i0 -
// static methods with torch's names over the C ABI (the library checks arguments; errors map to exceptions).
package org.ctensor;

import org.ctensor.internal.CT;

public final class UnaryMath {
    private UnaryMath() {}

    /** Arcsine. */
    @Op("asin")
    public static Tensor asin(Tensor x) {
        return Tensor.own(CT.asin(x.handle()), x);
    }

    /** Arccosine. */
    @Op("acos")
    public static Tensor acos(Tensor x) {
        return Tensor.own(CT.acos(x.handle()), x);
    }

    /** Arctangent. */
    @Op("atan")
    public static Tensor atan(Tensor x) {
        return Tensor.own(CT.atan(x.handle()), x);
    }

    /** Hyperbolic sine. */
    @Op("sinh")
    public static Tensor sinh(Tensor x) {
        return Tensor.own(CT.sinh(x.handle()), x);
    }

    /** Hyperbolic cosine. */
    @Op("cosh")
    public static Tensor cosh(Tensor x) {
        return Tensor.own(CT.cosh(x.handle()), x);
    }

    /** Inverse hyperbolic sine. */
    @Op("asinh")
    public static Tensor asinh(Tensor x) {
        return Tensor.own(CT.asinh(x.handle()), x);
    }

    /** Inverse hyperbolic cosine. */
    @Op("acosh")
    public static Tensor acosh(Tensor x) {
        return Tensor.own(CT.acosh(x.handle()), x);
    }

    /** Inverse hyperbolic tangent. */
    @Op("atanh")
    public static Tensor atanh(Tensor x) {
        return Tensor.own(CT.atanh(x.handle()), x);
    }

    /** The error function. */
    @Op("erf")
    public static Tensor erf(Tensor x) {
        return Tensor.own(CT.erf(x.handle()), x);
    }

    /** 1 - erf(x), accurate in the tail. */
    @Op("erfc")
    public static Tensor erfc(Tensor x) {
        return Tensor.own(CT.erfc(x.handle()), x);
    }

    /** The inverse error function. */
    @Op("erfinv")
    public static Tensor erfinv(Tensor x) {
        return Tensor.own(CT.erfinv(x.handle()), x);
    }

    /** log |gamma(x)|. */
    @Op("lgamma")
    public static Tensor lgamma(Tensor x) {
        return Tensor.own(CT.lgamma(x.handle()), x);
    }

    /** d/dx log gamma(x). */
    @Op("digamma")
    public static Tensor digamma(Tensor x) {
        return Tensor.own(CT.digamma(x.handle()), x);
    }

    /** sin(pi x) / (pi x), 1 at 0. */
    @Op("sinc")
    public static Tensor sinc(Tensor x) {
        return Tensor.own(CT.sinc(x.handle()), x);
    }

    /** x / |x| for complex x, sign for real x. */
    @Op("sgn")
    public static Tensor sgn(Tensor x) {
        return Tensor.own(CT.sgn(x.handle()), x);
    }

    /** Degrees to radians. */
    @Op("deg2rad")
    public static Tensor deg2rad(Tensor x) {
        return Tensor.own(CT.deg2rad(x.handle()), x);
    }

    /** Radians to degrees. */
    @Op("rad2deg")
    public static Tensor rad2deg(Tensor x) {
        return Tensor.own(CT.rad2deg(x.handle()), x);
    }

    /** BOOL tensor: the sign bit is set (-0.0 included). */
    @Op("signbit")
    public static Tensor signbit(Tensor x) {
        return Tensor.own(CT.signbit(x.handle()), x);
    }

    /** BOOL tensor: x == +inf. */
    @Op("isposinf")
    public static Tensor isposinf(Tensor x) {
        return Tensor.own(CT.isposinf(x.handle()), x);
    }

    /** BOOL tensor: x == -inf. */
    @Op("isneginf")
    public static Tensor isneginf(Tensor x) {
        return Tensor.own(CT.isneginf(x.handle()), x);
    }

    /** +x: the same tensor (a new handle sharing storage and history). */
    @Op("positive")
    public static Tensor positive(Tensor x) {
        return Tensor.own(CT.positive(x.handle()), x);
    }

    /** The modified Bessel function of the first kind, order 0. */
    @Op("i0")
    public static Tensor i0(Tensor x) {
        return Tensor.own(CT.i0(x.handle()), x);
    }

    /** log(x / (1 - x)) of x clamped to [eps, 1 - eps]. */
    @Op("logit")
    public static Tensor logit(Tensor x, double eps) {
        return Tensor.own(CT.logit(x.handle(), eps), x);
    }

    /** log(x / (1 - x)) without clamping (torch's eps=None). */
    public static Tensor logit(Tensor x) {
        return logit(x, -1.0);
    }
}
