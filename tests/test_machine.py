"""The scc machine against its reference page, through the guest tests.

The guest images in build/tests/guest/ compute their verdicts from real
effects; here each run's exit status and console lines are checked against
what Python expects from the topology (tile t = x + mesh_x * y, core
c = cores_per_tile * t + z).
"""

import re
import struct
import subprocess

import pytest

from lib.abi import EXIT_BADBOOT, EXIT_HUNG, EXIT_TRIPLE
from scc.machine.sccrun import boot_elf, qemu_binary, run
from lib import REPO, explain, first_load, guest, kernel, set_phdr

TIMEOUT = 60


def topology(mesh_x=6, mesh_y=4, cpt=2):
    """{core id: (x, y, z)}"""
    return {cpt * (x + mesh_x * y) + z: (x, y, z)
            for y in range(mesh_y) for x in range(mesh_x) for z in range(cpt)}


def write_map(tmp_path, text, name="cores.map"):
    p = tmp_path / name
    p.write_text(text)
    return p




def passed(r):
    assert r.returncode == 0 and not r.timed_out, explain(r)
    return r.core_lines()


def every_core_says(lines, cores, want):
    """Each core in cores printed want(core) as one of its lines."""
    assert sorted(lines) == sorted(cores), f"cores that printed: {sorted(lines)}"
    for c in cores:
        assert want(c) in lines[c], f"core {c}: {lines[c]}"


# --- who is who ---------------------------------------------------------------

@pytest.mark.parametrize("mesh_x,mesh_y,cpt", [(6, 4, 2), (2, 2, 2), (3, 2, 1)])
def test_ids(mesh_x, mesh_y, cpt):
    machine = {"mesh-x": str(mesh_x), "mesh-y": str(mesh_y),
               "cores-per-tile": str(cpt)}
    topo = topology(mesh_x, mesh_y, cpt)
    lines = passed(run(guest("ids"), machine=machine, timeout=TIMEOUT))
    every_core_says(lines, topo, lambda c: "id %02d x %d y %d z %d" % ((c,) + topo[c]))


def test_kernel_up():
    topo = topology()
    r = run(kernel(), timeout=TIMEOUT)
    lines = passed(r)
    every_core_says(lines, topo, lambda c: "core %02d tile (%d,%d) up" % ((c,) + topo[c][:2]))
    ups = re.findall(r"^\[(\d\d)\] core (\d\d) tile \((\d),(\d)\) up$", r.stdout, re.M)
    assert len(ups) == 48 and len({u[1] for u in ups}) == 48
    assert all(u[0] == u[1] for u in ups)


def test_mbi(tmp_path):
    mods = [guest("ids"), guest("hang")]
    append = "n=5 role=test"
    lines = passed(run(guest("mbi"), append=append, modules=mods, timeout=TIMEOUT))
    want = [f"mods {len(mods)}"]
    want += [f"mod {i} size {m.stat().st_size} cmdline [{m}]" for i, m in enumerate(mods)]
    for c in topology():
        assert lines[c][-1] == "mbi ok", f"core {c}: {lines[c]}"
        assert has_cmdline(lines[c], guest("mbi"), append), lines[c]
        for w in want:
            assert w in lines[c], f"core {c} lacks {w!r}: {lines[c]}"


def has_cmdline(lines, kernel, args):
    """The command line holds the arguments alone, as GRUB 2 passes it: the
    kernel's path is not in it (an old kernel that skipped a first word
    would lose the first argument)."""
    return f"cmdline [{args}]" in lines and not any(f"cmdline [{kernel}" in l for l in lines)


def test_coremap_lines(tmp_path):
    """Per-line images, arguments (shell quoting), modules relative to the map."""
    (tmp_path / "mbi.elf").write_bytes(guest("mbi").read_bytes())
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mod.bin").write_bytes(b"x" * 5000)
    cmap = write_map(tmp_path, "# cores  kernel  arguments\n"
                     "\n"
                     "0        mbi.elf role=root\n"
                     "1-46     mbi.elf role=worker module=sub/mod.bin  # comment\n"
                     "47       mbi.elf 'two words' x\n")
    lines = passed(run(coremap=cmap, timeout=TIMEOUT))
    assert has_cmdline(lines[0], "mbi.elf", "role=root"), lines[0]
    assert "mods 0" in lines[0], lines[0]
    for c in range(1, 47):
        assert has_cmdline(lines[c], "mbi.elf", "role=worker"), lines[c]
        assert "mod 0 size 5000 cmdline [sub/mod.bin]" in lines[c], lines[c]
    assert has_cmdline(lines[47], "mbi.elf", "two words x"), lines[47]


# --- memory ---------------------------------------------------------------------

@pytest.mark.parametrize("mesh_x,mesh_y,cpt", [(6, 4, 2), (2, 2, 2), (3, 2, 1)])
def test_lut(mesh_x, mesh_y, cpt):
    machine = {"mesh-x": str(mesh_x), "mesh-y": str(mesh_y),
               "cores-per-tile": str(cpt)}
    lines = passed(run(guest("lut"), machine=machine, timeout=TIMEOUT))
    every_core_says(lines, topology(mesh_x, mesh_y, cpt), lambda c: "lut defaults ok")
    assert "lut remote read ok" in lines[0]
    assert "lut window unmapped ok" in lines[1]


def test_mpb():
    lines = passed(run(guest("mpb"), timeout=TIMEOUT))
    every_core_says(lines, topology(), lambda c: "mpb ok 48 cores")


def test_mpb_small_mesh():
    machine = {"mesh-x": "2", "mesh-y": "2"}
    lines = passed(run(guest("mpb"), machine=machine, timeout=TIMEOUT))
    every_core_says(lines, topology(2, 2), lambda c: "mpb ok 8 cores")


# --- synchronisation ----------------------------------------------------------------

def test_lock():
    n = 1000
    lines = passed(run(guest("lock"), append=f"n={n}", timeout=TIMEOUT))
    assert f"lock count {48 * n} expected {48 * n}" in lines[0]


def test_atomic():
    n = 1000
    lines = passed(run(guest("atomic"), append=f"n={n}", timeout=TIMEOUT))
    assert f"atomic final {48 * n} expected {48 * n} missing 0" in lines[0]


def test_gtsc():
    lines = passed(run(guest("gtsc"), timeout=TIMEOUT))
    every_core_says(lines, topology(), lambda c: f"gtsc ok after core {(c - 1) % 48}")


# --- interrupts and reset -------------------------------------------------------------

@pytest.mark.parametrize("sender,target", [(0, 47), (12, 13), (13, 12)])
def test_ipi(sender, target):
    r = run(guest("ipi"), append=f"sender={sender} target={target}", timeout=TIMEOUT)
    lines = passed(r)

    def want(c):
        role = " (target)" if c == target else " (sender)" if c == sender else ""
        return f"ipi count {int(c == target)}{role}"
    every_core_says(lines, topology(), want)


def test_reset_release(tmp_path):
    img = guest("reset")
    cmap = write_map(tmp_path, f"0 {img} target=5\n5 {img} hold\n")
    lines = passed(run(coremap=cmap, timeout=TIMEOUT))
    assert sorted(lines) == [0, 5], lines
    assert "core 05 runs" in lines[0]
    assert any(l.startswith("released") for l in lines[5]), lines[5]


@pytest.mark.parametrize("target", [5, 46])
def test_bad_handoff(tmp_path, target):
    """Core 0 breaks a held core's handoff block through its window page;
    the boot stub of the released core must refuse to boot (EXIT_BADBOOT)."""
    img = guest("reset")
    cmap = write_map(tmp_path, f"0 {img} target={target} corrupt\n{target} {img} hold\n")
    r = run(coremap=cmap, timeout=TIMEOUT)
    assert not r.timed_out and r.returncode == EXIT_BADBOOT, explain(r)
    lines = r.core_lines()
    assert f"corrupted core {target:02d}'s handoff block" in lines[0], explain(r)
    assert lines[target] == ["scc-boot: no valid handoff block at 0x1000"], explain(r)
    assert re.search(rf"scc: core {target:02d} failed", r.stderr), explain(r)


# --- the CPU --------------------------------------------------------------------------

def test_cl1invmb():
    lines = passed(run(guest("cl1invmb"), timeout=TIMEOUT))
    every_core_says(lines, topology(), lambda c: "cl1invmb ok ring0 ring3")
    assert "cr4 mbe ok" in lines[0]


# --- failures the machine must report -------------------------------------------------

def test_triple_fault(tmp_path):
    img = guest("fault")
    cmap = write_map(tmp_path, f"7 {img} fault\n0-6,8-47 {img}\n")
    r = run(coremap=cmap, timeout=TIMEOUT)
    assert not r.timed_out, explain(r)
    assert r.returncode == EXIT_TRIPLE, explain(r)
    assert re.search(r"scc: core 07 failed", r.stderr), explain(r)
    assert len(re.findall(r"scc: core \d+ failed", r.stderr)) == 1, explain(r)


def test_hang(tmp_path):
    cmap = write_map(tmp_path, f"3 {guest('hang')}\n0-2,4-47 {guest('ids')}\n")
    r = run(coremap=cmap, timeout=TIMEOUT)
    assert not r.timed_out, explain(r)
    assert r.returncode == EXIT_HUNG, explain(r)
    assert re.search(r"scc: core 03 failed", r.stderr), explain(r)
    assert len(re.findall(r"scc: core \d+ failed", r.stderr)) == 1, explain(r)


# --- images and core maps the machine must refuse ---------------------------------------

def elf32_with_load_at(src, paddr):
    """src with its first PT_LOAD moved to paddr."""
    data = bytearray(src.read_bytes())
    off, _ = first_load(data)
    set_phdr(data, off, p_vaddr=paddr, p_paddr=paddr)
    return bytes(data)


def elf64():
    """A well-formed x86-64 executable."""
    code = b"\xf4\xeb\xfd"  # hlt; jmp .
    ehdr = struct.pack("<16sHHIQQQIHHHHHH", b"\x7fELF\x02\x01\x01" + b"\0" * 9,
                       2, 62, 1, 0x100078, 64, 0, 0, 64, 56, 1, 0, 0, 0)
    phdr = struct.pack("<IIQQQQQQ", 1, 5, 0, 0x100000, 0x100000,
                       120 + len(code), 120 + len(code), 0x1000)
    return ehdr + phdr + code


BAD_IMAGES = {
    "truncated": lambda k: k.read_bytes()[:100],
    "text": lambda k: b"this is not an ELF image\n",
    "x86_64": lambda k: elf64(),
    "overlaps_stub": lambda k: elf32_with_load_at(k, 0x8000),
    "beyond_memory": lambda k: elf32_with_load_at(k, 0x10000000),
}


def refused(r):
    assert not r.timed_out, explain(r)
    assert r.returncode != 0, explain(r)
    assert "up\n" not in r.stdout, "a core started: " + explain(r)


@pytest.mark.parametrize("kind", sorted(BAD_IMAGES))
def test_bad_image(tmp_path, kind):
    bad = tmp_path / f"bad-{kind}.elf"
    bad.write_bytes(BAD_IMAGES[kind](kernel()))
    r = run(bad, timeout=30)
    refused(r)
    assert bad.name in r.stderr, explain(r)


@pytest.mark.parametrize("kind", sorted(BAD_IMAGES))
def test_bad_image_in_map(tmp_path, kind):
    bad = tmp_path / f"bad-{kind}.elf"
    bad.write_bytes(BAD_IMAGES[kind](kernel()))
    cmap = write_map(tmp_path, f"# map\n0-46 {kernel()}\n47 {bad}\n")
    r = run(coremap=cmap, timeout=30)
    refused(r)
    assert bad.name in r.stderr, explain(r)
    assert names_line(r.stderr, cmap, 3), explain(r)


def names_line(stderr, cmap, line):
    """stderr names the map and the line, as file:line or 'line N'."""
    return cmap.name in stderr and re.search(
        rf"{re.escape(cmap.name)}:{line}\b|\bline {line}\b", stderr)


BAD_MAPS = {
    # name: (lines after a comment and a blank line, bad line number)
    "core_48": ("0-47 {k}\n48 {k}\n", 4),
    "duplicate": ("0-3 {k}\n3 {k}\n", 4),
    "overlapping_ranges": ("0-10 {k}\n5-7,20 {k}\n", 4),
    "reversed_range": ("5-2 {k}\n", 3),
    "missing_file": ("0 {k}\n1 /nonexistent/nothing.elf\n", 4),
    "garbage": ("0 {k}\nfoo bar baz\n", 4),
    "no_image": ("0 {k}\n1\n", 4),
    "open_quote": ("0 {k} 'unterminated\n", 3),
}


@pytest.mark.parametrize("kind", sorted(BAD_MAPS))
def test_bad_coremap(tmp_path, kind):
    body, line = BAD_MAPS[kind]
    cmap = write_map(tmp_path, "# a bad map\n\n" + body.format(k=kernel()), f"{kind}.map")
    r = run(coremap=cmap, timeout=30)
    refused(r)
    assert names_line(r.stderr, cmap, line), explain(r)
    if kind == "missing_file":
        assert "/nonexistent/nothing.elf" in r.stderr, explain(r)


# --- how the machine is built -------------------------------------------------

RST = REPO / "qemu" / "overlay" / "docs" / "system" / "i386" / "scc.rst"


def documented_defaults():
    """{property: default} as the reference page states them: the machine
    properties' "(default N)" and the timing mode's table."""
    text = RST.read_text()
    want = {}
    for m in re.finditer(r"``([a-z-]+)`` \(default (?:``)?([^`)]+)(?:``)?\)",
                         text):
        want[m.group(1)] = m.group(2)
    for m in re.finditer(r"^``(timing[a-z-]*)``\s+(\S+)\s", text, re.M):
        if m.group(2) != "(none)":
            want[m.group(1)] = m.group(2)
    return want


def qemu_defaults(*args):
    """{property: default} as QEMU's help lists them."""
    r = subprocess.run([qemu_binary(), *args], capture_output=True, text=True,
                       timeout=TIMEOUT)
    assert r.returncode == 0, r.stderr
    return dict(re.findall(r"^\s+([a-z-]+)=<[^>]+>.*\(default: ([^)]+)\)$",
                           r.stdout, re.M))


def test_property_defaults_match_the_reference_page():
    """Each knob's default is set once, by QOM, and -M scc,help shows it:
    it must be what the reference page says."""
    units = {"64M": str(64 << 20)}
    want = {k: units.get(v, v) for k, v in documented_defaults().items()}
    got = qemu_defaults("-M", "scc,help")
    assert len(want) >= 20, want
    for name, value in want.items():
        assert got.get(name) == value, f"{name}: help says {got.get(name)}, " \
                                       f"the page {value}"


def test_tile_device():
    """The tile is a device with its own properties, which only the machine
    creates: a user's -device is refused before anything runs."""
    got = qemu_defaults("-device", "scc-tile,help")
    assert got == {"id": "0", "x": "0", "y": "0", "cores": "2",
                   "core-mhz": "533", "held": "0"}, got
    r = subprocess.run([qemu_binary(), "-M", "scc", "-display", "none",
                        "-bios", boot_elf(), "-kernel", str(kernel()),
                        "-device", "scc-tile"],
                       capture_output=True, text=True, timeout=TIMEOUT)
    assert r.returncode != 0
    assert "-device scc-tile: Parameter 'driver' expects a pluggable " \
           "device type" in r.stderr, r.stderr
