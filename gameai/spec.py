"""Parse spec strings such as ``"negascout(depth=5,tt=true)"`` and validate their parameters.

Parsing (:func:`parse_spec_text`) splits a spec into a name and the *text* of each value;
the name is a registered one or a reference ``module:attr`` to the researcher's own code
(``mymod:MyEval(scale=2)``, see :func:`is_reference`);
quote a value (``'...'`` or ``"..."``) to keep commas, spaces or parentheses in it, e.g.
``engine(cmd="python -m gameai engine --game xiangqi")``.

Validation (:func:`convert`) turns each text into the type the factory's signature
declares, so a value never reaches a constructor as the wrong type
(``connect4(moves=1234)`` stays the string ``"1234"``):

* ``bool``: only ``true`` or ``false``, in lower case;
* ``int``: ASCII digits with an optional sign; ``float``: an ASCII decimal, finite;
  both bounded by ``typing.Annotated[int, Range(lo, hi)]``;
* ``typing.Literal[...]``: one of the listed choices;
* ``X | None``: ``none`` (or ``null``) or an ``X``;
* ``str``: the text as written;
* callables and ``runtime_checkable`` Protocols (an object with the protocol's methods)
  cannot be set from text, only as Python keywords; anything else neither.

A value given as a Python keyword is checked against the same declaration (an ``int`` is
accepted where a ``float`` is declared, never a ``bool`` for a number). Every failure is a
:class:`~gameai.errors.SpecError` naming the parameter, the value and what is accepted.
:func:`parse_spec` keeps the untyped reading (:func:`parse_value`) for callers that only
want a quick look at a spec.
"""
from __future__ import annotations

import collections.abc
import math
import numbers
import re
import types
import typing
from dataclasses import dataclass
from typing import Any

from .errors import SpecError

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
#: a spec's name: a registered name, or a reference ``package.module:attr`` to a factory
_SPEC_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*(?::[A-Za-z_][A-Za-z0-9_.]*)?")
_INT = re.compile(r"[+-]?[0-9]{1,30}")
_FLOAT = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?")


class Quoted(str):
    """A spec value that was written in quotes: always read as a string."""


@dataclass(frozen=True)
class Range:
    """Bounds of a number parameter: ``Annotated[int, Range(1, 64)]``.

    ``lo``/``hi`` are inclusive (None = unbounded) unless ``lo_open`` excludes ``lo``
    (``Range(0, 3600, lo_open=True)``: a positive number of seconds up to an hour).
    """

    lo: float | None = None
    hi: float | None = None
    lo_open: bool = False

    def __contains__(self, v: float) -> bool:
        if self.lo is not None and (v <= self.lo if self.lo_open else v < self.lo):
            return False
        return self.hi is None or v <= self.hi

    def __str__(self) -> str:
        lo = None if self.lo is None else f"{'>' if self.lo_open else '>='} {_num(self.lo)}"
        hi = None if self.hi is None else f"<= {_num(self.hi)}"
        return " and ".join(x for x in (lo, hi) if x)


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() and abs(v) < 1e15 else f"{v:g}"


#: Seconds for a time limit: positive, finite, at most a day.
Seconds = typing.Annotated[float, Range(0, 86400, lo_open=True)]
#: A node budget: at least one node.
Nodes = typing.Annotated[int, Range(1, 10 ** 12)]
#: A nominal search depth in plies (the search recurses once per ply).
Depth = typing.Annotated[int, Range(1, 256)]
#: A searcher's ``eval`` parameter: a spec string (a registered name or ``module:attr``),
#: or, from Python, an evaluator itself: ``ev(state) -> number`` for the side to move.
EvalSpec = typing.Union[str, collections.abc.Callable[[Any], float], None]
#: Transposition-table slots (rounded up to a power of two; 2**26 slots is ~0.5 GB of
#: slot pointers before any entry is stored).
TTSize = typing.Annotated[int, Range(1, 1 << 26)]


def parse_value(text: str) -> Any:
    """Untyped reading of one value: true/false -> bool, none -> None, numbers, else text."""
    if isinstance(text, Quoted):
        return str(text)
    t = text.strip()
    low = t.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    if _INT.fullmatch(t):
        return int(t)
    if _FLOAT.fullmatch(t):
        return float(t)
    return t


def _split_args(body: str, spec: str) -> list[str]:
    parts: list[str] = []
    buf: list[str] = []
    quoted, depth, quote = False, 0, ""
    for ch in body:
        if quote:
            if ch == quote:
                quote = ""
            else:
                buf.append(ch)
            continue
        if ch in "'\"":
            quote, quoted = ch, True
        elif ch == "(":
            depth += 1
            buf.append(ch)
        elif ch == ")":
            depth -= 1
            buf.append(ch)
        elif ch == "," and depth == 0:
            parts.append(_part(buf, quoted))
            buf, quoted = [], False
        else:
            buf.append(ch)
    if quote:
        raise SpecError(f"unterminated quote in spec {spec!r}")
    if "".join(buf).strip() or parts:
        parts.append(_part(buf, quoted))
    return parts


def _part(buf: list[str], quoted: bool) -> str:
    text = "".join(buf)
    if not quoted:
        return text
    key, eq, value = text.partition("=")
    return Quoted(text) if not eq else (key, Quoted(value.strip()))  # type: ignore[return-value]


def parse_spec_text(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"name(a=1,b=x)"`` into ``("name", {"a": "1", "b": "x"})`` (values as text;
    quoted ones are :class:`Quoted`)."""
    if not isinstance(spec, str):
        raise SpecError(f"spec must be a string, got {type(spec).__name__}")
    s = spec.strip()
    m = _SPEC_NAME.match(s)
    if not m:
        raise SpecError(f"spec {spec!r} does not start with a name")
    name, rest = m.group(0), s[m.end():].strip()
    params: dict[str, str] = {}
    if not rest:
        return name, params
    if not (rest.startswith("(") and rest.endswith(")")):
        raise SpecError(f"spec {spec!r}: expected 'name' or 'name(key=value,...)'")
    for part in _split_args(rest[1:-1], spec):
        if isinstance(part, tuple):
            key, value = part
        elif "=" not in part:
            raise SpecError(f"spec {spec!r}: parameter {part.strip()!r} is not key=value")
        else:
            key, value = part.split("=", 1)
            value = value.strip()
        key = key.strip()
        if not _NAME.fullmatch(key):
            raise SpecError(f"spec {spec!r}: bad parameter name {key!r}")
        if key in params:
            raise SpecError(f"spec {spec!r}: parameter {key!r} given twice")
        params[key] = value
    return name, params


def is_reference(name: str) -> bool:
    """Whether a spec's name is a ``module:attr`` reference to code outside the registry
    (the registry imports ``module`` and takes ``attr``), rather than a registered name."""
    return isinstance(name, str) and ":" in name


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name(a=1,b=true)"`` into ``("name", {"a": 1, "b": True})`` (untyped reading)."""
    name, texts = parse_spec_text(spec)
    return name, {k: parse_value(v) for k, v in texts.items()}


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


# -- validation against a declared type ------------------------------------------------------

_UNION_TYPES = (typing.Union, types.UnionType)


def _split_annotated(tp: Any) -> tuple[Any, Range | None]:
    if typing.get_origin(tp) is typing.Annotated:
        base, *meta = typing.get_args(tp)
        rng = next((m for m in meta if isinstance(m, Range)), None)
        return base, rng
    return tp, None


def describe(tp: Any) -> str:
    """What a declared type accepts, in words (used in error messages and ``gameai list``)."""
    base, rng = _split_annotated(tp)
    origin = typing.get_origin(base)
    if origin in _UNION_TYPES:
        args = typing.get_args(base)
        words = [describe(a) for a in args if a is not type(None)]
        if type(None) in args:
            words.append("none")
        return " or ".join(words)
    if origin is typing.Literal:
        return "one of " + ", ".join(str(c).lower() if isinstance(c, bool) else str(c)
                                     for c in typing.get_args(base))
    if base is bool:
        return "true or false"
    if base is int:
        return "an integer" + (f" {rng}" if rng else "")
    if base is float:
        return "a finite number" + (f" {rng}" if rng else "")
    if base is str:
        return "a string"
    if _is_callable_type(base):
        return "a callable (Python keyword only, not settable from a spec string)"
    if is_protocol(base):
        return f"a {base.__name__} object (Python keyword only, not settable from a spec string)"
    return f"a Python {getattr(base, '__name__', base)} (not settable from a spec string)"


def _is_callable_type(tp: Any) -> bool:
    return tp is collections.abc.Callable or typing.get_origin(tp) is collections.abc.Callable


def is_protocol(tp: Any) -> bool:
    """Whether ``tp`` is a ``typing.runtime_checkable`` Protocol: a Python value must be an
    instance (have its methods); text never is one."""
    return isinstance(tp, type) and bool(getattr(tp, "_is_runtime_protocol", False))


class _Reject(Exception):
    pass


def _from_text(text: str, tp: Any) -> Any:
    base, rng = _split_annotated(tp)
    origin = typing.get_origin(base)
    t = text if isinstance(text, Quoted) else text.strip()
    if origin in _UNION_TYPES:
        args = typing.get_args(base)
        if type(None) in args and not isinstance(text, Quoted) and t.lower() in ("none", "null"):
            return None
        for a in args:
            if a is type(None):
                continue
            try:
                return _from_text(text, a)
            except _Reject:
                pass
        raise _Reject
    if origin is typing.Literal:
        for c in typing.get_args(base):
            if (str(c).lower() if isinstance(c, bool) else str(c)) == t:
                return c
        raise _Reject
    if base is bool:                 # exactly as documented: no True, TRUE, yes or 1
        if t in ("true", "false"):
            return t == "true"
        raise _Reject
    if base is int:
        if not _INT.fullmatch(t):
            raise _Reject
        v: Any = int(t)
    elif base is float:
        if not _FLOAT.fullmatch(t):
            raise _Reject
        v = float(t)
        if not math.isfinite(v):
            raise _Reject
    elif base is str:
        return str(text)
    else:
        raise _Reject                # callables and other Python-only types
    if rng is not None and v not in rng:
        raise _Reject
    return v


def _from_python(value: Any, tp: Any) -> Any:
    base, rng = _split_annotated(tp)
    origin = typing.get_origin(base)
    if origin in _UNION_TYPES:
        if value is None and type(None) in typing.get_args(base):
            return None
        for a in typing.get_args(base):
            if a is type(None):
                continue
            try:
                return _from_python(value, a)
            except _Reject:
                pass
        raise _Reject
    if origin is typing.Literal:
        for c in typing.get_args(base):
            if type(c) is type(value) and c == value:
                return value
        raise _Reject
    if base is bool:
        if isinstance(value, bool):
            return value
        raise _Reject
    if base is int:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise _Reject
        v: Any = int(value)
    elif base is float:
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            raise _Reject
        v = value if isinstance(value, numbers.Integral) else float(value)
    elif base is str:
        if isinstance(value, str):
            return value
        raise _Reject
    elif _is_callable_type(base):
        if callable(value):
            return value
        raise _Reject
    elif is_protocol(base):
        if isinstance(value, base):
            return value
        raise _Reject
    else:
        return value                 # an undeclared Python-only type: the factory checks
    if rng is not None and v not in rng:
        raise _Reject
    return v


def convert(owner: str, name: str, value: Any, tp: Any, from_text: bool) -> Any:
    """Check ``value`` (spec text if ``from_text``, else a Python value) against ``tp``.

    Returns the typed value or raises :class:`SpecError` naming ``owner``, the parameter,
    the value and what ``tp`` accepts. ``tp`` may be ``inspect.Parameter.empty`` (an
    undeclared parameter): text then gets the untyped reading, Python values pass as given.
    """
    import inspect
    if tp is inspect.Parameter.empty or tp is Any:
        return parse_value(value) if from_text else value
    try:
        return _from_text(value, tp) if from_text else _from_python(value, tp)
    except _Reject:
        shown = str(value) if from_text else repr(value)
        raise SpecError(f"{owner}: parameter {name}={shown}: expected {describe(tp)}") from None


def check_fields(obj: Any, owner: str | None = None) -> None:
    """Validate a dataclass instance's fields against their annotations (Python values);
    raises :class:`SpecError` naming ``owner`` (default: the class), the field, the value
    and what is accepted."""
    import dataclasses
    hints = typing.get_type_hints(type(obj), include_extras=True)
    owner = owner or type(obj).__name__
    for f in dataclasses.fields(obj):
        setattr(obj, f.name, convert(owner, f.name, getattr(obj, f.name), hints[f.name], False))
