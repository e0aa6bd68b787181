"""flydsl_cpu.py's threads, wave-wide operations (shuffles, MFMA,
bpermute) and the kernel runner."""

import math
from flydsl_handlers import HANDLERS, KernelError, fp4_value  # noqa: F401
from flydsl_ir import f32, signed  # noqa: F401


WAVE = 64


class Group:
    """One workgroup: its LDS and the per-interval LDS race check."""

    def __init__(self, bid, lds_sizes):
        self.bid = bid
        self.lds = {k: bytearray(n) for k, n in lds_sizes.items()}
        self.epoch = 0
        self.touch = {}   # (alloc, byte) -> (epoch, tid or -1 for several, written)

    def track(self, key, off, size, write, tid):
        for b in range(off, off + size):
            k = (key, b)
            old = self.touch.get(k)
            if old is None or old[0] != self.epoch:
                self.touch[k] = (self.epoch, tid, write)
                continue
            _, who, written = old
            if who != tid and (written or write):
                raise KernelError(f'workgroup {self.bid}: LDS {key} byte {b} touched by '
                                  f'threads {who} and {tid} between two barriers, one writing')
            self.touch[k] = (self.epoch, who if who == tid else -1, written or write)


class Thread:
    def __init__(self, tid, group, memory):
        self.tid = tid
        self.lane = tid % WAVE
        self.group = group
        self.memory = memory
        self.env = {}

    def get(self, name):
        return self.env[name]

    def run_block(self, block, args):
        for (name, _), value in zip(block.args, args):
            self.env[name] = value
        for op in block.ops:
            if op.name in ('scf.yield', 'gpu.return', 'func.return'):
                return [self.env[x] for x in op.operands]
            if op.name in WAVE_OPS or op.name == 'gpu.barrier':
                results = yield (op, [self.env[x] for x in op.operands])
            elif op.name == 'scf.for':
                results = yield from self.scf_for(op)
            elif op.name == 'scf.if':
                results = yield from self.scf_if(op)
            else:
                handler = HANDLERS.get(op.name)
                if handler is None:
                    raise KernelError(f'operation not modelled: {op.name}')
                results = handler(self, op, [self.env[x] for x in op.operands])
            for name, value in zip(op.results, results or []):
                self.env[name] = value
        return []

    def scf_for(self, op):
        lb, ub, step, *inits = [self.env[x] for x in op.operands]
        w = op.operand_types[0][1]
        lb, ub, step = signed(lb, w), signed(ub, w), signed(step, w)
        values = inits
        body = op.regions[0][0]
        iv = lb
        while iv < ub:
            values = yield from self.run_block(body, [iv & ((1 << w) - 1)] + values)
            iv += step
        return values

    def scf_if(self, op):
        cond = self.env[op.operands[0]]
        region = op.regions[0] if cond else (op.regions[1] if len(op.regions) > 1 else None)
        if not region or not region[0].ops:
            return []
        return (yield from self.run_block(region[0], []))


def wave_readfirstlane(op, lanes):
    values = {repr(v[0]) for v in lanes}
    if len(values) != 1:
        raise KernelError(f'readfirstlane of a value that is not uniform: {sorted(values)[:4]}')
    return [[lanes[0][0]] for _ in lanes]


def wave_shuffle(op, lanes):
    if 'xor' not in op.props:
        raise KernelError(f'shuffle mode not modelled: {op.props}')
    out = []
    for lane, (value, offset, width) in enumerate(lanes):
        if width != WAVE:
            raise KernelError('shuffle width other than the wave')
        out.append([lanes[lane ^ offset][0], 1])
    return out


def wave_mfma_scale_16x16x128(op, lanes):
    def operand(lane, which):
        words, scale_word, opsel, fmt = which
        if fmt != 4:
            raise KernelError('only FP4 (format 4) operands are modelled')
        data = b''.join(w.to_bytes(4, 'little') for w in words[:4])
        scale = (scale_word >> (8 * opsel)) & 0xFF
        vals = []
        for byte in data:
            vals.append(fp4_value(byte & 15, scale))
            vals.append(fp4_value(byte >> 4, scale))
        return vals
    a = [operand(l, (x[0], x[6], x[5], x[3])) for l, x in enumerate(lanes)]
    b = [operand(l, (x[1], x[8], x[7], x[4])) for l, x in enumerate(lanes)]
    # A[i][k] is lane i + 16 (k / 32), value k % 32; B[k][j] alike with j.

    def a_at(i, k):
        return a[i + 16 * (k // 32)][k % 32]

    def b_at(k, j):
        return b[j + 16 * (k // 32)][k % 32]
    d = [[math.fsum(a_at(i, k) * b_at(k, j) for k in range(128)) for j in range(16)]
         for i in range(16)]
    out = []
    for lane, x in enumerate(lanes):
        c = x[2]
        out.append([[f32(d[4 * (lane // 16) + r][lane % 16] + c[r]) for r in range(4)]])
    return out


def fp8_e4m3fnuz(byte):
    """The value of an FP8 e4m3fnuz byte (exponent bias 8, 0x80 NaN)."""
    if byte == 0x80:
        return math.nan
    e, f = (byte >> 3) & 15, byte & 7
    v = math.ldexp(f, -10) if e == 0 else math.ldexp(8 + f, e - 11)
    return -v if byte & 0x80 else v


def wave_mfma_fp8_16x16x32(op, lanes):
    """v_mfma_f32_16x16x32_fp8_fp8: lane l supplies A row l % 16 and B
    column l % 16, values k = 8 (l / 16) .. + 8 (one byte each, low byte
    first); it receives D rows 4 (l / 16) + i of column l % 16. Exact sums,
    rounded once to f32 with C added."""
    for x in lanes:
        if x[3] or x[4] or x[5]:
            raise KernelError('cbsz/abid/blgp other than 0 are not modelled')

    def vals(word):
        return [fp8_e4m3fnuz((word >> (8 * i)) & 0xFF) for i in range(8)]
    a = [vals(x[0]) for x in lanes]
    b = [vals(x[1]) for x in lanes]
    d = [[math.fsum(a[i + 16 * (k // 8)][k % 8] * b[j + 16 * (k // 8)][k % 8]
                    for k in range(32)) for j in range(16)] for i in range(16)]
    return [[[f32(d[4 * (lane // 16) + r][lane % 16] + x[2][r]) for r in range(4)]]
            for lane, x in enumerate(lanes)]


def wave_ds_bpermute(op, lanes):
    """ds_bpermute: lane l reads the value of lane (address / 4) % 64."""
    return [[lanes[(addr >> 2) & (WAVE - 1)][1]] for addr, _ in lanes]


WAVE_OPS = {
    'rocdl.readfirstlane': wave_readfirstlane,
    'gpu.shuffle': wave_shuffle,
    'rocdl.ds_bpermute': wave_ds_bpermute,
    'rocdl.mfma.scale.f32.16x16x128.f8f6f4': wave_mfma_scale_16x16x128,
    'rocdl.mfma.f32.16x16x32.fp8.fp8': wave_mfma_fp8_16x16x32,
}


def run_kernel(func, lds_sizes, memory, args, grid, block):
    """Runs every workgroup whose id is below `grid` to completion."""
    body = func.regions[0][0]
    for bid in range(grid):
        group = Group(bid, lds_sizes)
        threads = [Thread(t, group, memory) for t in range(block)]
        gens = {t.tid: t.run_block(body, args) for t in threads}
        waiting = {}
        ready = {tid: None for tid in gens}
        while gens:
            for tid in list(ready):
                value = ready.pop(tid)
                try:
                    waiting[tid] = gens[tid].send(value)
                except StopIteration:
                    del gens[tid]
            if not gens:
                break
            progressed = False
            for w in range(block // WAVE):
                lanes = range(w * WAVE, (w + 1) * WAVE)
                if not all(t in waiting and waiting[t][0].name in WAVE_OPS for t in lanes):
                    continue
                op = waiting[lanes[0]][0]
                if any(waiting[t][0] is not op for t in lanes):
                    raise KernelError(f'wave {w} lanes at different wave operations')
                results = WAVE_OPS[op.name](op, [waiting[t][1] for t in lanes])
                for t, r in zip(lanes, results):
                    del waiting[t]
                    ready[t] = r
                progressed = True
            if progressed:
                continue
            if gens and len(waiting) == len(gens) and \
                    all(req[0].name == 'gpu.barrier' for req in waiting.values()):
                ops = {req[0].uid for req in waiting.values()}
                if len(ops) != 1:
                    raise KernelError(f'workgroup {bid}: threads wait at different barriers')
                group.epoch += 1
                for tid in list(waiting):
                    del waiting[tid]
                    ready[tid] = []
                continue
            raise KernelError(f'workgroup {bid}: no thread can go on (a wave operation '
                              f'not reached by the whole wave, or a barrier not by all)')
