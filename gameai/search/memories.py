"""The searcher's memories: what outlives one ``search`` call (TT, history, killers).

Each memory is declared ONCE here, beside the switch rows that configure it. Everything
else derives from the declaration, on both backends:

* the searcher builds it when its switch is on (:meth:`Searcher.__init__`, through the
  backend: :meth:`gameai.search.backend.Backend.memory`), else leaves ``None``;
* ``new_game`` forgets it, and each ``search`` starts it (``new_search``: the TT ages its
  entries, the history clears unless kept);
* ``backend=compiled`` builds the class named in ``compiled`` from the same arguments,
  passes its array to the compiled core in the declared order (the core unpacks them in
  that order: :data:`gameai.compiled.core.MEMORY_ARGS`, compared by a test), and warms
  the core up on a throwaway twin of it (``scratch``).

A memory class implements :class:`MemoryLike` (the Python one) and, for the compiled
backend, :class:`gameai.compiled.memory.CompiledMemory`. Adding one (a countermove
table, say) is a row here, its two classes and its lines in the two cores; the guide
"Add an enhancement" lists every place.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol

from .ordering import History, Killers
from .tt import TranspositionTable


class MemoryLike(Protocol):
    """What the searcher and its driver call on every memory, whatever its backend."""

    def new_game(self) -> None:
        """Forget everything (the searcher's ``new_game``)."""

    def new_search(self) -> None:
        """A ``search`` call starts (not called again when the same search goes on)."""


@dataclass(frozen=True)
class Memory:
    """One per-searcher memory: the searcher attribute that holds it (``name``), the
    switch that turns it on, the switches its constructor reads (``args``, the same
    arguments for both backends' classes), its Python class, and its compiled class as a
    ``module:attr`` reference (the search package never imports the compiled one)."""

    name: str
    switch: str
    args: Callable[[Any], tuple]
    python: Callable[..., MemoryLike]
    compiled: str

    def on(self, o: Any) -> bool:
        """Whether searcher ``o`` keeps this memory (its switch is on)."""
        return bool(getattr(o, self.switch))


#: The memories, in the order the compiled core receives their arrays.
MEMORIES: tuple[Memory, ...] = (
    Memory("history", "history", lambda o: (o.history_key, o.history_inc, o.history_keep),
           History, "gameai.compiled.memory:CompiledHistory"),
    Memory("killers", "killers", lambda o: (), Killers, "gameai.compiled.memory:CompiledKillers"),
    Memory("tt", "tt", lambda o: (o.tt_size, o.tt_replace == "always"), TranspositionTable,
           "gameai.compiled.memory:CompiledTT"),
)


def kept(o: Any) -> list[tuple[Memory, Any]]:
    """Searcher ``o``'s memories that are on, with their objects."""
    return [(m, getattr(o, m.name)) for m in MEMORIES if getattr(o, m.name) is not None]
