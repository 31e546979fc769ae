"""Parse spec strings such as ``"negascout(depth=5,tt=true)"`` into a name and typed parameters.

Values: ``true``/``false`` -> bool, integers -> int, decimals -> float, ``none`` -> None,
anything else a string. Quote a value (``'...'`` or ``"..."``) to keep commas, spaces or
parentheses in it, e.g. ``engine(cmd="python -m gameai engine --game xiangqi")``.
"""
from __future__ import annotations

import re
from typing import Any

from .errors import SpecError

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")


def parse_value(text: str) -> Any:
    """Convert one parameter's text to a Python value (see the module docstring)."""
    t = text.strip()
    low = t.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    try:
        return int(t)
    except ValueError:
        pass
    try:
        return float(t)
    except ValueError:
        return t


def _split_args(body: str, spec: str) -> list[str]:
    parts, buf, depth, quote = [], [], 0, ""
    for ch in body:
        if quote:
            if ch == quote:
                quote = ""
            else:
                buf.append(ch)
            continue
        if ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
            buf.append(ch)
        elif ch == ")":
            depth -= 1
            buf.append(ch)
        elif ch == "," and depth == 0:
            parts.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
    if quote:
        raise SpecError(f"unterminated quote in spec {spec!r}")
    if "".join(buf).strip() or parts:
        parts.append("".join(buf))
    return parts


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name(a=1,b=true)"`` into ``("name", {"a": 1, "b": True})``."""
    if not isinstance(spec, str):
        raise SpecError(f"spec must be a string, got {type(spec).__name__}")
    s = spec.strip()
    m = _NAME.match(s)
    if not m:
        raise SpecError(f"spec {spec!r} does not start with a name")
    name, rest = m.group(0), s[m.end():].strip()
    params: dict[str, Any] = {}
    if not rest:
        return name, params
    if not (rest.startswith("(") and rest.endswith(")")):
        raise SpecError(f"spec {spec!r}: expected 'name' or 'name(key=value,...)'")
    for part in _split_args(rest[1:-1], spec):
        if "=" not in part:
            raise SpecError(f"spec {spec!r}: parameter {part.strip()!r} is not key=value")
        key, value = part.split("=", 1)
        key = key.strip()
        if not _NAME.fullmatch(key):
            raise SpecError(f"spec {spec!r}: bad parameter name {key!r}")
        if key in params:
            raise SpecError(f"spec {spec!r}: parameter {key!r} given twice")
        params[key] = parse_value(value)
    return name, params


def format_spec(name: str, params: dict[str, Any]) -> str:
    """Inverse of :func:`parse_spec` (bools written true/false, strings quoted when needed)."""
    if not params:
        return name
    out = []
    for k, v in params.items():
        if isinstance(v, bool):
            text = "true" if v else "false"
        elif v is None:
            text = "none"
        else:
            text = str(v)
            if isinstance(v, str) and (any(c in text for c in ",()'\" ") or parse_value(text) != v):
                text = '"' + text + '"' if '"' not in text else "'" + text + "'"
        out.append(f"{k}={text}")
    return f"{name}({','.join(out)})"
