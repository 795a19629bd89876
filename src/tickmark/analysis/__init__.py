"""Analysis: statistics of a benchmark instance (stats), counter figures (counters), the
comparison of runs (compare), cache and TLB detection from latency sweeps and the OS's own
figures (topology), the nbench indices, the memory tables, the RTOS study's figures, and the
change points of a history of runs (history). Imports no other layer but profile's model: no
terminal, no targets, no store. Analysis functions take rows (runs, results, samples), never a
store: the caller reads them (store/analyses.py, report/, cli/); lint-imports checks that nothing
here imports tickmark.store."""
