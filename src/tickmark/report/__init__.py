"""Reports: the report model (model/) and its views: the terminal (terminal/), HTML, Markdown
and JSON (documents.py, templates/, plots.py); the one console of every command (console.py) and
the progress bar of a run (progress.py)."""
