"""bench/common.py for the scripts in bench/gpu/: `import common` here finds
this sibling, which loads that file, so the benchmarks share one helper
module without editing sys.path."""

import importlib.util
import os
import sys

_spec = importlib.util.spec_from_file_location(
    'flyhoist_bench_common',
    os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                 'common.py'))
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
sys.modules[__name__] = _module
