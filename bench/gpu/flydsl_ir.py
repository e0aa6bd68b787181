"""flydsl_cpu.py's reader of LLVM-dialect IR: types and values, the
operation parser and property lookups."""

import math
import re
import struct
import refcore


def split_top(text, sep=','):
    """Splits at top-level `sep` (outside <>, (), [], {})."""
    parts, depth, cur = [], 0, ''
    i = 0
    while i < len(text):
        c = text[i]
        if text.startswith('->', i):
            cur += '->'
            i += 2
            continue
        if c in '<([{':
            depth += 1
        elif c in '>)]}':
            depth -= 1
        if c == sep and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += c
        i += 1
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_type(t):
    t = t.strip()
    if t == 'index':
        return ('i', 64)
    m = re.fullmatch(r'i(\d+)', t)
    if m:
        return ('i', int(m.group(1)))
    if t in ('f32', 'bf16'):
        return (t,)
    if t == '!gpu.async.token':   # the host's stream; never executed here
        return ('token',)
    m = re.fullmatch(r'vector<(\d+)x(.+)>', t)
    if m:
        return ('v', int(m.group(1)), parse_type(m.group(2)))
    m = re.fullmatch(r'(?:!llvm\.)?ptr(?:<(\d+)>)?', t)
    if m:
        return ('p', int(m.group(1) or 0))
    m = re.fullmatch(r'(?:!llvm\.)?struct<(?:packed )?\((.*)\)>', t)
    if m:
        return ('s', [parse_type(x) for x in split_top(m.group(1))])
    raise ValueError(f'type not modelled: {t}')


def size_of(ty):
    if ty[0] == 'i':
        return ty[1] // 8
    if ty[0] == 'f32':
        return 4
    if ty[0] == 'bf16':
        return 2
    if ty[0] == 'v':
        return ty[1] * size_of(ty[2])
    raise ValueError(f'no size for {ty}')


def f32(x):
    """Rounds a Python float to float32."""
    try:
        return struct.unpack('<f', struct.pack('<f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def signed(v, bits):
    return v - (1 << bits) if v >> (bits - 1) & 1 else v


def to_bytes(value, ty):
    if ty[0] == 'i':
        return (value & ((1 << ty[1]) - 1)).to_bytes(ty[1] // 8, 'little')
    if ty[0] == 'f32':
        return struct.pack('<f', value)
    if ty[0] == 'bf16':
        return (refcore.f32_bits(value) >> 16).to_bytes(2, 'little')
    if ty[0] == 'v':
        return b''.join(to_bytes(x, ty[2]) for x in value)
    raise ValueError(f'cannot store {ty}')


def from_bytes(data, ty):
    if ty[0] == 'i':
        return int.from_bytes(data, 'little')
    if ty[0] == 'f32':
        return struct.unpack('<f', data)[0]
    if ty[0] == 'bf16':
        return refcore.bf16_value(int.from_bytes(data, 'little'))
    if ty[0] == 'v':
        n = size_of(ty[2])
        return [from_bytes(data[i * n:(i + 1) * n], ty[2]) for i in range(ty[1])]
    raise ValueError(f'cannot load {ty}')


class Op:
    __slots__ = ('name', 'results', 'operands', 'props', 'attrs', 'regions',
                 'operand_types', 'result_types', 'uid')


class Block:
    __slots__ = ('args', 'ops')


RESULT = re.compile(r'\s*(%[\w$.-]+)(?::(\d+))?\s*(,|=)')


class Parser:
    """Reads `--mlir-print-op-generic` output (what fly-opt prints)."""

    def __init__(self, text):
        self.s = text
        self.i = 0
        self.count = 0

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] in ' \t\r\n':
            self.i += 1

    def peek(self, tok):
        self.ws()
        return self.s.startswith(tok, self.i)

    def expect(self, tok):
        self.ws()
        if not self.s.startswith(tok, self.i):
            raise ValueError(f'expected {tok!r} at {self.s[self.i:self.i + 60]!r}')
        self.i += len(tok)

    def balanced(self, open_, close):
        """The text between a balanced `open_` .. `close` pair (brackets of
        one kind counted; strings skipped)."""
        self.expect(open_)
        start, depth = self.i, 1
        while depth:
            c = self.s[self.i]
            if c == '"':
                self.i = self.s.index('"', self.i + 1)
            elif c == open_[-1]:
                depth += 1
            elif c == close[0]:
                depth -= 1
            self.i += 1
        body = self.s[start:self.i - 1]
        self.i += len(close) - 1
        return body

    def op(self):
        op = Op()
        op.uid = self.count
        self.count += 1
        op.results = []
        if self.peek('%'):
            # `%a, %b:2 =`: a result group of two is used as %b#0, %b#1.
            while True:
                m = RESULT.match(self.s, self.i)
                name, n = m.group(1), m.group(2)
                op.results += [f'{name}#{k}' for k in range(int(n))] if n else [name]
                self.i = m.end()
                if m.group(3) == '=':
                    break
        self.expect('"')
        end = self.s.index('"', self.i)
        op.name = self.s[self.i:end]
        self.i = end + 1
        op.operands = [x.strip() for x in self.balanced('(', ')').split(',') if x.strip()]
        if self.peek('['):
            self.balanced('[', ']')
        op.props = self.balanced('<{', '}>') if self.peek('<{') else ''
        op.regions = []
        if self.peek('({'):
            self.expect('(')
            while True:
                op.regions.append(self.region())
                if self.peek(','):
                    self.expect(',')
                    continue
                self.expect(')')
                break
        op.attrs = self.balanced('{', '}') if self.peek('{') else ''
        self.expect(':')
        eol = self.s.find('\n', self.i)
        eol = len(self.s) if eol < 0 else eol
        sig = self.s[self.i:eol].strip()
        self.i = eol
        # Strip a trailing location, if any.
        sig = re.sub(r'\s+loc\(.*\)$', '', sig)
        args, results = sig.split(' -> ', 1)
        op.operand_types = [parse_type(t) for t in split_top(args.strip()[1:-1])]
        results = results.strip()
        if results.startswith('('):
            results = results[1:-1]
        op.result_types = [parse_type(t) for t in split_top(results)] if results else []
        return op

    def region(self):
        self.expect('{')
        blocks = []
        block = None
        while not self.peek('}'):
            if self.peek('^'):
                block = Block()
                block.ops = []
                m = re.compile(r'\s*\^\w+').match(self.s, self.i)
                self.i = m.end()
                block.args = []
                if self.peek('('):
                    for a in split_top(self.balanced('(', ')')):
                        name, ty = a.split(':', 1)
                        block.args.append((name.strip(), parse_type(ty)))
                self.expect(':')
                blocks.append(block)
                continue
            if block is None:
                block = Block()
                block.ops, block.args = [], []
                blocks.append(block)
            block.ops.append(self.op())
        self.expect('}')
        return blocks


def find_ops(blocks, name):
    for block in blocks:
        for op in block.ops:
            if op.name == name:
                yield op
            for region in op.regions:
                yield from find_ops(region, name)


def prop(op, key):
    m = re.search(re.escape(key) + r' = ([^,}]+(?:<[^>]*>)?)', op.props)
    if not m:
        raise ValueError(f'{op.name}: no {key} in {op.props!r}')
    return m.group(1).strip()


def prop_ints(op, key):
    m = re.search(re.escape(key) + r' = array<i\d+: ([^>]*)>', op.props)
    return [int(x) for x in m.group(1).split(',')] if m and m.group(1).strip() else []
