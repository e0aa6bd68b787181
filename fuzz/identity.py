#!/usr/bin/env python3
"""Output identity of two fly-opt builds on every test and kernel input.

Runs both binaries over every .mlir file under test/ and kernels/ (with
-split-input-file where the file has `// -----` lines), through
--hoist-stride-specialization under each option set fuzz/differential.py
uses (OPTION_SETS) and the pass's defaults (remarks on), each run also
writing a manifest; then compares stdout, stderr, the exit status and the
manifest byte for byte. Prints the number of runs and each difference.

--ignore-schema compares what a change of the record and manifest schema
leaves alone: the output after --strip-hoist-records (no #spec.record
attributes), and the manifests with the schema version, preconditions,
reasons and fingerprints (the fields whose form such a change moves; a
fingerprint hashes the records) replaced by a placeholder and the fields it
may add or drop (SCHEMA_ONLY_FIELDS) left out. The remarks on stderr are
compared as they are.

  fuzz/identity.py --baseline OLD/fly-opt [--fly-opt build/bin/fly-opt]
                   [--ignore-schema] [--jobs 2] [--root DIR] [--show 20]

Exit status 0 when every run is identical, 1 otherwise.
"""

import argparse
import concurrent.futures
import difflib
import json
import os
import subprocess
import sys
import tempfile

import differential

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The manifest fields a schema change may give another form (a gpu.module's
# fingerprint hashes the records its kernels carry, so it changes with them).
SCHEMA_FIELDS = ('version', 'schema', 'preconditions', 'reason', 'reasons',
                 'fingerprint')
# Fields a schema change may add or remove: left out on both sides.
SCHEMA_ONLY_FIELDS = ('divisor', 'range', 'reason_text')


def inputs(root):
    """Every .mlir under test/ and kernels/, relative to root, sorted."""
    found = []
    for top in ('test', 'kernels'):
        for folder, _, names in os.walk(os.path.join(root, top)):
            found += [os.path.relpath(os.path.join(folder, n), root)
                      for n in names if n.endswith('.mlir')]
    return sorted(found)


def option_sets():
    return list(differential.OPTION_SETS) + ['']


def normalize_manifest(text):
    """The manifest with the schema-dependent fields replaced (see above)."""
    try:
        value = json.loads(text)
    except ValueError:
        return text

    def walk(node):
        if isinstance(node, dict):
            return {k: ('<schema>' if k in SCHEMA_FIELDS else walk(v))
                    for k, v in node.items() if k not in SCHEMA_ONLY_FIELDS}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node
    return json.dumps(walk(value), indent=2, sort_keys=True)


def run_one(fly_opt, path, options, manifest, ignore_schema, root):
    """(status, stdout, stderr, manifest text) of one run."""
    if os.path.exists(manifest):
        os.remove(manifest)
    flags = (options + ' ' if options else '') + 'manifest=' + manifest
    cmd = [fly_opt, path, '--hoist-stride-specialization=' + flags.strip()]
    with open(os.path.join(root, path), errors='replace') as f:
        if '// -----' in f.read():
            cmd.insert(2, '-split-input-file')
    if ignore_schema:
        cmd.append('--strip-hoist-records')
    try:
        proc = subprocess.run(cmd, cwd=root, capture_output=True, timeout=300)
        result = [proc.returncode, proc.stdout, proc.stderr]
    except subprocess.TimeoutExpired:
        result = ['timeout', b'', b'']
    text = ''
    if os.path.exists(manifest):
        with open(manifest, errors='replace') as f:
            text = f.read()
        if ignore_schema:
            text = normalize_manifest(text)
    return tuple(result + [text])


def compare(job):
    """The differences of one (file, options) pair: [(what, detail)]."""
    path, options, args, workdir, index = job
    # Both runs write the manifest to the same path: a path in a message
    # must not differ between them.
    manifest = os.path.join(workdir, f'{index}.json')
    old = run_one(args.baseline, path, options, manifest, args.ignore_schema,
                  args.root)
    new = run_one(args.fly_opt, path, options, manifest, args.ignore_schema,
                  args.root)
    diffs = []
    for what, a, b in zip(('exit status', 'stdout', 'stderr', 'manifest'),
                          old, new):
        if a == b:
            continue
        if isinstance(a, bytes):
            a, b = a.decode(errors='replace'), b.decode(errors='replace')
        if isinstance(a, str):
            lines = list(difflib.unified_diff(
                a.splitlines(), b.splitlines(), 'baseline', 'new', lineterm='',
                n=1))[:args.show]
            detail = '\n'.join('    ' + line for line in lines)
        else:
            detail = f'    baseline {a}, new {b}'
        diffs.append((what, detail))
    return diffs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--baseline', required=True,
                        help='the fly-opt to compare against')
    parser.add_argument('--fly-opt',
                        default=os.path.join(ROOT, 'build', 'bin', 'fly-opt'))
    parser.add_argument('--ignore-schema', action='store_true',
                        help='strip the records and normalize the manifests '
                        '(see above)')
    parser.add_argument('--root', default=ROOT,
                        help='the tree whose test/ and kernels/ are run')
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--show', type=int, default=20,
                        help='diff lines shown per difference')
    args = parser.parse_args()
    args.baseline = os.path.abspath(args.baseline)
    args.fly_opt = os.path.abspath(args.fly_opt)
    for tool in (args.baseline, args.fly_opt):
        if not os.access(tool, os.X_OK):
            sys.exit(f'error: {tool} is not an executable')

    files = inputs(args.root)
    sets = option_sets()
    with tempfile.TemporaryDirectory(prefix='flyhoist-identity-') as workdir:
        jobs = [(path, options, args, workdir, n)
                for n, (path, options) in enumerate(
                    (p, o) for p in files for o in sets)]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(compare, jobs))
    different = 0
    for (path, options, *_), diffs in zip(jobs, results):
        if not diffs:
            continue
        different += 1
        print(f'DIFFERENT {path} [{options or "defaults"}]: '
              + ', '.join(what for what, _ in diffs))
        for _, detail in diffs:
            print(detail)
    print(f'identity: {len(files)} files x {len(sets)} option sets = '
          f'{len(jobs)} runs per binary{" (schema ignored)" if args.ignore_schema else ""}, '
          f'{different} different')
    return 1 if different else 0


if __name__ == '__main__':
    sys.exit(main())
