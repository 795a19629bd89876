"""Running: the run engine (engine.py: rounds of the core on a target, stored as they arrive;
results.py: the result writer; importing.py: an export document stored as a new run),
and what drives it: matrix (variants interleaved), campaign (targets x variants x workloads),
ingest (a captured console log replayed as a run) and topology (the latency sweeps).
Imports the targets, the store and the analysis; never the report or the command line."""
