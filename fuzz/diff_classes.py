"""differential.py's defect classes: each generated class of input run
through every option set, and what counts as a defect."""

import concurrent.futures
import json
import os
import random
import re
import tempfile
import time
import exits
import gen_classes
from diff_tools import Failure, OPT_LEVELS, check_lowers, run  # noqa: F401
from diff_ir import signature_types  # noqa: F401


# The oracles, most severe first: an input counts once, under the first.
DEFECTS = ["crash", "invalid IR", "wrong result", "no longer lowers",
           "missed keep", "rejects a valid input", "wrong host arguments",
           "bad divisor"]


def class_defects(tools, case):
    """The defects (kinds of DEFECTS, with details) the oracles find on one
    generated case; an empty list when it passes. Also returns the outcome
    ('hoisted', 'kept', 'rejected')."""
    found = []
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "manifest.json")
        options = (case.options + " " if case.options else "") + \
            "manifest=" + path
        # Nothing verifies the module after the pass (--verify-each=false):
        # the pass failing is its own error, and IR it made invalid is
        # printed (in generic form) for the read-back below to refuse.
        rc, out, err = run([tools.fly_opt, "--verify-each=false",
                            "--hoist-stride-specialization=" + options],
                           case.text)
        manifest = None
        if rc == 0:
            with open(path) as f:
                manifest = json.load(f)
    if exits.crashed(rc):
        return [("crash", err[-2000:])], "crashed"
    if rc != 0:
        # The parser verifies the input: one that fails without the pass
        # too is the generator's invalid IR, not a rejection.
        rc0, _, err0 = run([tools.fly_opt, "-o", os.devnull], case.text)
        if exits.crashed(rc0):
            return [("crash", "reading the input: " + err0[-2000:])], "crashed"
        if rc0 != 0:
            return [("invalid IR", "the input does not verify: "
                     + err0[:2000])], "invalid"
        if case.error_ok or not case.must_accept:
            return [], "rejected"
        return [("rejects a valid input", err[:2000])], "rejected"
    rc2, _, err2 = run([tools.fly_opt, "-o", os.devnull], out)
    if exits.crashed(rc2):
        found.append(("crash", "reading the output: " + err2[-2000:]))
    elif rc2 != 0:
        found.append(("invalid IR", "the output does not parse and verify "
                      "again: " + err2[:2000]))
    # What was hoisted and recorded, as the manifest has it.
    kernels = manifest.get("kernels", [])
    functions = kernels + manifest.get("device_functions", [])
    hoisted = {e["name"] for k in kernels for e in k["hoisted"]}
    outcome = "hoisted" if hoisted else "kept"
    if case.runnable and rc2 == 0:
        program = out
        main_args = re.search(r"func\.func @main\(([^)]+)\)", out)
        if main_args and case.main_value is not None:
            # hoist-into-host gave @main the new arguments: run it with the
            # marked value in each.
            consts = "".join("    %s = arith.constant %d : %s\n"
                             % (a.split(": ")[0], case.main_value, a.split(": ")[1])
                             for a in main_args.group(1).split(", "))
            program = re.sub(r"(func\.func @main)\([^)]+\)( \{\n)",
                             lambda m: m.group(1) + "()" + m.group(2) + consts, out)
        for level in OPT_LEVELS:
            try:
                want = tools.execute(case.text, "specialized", level)
            except Failure:
                outcome += ", not run"
                break
            try:
                got = tools.execute(program, "hoisted", level)
            except Failure as failure:
                found.append(("wrong result", "%s: %s" % (failure.kind,
                                                          failure.detail[:1500])))
                break
            if want != got:
                found.append(("wrong result", "at %s: specialized %r, hoisted %r"
                              % (level, want[:200], got[:200])))
                break
    if case.lower and rc2 == 0:
        try:
            check_lowers(tools, case.text, case.options, {})
        except Failure as failure:
            found.append(("no longer lowers", failure.kind + ": " + failure.detail[:1500]))
    missed = sorted(case.kept & hoisted)
    if missed:
        found.append(("missed keep", "%s hoisted; the generator planted a "
                      "blocking role (%s)" % (missed, case.note)))
    if case.host_new_types is not None:
        signature = signature_types(out, "host")
        host = signature[2:]
        if sorted(host) != case.host_new_types:
            found.append(("wrong host arguments",
                          "@host gained %s for one name launched as %s"
                          % (host, case.host_new_types)))
        # Each kernel's record names the host argument of its own type.
        for ty, where in ((e["type"], e["host_argument"])
                          for k in functions for e in k["hoisted"]
                          if e["argument"] is not None
                          and e["host_argument"] is not None):
            if where >= len(signature) or signature[where] != ty:
                found.append(("wrong host arguments",
                              "a record names host argument %s for type %s; "
                              "@host takes %s" % (where, ty, signature)))
    if case.divisor_value is not None:
        for d in (p["divisor"] for k in functions for e in k["hoisted"]
                  for p in e["preconditions"] if p["kind"] == "divisible-by"):
            if d <= 1 or d & (d - 1) or case.divisor_value % d:
                found.append(("bad divisor", "divisor %d recorded for value %d"
                              % (d, case.divisor_value)))
    found.sort(key=lambda f: DEFECTS.index(f[0]))
    return found, outcome


def run_classes(tools, args):
    """--classes N: N inputs of each class; prints a table of inputs and
    defects per class. Returns the number of inputs with a defect."""
    classes = [c for c in gen_classes.CLASSES if args.class_only in c]
    jobs = []
    for cls in classes:
        rng = random.Random("%s-%d" % (cls, args.seed))
        for n in range(args.classes):
            jobs.append((cls, n, gen_classes.generate(cls, rng)))
    table = {c: {"inputs": 0, "defects": 0, "kinds": {}, "outcomes": {}}
             for c in classes}
    begin = time.time()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [(job, pool.submit(class_defects, tools, job[2])) for job in jobs]
        for (cls, n, case), future in futures:
            found, outcome = future.result()
            row = table[cls]
            row["inputs"] += 1
            row["outcomes"][outcome] = row["outcomes"].get(outcome, 0) + 1
            if not found:
                continue
            row["defects"] += 1
            kind, detail = found[0]
            row["kinds"][kind] = row["kinds"].get(kind, 0) + 1
            if args.verbose:
                print("DEFECT %s #%d (%s): %s: %s"
                      % (cls, n, case.note, kind, detail.strip().splitlines()[0][:300]
                         if detail.strip() else ""))
            if args.failures:
                folder = os.path.join(args.failures, "%s-%d" % (cls, n))
                os.makedirs(folder, exist_ok=True)
                with open(os.path.join(folder, "input.mlir"), "w") as f:
                    if case.options:
                        f.write("// hoist-options: %s\n" % case.options)
                    f.write(case.text)
                with open(os.path.join(folder, "defects.txt"), "w") as f:
                    for k, d in found:
                        f.write("%s: %s\n\n" % (k, d))
    total = 0
    for cls in classes:
        row = table[cls]
        total += row["defects"]
        print("class %-12s %3d inputs, %3d with a defect%s; outcomes: %s"
              % (cls, row["inputs"], row["defects"],
                 " (%s)" % ", ".join("%d %s" % (v, k) for k, v in
                                     sorted(row["kinds"].items()))
                 if row["kinds"] else "",
                 ", ".join("%d %s" % (v, k) for k, v in sorted(row["outcomes"].items()))))
    print("classes: %d inputs, %d with a defect; %.1f s"
          % (len(jobs), total, time.time() - begin))
    return total
