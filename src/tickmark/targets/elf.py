"""What an executable file says of how it was linked (its ELF program headers)."""

import struct


def elf_linkage(path):
    """'dynamic' for an ELF executable with a program interpreter (ld.so), 'static' for one
    without, '' for a file that is not ELF (a script, a command)."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if len(head) < 52 or head[:4] != b"\x7fELF" or head[4] not in (1, 2) or head[5] not in (1, 2):
                return ""
            end = "<" if head[5] == 1 else ">"
            if head[4] == 2:  # 64-bit
                (phoff,) = struct.unpack(end + "Q", head[32:40])
                size, count = struct.unpack(end + "HH", head[54:58])
            else:
                (phoff,) = struct.unpack(end + "I", head[28:32])
                size, count = struct.unpack(end + "HH", head[42:46])
            f.seek(phoff)
            table = f.read(size * count)
    except OSError:
        return ""
    types = [struct.unpack(end + "I", table[i : i + 4])[0] for i in range(0, len(table) - 3, size or 1)]
    return "dynamic" if 3 in types else "static"  # PT_INTERP = 3
