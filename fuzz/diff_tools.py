"""differential.py's tools and option sets: how fly-opt and the lowering
are run, and the check that a hoisted module still lowers."""

import json
import os
import shutil
import subprocess
import tempfile
import exits
import lowering


# materialize-specialization first: with materialize-kept=false the kept
# parameters are still spec.params, which the kernel runs with their marked
# values.
LOWER = ["--materialize-specialization", "--expand-strided-metadata",
         "--lower-affine", "--convert-scf-to-cf",
         "--convert-to-llvm", "--reconcile-unrealized-casts",
         "--strip-hoist-records"]


OPTION_SETS = [
    "remarks=false",
    "remarks=false materialize-kept=false",
    "remarks=false divisibility=16",
    "remarks=false divisibility=4 narrow-range=true",
    "remarks=false narrow-range=true",
    "remarks=false divisibility=64 materialize-kept=false",
    "remarks=false hoist-into-host",
    "remarks=false hoist-into-host divisibility=8 narrow-range=true",
    "remarks=false hoist-into-host materialize-kept=false narrow-range=true",
]


OPT_LEVELS = ["-O0", "-O3"]


class Failure(Exception):
    def __init__(self, kind, detail, files):
        super().__init__(kind)
        self.kind, self.detail, self.files = kind, detail, files


def run(cmd, text, timeout=120):
    proc = subprocess.run(cmd, input=text, capture_output=True, text=True,
                          timeout=timeout, env=exits.ENV)
    return proc.returncode, proc.stdout, proc.stderr


class Tools:
    def __init__(self, args):
        self.fly_opt = args.fly_opt
        self.runner = args.mlir_runner
        # The runtime libraries sit next to mlir-runner's bin/ by default.
        libs = args.runner_libs or os.path.join(os.path.dirname(os.path.dirname(
            os.path.realpath(shutil.which(self.runner) or self.runner))), "lib")
        self.runner_args = [
            "-e", "main", "-entry-point-result=void",
            "-shared-libs=%s/libmlir_runner_utils.so,%s/libmlir_c_runner_utils.so"
            % (libs, libs)]

    def opt(self, text, flags, what):
        rc, out, err = run([self.fly_opt] + flags, text)
        if rc != 0:
            raise Failure("fly-opt failed (%s)" % what, err, {"input.mlir": text})
        return out

    def hoist(self, text, options, what, flags=()):
        """Hoists `text` with the pass's `options`: the hoisted text and the
        manifest the pass wrote (docs/MANIFEST.md), which checkers read
        instead of the printed record."""
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "manifest.json")
            joined = (options + " " if options else "") + "manifest=" + path
            out = self.opt(text, ["--hoist-stride-specialization=" + joined]
                           + list(flags), what)
            with open(path) as f:
                return out, json.load(f)

    def runnable(self, lowered):
        """The lowered module as mlir-runner is given it."""
        return lowered

    def execute(self, text, what, level="-O0"):
        lowered = self.runnable(self.opt(text, LOWER, "lowering " + what))
        rc, out, err = run([self.runner, level] + self.runner_args, lowered)
        if rc != 0:
            raise Failure("mlir-runner %s failed (%s)" % (level, what), err,
                          {"input.mlir": text})
        # The first line holds the buffer's address, which varies.
        return "\n".join(out.splitlines()[1:])


def pipeline_options(options):
    """The hoisting pass with `options`, as a --pass-pipeline element; with
    materialize-kept=false the kept parameters are still spec.params, which
    a frontend materializes before lowering, as this does."""
    opts = " ".join(o for o in options.split() if not o.startswith("remarks"))
    return "hoist-stride-specialization{remarks=false%s}%s" % (
        " " + opts if opts else "",
        ",materialize-specialization" if "materialize-kept=false" in opts else "")


def check_lowers(tools, text, options, files):
    """The hoisted module of `text` lowers to a code object on every
    pipeline that applies (fuzz/lowering.py) wherever the materialized one
    does. Returns the number of pipelines lowered."""
    count = 0
    for kind, pipeline in lowering.pipelines_for(text):
        ok, error = lowering.lowers(tools.fly_opt, text, pipeline,
                                    pipeline_options(options))
        if ok:
            count += 1
            continue
        base_ok, _ = lowering.lowers(tools.fly_opt, text, pipeline,
                                     "materialize-specialization")
        if base_ok:
            raise Failure("hoisted module no longer lowers (%s)" % kind,
                          error[-3000:], files)
    return count
