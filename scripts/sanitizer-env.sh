# Sourced by scripts/sanitize.sh and fuzz/run.sh: the one place that sets the
# sanitizer runtime options for everything that runs the sanitized build.
#
# halt_on_error/abort_on_error: the first report kills the process with
# SIGABRT, which `not` treats as a crash, so an expected-failure test cannot
# hide a report behind its non-zero exit status.
#
# allow_user_poisoning=0: only flyhoist is instrumented, Debian's libMLIR is
# not, and both allocate from the same MLIRContext BumpPtrAllocator. LLVM's
# Allocator.h poisons each new slab and unpoisons each allocation only when
# the code that inlines it is instrumented, so a slab started by our code
# (an attribute storage copied in by ODS-generated code) stays poisoned for
# libMLIR's uninstrumented allocations, and the next memmove into one of them
# is reported as use-after-poison. Real heap errors are still caught: this
# only turns off the allocator's manual poisoning.
sanitizer_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1:allow_user_poisoning=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$sanitizer_root/scripts/lsan.supp:print_suppressions=0:${LSAN_OPTIONS:-}"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-22/bin/llvm-symbolizer}"
