"""setup.py - builds libctensor with CMake from the repository root (or takes CTENSOR_LIB_DIR), copies
libctensor.so.1 into the package and compiles the ctensor._C extension against include/ctensor.h only,
linked with rpath $ORIGIN so the copied library is found next to it.

Environment: CTENSOR_SOURCE_DIR (repository root; default ../.. relative to this file),
CTENSOR_LIB_DIR (directory holding an already-built libctensor.so.1; skips CMake),
CTENSOR_BUILD_JOBS (parallel CMake jobs; default 2)."""
import glob
import os
import re
import shutil
import subprocess

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


def source_dir():
    return os.path.abspath(os.environ.get("CTENSOR_SOURCE_DIR") or os.path.join(HERE, "..", ".."))


def read_version():
    with open(os.path.join(source_dir(), "include", "ctensor.h")) as f:
        text = f.read()
    parts = [re.search(r"#define CT_VERSION_%s (\d+)" % k, text).group(1) for k in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


# Modules that libctensor dlopen()s from its directory when first needed: distributed over MPI. (The CUDA backend
# is found through CTENSOR_CUDA_BACKEND for now.)
OPTIONAL_MODULES = ("libctensor_mpi.so.1",)


class CMakeBuildExt(build_ext):
    """build_ext that first provides libctensor.so.1 (CMake build or CTENSOR_LIB_DIR)."""

    def run(self):
        lib_dir = os.environ.get("CTENSOR_LIB_DIR") or self.build_library()
        lib = os.path.join(lib_dir, "libctensor.so.1")
        if not os.path.exists(lib):
            raise RuntimeError("libctensor.so.1 not found in %s" % lib_dir)
        for ext in self.extensions:
            ext.include_dirs.append(os.path.join(source_dir(), "include"))
            ext.library_dirs.append(os.path.abspath(lib_dir))
        super().run()
        package_dir = os.path.dirname(self.get_ext_fullpath("ctensor._C"))
        shutil.copyfile(os.path.realpath(lib), os.path.join(package_dir, "libctensor.so.1"))
        # the modules libctensor loads on first use from its own directory, where they were built
        for module in OPTIONAL_MODULES:
            path = os.path.join(lib_dir, module)
            if os.path.exists(path):
                shutil.copyfile(os.path.realpath(path), os.path.join(package_dir, module))

    def build_library(self):
        build_dir = os.path.abspath(os.path.join(self.build_temp, "libctensor"))
        jobs = os.environ.get("CTENSOR_BUILD_JOBS", "2")
        subprocess.check_call(["cmake", "-S", source_dir(), "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                               "-DCTENSOR_BUILD_TESTS=OFF"])
        subprocess.check_call(["cmake", "--build", build_dir, "-j", jobs, "--target", "ctensor"])
        # the MPI module exists only where CMake found MPI; without it distributed calls say why
        subprocess.call(["cmake", "--build", build_dir, "-j", jobs, "--target", "ctensor_mpi"])
        return build_dir


extension = Extension(
    "ctensor._C",
    sources=sorted(glob.glob(os.path.join("src", "*.c"))),
    depends=glob.glob(os.path.join("src", "*.h")),
    extra_compile_args=["-std=c11", "-Wall", "-Wno-missing-field-initializers", "-Wno-unused-function"],
    # every ct_* reference is weak (src/optional_symbols.h), so --as-needed would drop the library
    extra_link_args=["-Wl,--no-as-needed", "-l:libctensor.so.1", "-Wl,--as-needed", "-Wl,-rpath,$ORIGIN"],
)

setup(version=read_version(), ext_modules=[extension], cmdclass={"build_ext": CMakeBuildExt})
