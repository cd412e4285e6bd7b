#!/usr/bin/env python3
"""Look at the machine's apt sources, and add a deb-src entry for a suite.

  apt-deb-src.py has SUITE        exit 0 if apt has a deb-src entry for SUITE
  apt-deb-src.py add SUITE FILE   write FILE (deb822) with a deb-src entry for
                                  SUITE, derived from the machine's existing
                                  Debian entry: same URIs, same Signed-By

Nothing here names a mirror: the URIs are read from the existing entries in
/etc/apt/sources.list and /etc/apt/sources.list.d/ (both formats).
"""
from __future__ import annotations

import glob
import os
import sys
from urllib.parse import urlparse

APT_DIR = os.environ.get("SCC_APT_DIR", "/etc/apt")
DEFAULT_KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"


def _deb822_entries(path: str):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    stanza: dict[str, str] = {}
    key = None
    for raw in text.splitlines() + [""]:
        line = raw.rstrip("\n")
        if line.startswith("#"):
            continue
        if not line.strip():
            if stanza:
                yield stanza
            stanza, key = {}, None
            continue
        if line[0] in " \t" and key:
            stanza[key] += "\n" + line.strip()
            continue
        if ":" in line:
            key, _, value = line.partition(":")
            key = key.strip().lower()
            stanza[key] = value.strip()
    # the trailing "" above flushes the last stanza


def _one_line_entries(path: str):
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            kind, words = words[0], words[1:]
            if kind not in ("deb", "deb-src"):
                continue
            opts = {}
            if words and words[0].startswith("["):
                optwords = []
                while words:
                    w = words.pop(0)
                    optwords.append(w.strip("[]"))
                    if w.endswith("]"):
                        break
                for ow in optwords:
                    if "=" in ow:
                        k, v = ow.split("=", 1)
                        opts[k.lower()] = v
            if len(words) < 2:
                continue
            entry = {
                "types": kind,
                "uris": words[0],
                "suites": words[1],
                "components": " ".join(words[2:]),
            }
            if "signed-by" in opts:
                entry["signed-by"] = opts["signed-by"]
            yield entry


def entries():
    """All enabled apt source entries, as dicts with lower-case deb822 keys."""
    one_line = [os.path.join(APT_DIR, "sources.list")]
    one_line += sorted(glob.glob(os.path.join(APT_DIR, "sources.list.d", "*.list")))
    for path in one_line:
        if os.path.isfile(path):
            yield from _one_line_entries(path)
    for path in sorted(glob.glob(os.path.join(APT_DIR, "sources.list.d", "*.sources"))):
        for e in _deb822_entries(path):
            if e.get("enabled", "yes").lower() == "no":
                continue
            yield e


def has_deb_src(suite: str) -> bool:
    for e in entries():
        if "deb-src" in e.get("types", "").split() and suite in e.get("suites", "").split():
            return True
    return False


def _is_debian_uri(uri: str) -> bool:
    path = urlparse(uri).path.rstrip("/")
    return path.rsplit("/", 1)[-1] == "debian"


def debian_entry():
    """The machine's main Debian archive entry (not -security, not a third party)."""
    for e in entries():
        if "deb" not in e.get("types", "").split():
            continue
        uris = [u for u in e.get("uris", "").split() if _is_debian_uri(u)]
        if uris:
            return uris, e.get("signed-by", "").strip()
    return None


def add_deb_src(suite: str, out: str) -> None:
    found = debian_entry()
    if not found:
        sys.exit("apt-deb-src: no Debian archive entry (a URI ending in /debian) in "
                 f"{APT_DIR}/sources.list or {APT_DIR}/sources.list.d/; cannot derive "
                 f"a deb-src entry for {suite}")
    uris, signed_by = found
    if not signed_by or "\n" in signed_by or not os.path.exists(signed_by):
        # An inline key block or nothing: use the Debian archive keyring.
        signed_by = DEFAULT_KEYRING if os.path.exists(DEFAULT_KEYRING) else ""
    lines = [
        "# Added by the SCC project's scripts/fetch-qemu.sh: Debian source packages",
        f"# of {suite}, from the same archive as this machine's Debian entry.",
        "Types: deb-src",
        f"URIs: {' '.join(uris)}",
        f"Suites: {suite}",
        "Components: main",
    ]
    if signed_by:
        lines.append(f"Signed-By: {signed_by}")
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)
    print(f"apt-deb-src: wrote {out} (URIs: {' '.join(uris)}, suite {suite})")


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "has":
        return 0 if has_deb_src(argv[1]) else 1
    if len(argv) == 3 and argv[0] == "add":
        add_deb_src(argv[1], argv[2])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
