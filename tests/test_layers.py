"""Imports run one way: no import circles in ``src/meeple``, and each layer imports only those below it.

The layers (docs/architecture.md): the engine at the bottom; each game on the
engine alone, its own modules in the order data -> state -> rules ->
view/render/bot -> game object; stores, the conformance kit, bots and the
layers people connect through (cli, server, web, rl) above. Every import
counts, those inside functions too (a lazy import is still a dependency);
only imports under ``if TYPE_CHECKING:`` are left out.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator, Mapping
from collections.abc import Set as AbstractSet
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "meeple"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
#: compiled modules, known by their stubs (they import nothing of meeple)
COMPILED = {_module_name(p) for p in PACKAGE.rglob("*.pyi")} - set(MODULES)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _resolve(importer: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The modules of ``meeple`` that ``node`` in module ``importer`` imports."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in MODULES:
                yield alias.name
        return
    if node.level:
        is_package = MODULES[importer].name == "__init__.py"
        base = importer.split(".")
        base = base if is_package else base[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join([*base, node.module] if node.module else base)
    else:
        target = node.module or ""
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        if sub in MODULES or sub in COMPILED:
            yield sub
        elif target in MODULES:
            yield target


@functools.cache
def imports() -> dict[str, frozenset[str]]:
    """Every module of meeple and the meeple modules it imports (parsed once per process, then shared)."""
    graph: dict[str, frozenset[str]] = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = frozenset(t for node in _import_nodes(tree) for t in _resolve(name, node) if t != name)
    for name in COMPILED:
        graph[name] = frozenset()
    return graph


def cycles(graph: Mapping[str, AbstractSet[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def _area(module: str) -> str:
    parts = module.split(".")
    if len(parts) >= 3 and parts[1] == "games":
        return ".".join(parts[:3])
    return ".".join(parts[:2])


AREAS = sorted({_area(m) for m in MODULES})

#: Layering faults known on the day this test was written, each to be removed
#: by the change that mends it (the test then fails until the mark goes too).
KNOWN = {
    # --
    # --
    # --
    # --
    # --
}


def _known(kind: str, areas: list[str]) -> list[object]:
    return [
        pytest.param(a, marks=pytest.mark.xfail(strict=True, reason="a known layering fault")) if f"{kind}:{a}" in KNOWN
        else a
        for a in areas
    ]


def test_the_graph_sees_lazy_imports() -> None:
    tree = ast.parse("def f():\n    from .render import render\n")
    (node,) = list(_import_nodes(tree))
    assert list(_resolve("meeple.games.saboteur.rules", node)) == ["meeple.games.saboteur.render"]


def test_cycles_are_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@functools.cache
def _all_cycles() -> list[list[str]]:
    return cycles(imports())


@pytest.mark.parametrize("area", _known("circle", AREAS))
def test_no_import_circle(area: str) -> None:
    bad = [c for c in _all_cycles() if any(_area(m) == area for m in c)]
    assert not bad, f"import circles through {area}: {bad}"


GAMES = sorted({a for a in AREAS if a.startswith("meeple.games.")})


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_only_the_engine_and_itself(game: str) -> None:
    graph = imports()
    for module, targets in graph.items():
        if _area(module) != game:
            continue
        for t in targets:
            assert t.startswith((game + ".", "meeple.engine")) or t in (game, "meeple.engine"), (
                f"{module} imports {t}"
            )


@pytest.mark.parametrize("game", _known("rules", GAMES))
def test_rules_never_import_bots_or_renderers(game: str) -> None:
    graph = imports()
    low = {m for m in graph if m.startswith(game + ".") and m.rsplit(".", 1)[1] in
           ("data", "state", "commands", "events", "rules", "options", "board", "combos", "walk", "scoring")}
    for module in low:
        for t in graph[module]:
            leaf = t.rsplit(".", 1)[-1]
            assert leaf not in ("bot", "bots", "render", "game") and t != game, f"{module} imports {t}"


def test_the_engine_imports_no_layer_above_it() -> None:
    graph = imports()
    for module, targets in graph.items():
        if module.startswith("meeple.engine"):
            above = [t for t in targets if not t.startswith("meeple.engine") and t not in ("meeple._version", "meeple._speedups")]
            assert not above, f"{module} imports {above}"
