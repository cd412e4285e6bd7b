"""scc-cc: a program of one's own, built outside the tree for the chip and
for the host backend, then run (README "Your own program")."""
from __future__ import annotations

import subprocess

import pytest

from lib import abi
from conftest import BUILD, REPO
from scc.machine.sccrun import run_app

SCC_CC = BUILD / "venv" / "bin" / "scc-cc"

RING = r"""
#include <stdio.h>
#include <math.h>
#include "RCCE.h"
#include "step.h"

int RCCE_APP(int argc, char **argv)
{
    int token = 0, me, n;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS)
        return 1;
    me = RCCE_ue();
    n = RCCE_num_ues();
    if (me == 0) {
        token = START;
        RCCE_send((char *)&token, sizeof(token), 1 % n);
        RCCE_recv((char *)&token, sizeof(token), n - 1);
        printf("token %d after %d UEs, sqrt %.3f\n", token, n, sqrt((double)token));
    } else {
        RCCE_recv((char *)&token, sizeof(token), me - 1);
        token = step(token);
        RCCE_send((char *)&token, sizeof(token), (me + 1) % n);
    }
    RCCE_finalize();
    return 0;
}
"""
STEP_C = "int step(int x) { return x + INC; }\n"
STEP_H = "int step(int x);\n"
# an assembler file too: twice(x) = 2x, unused by the ring but linked
TWICE_S = ".text\n.globl twice\ntwice:\n  movl 4(%esp), %eax\n  addl %eax, %eax\n  ret\n"


@pytest.fixture
def project(tmp_path):
    d = tmp_path / "myproject"          # outside the repository
    (d / "inc").mkdir(parents=True)
    (d / "ring.c").write_text(RING)
    (d / "step.c").write_text(STEP_C)
    (d / "inc" / "step.h").write_text(STEP_H)
    (d / "twice.S").write_text(TWICE_S)
    assert REPO not in d.parents
    return d


def cc(d, *args):
    p = subprocess.run([str(SCC_CC), *args], cwd=d, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return p


def test_own_program_on_the_chip(project):
    cc(project, "-O2", "-Iinc", "-DSTART=10", "-D", "INC=3", "-c", "step.c")
    cc(project, "-O2", "-I", "inc", "-DSTART=10", "-DINC=3", "-o", "ring.elf", "ring.c",
       "step.o", "twice.S", "-lm")
    r = run_app(project / "ring.elf", cores="0-7", args=["8", "0.533", *map(str, range(8))],
                timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.core_lines()[0] == [f"token {10 + 7 * 3} after 8 UEs, sqrt {(31) ** 0.5:.3f}"]


def test_own_program_on_the_host(project):
    cc(project, "--host", "-O2", "-Iinc", "-DSTART=5", "-DINC=2", "-o", "ring", "ring.c",
       "step.c")
    p = subprocess.run([str(project / "ring"), "4", "0.533", "0", "1", "2", "3"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == f"token {5 + 3 * 2} after 4 UEs, sqrt {11 ** 0.5:.3f}"


@pytest.mark.no_qemu
def test_flags_for_build_systems_and_bad_input(project):
    flags = cc(project, "--print-flags=cflags").stdout
    assert "-march=pentium" in flags and f"{REPO}/libscc/include" in flags
    assert "-Werror" not in flags       # the project's rule, not the user's
    libs = cc(project, "--host", "--print-flags=libs").stdout.split()
    assert libs == [str(BUILD / "libscc" / "rcce" / "host" / "librcce.a"), "-lm"]
    p = subprocess.run([str(SCC_CC), "notes.txt"], cwd=project, capture_output=True, text=True)
    assert p.returncode == 2 and "notes.txt: not a C" in p.stderr
    p = subprocess.run([str(SCC_CC), "-o"], cwd=project, capture_output=True, text=True)
    assert p.returncode == 2 and "-o needs a value" in p.stderr


def test_rcce_words_come_from_the_core_list(project):
    cc(project, "-Iinc", "-DSTART=0", "-DINC=1", "-o", "ring.elf", "ring.c", "step.c")
    run = [str(REPO / "tools" / "scc-run"), "--timeout", "120", "--rcce", "--app", "ring.elf"]
    p = subprocess.run([*run, "--cores", "0-5,9", "--stdout-of", "0"], cwd=project,
                       capture_output=True, text=True, timeout=180)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout == f"token 6 after 7 UEs, sqrt {6 ** 0.5:.3f}\n"
    p = subprocess.run([*run, "--cores", "0-3,3"], cwd=project, capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "core 3 is listed twice" in p.stderr
    # without RCCE's words the program is told why RCCE_init refused
    p = subprocess.run([*run[:3], "--app", "ring.elf", "--cores", "0,1"], cwd=project,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "RCCE_init: '' is not a number of UEs" in p.stdout + p.stderr


@pytest.mark.no_qemu
def test_apps_keep_their_data_on_pages():
    """libscc/sys/app.ld starts an app's read-only data, data and heap on a
    page each, so that an edit to code leaves every data address in its
    L1 and L2 set and a benchmark's modeled times do not move with code it
    never runs (docs/timing.md, "Measuring well"). Checked on every built
    app, from its section headers and symbols."""
    page = abi.parse((REPO / "kernel" / "defs.h").read_text())["PGSIZE"]
    apps = sorted((BUILD / "apps").glob("*.elf"))
    assert apps, "no build/apps/*.elf: run make"
    for app in apps:
        sections = subprocess.run(["i686-linux-gnu-readelf", "-SW", str(app)], capture_output=True,
                                  text=True, check=True, timeout=30).stdout
        addr = {}
        for line in sections.splitlines():
            f = line.replace("[ ", "[").split()
            if len(f) > 3 and f[0].startswith("[") and f[1] in (".rodata", ".data"):
                addr[f[1]] = int(f[3], 16)
        syms = subprocess.run(["i686-linux-gnu-nm", str(app)], capture_output=True, text=True,
                              check=True, timeout=30).stdout
        addr.update({f[2]: int(f[0], 16) for f in map(str.split, syms.splitlines())
                     if len(f) == 3 and f[2] == "__heap_start"})
        assert set(addr) >= {".rodata", "__heap_start"}, (app.name, addr)
        for what, a in addr.items():
            assert a % page == 0, f"{app.name}: {what} at {a:#x}, not on a page"


# A program whose globals carry the names a linker script may define itself
# (GNU ld PROVIDEs end, etext and edata; a script that assigns them outright
# moves the program's own `end` onto the heap's first page).
OWN_NAMES = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "RCCE.h"

int start[1000], end[1000];
char etext[300], edata[300];

int RCCE_APP(int argc, char **argv)
{
    int me, bad = 0;

    RCCE_init(&argc, &argv);
    me = RCCE_ue();
    /* the same values on every UE: on the host the UEs are threads of
     * one process and share these globals */
    for (int i = 0; i < 1000; i++) {
        start[i] = 3 * i;
        end[i] = 7 * i;
    }
    memset(etext, 't', sizeof etext);
    memset(edata, 'd', sizeof edata);
    /* the heap must lie past every one of them, not on them */
    char *heap = malloc(1 << 16);
    memset(heap, 0x5a, 1 << 16);
    for (int i = 0; i < 1000; i++)
        bad += start[i] != 3 * i || end[i] != 7 * i;
    for (int i = 0; i < 300; i++)
        bad += etext[i] != 't' || edata[i] != 'd';
    printf("ue %d: %d wrong\n", me, bad);
    RCCE_finalize();
    return bad != 0;
}
"""


@pytest.mark.parametrize("side", ["chip", "host"])
def test_program_keeps_its_own_end_etext_edata(tmp_path, side):
    (tmp_path / "names.c").write_text(OWN_NAMES)
    if side == "chip":
        cc(tmp_path, "-O2", "-o", "names.elf", "names.c")
        r = run_app(tmp_path / "names.elf", cores="0,1", args=["2", "0.533", "0", "1"],
                    timeout=120)
        out = "\n".join(l for lines in r.core_lines().values() for l in lines)
    else:
        cc(tmp_path, "--host", "-O2", "-o", "names", "names.c")
        r = subprocess.run([str(tmp_path / "names"), "2", "0.533", "0", "1"],
                           capture_output=True, text=True, timeout=60)
        out = r.stdout
    assert r.returncode == 0, r.stdout + r.stderr
    assert sorted(out.splitlines()) == ["ue 0: 0 wrong", "ue 1: 0 wrong"], out
    if side == "chip":
        # the program's `end` is its own array in .bss, not the heap's start
        syms = subprocess.run(["i686-linux-gnu-nm", str(tmp_path / "names.elf")],
                              capture_output=True, text=True, check=True, timeout=30).stdout
        kind = {f[2]: f[1] for f in map(str.split, syms.splitlines()) if len(f) == 3}
        assert kind["end"] in "bB" and kind["etext"] in "bB", kind


# Like most RCCE programs, this one does not look at what RCCE_init returns.
UNCHECKED = r"""
#include <stdio.h>
#include "RCCE.h"

int RCCE_APP(int argc, char **argv)
{
    RCCE_init(&argc, &argv);
    printf("share %d\n", 1000 / RCCE_num_ues());
    return 0;
}
"""


@pytest.mark.parametrize("side", ["chip", "host"])
def test_refused_rcce_init_ends_the_program_with_its_reason(tmp_path, side):
    """A refused RCCE_init says why and ends the program (status 2), instead
    of letting it run on without a UE count into a divide error; a program
    that asks for RCCE 1.x's behaviour gets the error back."""
    (tmp_path / "p.c").write_text(UNCHECKED)
    (tmp_path / "q.c").write_text(UNCHECKED.replace(
        "    RCCE_init(&argc", "    RCCE_init_refusal(RCCE_INIT_RETURN);\n"
        "    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS)\n        return 7;\n"
        "    RCCE_init(&argc"))
    # words the host's main accepts and RCCE_init refuses, on both sides
    words = ["2", "0.533", "0", "1", "--coll", "bcast=nosuch"]
    for prog, want in (("p", 2), ("q", 7)):
        if side == "chip":
            cc(tmp_path, "-O2", "-o", f"{prog}.elf", f"{prog}.c")
            r = run_app(tmp_path / f"{prog}.elf", cores="0,1", args=words, timeout=120)
            out = r.stdout + r.stderr
        else:
            cc(tmp_path, "--host", "-O2", "-o", prog, f"{prog}.c")
            r = subprocess.run([str(tmp_path / prog), *words], capture_output=True, text=True,
                               timeout=60)
            out = r.stdout + r.stderr
        assert r.returncode == want, out
        assert "RCCE_init: --coll 'bcast=nosuch': bcast: unknown algorithm" in out, out
        assert "share" not in out and "divide error" not in out, out


# What benchmarks and MPI programs call around their messages (issue 46,
# "What MPI programs expect around MPI"): each result printed, checked
# against what POSIX and C say it must be.
POSIX_CALLS = r"""
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static void bye(void) { printf("atexit ran\n"); }

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"size", required_argument, 0, 's'}, {"verbose", no_argument, 0, 'v'}, {0, 0, 0, 0}};
    int c, size = -1, verbose = 0;
    while ((c = getopt_long(argc, argv, "s:v", longs, NULL)) != -1) {
        if (c == 's')
            size = atoi(optarg);
        else if (c == 'v')
            verbose = 1;
        else
            return 3;
    }
    printf("args size %d verbose %d rest %s\n", size, verbose, optind < argc ? argv[optind] : "-");
    void *p = NULL;
    int e = posix_memalign(&p, 4096, 10000);
    printf("memalign %d aligned %d\n", e, p && (unsigned long)p % 4096 == 0);
    printf("pagesize %ld %d\n", sysconf(_SC_PAGESIZE), getpagesize());
    printf("getenv %s\n", getenv("SCC_NO_SUCH_VARIABLE") ? "set" : "null");
    struct timeval tv;
    struct timespec a, b;
    int t = gettimeofday(&tv, NULL);
    int m1 = clock_gettime(CLOCK_MONOTONIC, &a), r = clock_gettime(CLOCK_REALTIME, &b);
    volatile double x = 0;
    for (int i = 0; i < 1000; i++)
        x += sqrt((double)i);
    struct timespec a2;
    int m2 = clock_gettime(CLOCK_MONOTONIC, &a2);
    int forward = a2.tv_sec > a.tv_sec || (a2.tv_sec == a.tv_sec && a2.tv_nsec > a.tv_nsec);
    printf("clocks %d %d %d %d forward %d nsec_ok %d\n", t, m1, r, m2, forward,
           a.tv_nsec >= 0 && a.tv_nsec < 1000000000L && tv.tv_usec >= 0 && tv.tv_usec < 1000000);
    printf("math %.6f %.6f %.1f\n", sqrt(2.0), log(exp(1.5)), pow(2.0, 10.0));
    if (atexit(bye))
        return 4;
    printf("main done\n");
    return 0;
}
"""


@pytest.mark.parametrize("side", ["chip", "host"])
def test_posix_calls_programs_make_work(tmp_path, side):
    """getopt_long over argv as given, posix_memalign, the page size by
    sysconf and getpagesize, getenv of an unset name, gettimeofday and
    clock_gettime (a monotonic clock that moves forward), the math
    library, and an atexit handler that runs after main returns (on the
    chip it never did: the linker script dropped picolibc's runner)."""
    (tmp_path / "calls.c").write_text(POSIX_CALLS)
    argv = ["--size", "7", "-v", "extra"]
    if side == "chip":
        cc(tmp_path, "-O2", "-o", "calls.elf", "calls.c", "-lm")
        r = run_app(tmp_path / "calls.elf", cores="0", args=argv, timeout=120)
        out = r.core_lines()[0]
    else:
        cc(tmp_path, "--host", "-O2", "-o", "calls", "calls.c", "-lm")
        r = subprocess.run([str(tmp_path / "calls"), *argv], capture_output=True, text=True,
                           timeout=60)
        out = r.stdout.splitlines()
    assert r.returncode == 0, r.stdout + r.stderr
    assert out == ["args size 7 verbose 1 rest extra", "memalign 0 aligned 1",
                   "pagesize 4096 4096", "getenv null",
                   "clocks 0 0 0 0 forward 1 nsec_ok 1",
                   f"math {2 ** 0.5:.6f} {1.5:.6f} {1024:.1f}",
                   "main done", "atexit ran"], out
