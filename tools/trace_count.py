"""Count instructions between calls from QEMU's own execution trace: an independent check of
tickmark's figures under -icount (no clock involved: every executed instruction is one line).

    qemu-system-aarch64 ... -singlestep -d exec,nochain -D trace.log -kernel IMAGE   # tickmark's QEMU line
    python3 tools/trace_count.py IMAGE trace.log tm_os_mutex_lock [SKIP]

With -singlestep every translation block is one instruction, and with -d exec,nochain QEMU logs
each block it executes ("Trace N: HOST [CPU/PC/FLAGS/...] ..."), so the lines between two
entries of FUNCTION are the instructions the program ran from one call to the next: for a
benchmark's loop around one call (sync.mutex: a lock, an unlock and the loop; sched.yield_switch:
one yield and the switch to the other thread, whose next yield is the next entry), that is the
cost of one operation. Prints the gaps after the first SKIP entries (warm-up): their median,
smallest and largest, and how many there were.
"""

import re
import statistics
import sys

from elftools.elf.elffile import ELFFile
from elftools.elf.sections import SymbolTableSection

_PC = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")


def symbol_address(image, name):
    with open(image, "rb") as f:
        for section in ELFFile(f).iter_sections():
            if isinstance(section, SymbolTableSection):
                for sym in section.get_symbol_by_name(name) or []:
                    return sym["st_value"] & ~1  # a Thumb function's address has bit 0 set
    raise SystemExit(f"trace_count: no symbol {name} in {image}")


def gaps(trace, address):
    """The instruction counts between consecutive executions of the instruction at address."""
    out, last, n = [], None, 0
    with open(trace, errors="replace") as f:
        for line in f:
            m = _PC.match(line)
            if not m:
                continue
            n += 1
            if int(m.group(1), 16) == address:
                if last is not None:
                    out.append(n - last)
                last = n
    return out


def main(argv):
    if len(argv) not in (4, 5):
        raise SystemExit(__doc__)
    image, trace, name = argv[1:4]
    skip = int(argv[4]) if len(argv) == 5 else 100
    found = gaps(trace, symbol_address(image, name))[skip:]
    if not found:
        raise SystemExit(f"trace_count: fewer than {skip + 2} entries of {name} in {trace}")
    print(
        f"{name}: {len(found)} gaps after {skip}: median {statistics.median(found):g}, "
        f"min {min(found)}, max {max(found)} instructions"
    )


if __name__ == "__main__":
    main(sys.argv)
