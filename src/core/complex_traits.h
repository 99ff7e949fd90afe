// complex_traits.h - the trait that tells the std::complex storage types of complex64 / complex128 apart
// (Note [Complex dtypes] in core/dtype.h); shared by dtype dispatch and scalar conversions.
#pragma once
#include <complex>

namespace ct {

template <typename T> struct IsComplexType { static constexpr bool value = false; };
template <typename R> struct IsComplexType<std::complex<R>> { static constexpr bool value = true; };

}  // namespace ct
