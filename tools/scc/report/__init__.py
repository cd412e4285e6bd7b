"""The papers' report: its rows (headlines) and libscc's targets (targets),
the helpers of their measures (measure), and running and writing the
report (make). Imports scc.bench and scc.machine."""
