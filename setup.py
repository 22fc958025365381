"""Packages the tilelab Python module for `pip install --no-build-isolation .`.

The module is a C++ extension built by the project's CMake build, not by
setuptools: this file builds it (in build-pip/, or reuses the build named by
TILELAB_BUILD_DIR) and copies into the package the extension, the Python
files beside it and the suite's code objects (tilelab/kernels/<arch>/...),
where the module finds them (kernels/code_object_dir.hpp).  The wheel is
platform-specific (it holds a compiled extension).  setuptools' own
scratch goes to $TILELAB_WHEEL_TMP (default build-wheel/), never into the
CMake build folder.
"""
import glob
import os
import re
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(HERE, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"^project\(tilelab VERSION ([0-9.]+)", f.read(), re.M)
    if not match:
        raise RuntimeError("CMakeLists.txt: no project(tilelab VERSION ...) line")
    return match.group(1)


def cmake_build():
    """The CMake build folder holding python/tilelab/_tilelab*.so and kernels/."""
    given = os.environ.get("TILELAB_BUILD_DIR")
    build = os.path.abspath(given) if given else os.path.join(HERE, "build-pip")
    if not glob.glob(os.path.join(build, "python", "tilelab", "_tilelab*.so")):
        if given:
            raise RuntimeError(f"TILELAB_BUILD_DIR={given}: no built Python module in it (build it first)")
        subprocess.check_call(["cmake", "-S", HERE, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                               "-DTILELAB_FUZZ=OFF"])
        subprocess.check_call(["ninja", "-C", build, "_tilelab", "tilelab"])
    return build


class BuildWithCMake(build_py):
    def run(self):
        build = cmake_build()
        package = os.path.join(self.build_lib, "tilelab")
        os.makedirs(package, exist_ok=True)
        for f in glob.glob(os.path.join(build, "python", "tilelab", "*")):
            if os.path.isfile(f):
                shutil.copy2(f, package)
        kernels = os.path.join(build, "kernels")
        for f in glob.glob(os.path.join(kernels, "**", "*"), recursive=True):
            if f.endswith((".hsaco", ".ptx")) and "CMakeFiles" not in f:
                target = os.path.join(package, "kernels", os.path.relpath(f, kernels))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copy2(f, target)


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


scratch = os.environ.get("TILELAB_WHEEL_TMP", os.path.join(HERE, "build-wheel"))
setup(
    version=project_version(),
    packages=["tilelab"],
    package_dir={"tilelab": "tools/python/tilelab"},
    cmdclass={"build_py": BuildWithCMake},
    distclass=BinaryDistribution,
    options={"build": {"build_base": scratch}, "egg_info": {"egg_base": scratch}},
)
