"""Analyses of stored results that read no store and print nothing."""
