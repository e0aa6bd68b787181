"""encoding_exhaustive.py's constants, value patterns and literals, and the
preconditions as the manifest and the record state them."""

import re


LOWER = ["--convert-scf-to-cf", "--expand-strided-metadata",
         "--convert-to-llvm", "--reconcile-unrealized-casts",
         "--strip-hoist-records"]


BOUNDS = [1 << k for k in range(10)]


OPT_LEVELS = ["-O0", "-O3"]


LOW_BITS = 9  # the value's low 1..9 bits, each loaded through its own slot


SLOTS = 6 + LOW_BITS  # words of `out` a kernel writes


WORDS = 16  # words of `out` compared


PART_LINES = 400  # lines of driver code per function (see driver())


TABLE = 1 << 17


BASE = 1 << 16


SENTINEL = 0x0DDC0FFEE


RUN_SECONDS = 600


RUN_MEMORY = 4 << 30


PRINT_LIMIT = 20000  # FAIL lines one run prints


SMALL_WIDTHS = list(range(1, 9))


WIDE = {"func": ["i32", "i64", "index"], "llvm": ["i32", "i64"]}


def width(ty):
    return 64 if ty == "index" else int(ty[1:])


def signed(value, bits):
    """`value`'s bit pattern in `bits` bits, read as a signed integer."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def wide_patterns(bits):
    """Edge values of a wide type, as distinct signed patterns."""
    lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    raw = [0, 1, -1, 2, -2, 3, lo, hi, lo + 1, hi - 1,
           (1 << 31) - 1, 1 << 31, (1 << 31) + 1, (1 << 32) - 1, 1 << 32,
           (1 << 32) + 1, -(1 << 31), -(1 << 31) - 1, -(1 << 32), 96, 200]
    for k in range(1, 10):
        d = 1 << k
        raw += [d, -d, 3 * d, -3 * d, (1 << 31) - d, (1 << 31) + d,
                -(1 << 31) + d, -(1 << 31) - d, (1 << 32) - d, (1 << 32) + d,
                lo + d, hi - d + 1]
    out = []
    for v in raw:
        s = signed(v, bits)
        if s not in out:
            out.append(s)
    return out


def patterns(ty):
    bits = width(ty)
    if ty != "index" and bits <= 8:
        return [signed(v, bits) for v in range(1 << bits)]
    return wide_patterns(bits)


def literals(ty):
    """Marked values M: every spelling the spec.param verifier accepts for
    each pattern (the unsigned one too, while it fits an i64 attribute)."""
    bits = width(ty)
    out = []
    for s in patterns(ty):
        out.append(s)
        if s < 0 and ty != "index" and bits < 64:
            out.append(s + (1 << bits))
    return out


PRECONDITION = re.compile(
    r"^value(?: % (?P<mod>\d+) == 0| (?P<op><=|>=|<|>|==|!=) (?P<bound>-?\d+))$")


# The interval form the encoding used to record.
INTERVAL = re.compile(r"^(?P<lo>-?\d+) <= value < (?P<hi>-?\d+)$")


def manifest_facts(objects):
    """The manifest's precondition objects (the first, the range of the
    argument's type, left out) in the text forms admits() reads. Raises on a
    kind this checker does not know."""
    facts = []
    for fact in objects[1:]:
        if fact["kind"] == "divisible-by":
            facts.append("value %% %d == 0" % fact["divisor"])
        elif fact["kind"] == "range":
            facts.append("%d <= value < %d" % (fact["min"], fact["max"] + 1))
        else:
            raise SystemExit("error: unknown precondition kind %r" % fact)
    return tuple(facts)


def admits(preconditions, value):
    """Whether `value` (signed, as the type reads it) meets every recorded
    precondition. A form this checker does not know is an error: it must
    not silently admit or reject."""
    for text in preconditions:
        m = PRECONDITION.match(text)
        interval = INTERVAL.match(text)
        if interval:
            if not int(interval["lo"]) <= value < int(interval["hi"]):
                return False
            continue
        if not m:
            raise SystemExit("error: unknown precondition form %r" % text)
        if m["mod"]:
            if value % int(m["mod"]) != 0:
                return False
            continue
        bound = int(m["bound"])
        holds = {"<=": value <= bound, ">=": value >= bound, "<": value < bound,
                 ">": value > bound, "==": value == bound,
                 "!=": value != bound}[m["op"]]
        if not holds:
            return False
    return True


def strongest_divisor(value, bound, bits):
    """The divisor the record must keep under divisibility=bound: the largest
    power of two at most bound (and 2^(bits-1), the largest the type holds
    as a positive value) that divides the marked value. A smaller one is a
    weaker contract than the option asks for, a larger one an unsound one."""
    cap = min(bound, 1 << max(bits - 1, 0))
    d = 1
    while d * 2 <= cap and value % (d * 2) == 0:
        d *= 2
    return d
