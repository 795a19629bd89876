"""Count the instructions of one call in an image running under QEMU, by single-stepping it in
gdb: an independent check of tickmark's figures under -icount (one instruction per step, no
clock involved).

    qemu-system-aarch64 ... -icount shift=0,sleep=off -kernel IMAGE -s -S &    # tickmark's QEMU line
    gdb-multiarch -batch -x tools/gdb_count.py IMAGE \\
        -ex 'count tm_os_mutex_lock 100'

`count FUNCTION [SKIP]` lets the program run to the SKIP+1-th call of FUNCTION (the first ones
warm up), then steps from its first instruction until it returns to its caller, and prints the
number of instructions and how many of them were in each function. QEMU's gdb stub steps with
interrupts masked, so a timer tick never lands in the count; a call that blocks counts the
other threads it switches to until it returns. gdb steps over an AArch64 load/store-exclusive
sequence (LDAXR ... STXR) in one step, so that the exclusive monitor holds: such a step counts the
instructions it passed over.
"""

import gdb


def _step():
    """One stepi -> the instructions it executed (an exclusive sequence is one step for gdb)."""
    frame = gdb.selected_frame()
    pc = int(gdb.parse_and_eval("$pc")) & ~1
    asm = frame.architecture().disassemble(pc)[0]["asm"].split()[0]
    gdb.execute("stepi", to_string=True)
    after = int(gdb.parse_and_eval("$pc")) & ~1
    if asm.startswith(("ldxr", "ldaxr", "ldxp", "ldaxp")) and 0 < after - pc <= 64:
        return (after - pc) // 4
    return 1


def _return_address():
    arch = gdb.selected_frame().architecture().name()
    return int(gdb.parse_and_eval("$x30" if "aarch64" in arch else "$lr")) & ~1


class Count(gdb.Command):
    def __init__(self):
        super().__init__("count", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        words = arg.split()
        func, skip = words[0], int(words[1]) if len(words) > 1 else 0
        gdb.execute("target remote :1234", to_string=True)
        gdb.execute(f"hbreak *{func}", to_string=True)  # its first instruction, before the prologue
        for _ in range(skip + 1):
            gdb.execute("continue")
        gdb.execute("delete", to_string=True)
        ret, sp0 = _return_address(), int(gdb.parse_and_eval("$sp"))
        steps, where = 0, {}
        while True:
            pc = int(gdb.parse_and_eval("$pc")) & ~1
            if pc == ret and int(gdb.parse_and_eval("$sp")) >= sp0:
                break
            block = gdb.block_for_pc(pc)
            while block is not None and block.function is None:
                block = block.superblock
            name = block.function.name if block is not None else hex(pc)
            n = _step()
            where[name] = where.get(name, 0) + n
            steps += n
        print(f"{func} (call {skip + 1}): {steps} instructions")
        for name, n in sorted(where.items(), key=lambda x: -x[1]):
            print(f"  {n:8d}  {name}")
        gdb.execute("kill", to_string=True)


Count()


class CountRange(gdb.Command):
    """count-range START END [SKIP]: the instructions from address START to address END (both
    in the same function: a timed window of a benchmark), at the SKIP+1-th pass."""

    def __init__(self):
        super().__init__("count-range", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        words = arg.split()
        start, end, skip = int(words[0], 0), int(words[1], 0), int(words[2]) if len(words) > 2 else 0
        gdb.execute("target remote :1234", to_string=True)
        gdb.execute(f"hbreak *{start:#x}", to_string=True)
        for _ in range(skip + 1):
            gdb.execute("continue")
        gdb.execute("delete", to_string=True)
        steps = 0
        while int(gdb.parse_and_eval("$pc")) & ~1 != end:
            steps += _step()
        print(f"{start:#x}..{end:#x} (pass {skip + 1}): {steps} instructions")
        gdb.execute("kill", to_string=True)


CountRange()
