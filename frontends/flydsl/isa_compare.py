"""FlyDSL's own device binaries, hoisted against specialized, per width.

    isa_compare.py DIR KERNEL CHIP WIDTH...

DIR holds what `scripts/flydsl.sh --save-dir DIR` wrote:
KERNEL-CHIP-wW-0.hsaco (FlyDSL alone, specialized for W) and
KERNEL-CHIP-wW-flyhoist-0.hsaco (with flyhoist). The hoisted binary is the
template's, one for every matched width: the first `-flyhoist-` file whose
bytes differ from the same width's own. For each WIDTH: instructions up to
s_endpgm (llvm-objdump-22 -d), VGPRs, SGPRs and spills (llvm-readobj-22
--notes), memory instructions with an immediate `offset:`, and adds.
"""

import os
import re
import subprocess
import sys

OBJDUMP = os.environ.get("LLVM_OBJDUMP", "llvm-objdump-22")
READOBJ = os.environ.get("LLVM_READOBJ", "llvm-readobj-22")
ADD = re.compile(r"^(v|s)_(add|sub|add3|lshl_add|add_lshl|mad)\w*")


def figures(path, chip):
    text = subprocess.run(
        [OBJDUMP, "-d", f"--mcpu={chip}", path],
        capture_output=True, text=True, check=True,
    ).stdout
    body = []
    for line in text.splitlines():
        if not line.startswith("\t"):
            continue
        instruction = line.strip().split("//")[0].strip()
        body.append(instruction)
        if instruction.startswith("s_endpgm"):
            break
    notes = subprocess.run(
        [READOBJ, "--notes", path], capture_output=True, text=True, check=True
    ).stdout

    def note(name):
        found = re.search(rf"\.{name}:\s+(\d+)", notes)
        return int(found.group(1)) if found else None

    return {
        "instructions": len(body),
        "vgpr": note("vgpr_count"),
        "sgpr": note("sgpr_count"),
        "spills": (note("vgpr_spill_count") or 0)
        + (note("sgpr_spill_count") or 0),
        "offsets": sum(
            1 for i in body if re.search(r"\boffset:(0x)?[1-9]", i)
        ),
        "adds": sum(1 for i in body if ADD.match(i)),
    }


def template_binary(directory, kernel, chip):
    for name in sorted(os.listdir(directory)):
        match = re.fullmatch(
            rf"{kernel}-{chip}-w(\d+)-flyhoist-0\.hsaco", name
        )
        if not match:
            continue
        own = os.path.join(directory, f"{kernel}-{chip}-w{match[1]}-0.hsaco")
        path = os.path.join(directory, name)
        if open(path, "rb").read() != open(own, "rb").read():
            return path
    raise SystemExit(f"no hoisted binary in {directory}")


def main(argv):
    directory, kernel, chip, *widths = argv
    hoisted_path = template_binary(directory, kernel, chip)
    hoisted = figures(hoisted_path, chip)
    print(f"hoisted ({os.path.basename(hoisted_path)}): {hoisted}")
    worst = 0.0
    for width in widths:
        own = figures(
            os.path.join(directory, f"{kernel}-{chip}-w{width}-0.hsaco"), chip
        )
        change = (hoisted["instructions"] - own["instructions"]) / max(
            own["instructions"], 1
        )
        worst = max(worst, abs(change))
        print(
            f"width {width}: specialized {own['instructions']} instructions,"
            f" {own['vgpr']} VGPRs, {own['sgpr']} SGPRs, {own['spills']}"
            f" spills, {own['offsets']} immediate offsets, {own['adds']}"
            f" adds; hoisted {change * 100:+.1f}% instructions,"
            f" VGPRs {hoisted['vgpr'] - own['vgpr']:+d},"
            f" spills {hoisted['spills'] - own['spills']:+d},"
            f" immediate offsets {hoisted['offsets'] - own['offsets']:+d},"
            f" adds {hoisted['adds'] - own['adds']:+d}"
        )
    print(f"largest instruction-count change: {worst * 100:.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
