# Only the SCC machine (see docs/system/i386/scc.rst).
CONFIG_SCC=y
