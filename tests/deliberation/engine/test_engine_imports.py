"""The engine owns its ports: no module of ``deliberation/engine`` imports a mind or Django, nor
does any module of the project it imports (``deliberation.engine.judge``, say), however deep."""

import ast
from pathlib import Path

import deliberation

PROJECT = Path(deliberation.__file__).resolve().parent.parent
ENGINE = PROJECT / "deliberation" / "engine"
FORBIDDEN = ("deliberation.minds", "django")


def imported_modules(source: str, module: str) -> set[str]:
    """Every module ``source`` imports, wherever the import sits (lazy imports inside functions too),
    relative imports resolved against ``module``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.rsplit(".", node.level)[0]
                base = f"{package}.{base}" if base else package
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}  # "from pkg import module"
    return found


def source_of(module: str) -> str | None:
    """The source of a project module, None for anything outside the project."""
    path = PROJECT.joinpath(*module.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate.read_text()
    return None


def forbidden_imports(start: dict[str, str]) -> dict[str, set[str]]:
    """For each module reachable from ``start`` (name -> source) through project imports: the
    forbidden modules it imports."""
    found: dict[str, set[str]] = {}
    todo, seen = list(start.items()), set(start)
    while todo:
        module, source = todo.pop()
        imports = imported_modules(source, module)
        bad = {name for name in imports if name.startswith(FORBIDDEN)}
        if bad:
            found[module] = bad
        for name in sorted(imports - seen - bad):
            project_source = source_of(name)
            if project_source is not None and name.startswith("deliberation"):
                seen.add(name)
                todo.append((name, project_source))
    return found


def engine_modules() -> dict[str, str]:
    return {f"deliberation.engine.{path.stem}": path.read_text() for path in sorted(ENGINE.glob("*.py"))}


def test_no_engine_module_imports_a_mind_or_django_even_through_the_project_modules_it_uses() -> None:
    modules = engine_modules()
    assert len(modules) > 30
    assert forbidden_imports(modules) == {}


def test_the_walk_finds_a_lazy_import_of_a_mind_and_one_through_a_project_module() -> None:
    lazy = "def fallback():\n    from deliberation.minds.offline.mind import OfflineMind\n    return OfflineMind()\n"
    assert forbidden_imports({"deliberation.engine.sample": lazy}) == {
        "deliberation.engine.sample": {"deliberation.minds.offline.mind", "deliberation.minds.offline.mind.OfflineMind"}
    }
    through = "from deliberation import selectors\n"  # a project module that imports Django
    found = forbidden_imports({"deliberation.engine.sample": through})
    assert "deliberation.selectors" in found
    assert any(name.startswith("django") for name in found["deliberation.selectors"])
