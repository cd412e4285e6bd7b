"""The SCC platform's host tools, in four rooms, each importing only the
rooms above it in this list:

- scc.machine: run the emulated chip (sccrun), core maps, booting through
  GRUB, gdb, ELF reading, scc-cc's SDK, the loader fuzzer, host-time
  benchmarks of the machine's modes;
- scc.bench: experiment files and their points, running them (sweep,
  results, the cache, provenance), plots, libscc's tuning file, the apps'
  options;
- scc.report: the papers' report: its rows and targets, their measures,
  the page;
- scc.cli: one module per console command (tools/pyproject.toml), only
  argument parsing and printing.

scc.paths holds where the checkout and its build are, for every room.
"""
