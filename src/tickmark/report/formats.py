"""One table of output formats (google/benchmark's reporters and asv's commands are the model):
every format is one reporter here, with what it can render, and every command that writes a
format chooses it through this table (its choices, its help, the format an output file's
extension picks, and the rendering).

What a reporter renders ("what"):
  run          one stored run, for other tools (`tickmark export`; store/document.run_model)
  report       the report model of stored runs (`tickmark report`; model.build)
  comparison   the comparison of runs (`tickmark compare`; model.comparison): `compare --format
               json` prints the same document that `report --format json` holds under "compare"
  history      the series of stored runs and their change points (`tickmark history`;
               report/history.build)

Each writer returns the text to write (a string, or strings to write one after the other); the
terminal reporter prints to the console itself (colours in a terminal, plain in a pipe) and
returns None.
"""

from dataclasses import dataclass, field

from ..base.errors import TickmarkError

WHATS = ("run", "report", "comparison", "history")


@dataclass(frozen=True)
class Reporter:
    name: str
    summary: dict  # what -> a few words for a command's --format help
    writers: dict  # what -> function
    extensions: tuple = ()  # file extensions that pick this format for `report -o`
    options: tuple = ()  # the keywords of its run writer that only this format takes (junit's gate)
    aliases: tuple = field(default=())


def _json_run(model, **_):
    from ..store import document

    return document.to_json(model)


def _csv_run(model, **_):
    from ..store import document

    return document.to_csv(model)


def _gbench_run(model, **_):
    from ..store import exports

    return exports.to_gbench(model)


def _openmetrics_run(model, **_):
    from ..store import exports

    return exports.to_openmetrics(model)


def _junit_run(model, gate=None, **_):
    """JUnit XML of a run; with the verdict of the regression gate against a baseline
    (analysis/verdict.gate, the gate of `compare --fail-above`), the instances it fails fail as
    test cases too."""
    from ..store import exports

    return exports.to_junit(model, gate=gate)


COMPARISON_CSV = ("a", "b", "key", "bench", "metric", "unit", "higher", "median_a", "median_b", "ratio")
COMPARISON_CSV += ("change_lo", "change_hi", "p", "verdict", "multiple", "det_a", "det_b", "rounds_needed", "note")


def _csv_comparison(doc, **_):
    """One row per compared row of every pair (A, B), for a spreadsheet; change_lo and change_hi:
    the 95 % CI of B/A - 1."""
    import csv
    import io

    from ..store.document import write_row

    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COMPARISON_CSV)
    for c in doc["comparisons"]:
        for r in c["rows"]:
            lo, hi = r["ci"] or (None, None)
            row = dict(r, a=c["a"], b=c["b"], change_lo=lo, change_hi=hi)
            write_row(w, ["" if row[k] is None else row[k] for k in COMPARISON_CSV])
    return out.getvalue()


def _html(model, **_):
    from . import documents

    return documents.html(model)


def _md(model, **_):
    from . import documents

    return documents.markdown(model)


def _json_doc(doc, **_):
    from . import documents

    return documents.to_json(doc)


def _alone(doc):
    """A comparison as a report model of its own (no run sections)."""
    return {"runs": [], "compare": doc, "rtos_study": None}


def _terminal_comparison(doc, show_counters=True, file=None):
    from .terminal.compare import render_comparison

    render_comparison(doc, file, show_counters)


def _terminal_history(model, file=None, **_):
    from .terminal.history import show

    show(model, file=file)


def _json_history(model, **_):
    from .history import json_chunks

    return json_chunks(model)  # in pieces: the points of thousands of runs are never one string


def _md_history(model, **_):
    from . import documents

    return documents.history_markdown(model)


def _html_history(model, **_):
    from . import documents

    return documents.history_html(model)


REPORTERS = {
    r.name: r
    for r in (
        Reporter(
            "terminal",
            {
                "comparison": "tables for a person (plain text in a pipe)",
                "history": "tables for a person (plain text in a pipe)",
            },
            {"comparison": _terminal_comparison, "history": _terminal_history},
            aliases=("table",),
        ),
        Reporter(
            "json",
            {
                "run": "the document import reads (with raw samples)",
                "report": "the report model",
                "comparison": "the comparison document (report --format json holds it as 'compare')",
                "history": "the series and their changes",
            },
            {"run": _json_run, "report": _json_doc, "comparison": _json_doc, "history": _json_history},
            extensions=(".json",),
        ),
        Reporter(
            "csv",
            {"run": "one row per result and metric", "comparison": "one row per compared benchmark and metric"},
            {"run": _csv_run, "comparison": _csv_comparison},
            extensions=(".csv",),
        ),
        Reporter(
            "md",
            {"report": "Markdown", "comparison": "Markdown", "history": "Markdown"},
            {"report": _md, "comparison": lambda doc, **_: _md(_alone(doc)), "history": _md_history},
            extensions=(".md", ".markdown"),
        ),
        Reporter(
            "html",
            {
                "report": "one self-contained page with plots",
                "comparison": "one self-contained page with plots",
                "history": "one self-contained page with the trend plots",
            },
            {"report": _html, "comparison": lambda doc, **_: _html(_alone(doc)), "history": _html_history},
            extensions=(".html", ".htm"),
        ),
        Reporter("gbench", {"run": "google/benchmark's JSON"}, {"run": _gbench_run}),
        Reporter(
            "junit",
            {"run": "JUnit XML (a failed test case per crashed, timed out or gated benchmark)"},
            {"run": _junit_run},
            extensions=(".xml",),
            options=("gate",),
        ),
        Reporter("openmetrics", {"run": "OpenMetrics text (Prometheus)"}, {"run": _openmetrics_run}),
    )
}


def _find(name):
    for r in REPORTERS.values():
        if name == r.name or name in r.aliases:
            return r
    return None


def names(what, aliases=False):
    """The formats that can render `what`, in the table's order (with their aliases)."""
    out = []
    for r in REPORTERS.values():
        if what in r.writers:
            out += [r.name] + (list(r.aliases) if aliases else [])
    return out


def help_text(what):
    """The --format help of a command: one clause per format it offers."""
    return (
        "; ".join(
            f"{r.name}{' (or ' + ', '.join(r.aliases) + ')' if r.aliases else ''}: {r.summary[what]}"
            for r in REPORTERS.values()
            if what in r.writers
        )
        + "."
    )


def reporter(name, what):
    """The reporter of format `name` for `what`; a one-line error when it has none."""
    r = _find(name)
    if r is None or what not in r.writers:
        raise TickmarkError(f"format '{name}' cannot write {what}s (one of: {', '.join(names(what))})")
    return r


def from_extension(path, what, default):
    """The format an output file's extension picks (`report -o r.md`), else default."""
    import os

    ext = os.path.splitext(path or "")[1].lower()
    for r in REPORTERS.values():
        if what in r.writers and ext in r.extensions:
            return r.name
    return default


def takes(name, what, option):
    """Whether format `name` takes an option that only some formats take (junit's gate: export's
    --baseline)."""
    return option in reporter(name, what).options


def render(name, what, *args, **kw):
    """Render with format `name`: the text to write, or None when the reporter printed itself."""
    return reporter(name, what).writers[what](*args, **kw)
