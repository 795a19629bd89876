"""The base modules every layer uses (units, formatting, errors, names, the core's record
protocol, suites); they import no layer."""
