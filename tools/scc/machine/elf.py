"""Reading ELF files without running them: a section's contents (an app's
option table, .scc_options, tools/scc/bench/appopts.py) and whether a
symbol is defined (scc-run's note for an RCCE program run without RCCE's
words). 32 or 64 bits, either byte order: chip ELFs and host binaries alike.
"""
from __future__ import annotations

import os
import struct
from pathlib import Path


def elf_section(path: str | os.PathLike, name: str) -> bytes | None:
    """The contents of section @name of the ELF file @path (32 or 64 bits,
    either byte order); None if the file is no ELF or has no such section."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    if data[:4] != b"\x7fELF" or len(data) < 64:
        return None
    bits, order = data[4], {1: "<", 2: ">"}.get(data[5])
    if bits not in (1, 2) or order is None:
        return None
    try:
        if bits == 1:
            shoff, = struct.unpack_from(order + "I", data, 0x20)
            shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x2E)
        else:
            shoff, = struct.unpack_from(order + "Q", data, 0x28)
            shentsize, shnum, shstrndx = struct.unpack_from(order + "HHH", data, 0x3A)

        def header(i):      # (name offset, file offset, size)
            at = shoff + i * shentsize
            if bits == 1:
                n, _, _, _, off, size = struct.unpack_from(order + "IIIIII", data, at)
            else:
                n, _, _, _, off, size = struct.unpack_from(order + "IIQQQQ", data, at)
            return n, off, size

        _, stroff, strsize = header(shstrndx)
        strtab = data[stroff:stroff + strsize]
        want = name.encode()
        for i in range(shnum):
            n, off, size = header(i)
            if strtab[n:strtab.index(b"\0", n)] == want:
                return data[off:off + size]
    except (struct.error, ValueError, IndexError):
        return None
    return None


def elf_defines(path: str, name: str) -> bool:
    """Whether the ELF file @path defines the symbol @name in its symbol
    table (False for anything that is not a readable ELF with one). Only
    a regular file is opened: a FIFO would block, and the runner refuses
    it by name later (sccrun.check_file)."""
    try:
        if not os.path.isfile(path):
            return False
        with open(path, "rb") as f:
            data = f.read()
        if data[:4] != b"\x7fELF" or data[4] not in (1, 2) or data[5] not in (1, 2):
            return False
        wide, e = data[4] == 2, "<" if data[5] == 1 else ">"
        shoff = struct.unpack_from(e + ("Q" if wide else "I"), data, 0x28 if wide else 0x20)[0]
        shentsize, shnum = struct.unpack_from(e + "HH", data, 0x3A if wide else 0x2E)
        shdr = e + ("IIQQQQIIQQ" if wide else "IIIIIIIIII")
        secs = [struct.unpack_from(shdr, data, shoff + i * shentsize) for i in range(shnum)]
        want = name.encode()
        for sec in secs:
            if sec[1] != 2:                     # SHT_SYMTAB
                continue
            off, size, link, entsize = sec[4], sec[5], sec[6], sec[9]
            stroff = secs[link][4]
            for at in range(off, off + size, entsize or (24 if wide else 16)):
                if wide:
                    st_name, _, _, shndx = struct.unpack_from(e + "IBBH", data, at)
                else:
                    st_name, shndx = struct.unpack_from(e + "I8xxxH", data, at)
                end = data.find(b"\0", stroff + st_name)
                if shndx != 0 and data[stroff + st_name:end] == want:
                    return True
    except (OSError, struct.error, IndexError, ValueError):
        return False
    return False
