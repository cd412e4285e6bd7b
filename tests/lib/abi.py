"""The guest ABI's constants, read from the one header that defines them
(include/standard-headers/scc/abi.h), so that the tests never hard-code an
exit status or a register offset the machine and the guest code define.

    from lib.abi import ABI, EXIT_STALLED
    assert r.returncode == ABI["SCC_EXIT_HUNG"]

Only object-like macros whose value is an integer expression of numbers,
other such macros and the operators ( ) << >> | & + - * ~ are read; others
(function-like macros, strings, initializers) are left out.
"""
from __future__ import annotations

import ast
import operator
import re
from pathlib import Path

HEADER = Path(__file__).resolve().parents[2] / "include" / "standard-headers" / "scc" / "abi.h"

_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(?![\w(])[ \t]*(.*)$")
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
        ast.LShift: operator.lshift, ast.RShift: operator.rshift,
        ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.BitXor: operator.xor}


class AbiError(Exception):
    """The header could not be read as the tests expect."""


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def _eval(node, names: dict[str, int]) -> int:
    if isinstance(node, ast.Expression):
        return _eval(node.body, names)
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise KeyError(node.id)
        return names[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_eval(node.left, names), _eval(node.right, names))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert):
        return ~_eval(node.operand, names)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, names)
    raise ValueError(ast.dump(node))


def parse(text: str) -> dict[str, int]:
    """{NAME: value} of the header text's integer object-like macros."""
    text = _strip_comments(text).replace("\\\n", " ")
    names: dict[str, int] = {}
    for line in text.splitlines():
        m = _DEFINE.match(line)
        if not m or not m.group(2).strip():
            continue
        expr = m.group(2).strip()
        if re.search(r"[\"'{}]", expr):
            continue
        # C integer literals only (no suffixes: the header's rule).
        if re.search(r"\b0[0-7]+\b", expr):
            raise AbiError(f"{m.group(1)}: octal literal in {expr!r}")
        try:
            names[m.group(1)] = _eval(ast.parse(expr, mode="eval"), names)
        except (SyntaxError, ValueError, KeyError):
            continue
    return names


def load(path: Path = HEADER) -> dict[str, int]:
    try:
        return parse(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise AbiError(f"cannot read the ABI header {path}: {e}") from None


ABI = load()


def _need(name: str) -> int:
    if name not in ABI:
        raise AbiError(f"{HEADER.name} does not define {name} as an integer")
    return ABI[name]


# The exit statuses the tests check, by the guest's names.
EXIT_TRAP_BASE = _need("SCC_EXIT_TRAP_BASE")
EXIT_STALLED = _need("SCC_EXIT_STALLED")
EXIT_UNRESPONSIVE = _need("SCC_EXIT_UNRESPONSIVE")
EXIT_BADOPTION = _need("SCC_EXIT_BADOPTION")
EXIT_BADAPP = _need("SCC_EXIT_BADAPP")
EXIT_PANIC = _need("SCC_EXIT_PANIC")
EXIT_STOPPED = _need("SCC_EXIT_STOPPED")
EXIT_BADBOOT = _need("SCC_EXIT_BADBOOT")
EXIT_HUNG = _need("SCC_EXIT_HUNG")
EXIT_TRIPLE = _need("SCC_EXIT_TRIPLE")
EXCEPTION_PAGE_FAULT = _need("SCC_EXCEPTION_PAGE_FAULT")
EXIT_PAGE_FAULT = EXIT_TRAP_BASE + EXCEPTION_PAGE_FAULT
