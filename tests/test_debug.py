"""gdb on core N (scc-run --gdb): scripted gdb in batch mode stops in an
app function on core 5 only, reads a local variable, and the run then
ends as it would have, with the same modeled numbers as a run without gdb."""
from __future__ import annotations

import re
import shutil
import socket
import subprocess
import time

import pytest

from conftest import BUILD, REPO

PROG = r"""
#include <stdio.h>
#include "RCCE.h"

__attribute__((noinline)) int work(int me)
{
    volatile int secret = 1000 + me;
    return secret * 2;
}

int RCCE_APP(int argc, char **argv)
{
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS)
        return 1;
    printf("work %d at %.3f us\n", work(RCCE_ue()), RCCE_wtime() * 1e6);
    RCCE_barrier(&RCCE_COMM_WORLD);
    RCCE_finalize();
    return 0;
}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def prog(tmp_path_factory):
    d = tmp_path_factory.mktemp("dbg")
    (d / "work.c").write_text(PROG)
    subprocess.run([str(BUILD / "venv" / "bin" / "scc-cc"), "-g", "-O1", "-o", "work.elf",
                    "work.c"], cwd=d, check=True, timeout=120)
    return d


def scc_run(d, *extra, stats="stats.csv"):
    return [str(REPO / "tools" / "scc-run"), "--timeout", "120", "--timing",
            "--timing-stats", str(d / stats), "--rcce", "--app", str(d / "work.elf"),
            "--cores", "0-7", *extra]


@pytest.mark.parametrize("mode", ["timing"])
def test_gdb_stops_core_5_in_an_app_function(prog, mode):
    gdb = shutil.which("gdb")
    assert gdb, "gdb is missing: the build installs it (scripts/deps.sh)"
    port = free_port()
    script = prog / "scc.gdb"
    run = subprocess.Popen(scc_run(prog, f"--gdb={port}", "--gdb-core", "5",
                                   "--gdb-script", str(script), stats="gdb.csv"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(100):                    # the file is written before QEMU starts
            if script.exists():
                break
            time.sleep(0.1)
        time.sleep(0.5)
        g = subprocess.run([gdb, "-batch", "-x", str(script),
                            "-ex", "break work if $_thread == 6", "-ex", "continue",
                            "-ex", "print me", "-ex", "print $_thread", "-ex", "info threads",
                            "-ex", "delete",
                            "-ex", "detach"],
                           capture_output=True, text=True, timeout=120)
        out, err = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
    assert "$1 = 5" in g.stdout, g.stdout[-3000:] + g.stderr[-2000:]
    assert "$2 = 6" in g.stdout                 # core 5 is thread 6
    # threads named by core and state: 5 is stopped in work (running for
    # the machine), 47 is not in the run (held in reset)
    assert re.search(r"\b6 +Thread 1\.6 \(core 05 \(running\)\)", g.stdout), g.stdout[-3000:]
    assert re.search(r"\b48 +Thread 1\.48 \(core 47 \(held\)\)", g.stdout), g.stdout[-3000:]
    assert "work (me=5)" in g.stdout or "work (me=me@entry=5)" in g.stdout, g.stdout[-3000:]
    assert run.returncode == 0, out[-2000:] + err[-2000:]
    plain = subprocess.run(scc_run(prog), capture_output=True, text=True, timeout=180)
    assert plain.returncode == 0
    # gdb changed no modeled number: the same output, every counter the same
    # but the run's restarted accesses, host work that depends on where
    # the runs end (docs/timing.md), which gdb's stop requests, coming in
    # host time, may move
    assert sorted(l for l in out.splitlines() if l.startswith("[")) == \
        sorted(l for l in plain.stdout.splitlines() if l.startswith("["))

    def counters(f):
        return [l for l in f.read_text().splitlines()
                if not l.startswith("run,,restarted_accesses,")]
    assert counters(prog / "gdb.csv") == counters(prog / "stats.csv")
    assert len(counters(prog / "gdb.csv")) > 200
