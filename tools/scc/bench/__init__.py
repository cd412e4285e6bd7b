"""Experiments: experiment files and their points (experiment), an app's
options checked against them (appopts), running points (sweep) and
keeping their results (results, progress, provenance), plots (plots), and
libscc's measured defaults (tuning). Imports scc.machine only."""
