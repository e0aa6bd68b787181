"""differential.py's trials of one generated kernel: hoisted against
materialized for random values, marked and inferred."""

import os
import random
import re
import gen_kernels
from diff_tools import Failure, OPTION_SETS, OPT_LEVELS, check_lowers, run  # noqa: F401
from diff_ir import check_address_only, function_text, hoisted_entries, kept_values, replace_main, signature_types  # noqa: F401


def launcher_chain(rng, kernel):
    """Host launchers from @main down to @kernel, for hoist-into-host: 1 to 3
    levels, each public or private and calling the level below once or
    twice; with probability 0.3 a `func.constant` takes one level's symbol,
    so that level cannot take a new argument. Returns (the functions' lines,
    the top level's name, whether a level is taken)."""
    types = kernel.kernel_arg_types()
    decl = ", ".join("%%a%d: %s" % (n, t) for n, t in enumerate(types))
    args = ", ".join("%%a%d" % n for n in range(len(types)))
    signature = ", ".join(types)
    lines, callee = [], "kernel"
    depth = rng.randint(1, 3)
    for level in range(1, depth + 1):
        name = "launch%d" % level
        visibility = "private " if rng.random() < 0.5 else ""
        lines.append("  func.func %s@%s(%s) {" % (visibility, name, decl))
        for _ in range(rng.randint(1, 2)):
            lines.append("    call @%s(%s) : (%s) -> ()" % (callee, args, signature))
        lines += ["    return", "  }"]
        callee = name
    taken = rng.random() < 0.3
    if taken:
        lines += ["  func.func private @take() {",
                  "    %%f = func.constant @launch%d : (%s) -> ()"
                  % (rng.randint(1, depth), signature),
                  "    return", "  }"]
    return lines, callee, taken


def divisor_for(value, options):
    """The d the pass records for `value` under `options`: the largest power
    of two up to the divisibility bound that divides it (1 when off)."""
    bound = re.search(r"divisibility=(\d+)", options)
    d = 1
    if bound:
        while d * 2 <= int(bound.group(1)) and value % (d * 2) == 0:
            d *= 2
    return d


def used_params(kernel):
    body = "\n".join(kernel.lines)
    return {p.name for p in kernel.params
            if len(re.findall(r"%s\b" % re.escape(p.ssa), body)) > 1}


def test_kernel(tools, seed, trials, only=""):
    rng = random.Random(seed)
    kernel = gen_kernels.generate(rng)
    marked = gen_kernels.random_values(rng, kernel)
    stats = {"runs": 0, "values": 0, "hoisted": 0, "kept": 0, "equals": 0,
             "chains": 0, "taken": 0, "chain_runs": 0, "lowered": 0}
    option_sets = [o for o in OPTION_SETS if only in o]
    options = option_sets[seed % len(option_sets)]
    # The chain draws from its own generator: the kernel of a seed does not
    # depend on the option set.
    chain, top, taken = [], "kernel", False
    if "hoist-into-host" in options:
        chain, top, taken = launcher_chain(random.Random(seed * 31 + 7), kernel)

    stats["chains"] = int(bool(chain))
    stats["taken"] = int(taken)

    def module_for(values):
        return kernel.module_text(values, host_functions=chain, callee=top)

    source = module_for(marked)
    hoisted, manifest = tools.hoist(source, options, "hoisting")
    entries = hoisted_entries(manifest)
    if entries is None:
        raise Failure("no manifest entry for @kernel", hoisted,
                      {"input.mlir": source})
    names = {e[0] for e in entries}
    stats["hoisted"] = len(entries)
    stats["kept"] = len(kernel.params) - len(entries)
    stats["equals"] = sum(1 for e in entries if e[1] is None)

    # Decisions against the generator's knowledge.
    expected = used_params(kernel) - kernel.blocked
    if names != expected:
        raise Failure("wrong decision",
                      "hoisted %s, expected %s (blocked: %s)"
                      % (sorted(names), sorted(expected), sorted(kernel.blocked)),
                      {"input.mlir": source, "hoisted.mlir": hoisted})

    # Independent address-only check.
    generic = tools.opt(hoisted, ["--mlir-print-op-generic"], "printing generic")
    for name, arg, *_ in entries:
        if arg is None:
            continue
        violations = check_address_only(generic, arg)
        if violations:
            raise Failure("hoisted parameter reaches a non-address use",
                          "%s: %s" % (name, violations),
                          {"input.mlir": source, "hoisted.mlir": hoisted})

    # The same kernel as a gpu.func must still lower to a code object.
    gpu_text = kernel.gpu_module_text(marked)
    stats["lowered"] = check_lowers(tools, gpu_text, options,
                                    {"input.mlir": gpu_text})

    _, kstart, kend = function_text(hoisted, "kernel")
    kernel_fn = hoisted.splitlines()[kstart:kend + 1]
    equals = [p for p in kernel.params if p.equals]
    with_argument = sorted((e for e in entries if e[1] is not None),
                           key=lambda e: e[1])
    # The new arguments at the top of the launcher chain (hoist-into-host):
    # one per hoisted argument, in the kernel's argument order, unless a
    # launcher on the chain is taken and passes constants of its own.
    top_new = []
    if chain:
        top_new = signature_types(hoisted, top)[len(kernel.kernel_arg_types()):]
        expected_count = 0 if taken else len(with_argument)
        if len(top_new) != expected_count:
            raise Failure("host arguments at the top of the launcher chain",
                          "@%s got %s for hoisted %s (a launcher taken: %s)"
                          % (top, top_new, [e[0] for e in with_argument], taken),
                          {"input.mlir": source, "hoisted.mlir": hoisted})
    for trial in range(trials):
        values = dict(marked)
        if trial > 0:
            # Values the recorded preconditions admit (a multiple of the
            # recorded divisor; all of [1, PMAX] is under 2^31).
            for name, _, _, divisor, _ in entries:
                admitted = range(divisor, gen_kernels.PMAX + 1, divisor)
                values[name] = rng.choice(admitted) if admitted else marked[name]
        stats["values"] += 1
        specialized = tools.opt(module_for(values),
                                ["--materialize-specialization"], "specializing")
        extra = [(e[2], values[e[0]]) for e in with_argument]
        called = replace_main(hoisted, kernel.main_lines(values, equals, extra))
        # The whole program as rewritten: @main passes the values to the
        # top of the chain (with a taken launcher, the chain holds the
        # marked values, so only they can be run).
        whole = None
        if chain and (top_new or trial == 0):
            host_extra = [(t, values[e[0]]) for t, e in zip(top_new, with_argument)]
            whole = replace_main(hoisted, kernel.main_lines(values, equals,
                                                            host_extra, top))
        for level in OPT_LEVELS:
            expected_out = tools.execute(specialized, "specialized", level)

            def must_match(program, what, failure, file_name):
                got = tools.execute(program, what, level)
                stats["runs"] += 1
                if got != expected_out:
                    raise Failure("%s at %s" % (failure, level),
                                  "values %s (marked %s), options %s"
                                  % (values, marked, options),
                                  {"input.mlir": module_for(values),
                                   file_name: program})

            stats["runs"] += 1
            must_match(called, "hoisted",
                       "hoisted output differs from specialized output",
                       "hoisted-called.mlir")
            if whole is not None:
                stats["chain_runs"] += 1
                must_match(whole, "hoisted, launcher chain",
                           "hoisted launcher chain gives different output",
                           "hoisted-whole.mlir")
            elif trial == 0:
                must_match(hoisted, "hoisted, pass-updated call",
                           "pass-updated call site gives different output",
                           "hoisted.mlir")
        if trial > 0 and all(divisor_for(values[e[0]], options) == e[3] for e in entries
                 if e[1] is not None):
            # The divisor is part of the specialization key: values with
            # another one get another kernel, by design. The same one, the
            # same kernel.
            other = tools.opt(module_for(values),
                              ["--hoist-stride-specialization=" + options],
                              "hoisting")
            _, s, e = function_text(other, "kernel")
            if other.splitlines()[s:e + 1] != kernel_fn:
                raise Failure("kernel not identical across hoisted values",
                              "values %s vs %s" % (values, marked),
                              {"a.mlir": source, "b.mlir": module_for(values)})
    return stats


def match_trace(tools, text):
    """fly-opt --match-spec-params over `text` (a module holding a template
    and one trace), read from the values file the pass writes (the JSON the
    C API gives, not the remark's wording): (the trace's {name: value} or
    None, its mismatch dict or None, the pass's stderr)."""
    import json
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "values.json")
        _, _, err = run([tools.fly_opt,
                         "--match-spec-params=values-file=" + path,
                         "-o", os.devnull], text)
        try:
            with open(path) as f:
                entries = json.load(f)
        except (OSError, ValueError):
            entries = None
    if not isinstance(entries, list) or len(entries) != 1:
        return None, None, err
    return entries[0].get("values"), entries[0].get("mismatch"), err


def test_kernel_inferred(tools, seed, trials, only=""):
    """--infer: the kernel traced at three values with its spec.params
    materialized (what a frontend that marks nothing emits), the
    spec.params inferred from the traces (infer-spec-params), hoisted, and
    each trace matched against the template (match-spec-params). At each
    value whose kept parameters equal the template's, the hoisted program
    called with the matched values must print what the trace itself prints,
    at -O0 and -O3. A trace whose kept values differ would be compiled for
    its values: counted, not run."""
    import tempfile
    rng = random.Random(seed)
    kernel = gen_kernels.generate(rng)
    stats = {"runs": 0, "values": 0, "per_value": 0, "inferred": 0,
             "hoisted": 0}
    base = gen_kernels.random_values(rng, kernel)
    # The second trace moves only what the generator knows is hoistable, so
    # the template serves it; the third moves everything.
    movable = used_params(kernel) - kernel.blocked
    second = {n: (rng.randrange(1, gen_kernels.PMAX + 1) if n in movable
                  else v) for n, v in base.items()}
    third = gen_kernels.random_values(rng, kernel)
    values_list = [base, second, third][:max(trials, 2)]
    # Without attribute aliases, so that the texts nest in one module.
    traces = [tools.opt(kernel.module_text(v),
                        ["--materialize-specialization",
                         "--mlir-print-local-scope"], "tracing")
              for v in values_list]
    names = " ".join("values=%s=%s" % (n, ":".join(str(v[n])
                                                    for v in values_list))
                     for n in sorted(base))
    with tempfile.TemporaryDirectory() as folder:
        files = []
        for i, text in enumerate(traces[1:]):
            path = os.path.join(folder, "trace-%d.mlir" % (i + 1))
            with open(path, "w") as f:
                f.write(text)
            files.append(path)
        option = "traces=%s" % ",".join(files)
        if names:
            option += " " + names
        rc, template, err = run([tools.fly_opt, "--mlir-print-local-scope",
                                 "--infer-spec-params=" + option], traces[0])
    if rc != 0:
        raise Failure("inference failed on traces of one kernel", err,
                      {"trace-%d.mlir" % i: t for i, t in enumerate(traces)})
    stats["inferred"] = template.count("spec.param")
    hoisted, manifest = tools.hoist(template, "remarks=false",
                                    "hoisting the template")
    entries = hoisted_entries(manifest) or []
    stats["hoisted"] = len(entries)
    kept_names = kept_values(manifest)
    equals = [p for p in kernel.params if p.equals]
    with_argument = sorted((e for e in entries if e[1] is not None),
                           key=lambda e: e[1])
    for values, trace in zip(values_list, traces):
        matched, _, err = match_trace(
            tools, "module {\n%s\n%s\n}\n" % (template, trace))
        if matched is None:
            raise Failure("a trace of the kernel does not match its template",
                          err, {"template.mlir": template, "trace.mlir": trace})
        if any(matched.get(n) != int(v) for n, v in kept_names):
            stats["per_value"] += 1
            continue
        stats["values"] += 1
        extra = [(e[2], matched[e[0]]) for e in with_argument]
        called = replace_main(hoisted, kernel.main_lines(values, equals, extra))
        for level in OPT_LEVELS:
            expected_out = tools.execute(trace, "trace", level)
            got = tools.execute(called, "inferred and hoisted", level)
            stats["runs"] += 2
            if got != expected_out:
                raise Failure("inferred-and-hoisted output differs from the "
                              "trace's at %s" % level,
                              "values %s, matched %s" % (values, matched),
                              {"trace.mlir": trace, "template.mlir": template,
                               "hoisted-called.mlir": called})
    return stats
