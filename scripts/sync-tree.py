#!/usr/bin/env python3
"""Make DEST's files equal to SRC's, touching only files whose content changed.

  sync-tree.py SRC DEST MANIFEST

A file of DEST is rewritten (and so gets a new mtime) only when its content,
symlink target or type differs from SRC's; a mode change is applied with
chmod alone. mtimes are never copied from SRC: a changed file is always newer
than anything built from its old content, so ninja rebuilds exactly what the
change affects.

MANIFEST lists the files this script put into DEST last time. A file of DEST
that is no longer in SRC is deleted only if it is in MANIFEST, i.e. it came
from an earlier sync (a file dropped from the overlay, or a patch that no
longer adds it); anything else in DEST (e.g. written there by the build) is
left alone. The manifest is updated to the union of old and new before DEST
is touched and to the new list at the end, so an interrupted run loses
nothing.
"""
from __future__ import annotations

import filecmp
import os
import shutil
import stat
import sys


def walk(root: str) -> dict[str, os.stat_result]:
    """Relative path -> lstat, for every non-directory under root."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames:
            full = os.path.join(dirpath, name)
            out[os.path.relpath(full, root)] = os.lstat(full)
        for name in dirnames:  # symlinks to directories are listed as dirs
            full = os.path.join(dirpath, name)
            if os.path.islink(full):
                out[os.path.relpath(full, root)] = os.lstat(full)
    return out


def read_manifest(path: str) -> set[str]:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return {line.rstrip("\n") for line in f if line.strip()}
    except FileNotFoundError:
        return set()


def write_manifest(path: str, names: set[str]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as f:
        for name in sorted(names):
            f.write(name + "\n")
    os.replace(tmp, path)


def same(src: str, sst: os.stat_result, dst: str) -> bool:
    """Whether dst already has src's content (mode is handled separately)."""
    try:
        dst_st = os.lstat(dst)
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(sst.st_mode):
        return stat.S_ISLNK(dst_st.st_mode) and os.readlink(src) == os.readlink(dst)
    if not stat.S_ISREG(dst_st.st_mode) or dst_st.st_size != sst.st_size:
        return False
    return filecmp.cmp(src, dst, shallow=False)


def install(src: str, sst: os.stat_result, dst: str) -> None:
    """Write dst from src atomically, with a fresh mtime."""
    parent = os.path.dirname(dst)
    if os.path.lexists(parent) and not os.path.isdir(parent):
        os.unlink(parent)  # a file where a directory must now be
    os.makedirs(parent, exist_ok=True)
    if os.path.isdir(dst) and not os.path.islink(dst):
        shutil.rmtree(dst)  # a directory where a file must now be
    tmp = os.path.join(parent, ".sync-tree.tmp")
    if os.path.lexists(tmp):
        os.unlink(tmp)
    if stat.S_ISLNK(sst.st_mode):
        os.symlink(os.readlink(src), tmp)
    else:
        shutil.copyfile(src, tmp)
        os.chmod(tmp, stat.S_IMODE(sst.st_mode))
    os.replace(tmp, dst)


def prune_empty_dirs(dest: str, rel: str) -> None:
    d = os.path.dirname(rel)
    while d:
        try:
            os.rmdir(os.path.join(dest, d))
        except OSError:
            return
        d = os.path.dirname(d)


def sync(src: str, dest: str, manifest: str) -> tuple[int, int, int, int]:
    want = walk(src)
    old = read_manifest(manifest)
    os.makedirs(dest, exist_ok=True)
    write_manifest(manifest, old | set(want))

    updated = unchanged = chmodded = removed = 0
    for rel in sorted(want):
        sst = want[rel]
        s, d = os.path.join(src, rel), os.path.join(dest, rel)
        if same(s, sst, d):
            unchanged += 1
            if not stat.S_ISLNK(sst.st_mode):
                mode = stat.S_IMODE(sst.st_mode)
                if stat.S_IMODE(os.lstat(d).st_mode) != mode:
                    os.chmod(d, mode)
                    chmodded += 1
        else:
            install(s, sst, d)
            updated += 1

    for rel in sorted(old - set(want)):
        d = os.path.join(dest, rel)
        if os.path.lexists(d) and not (os.path.isdir(d) and not os.path.islink(d)):
            os.unlink(d)
            removed += 1
            prune_empty_dirs(dest, rel)

    write_manifest(manifest, set(want))
    return updated, removed, unchanged, chmodded


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    src, dest, manifest = argv
    if not os.path.isdir(src):
        print(f"sync-tree: {src}: not a directory", file=sys.stderr)
        return 1
    updated, removed, unchanged, chmodded = sync(src, dest, manifest)
    print(f"sync-tree: {dest}: {updated} written, {removed} removed, "
          f"{unchanged} unchanged" + (f" ({chmodded} mode changes)" if chmodded else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
