#!/usr/bin/env python3
"""Checks that hoisting never breaks lowering to a code object.

For every input with a `gpu.module` (each lit input under test/, split at
`// -----` lines, and every kernel under kernels/), the module the pass
hoists (default options) must still lower to a code object wherever the
materialized module (`materialize-specialization`) does:

  fly-opt --hoist-stride-specialization=remarks=false IN > H
  fly-opt --pass-pipeline='builtin.module(flyhoist-amdgpu-pipeline{chip=C})' H
  fly-opt --pass-pipeline='builtin.module(flyhoist-nvvm-pipeline{chip=sm_90 format=isa})' H

C is the chip the input names (`chip = "gfx950"`, or in its file name:
`..._gfx950.mlir`), else gfx942. The NVVM
pipeline applies to inputs with no ROCDL/AMDGPU op. An operand that must stay
an immediate (an LLVM immarg) and was hoisted fails here even when no test
was written for it. Inputs the pass rejects (its error tests) and inputs
whose materialized form does not lower either (not the pass's doing) are
skipped, and counted by reason.

The NVVM pipeline prints PTX (format=isa); each PTX text is assembled to a
cubin by `ptxas -arch=sm_90` (--ptxas, else `ptxas` on PATH, else
/usr/local/cuda*/bin/ptxas), and a PTX ptxas rejects is a failure. Without
ptxas the PTX is not assembled, and the summary says so.

Usage: lowering.py [--fly-opt PATH] [--ptxas PATH|none] [--jobs N]
                   [--root DIR] [PATH ...]
       lowering.py --assemble [--ptxas PATH|none] OUTPUT...
Prints one line per failure (input, piece, pipeline, step, first error
lines) and a summary:
  ptxas: P PTX assembled to sm_90 cubins (PATH)   or   ptxas: none, ...
  lowering: N inputs checked, L lowered (A amdgpu, V nvvm), F failed;
  skipped: ...
Exit status 1 when an input fails. --assemble only assembles the PTX in
fly-opt outputs already lowered (the Integration *-ptx.mlir tests).

`lowers(fly_opt, text, pipeline)` is also used by differential.py.
"""

import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import exits

AMDGPU = "flyhoist-amdgpu-pipeline{chip=%s}"
NVVM = "flyhoist-nvvm-pipeline{chip=sm_90 format=isa}"
HOIST = "--hoist-stride-specialization=remarks=false"
CHIP_RE = re.compile(r'chip\s*=\s*"(gfx\w+)"')
SPLIT_RE = re.compile(r"^// -----\s*$", re.M)


def run(cmd, text, timeout=300):
    try:
        proc = subprocess.run(cmd, input=text, capture_output=True, text=True,
                              timeout=timeout, env=exits.ENV)
    except subprocess.TimeoutExpired:
        return -1, "", "timed out after %d s" % timeout
    return proc.returncode, proc.stdout, proc.stderr


def find_ptxas():
    """ptxas on PATH, else the newest /usr/local/cuda*/bin/ptxas, else None."""
    found = shutil.which("ptxas")
    if found:
        return found
    installed = sorted(glob.glob("/usr/local/cuda*/bin/ptxas"))
    return installed[-1] if installed else None


# The ptxas lowers() assembles NVVM outputs with (None: PTX only); main()
# sets it from --ptxas.
PTXAS = find_ptxas()
NVVM_OBJECT_RE = re.compile(r"#gpu\.object<#nvvm\.target<")
# A gpu.object's PTX, as MLIR prints the string (a quote is \22 in it).
ASSEMBLY_RE = re.compile(r'assembly = "([^"]*)"')


def ptx_texts(out):
    """The PTX of each NVVM gpu.object in `out` (None for an object that
    has none: not printed with format=isa)."""
    starts = [m.start() for m in NVVM_OBJECT_RE.finditer(out)]
    texts = []
    for start in starts:
        end = out.find("#gpu.object<", start + 1)
        found = ASSEMBLY_RE.search(out, start, end if end >= 0 else len(out))
        texts.append(unescape(found.group(1)) if found else None)
    return texts


def unescape(text):
    r"""An MLIR string literal's contents: \\ and \XX (hex) escapes."""
    return re.sub(r"\\(\\|[0-9A-Fa-f]{2})",
                  lambda m: "\\" if m.group(1) == "\\"
                  else chr(int(m.group(1), 16)), text)


def assemble(ptx, ptxas=None):
    """None when `ptxas` assembles `ptx` to an sm_90 cubin, else its
    errors."""
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "kernel.ptx")
        with open(source, "w") as f:
            f.write(ptx)
        rc, _, err = run([ptxas or PTXAS, "-arch=sm_90", source, "-o",
                          os.path.join(folder, "kernel.cubin")], "")
    if rc == 0:
        return None
    return "ptxas rejects the PTX: " + (err.strip() or "exit status %d" % rc)


def assemble_all(out, ptxas=None):
    """(PTX texts assembled, first error or None) for the NVVM objects in
    the lowered module `out`; (0, None) without ptxas."""
    if not (ptxas or PTXAS):
        return 0, None
    texts = ptx_texts(out)
    for ptx in texts:
        error = assemble(ptx, ptxas) if ptx is not None else \
            "an NVVM object without PTX (format=isa prints it)"
        if error:
            return 0, error
    return len(texts), None


def lowers(fly_opt, text, pipeline, first=None, assembled=None):
    """(ok, stderr) of lowering `text` through `pipeline` (after the pass
    `first`, if given), requiring a gpu.binary in the output and, for PTX,
    that ptxas assembles it (counted in the list `assembled`, if given)."""
    passes = ("%s,%s" % (first, pipeline)) if first else pipeline
    rc, out, err = run([fly_opt, "--pass-pipeline=builtin.module(%s)" % passes],
                       text)
    if rc != 0:
        return False, err or "exit status %d" % rc
    if "gpu.binary" not in out:
        return False, "no gpu.binary in the output"
    count, error = assemble_all(out)
    if error:
        return False, error
    if assembled is not None:
        assembled.append(count)
    return True, ""


def pipelines_for(text, name=""):
    """The code-object pipelines that apply to `text` (from the file `name`:
    a kernel written for one chip names it, e.g. ..._gfx950.mlir)."""
    chip = CHIP_RE.search(text)
    chip = chip.group(1) if chip else None
    if not chip:
        named = re.search(r"(gfx\d+)", os.path.basename(name))
        chip = named.group(1) if named else "gfx942"
    result = [("amdgpu", AMDGPU % chip)]
    if not re.search(r"\b(rocdl|amdgpu)\.", text):
        result.append(("nvvm", NVVM))
    return result


def check_piece(fly_opt, text, hoisted=None, name="", assembled=None):
    """Returns (outcome, details): outcome is 'lowered', 'failed' or
    'skipped: REASON'; details lists (pipeline, step, error) for failures
    and the pipelines lowered for successes. `hoisted` replaces the pass's
    output (for the self-test). The PTX texts of the hoisted module that
    ptxas assembled are counted in the list `assembled`."""
    if "gpu.module" not in text:
        return "skipped: no gpu.module", []
    if hoisted is None:
        rc, hoisted, err = run([fly_opt, HOIST], text)
        if rc != 0:
            if exits.crashed(rc):
                return "failed", [("pass", "hoisting crashed", err)]
            return "skipped: the pass rejects it", []
    lowered, failed, unlowerable = [], [], []
    for kind, pipeline in pipelines_for(text, name):
        ok, error = lowers(fly_opt, hoisted, pipeline, assembled=assembled)
        if ok:
            lowered.append(kind)
            continue
        # Not the pass's doing when the materialized module fails too.
        base_ok, _ = lowers(fly_opt, text, pipeline, "materialize-specialization")
        if base_ok:
            failed.append((kind, "hoisted module does not lower (materialized does)",
                           error))
        else:
            unlowerable.append(kind)
    if failed:
        return "failed", failed
    if lowered:
        return "lowered", lowered
    return "skipped: the materialized module does not lower either", unlowerable


SELF_TEST = """\
module attributes {gpu.container_module} {
  gpu.module @m {
    llvm.mlir.global internal @row() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x i8>
    gpu.func @k(%p: !llvm.ptr<1>, %i: i32@ARG@) kernel {
      @PARAM@
      %z16 = arith.constant 0 : i16
      %z = arith.constant 0 : i32
      %c4 = arith.constant 4 : i32
      %max = arith.constant 4294967295 : i64
      %flags = arith.constant 159744 : i32
      %rsrc = rocdl.make.buffer.rsrc %p, %z16, %max, %flags : !llvm.ptr<1> to !llvm.ptr<8>
      %lds = llvm.mlir.addressof @row : !llvm.ptr<3>
      rocdl.raw.ptr.buffer.load.lds %rsrc, %lds, %c4, %i, %z, %w, %z
      gpu.return
    }
  }
}
"""


def self_test(fly_opt):
    """The check must fail a module whose immediate offset became an
    argument (hand-hoisted, whatever the pass does), and pass the
    materialized one."""
    original = SELF_TEST.replace("@ARG@", "").replace(
        "@PARAM@", '%w = spec.param "w" = 16 : i32')
    broken = SELF_TEST.replace("@ARG@", ", %w: i32").replace("@PARAM@", "")
    bad, _ = check_piece(fly_opt, original, broken)
    good, _ = check_piece(fly_opt, original, original.replace(
        '%w = spec.param "w" = 16 : i32', "%w = arith.constant 16 : i32"))
    if bad != "failed" or good != "lowered":
        print("lowering self-test FAILED: %s / %s" % (bad, good))
        return False
    return ptxas_self_test()


PTX_SELF_TEST = """\
.version 7.8
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
  @BODY@
  ret;
}
"""


def ptxas_self_test():
    """ptxas must assemble a kernel and reject an undefined instruction
    (PTX the NVPTX back end would not print: the check can fail)."""
    if not PTXAS:
        return True
    good = assemble(PTX_SELF_TEST.replace("@BODY@", ""))
    bad = assemble(PTX_SELF_TEST.replace("@BODY@", "not.an.instruction;"))
    if good is not None or bad is None:
        print("ptxas self-test FAILED: %s / %s" % (good, bad))
        return False
    return True


def describe_ptxas(assembled):
    """The summary's ptxas line."""
    if not PTXAS:
        return ("ptxas: none, NVVM outputs checked as PTX only, not "
                "assembled (install the CUDA toolkit or pass --ptxas PATH)")
    return "ptxas: %d PTX assembled to sm_90 cubins (%s)" % (assembled, PTXAS)


def assemble_outputs(paths):
    """--assemble: the PTX of fly-opt outputs already lowered."""
    total, failed = 0, 0
    for path in paths:
        with open(path, errors="replace") as f:
            out = f.read()
        count, error = assemble_all(out)
        if error:
            failed += 1
            print("FAIL %s: %s" % (path, error))
        elif PTXAS and not count:
            failed += 1
            print("FAIL %s: no NVVM object with PTX" % path)
        total += count
    print(describe_ptxas(total))
    return 1 if failed else 0


def inputs(root, paths):
    """(name, piece index, text) for every piece of every input."""
    files = []
    if paths:
        files = list(paths)
    else:
        for folder in ("test", "kernels"):
            for dirpath, dirs, names in sorted(os.walk(os.path.join(root, folder))):
                dirs.sort()
                files += [os.path.join(dirpath, n) for n in sorted(names)
                          if n.endswith(".mlir")]
    for path in files:
        with open(path, errors="replace") as f:
            text = f.read()
        name = os.path.relpath(path, root)
        for n, piece in enumerate(SPLIT_RE.split(text)):
            yield name, n, piece


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fly-opt", default="fly-opt")
    parser.add_argument("--ptxas", default=None,
                        help="ptxas to assemble PTX with ('none': do not)")
    parser.add_argument("--assemble", action="store_true",
                        help="only assemble the PTX in lowered outputs")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help="source root (test/ and kernels/)")
    parser.add_argument("paths", nargs="*", help="inputs (default: all)")
    args = parser.parse_args()
    global PTXAS
    if args.ptxas is not None:
        PTXAS = None if args.ptxas == "none" else args.ptxas
    if args.assemble:
        return assemble_outputs(args.paths)
    begin = time.time()
    if not self_test(args.fly_opt):
        return 1
    pieces = list(inputs(args.root, args.paths))
    counts = {}
    checked = lowered = 0
    kinds = {"amdgpu": 0, "nvvm": 0}
    failures = []
    assembled = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [(p, pool.submit(check_piece, args.fly_opt, p[2], None, p[0],
                                   assembled))
                   for p in pieces]
        for (name, n, text), future in futures:
            outcome, details = future.result()
            if outcome.startswith("skipped"):
                counts[outcome] = counts.get(outcome, 0) + 1
                if "no gpu.module" not in outcome:
                    checked += 1
                continue
            checked += 1
            if outcome == "lowered":
                lowered += 1
                for kind in details:
                    kinds[kind] += 1
                continue
            failures.append((name, n))
            for kind, step, error in details:
                print("FAIL %s (piece %d): %s: %s" % (name, n, kind, step))
                print("  " + "\n  ".join(error.strip().splitlines()[:6]))
                print("  input:\n    " + "\n    ".join(text.strip().splitlines()[:80]))
    print(describe_ptxas(sum(assembled)))
    print("lowering: %d inputs checked, %d lowered (%d amdgpu, %d nvvm), "
          "%d failed; skipped: %s; %.1f s"
          % (checked, lowered, kinds["amdgpu"], kinds["nvvm"],
             len(failures),
             ", ".join("%d %s" % (v, k[len("skipped: "):])
                       for k, v in sorted(counts.items())) or "none",
             time.time() - begin))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
