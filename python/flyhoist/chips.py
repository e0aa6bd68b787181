"""What a chip name may be, checked where it is given (Target, KernelCache).

The chips themselves are LLVM's: the processors of the AMDGPU and NVPTX
backends, as the C API lists them (ir.known_chips), the list the lowering
pipelines check. This module words the errors a user meets first: target
features written into the name (gfx942:xnack+), a near spelling of a known
chip (sm90, SM-90, compute_90: did you mean sm_90?), and the known chips of
the family the name looks like (NVIDIA ones for sm..., AMD ones for gfx...).
"""

from __future__ import annotations

from typing import Callable, Sequence

_FAMILIES = {'nvvm': 'NVIDIA ', 'amdgpu': 'AMD '}


def chip_family(chip: str) -> str | None:
    """'nvvm' or 'amdgpu' by the spelling's prefix; None for neither."""
    lowered = chip.lower()
    if lowered.startswith(('sm', 'compute', 'nvptx')):
        return 'nvvm'
    if lowered.startswith(('gfx', 'amdgcn')):
        return 'amdgpu'
    return None


def _squeezed(chip):
    """A spelling without case, separators or an arch-family word, so that
    'sm90', 'SM-90' and 'compute_90' all meet 'sm_90'."""
    text = ''.join(c for c in chip.lower() if c.isalnum())
    for word in ('compute', 'nvptx'):
        if text.startswith(word):
            text = 'sm' + text[len(word):]
    return text


def _bad_features(chip):
    """The error for a chip spelled with target features (gfx942:xnack+,
    sm_90:+ptx80): which chip it is, and where features go instead."""
    if ':' in chip:
        base, features = chip.split(':', 1)
    else:
        base = chip.split('+', 1)[0]
        features = chip[len(base):]
    if chip_family(base) == 'nvvm':
        listed = ','.join(f if f[:1] in '+-' else '+' + f
                          for f in features.split(':') if f)
        advice = (f"pass them as the pipeline's features option: "
                  f"Target({base!r}, options='features={listed}')")
    else:
        advice = (f'flyhoist-amdgpu-pipeline takes none and builds for the '
                  f"chip's defaults: Target({base!r})")
    return (f'bad chip name {chip!r}: target features are not part of the '
            f'chip name; {advice}')


def check_chip(chip: str,
               known_chips: Callable[[str], Sequence[str]]) -> str:
    """The kind of pipeline `chip` is for ('nvvm' or 'amdgpu'); ValueError
    with a hint when it is not a chip `known_chips(kind)` lists. An empty
    list (a library without that backend) accepts any well-formed name."""
    if not isinstance(chip, str) or not chip:
        raise ValueError(f'bad chip name {chip!r}: a chip is a non-empty '
                         f'string such as gfx942 or sm_90')
    if ':' in chip or '+' in chip:
        raise ValueError(_bad_features(chip))
    if not all(c.isalnum() or c in '_-' for c in chip):
        raise ValueError(f'bad chip name {chip!r}')
    kind = 'nvvm' if chip.startswith('sm_') else 'amdgpu'
    known = tuple(known_chips(kind))
    if not known or chip in known:
        return kind
    family = chip_family(chip)
    if family:
        listed = tuple(known_chips(family))
    else:
        listed = tuple(known_chips('amdgpu')) + tuple(known_chips('nvvm'))
    near = [k for k in listed if _squeezed(k) == _squeezed(chip)]
    hint = f'did you mean {" or ".join(near)}? ' if near else ''
    raise ValueError(f'unknown chip {chip!r}; {hint}the known '
                     f'{_FAMILIES.get(family, "")}chips are '
                     f'{", ".join(listed)}')
