"""The papers' report: its rows and libscc's targets, read from
experiments/report/ (rows), their measures (measures for the papers' rows,
targets for the targets, both made of tables' helpers), and running and
writing the report (make). Imports scc.bench and scc.machine."""
