"""A griffe extension for the API reference: reStructuredText roles become links.

The docstrings cross-reference with Sphinx roles (``:func:`load_game```,
``:class:`~gameai.errors.SpecError```), which mkdocstrings would show as written. Once
the ``gameai`` package is loaded, each role is resolved as Python would read the name
(the docstring's class, then its module, then the full dotted path) and rewritten into
an autorefs link (``[`SpecError`][gameai.errors.SpecError]``) when the target is shown
on a reference page, else into inline code, so a build never shows a raw role nor fails
on a link to an object no page renders. ``~`` shows the last component only, as in
Sphinx; ``title <target>`` keeps the title.

It also drops, from the modules the pages render, the names a module only re-exports
when their own module is rendered too (``gameai.search.Limits`` is
``gameai.search.stats.Limits``): each object is then listed once, under its own module.

The rendered modules are the ``::: module`` lines of ``docs/reference/*.md``.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(func|class|meth|mod|attr|data|exc|obj|const):`"
                  r"(?:([^`<]*?)\s*<([^`>]+)>|([^`]+))`")
PAGES = Path(__file__).resolve().parents[1] / "reference"


def rendered_modules() -> set[str]:
    """The modules a ``:::`` line of a reference page renders."""
    out = set()
    for page in PAGES.glob("*.md"):
        out.update(re.findall(r"^:::\s+([\w.]+)", page.read_text(encoding="utf-8"), re.M))
    return out


class SphinxRoles(griffe.Extension):
    """Rewrite roles into links (or code), then drop re-exports shown elsewhere."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        self.pkg, self.shown = pkg, rendered_modules()
        for obj in self._walk(pkg):
            if obj.docstring is not None:
                obj.docstring.value = ROLE.sub(lambda m: self._role(obj, m), obj.docstring.value)
        for path in sorted(self.shown):
            module = self._lookup(path)
            if not isinstance(module, griffe.Module):
                continue
            for name, member in list(module.members.items()):
                if member.is_alias:
                    try:
                        home = member.final_target.module.path
                    except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                        continue
                    if home != module.path and home in self.shown:
                        module.del_member(name)

    # -- resolving ---------------------------------------------------------------------
    def _walk(self, obj):
        yield obj
        for member in obj.members.values():
            if not member.is_alias:
                yield from self._walk(member)

    def _lookup(self, path: str):
        parts = path.split(".")
        if parts[0] != self.pkg.name:
            return None
        node = self.pkg
        try:
            for part in parts[1:]:
                node = node.members[part]
            return node.final_target if node.is_alias else node
        except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
            return None

    def _resolve(self, obj, target: str):
        target = target.lstrip(".~").removesuffix("()")
        scopes = [o for o in (obj if obj.is_class else None, obj.parent if obj.parent and
                              obj.parent.is_class else None, obj.module) if o is not None]
        package = obj.module.path.split(".")
        candidates = [f"{s.path}.{target}" for s in scopes] + [
            ".".join(package[:i] + [target]) for i in range(len(package), 0, -1)] + [target]
        for path in candidates:
            node = self._lookup(path)
            if node is not None:
                return node
        return None

    def _linkable(self, node) -> bool:
        """Whether a reference page renders ``node`` (so autorefs has its anchor)."""
        if node.is_module:
            return node.path in self.shown
        if node.module.path not in self.shown:
            return False
        chain = node
        while not chain.is_module:    # the node and each parent up to its module
            if chain.name.startswith("_") or not chain.has_docstring:
                return False
            chain = chain.parent
        return True

    def _role(self, obj, m: re.Match) -> str:
        title, target = (m.group(2), m.group(3)) if m.group(3) else (None, m.group(4))
        target = target.strip()
        shown = title or (target.lstrip("~.").rsplit(".", 1)[-1] if target.startswith("~")
                          else target.lstrip("."))
        node = self._resolve(obj, target)
        if node is not None and self._linkable(node):
            return f"[`{shown}`][{node.path}]"
        return f"`{shown}`"
