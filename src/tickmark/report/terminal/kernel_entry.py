"""Terminal view of the kernel-entry table (model/kernel_entry.py: kernel_entry_model): one row
per system, one column per way into the kernel, each cell the model's figure over its rate per
second; the model's notes (why a system lacks a figure) and units under it. `show RUN` has the
run's own row, `show RUN --beside OTHER` the other run's under it."""

from ..console import print_table, styled_table


def build_table(entry, plain=False):
    t = styled_table(plain, title=entry["title"])
    t.add_column("system", overflow="fold", max_width=24)
    t.add_column("run", justify="right", no_wrap=True)
    for i, f in enumerate(entry["figures"]):
        lines = [c for s in entry["systems"] for c in (s["cells"][i]["text"], s["cells"][i]["rate"]) if c]
        # a figure never wraps; a heading takes two lines (the table fits 80 columns with 5 figures)
        t.add_column(f["figure"].replace(" ", "\n", 1), justify="right", min_width=max(len(x) for x in lines))
    last = len(entry["systems"]) - 1
    for k, s in enumerate(entry["systems"]):
        cells = [c["text"] + (f"\n{c['rate']}" if c["rate"] else "") for c in s["cells"]]
        t.add_row(s["label"], str(s["run"]), *cells, end_section=k != last)
    return t


def lines(entry):
    """What is under the table: the reasons its cells refer to, the host-clock note, the units."""
    out = [f"[{n['n']}] {n['text']}" for n in entry["notes"]]
    return out + ([entry["host_clock_note"]] if entry["host_clock_note"] else []) + [entry["units"]]


def show(entry, console):
    """The table within the console's width (in parts where its figures cannot fit), then its notes."""
    print_table(console, build_table(entry, plain=not console.is_terminal))
    for line in lines(entry):
        console.print(line)
