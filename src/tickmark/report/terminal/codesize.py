"""Terminal view of the code size beside the speed of a compared pair (the model's code_size,
report/model/codesize.py): the core's text, data and bss (and a kernel image's size), then per
benchmark the bytes of its functions (its file's and the shared helpers' it calls) in A and B
with the speed and size in words."""

from ...base.fmt import fmt_size


def _bytes(n):
    return "-" if n is None else fmt_size(n)


def _ratio(r):
    return "-" if r is None else f"{r:.3f}"


def render(con, cs, plain, print_table):
    """Print a pair's code size section (nothing when the runs recorded no sizes) with the
    comparison's table printer print_table(file, headers, rows, right, plain)."""
    if not cs:
        return
    con.file.flush()
    if cs["core"]:
        rows = [[c["part"], _bytes(c["a"]), _bytes(c["b"]), _ratio(c["ratio"]), c["words"]] for c in cs["core"]]
        print_table(
            con.file, ["code size", "A", "B", "B/A", "B against A"], rows, [False, True, True, True, False], plain
        )
    if cs["benches"]:
        rows = [
            [
                b["bench"] + (f" ({b['instances']})" if b["instances"] > 1 else ""),
                _bytes(b["a"]),
                _bytes(b["b"]),
                b["words"],
            ]
            for b in cs["benches"]
        ]
        print_table(con.file, ["functions of", "A", "B", "B against A"], rows, [False, True, True, False], plain)
        said = (
            "instructions: ratios of guest instruction counts (QEMU -icount)"
            if cs["measure"] == "insn"
            else "speed: compare's verdict (task-clock where wall time was contended)"
        )
        con.print(f"  {said}; (n) instances, geometric mean", markup=False)
