"""One input set through the four routes that run hoist-stride-specialization:
fly-opt, the plugin in Debian's mlir-opt, the C API (the test host's
function and pipeline routes) and Python (Context().parse(text).hoist()).

  four_routes.py --fly-opt F --llvm-tools-dir D --plugin P --capi-test C
                 --python-path DIR --capi-lib LIB --options 'a=b ...' ...
                 --out DIR INPUT...

For every input and option string, each route's manifest (or its failure)
is compared: the three C++ routes byte for byte, Python's dict as JSON
against fly-opt's. One line per (input, options) says whether the routes
agree and what fly-opt decided, so a test can check the decisions too.
Exits 1 when any two routes differ (each difference is printed as a diff).
"""

import argparse
import difflib
import json
import os
import subprocess
import sys

ROUTES = ('fly-opt', 'mlir-opt plugin', 'C API function', 'C API pipeline',
          'python')


def run(command):
    return subprocess.run(command, capture_output=True, text=True)


def read(path):
    with open(path) as f:
        return f.read()


def pass_pipeline(options, manifest):
    inner = ' '.join(filter(None, [options, f'manifest={manifest}']))
    return f'builtin.module(hoist-stride-specialization{{{inner}}})'


def cpp_routes(args, path, options, stem):
    """{route: manifest text, or None when the route failed}."""
    results = {}
    out = f'{stem}.fly-opt.json'
    done = run([args.fly_opt, path, '--pass-pipeline=' +
                pass_pipeline(options, out), '-o', os.devnull])
    results['fly-opt'] = read(out) if done.returncode == 0 else None
    out = f'{stem}.plugin.json'
    done = run([os.path.join(args.llvm_tools_dir, 'mlir-opt'),
                f'--load-dialect-plugin={args.plugin}',
                f'--load-pass-plugin={args.plugin}',
                '--pass-pipeline=' + pass_pipeline(options, out), path,
                '-o', os.devnull])
    results['mlir-opt plugin'] = read(out) if done.returncode == 0 else None
    function, pipeline = f'{stem}.function.json', f'{stem}.pipeline.json'
    for stale in (function, pipeline):
        if os.path.exists(stale):
            os.remove(stale)
    done = run([args.capi_test, 'manifest', path, options, function,
                pipeline])
    # The host checks each route itself and fails when either did.
    for route, out in (('C API function', function),
                       ('C API pipeline', pipeline)):
        ok = done.returncode == 0 and os.path.exists(out)
        results[route] = read(out) if ok else None
    return results


def python_route(context, path, options):
    from flyhoist import HoistError, MLIRError
    with open(path) as f:
        text = f.read()
    try:
        module = context.parse(text, path)
    except MLIRError:
        return None
    try:
        return module.hoist(options)
    except HoistError:
        return None
    finally:
        module.close()


def canonical(manifest):
    if manifest is None:
        return 'route failed\n'
    if isinstance(manifest, str):
        manifest = json.loads(manifest)
    return json.dumps(manifest, indent=1, sort_keys=True) + '\n'


def decisions(text):
    """'@k: hoisted a; kept b (reason)' for each kernel and device
    function of a manifest."""
    if text is None:
        return 'the pass failed'
    manifest = json.loads(text)
    parts = []
    for entry in manifest['kernels'] + manifest['device_functions']:
        hoisted = ','.join(h['name'] for h in entry['hoisted']) or '-'
        kept = ','.join(f"{k['name']}({k['reason']})"
                        for k in entry['kept']) or '-'
        parts.append(f"{entry['symbol']} hoisted {hoisted} kept {kept}")
    return '; '.join(parts)


def main():
    parser = argparse.ArgumentParser()
    for flag in ('--fly-opt', '--llvm-tools-dir', '--plugin', '--capi-test',
                 '--python-path', '--capi-lib', '--out'):
        parser.add_argument(flag, required=True)
    parser.add_argument('--options', action='append', default=[])
    parser.add_argument('inputs', nargs='+')
    args = parser.parse_args()
    os.environ['FLYHOIST_CAPI_LIB'] = args.capi_lib
    sys.path.insert(0, args.python_path)
    import flyhoist
    context = flyhoist.Context()
    os.makedirs(args.out, exist_ok=True)
    differ = 0
    for path in args.inputs:
        for index, options in enumerate(args.options or ['']):
            name = os.path.basename(path)
            stem = os.path.join(args.out, f'{name}.{index}')
            results = cpp_routes(args, path, options, stem)
            results['python'] = python_route(context, path, options)
            reference = results['fly-opt']
            disagree = []
            for route in ROUTES[1:]:
                same = (results[route] == reference if route != 'python'
                        else canonical(results[route]) ==
                        canonical(reference))
                if same:
                    continue
                disagree.append(route)
                sys.stdout.writelines(difflib.unified_diff(
                    canonical(reference).splitlines(True),
                    canonical(results[route]).splitlines(True),
                    f'{name} [{options}] fly-opt', f'{name} [{options}] '
                    f'{route}'))
            verdict = ('routes differ: ' + ', '.join(disagree) if disagree
                       else 'all routes agree')
            print(f'{name} [{options}]: {verdict}: {decisions(reference)}')
            differ += bool(disagree)
    print(f'{differ} of {len(args.inputs) * max(1, len(args.options))} '
          'runs differ between routes')
    return 1 if differ else 0


if __name__ == '__main__':
    sys.exit(main())
