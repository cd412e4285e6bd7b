"""The console commands (tools/pyproject.toml [project.scripts]), one module
each: argument parsing and printing only, the work done by the rooms
scc.machine, scc.bench and scc.report."""
