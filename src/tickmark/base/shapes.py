"""The shapes of what a store gives, for type annotations: a stored row (a run, a result, a
sample, a histogram, a profile) is a JSON-like dict, and what the report model and the analysis
read of a store is these few methods (StoreReader; the store satisfies it by its own methods).

A base module: every layer may import it, and it imports nothing of tickmark's."""

from __future__ import annotations

from typing import Any, Callable, Optional, Protocol

# A stored row as the store gives it: a run (id, name, started, status, fingerprint, notes, ...),
# a result (id, key, bench, params, status, reason, stats, meta, ...), a sample, a histogram.
Row = dict[str, Any]
# A run's fingerprint: the key registry's keys (fingerprint.KEYS) and their stored values.
Fingerprint = dict[str, Any]
# A result -> its samples (the store's, or the ones a document carries; None: it carries none)
SamplesOf = Callable[[Row], Optional[list[Row]]]


class StoreReader(Protocol):
    """What the report model (and the analysis that still reads one) asks of a store."""

    def run(self, ref: Any) -> Row: ...

    def results(self, run_id: Any) -> list[Row]: ...

    def samples(self, result_id: Any) -> list[Row]: ...

    def hists(self, result_id: Any) -> list[Row]: ...

    def profiles(self, run_id: Any) -> dict[str, Row]: ...
