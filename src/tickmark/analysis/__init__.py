"""Analysis: statistics of a benchmark instance (stats), counter figures (counters), the
comparison of runs (compare), cache and TLB detection from latency sweeps and the OS's own
figures (topology), the nbench indices, the memory tables, the RTOS study's figures, and the
change points of a history of runs (history). Imports no other layer but profile's model: no
terminal, no targets, no store module (a function that reads a run is handed the store)."""
