"""The SCC platform's host tools: run the emulated chip (sccrun), sweep
experiments (bench), plot (plots) and reproduce the papers (report).

Console commands (tools/pyproject.toml): scc-run, scc-bench, scc-report,
scc-bcast-demo, scc-bench-tcg, scc-bench-timing, scc-fuzz-loader.
"""
