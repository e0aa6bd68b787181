"""Every option of hoist-stride-specialization changes what the pass does.

Reads the pass's options from `fly-opt --help` (so a new option in Passes.td
is listed here without anyone adding it) and, for each, hoists a kernel with
the defaults and with the option set, through fly-opt (the pass, whose
options are copied into the API's), and checks the option's own effect. An
option with no case below, or one whose effect is missing, fails the test.
Usage: options_honoured.py FLY-OPT SCRATCH-DIR
"""
import os
import re
import subprocess
import sys

fly_opt, scratch = sys.argv[1], sys.argv[2]

KERNEL = """
func.func @k(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index
  %n = spec.param "n" = 4 : index
  %a = arith.muli %i, %w : index
  %v = memref.load %m[%a] : memref<?xf32>
  scf.for %j = %i to %n step %i {
  }
  return
}
func.func @host(%m: memref<?xf32>, %i: index) {
  func.call @k(%m, %i) : (memref<?xf32>, index) -> ()
  return
}
"""

RULES_KERNEL = """
func.func @k(%m: memref<?xf32>, %i: index) attributes {spec.kernel} {
  %w = spec.param "w" = 64 : index
  %o = test_stride.opaque %i, %w : (index, index) -> index
  %v = test_stride.opaque_load %m[%o] : memref<?xf32> -> f32
  return
}
"""

# An offset tail in LDS: kept by default (it folds into ds_read's immediate
# offset), an argument with hoist-immediate-offsets.
TAIL_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @m [#rocdl.target<chip = "gfx942">] {
    llvm.mlir.global external @smem() {addr_space = 3 : i32, dso_local} : !llvm.array<4096 x i8>
    gpu.func @k(%x: i32) kernel {
      %tail = spec.param "tail" = 64 : i32
      %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
      %p = llvm.getelementptr %base[%x] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
      %q = llvm.getelementptr %p[%tail] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
      %a = llvm.load %q : !llvm.ptr<3> -> bf16
      gpu.return
    }
  }
}
"""

manifest = os.path.join(scratch, "manifest.json")

# option -> (value set, kernel, what the output must show with it, and must
# not show with the defaults).
CASES = {
    "materialize-kept": ("materialize-kept=false", KERNEL, r"spec\.param"),
    "remarks": ("remarks=true", KERNEL, r"remark: 'w' hoisted"),
    "hoist-into-host": ("hoist-into-host", KERNEL,
                        r"func\.func @host\([^)]*%arg2: index"),
    "divisibility": ("divisibility=16", KERNEL, r"llvm\.intr\.assume"),
    "narrow-range": ("narrow-range=true", KERNEL, r"%arg2: i32"),
    "hoist-immediate-offsets": ("hoist-immediate-offsets=true", TAIL_KERNEL,
                                r"%arg1: i32"),
    "address-operands": (
        "address-operands=test_stride.opaque_load[0,1] "
        "pass-through-operands=test_stride.opaque[1]",
        RULES_KERNEL, r"%arg2: index"),
    "pass-through-operands": (
        "address-operands=test_stride.opaque_load[0,1] "
        "pass-through-operands=test_stride.opaque[1]",
        RULES_KERNEL, r"%arg2: index"),
    "manifest": ("manifest=" + manifest, KERNEL, None),
}
# The defaults each case is compared with (remarks are on by default).
BASE = {"remarks": "remarks=false"}


def pass_options():
    text = subprocess.run([fly_opt, "--help"], capture_output=True,
                          text=True, check=True).stdout
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.strip().startswith("--hoist-stride-specialization "))
    indent = len(lines[start]) - len(lines[start].lstrip())
    names = []
    for line in lines[start + 1:]:
        if len(line) - len(line.lstrip()) <= indent:
            break
        names.append(re.match(r"\s*--([\w-]+)", line).group(1))
    return names


def hoist(options, kernel):
    result = subprocess.run(
        [fly_opt, "--hoist-stride-specialization=" + options],
        input=kernel, capture_output=True, text=True)
    return result.stdout + result.stderr


failed = False
names = pass_options()
print("options: %d" % len(names))
for name in names:
    if name not in CASES:
        print("FAIL %s: no case checks it" % name)
        failed = True
        continue
    options, kernel, effect = CASES[name]
    if os.path.exists(manifest):
        os.remove(manifest)
    base = hoist(BASE.get(name, "remarks=false"), kernel)
    out = hoist(options + ("" if name == "remarks" else " remarks=false"),
                kernel)
    if effect is None:
        honoured = os.path.exists(manifest)
    else:
        honoured = (re.search(effect, out) is not None
                    and re.search(effect, base) is None)
    print("%s %s" % ("ok" if honoured else "FAIL", name))
    failed |= not honoured
sys.exit(1 if failed else 0)
