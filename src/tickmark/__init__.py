"""tickmark: OS and processor performance evaluation toolkit (host harness)."""

__version__ = "0.1.0"
