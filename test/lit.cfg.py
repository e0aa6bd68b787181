# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FLYHOIST"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.flyhoist_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(("%flyhoist_lib_dir", config.flyhoist_lib_dir))
config.substitutions.append(("%flyhoist_src_root", config.flyhoist_src_root))
config.substitutions.append(("%flyhoist_obj_root", config.flyhoist_obj_root))
config.substitutions.append(("%host_cc", config.host_cc))
config.substitutions.append(("%host_cxx", config.host_cxx))
config.substitutions.append(("%flyhoist_plugin", config.flyhoist_plugin))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
# Install/subproject.test compiles flyhoist again: let it share the cache.
llvm_config.with_system_environment(["CCACHE_DIR", "CCACHE_BASEDIR"])
llvm_config.use_default_substitutions()

tool_dirs = [config.flyhoist_tools_dir, config.llvm_tools_dir]
tools = [
    "fly-opt",
    "flyhoist-pass-faults",
    "flyhoist-compat-test",
    ToolSubst("mlir-runner", unresolved="ignore"),
    ToolSubst("mlir-opt", unresolved="ignore"),
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# `not`, `count` and `split-file` at the start of a RUN line are found on PATH.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# Sanitized builds (scripts/sanitize.sh): tests can tell (REQUIRES/UNSUPPORTED:
# asan), and the leak checker's options reach the tools.
llvm_config.with_system_environment(["LSAN_OPTIONS"])
if lit_config.params.get("flyhoist_sanitized", "0") not in ("", "0"):
    config.available_features.add("asan")

# The libFuzzer target and its mutant printer, where fuzz/build.sh built them
# (sanitized build dirs): regression inputs that only the C++ API path shows
# run through it, and the structure-aware mutator is tested.
if os.path.exists(os.path.join(config.flyhoist_tools_dir, "hoist-fuzzer")):
    config.available_features.add("hoist-fuzzer")
    llvm_config.add_tool_substitutions(["hoist-fuzzer", "hoist-mutate"],
                                       [config.flyhoist_tools_dir])

# In a sanitized build the pass plugin and the C API library reference the
# sanitizer runtime, which only an instrumented executable brings. The
# uninstrumented processes that load them (Debian's mlir-opt, python3 through
# ctypes) get the shared runtime preloaded, without leak checking: what they
# hold at exit is theirs, not ours.
if "asan" in config.available_features:
    import glob
    import re

    runtimes = sorted(glob.glob(os.path.join(
        os.path.dirname(config.llvm_tools_dir), "lib", "clang", "*", "lib",
        "linux", "libclang_rt.asan-x86_64.so")))
    if runtimes:
        preload = "env LD_PRELOAD=%s ASAN_OPTIONS=%s:detect_leaks=0" % (
            runtimes[-1], os.environ.get("ASAN_OPTIONS", ""))
        mlir_opt = os.path.join(config.llvm_tools_dir, "mlir-opt")
        config.substitutions.append(
            (re.escape(mlir_opt), preload + " " + mlir_opt))
        config.substitutions.append(
            (r"(?<![\w/.-])python3(?= )", preload + " python3"))
