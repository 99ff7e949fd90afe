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
        dest = os.path.join(os.path.dirname(self.get_ext_fullpath("ctensor._C")), "libctensor.so.1")
        shutil.copyfile(os.path.realpath(lib), dest)

    def build_library(self):
        build_dir = os.path.abspath(os.path.join(self.build_temp, "libctensor"))
        jobs = os.environ.get("CTENSOR_BUILD_JOBS", "2")
        subprocess.check_call(["cmake", "-S", source_dir(), "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                               "-DCTENSOR_BUILD_TESTS=OFF"])
        subprocess.check_call(["cmake", "--build", build_dir, "-j", jobs, "--target", "ctensor"])
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
