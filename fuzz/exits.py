"""How a run of fly-opt ended, read from its exit status alone: the fuzz
scripts never read what it printed to tell a crash from a located error.

fly-opt (MlirOptMain) exits 0, or 1 after it reported the failure as a
diagnostic. A crash ends it by a signal: LLVM's handler prints the stack
dump and re-raises the signal (a fault, an assertion's or a fatal error's
abort), so subprocess gives a negative returncode. A sanitizer's report
would exit 1 like a diagnostic; `ENV` makes it abort instead, as
scripts/sanitizer-env.sh does for the lit runs.
"""

import os

# Appended, so that they win over the caller's options.
_SANITIZERS = {"ASAN_OPTIONS": "halt_on_error=1:abort_on_error=1",
               "UBSAN_OPTIONS": "halt_on_error=1:abort_on_error=1"}

#: The environment to run fly-opt in.
ENV = dict(os.environ)
for _name, _value in _SANITIZERS.items():
    ENV[_name] = ":".join(filter(None, [ENV.get(_name), _value]))


def crashed(rc):
    """Whether exit status `rc` (subprocess's returncode) is no outcome
    fly-opt gives: killed by a signal, or a status other than 0 and 1."""
    return rc not in (0, 1)


def failed(rc):
    """Whether fly-opt failed with a diagnostic (and did not crash)."""
    return rc == 1
