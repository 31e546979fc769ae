"""Engine definitions in a TOML file, as cutechess-cli keeps them in ``engines.json``.

One table per engine, named by the table; ``engine(conf=NAME)`` picks it, and any
parameter written in the spec overrides the file::

    [fsf-uci]
    cmd = "/usr/games/fairy-stockfish"
    protocol = "uci"
    depth = 5
    [fsf-uci.options]          # sent after the handshake, before isready
    Hash = 16
    Threads = 1

The file is ``engines=PATH`` in the spec, else ``$GAMEAI_ENGINES``, else ``engines.toml``
in the working folder. A relative ``cwd`` is taken from the file's folder.
"""
from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from ..errors import SpecError

#: Keys an engine table may hold (the engine player's parameters, plus ``options``).
KEYS = ("cmd", "cwd", "protocol", "depth", "nodes", "time", "clock", "notation", "timeout",
        "startup", "pace", "reuse", "name", "options")
ENV = "GAMEAI_ENGINES"


def engines_path(path: str | os.PathLike | None = None) -> Path:
    """The engines file to read: ``path``, else ``$GAMEAI_ENGINES``, else ``engines.toml``."""
    return Path(path or os.environ.get(ENV) or "engines.toml")


def load_engines(path: str | os.PathLike | None = None) -> dict[str, dict[str, Any]]:
    """Every engine definition in the file, by name (keys checked, ``cwd`` made absolute)."""
    p = engines_path(path)
    try:
        with open(p, "rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise SpecError(f"engines file {str(p)!r} does not exist") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SpecError(f"engines file {str(p)!r}: {exc}") from None
    out = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise SpecError(f"engines file {str(p)!r}: {name!r} must be a table [{name}]")
        unknown = sorted(set(table) - set(KEYS))
        if unknown:
            raise SpecError(f"engines file {str(p)!r}, engine {name!r}: unknown key(s) {unknown}; "
                            f"accepted: {', '.join(KEYS)}")
        options = table.get("options", {})
        if not isinstance(options, dict) or any(isinstance(v, (dict, list)) for v in options.values()):
            raise SpecError(f"engines file {str(p)!r}, engine {name!r}: options must be a table "
                            "of NAME = value")
        d = dict(table)
        if d.get("cwd") is not None:
            d["cwd"] = str((p.parent / str(d["cwd"])).resolve())
        out[name] = d
    return out


def engine_definition(conf: str, path: str | os.PathLike | None = None) -> dict[str, Any]:
    """The definition named ``conf`` (a :class:`SpecError` lists the names when it is absent)."""
    engines = load_engines(path)
    if conf not in engines:
        raise SpecError(f"engine conf {conf!r} is not in {str(engines_path(path))!r}; "
                        f"defined: {', '.join(sorted(engines)) or '(none)'}")
    return engines[conf]
