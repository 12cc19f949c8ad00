"""The layers hold (docs/engine.md, "Layers"): read with ``ast`` from every module,
including imports made only for the type checker, inside functions, or by name
through importlib.

* ``hardware/`` and ``calibration/`` sit below the games: they import no game
  pack, nor anything of ``companion`` but the engine's die registry, which
  itself pulls in nothing but the standard library.
* ``companion/engine`` is plain Python: no pack, no Flask, OpenCV, numpy,
  gpiozero, rpi_ws281x, no store, table, server or appliance, no hardware.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What hardware/ and calibration/ may use of companion: the die kinds, and the errors they refuse with.
BELOW_MAY_USE = {"companion.engine.dice", "companion.engine.errors"}
ENGINE_REFUSES = ("companion.games", "companion.store", "companion.table", "companion.server", "companion.appliance",
                  "companion.config", "companion.cli", "hardware", "calibration", "flask", "flask_socketio", "cv2",
                  "numpy", "gpiozero", "rpi_ws281x", "picamera2", "sqlite3")


def module_name(path: Path) -> str:
    parts = list((path.relative_to(ROOT) if path.is_relative_to(ROOT) else Path(path.name)).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """Every module ``path`` imports, as absolute names (``from . import x`` resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.update(_from(node, package))
        elif isinstance(node, ast.Call) and _imports_by_name(node):
            found.add(node.args[0].value)  # type: ignore[attr-defined]
    return found


def _from(node: ast.ImportFrom, package: str) -> set[str]:
    if node.level == 0:
        base = node.module or ""
    else:
        parts = package.split(".")
        base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
    return {base} | {f"{base}.{alias.name}" for alias in node.names}


def _imports_by_name(node: ast.Call) -> bool:
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    return (name in ("import_module", "__import__") and bool(node.args)
            and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))


def modules(folder: str) -> list[Path]:
    found = sorted((ROOT / folder).rglob("*.py"))
    assert found, f"no modules under {folder}"
    return found


def within(name: str, prefixes: tuple[str, ...] | set[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names or name == "__future__"


def source_of(name: str) -> Path | None:
    base = ROOT / Path(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.exists():
            return candidate
    return None


@pytest.mark.parametrize("folder", ["hardware", "calibration"])
def test_below_the_games_imports_no_pack_and_only_the_die_registry(folder: str) -> None:
    wrong = {f"{module_name(path)} imports {name}" for path in modules(folder) for name in imports(path)
             if within(name, ("companion",)) and not within(name, BELOW_MAY_USE) and name != "companion.engine"}
    assert not wrong, sorted(wrong)


def test_the_die_registry_pulls_in_nothing_but_the_standard_library() -> None:
    for name in sorted(BELOW_MAY_USE):
        path = source_of(name)
        assert path is not None, name
        outside = {i for i in imports(path)
                   if not stdlib(i) and not within(i, BELOW_MAY_USE) and i != "companion.engine"}
        assert not outside, (name, sorted(outside))


def test_the_engine_imports_no_pack_framework_device_or_store() -> None:
    wrong = {f"{module_name(path)} imports {name}" for path in modules("companion/engine") for name in imports(path)
             if within(name, ENGINE_REFUSES)}
    assert not wrong, sorted(wrong)


def test_the_reading_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The checks above can fail: each way of importing is found."""
    package = ROOT / "hardware" / "leds"
    assert "hardware.followed" in imports(package / "wiring.py")
    assert {"hardware.leds.looks", "hardware.leds.looks.Looks"} <= imports(package / "wiring.py")  # relative
    assert "companion.engine.dice" in imports(ROOT / "hardware" / "dice" / "wiring.py")
    assert "gpiozero" in imports(ROOT / "hardware" / "buttons" / "panel.py")  # by name, inside a function
    odd = tmp_path / "odd.py"
    odd.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                   "    from companion.games.ravenloft import rules\ndef f():\n    import flask\n")
    assert {"companion.games.ravenloft", "flask"} <= imports(odd)


def runtime_imports(path: Path) -> set[str]:
    """What ``path`` imports when it runs (inside functions too), leaving out the type checker's imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            node.body = [ast.Pass()]
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    return {name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) for name in _from(node, package)} | {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}


def import_circle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of modules that import each other (empty if there is none), by depth-first search."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(name: str) -> list[str]:
        state[name] = 1
        path.append(name)
        for other in sorted(graph.get(name, ())):
            if state.get(other) == 1:
                return path[path.index(other):] + [other]
            if other not in state and (found := visit(other)):
                return found
        state[name] = 2
        path.pop()
        return []

    return next((found for name in sorted(graph) if name not in state and (found := visit(name))), [])


@pytest.mark.parametrize("folder", ["companion", "hardware", "calibration"])
def test_no_import_circle_when_the_code_runs(folder: str) -> None:
    """Modules import one way: no circle, not even through an import made late inside a function
    (the type checker's imports are left out: they never run)."""
    own = {module_name(path): path for path in modules(folder)}
    graph = {name: {i for i in runtime_imports(path) if i in own and not within(name, (i,))}
             for name, path in own.items()}  # a module's own packages are loaded before it: not a circle
    assert import_circle(graph) == []


def test_an_import_circle_is_found() -> None:
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert import_circle({"a": {"b"}, "b": {"c"}, "c": set()}) == []
