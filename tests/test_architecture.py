"""The layering ARCHITECTURE.md draws, checked against the real imports.

core  <-  analysis  <-  presenters (cli, output, server)

An arrow means "may import from". The core imports nothing from the analysis layer or the presenters;
the analysis layer nothing from the presenters; only `skill_ls/server` knows the LSP libraries.
Imports are read from the source with `ast` (including imports inside functions), so a lazy import
counts as much as one at the top of a module.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "skill_ls"
# The presenters: the command line (with `check --fix` and the one module that writes files), the
# output formats, and the language server.
PRESENTERS = ("skill_ls.cli", "skill_ls.cli_fix", "skill_ls.apply", "skill_ls.output", "skill_ls.server",
              "skill_ls.__main__")
LSP_LIBRARIES = ("pygls", "lsprotocol")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Absolute names of every module `path` imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = _module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            found.add(prefix)
            found.update(f"{prefix}.{alias.name}" for alias in node.names)
    return found


def _modules(under: str) -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in sorted((PACKAGE / under).rglob("*.py"))}


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _violations(modules: dict[str, set[str]], forbidden: tuple[str, ...]) -> list[str]:
    return sorted(f"{module} imports {name}" for module, names in modules.items()
                  for name in names if _within(name, forbidden))


def test_core_imports_neither_analysis_nor_presenters() -> None:
    assert _violations(_modules("core"), ("skill_ls.analysis",) + PRESENTERS) == []


def test_analysis_imports_no_presenter() -> None:
    assert _violations(_modules("analysis"), PRESENTERS) == []


def test_only_the_server_knows_lsp() -> None:
    outside = {name: imports for name, imports in _modules(".").items()
               if not _within(name, ("skill_ls.server",))}
    assert _violations(outside, LSP_LIBRARIES) == []


def test_every_module_has_a_layer() -> None:
    """A new top-level module must be placed: in core/, in analysis/, or named a presenter above."""
    layered = ("skill_ls.core", "skill_ls.analysis") + PRESENTERS
    unplaced = [name for name in _modules(".") if name != "skill_ls" and not _within(name, layered)]
    assert unplaced == []


def test_the_code_map_names_every_module() -> None:
    """ARCHITECTURE.md's code map names every module (a new module gets its entry)."""
    text = (PACKAGE.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = [str(p.relative_to(PACKAGE.parent)) for p in sorted(PACKAGE.rglob("*.py"))
               if p.stem not in ("__init__", "__main__") and not re.search(rf"\b{re.escape(p.stem)}\b", text)]
    assert missing == []


def test_the_check_sees_imports() -> None:
    """Guard against a vacuous pass: the scan finds the imports we know are there."""
    server = _modules("server")
    assert any(_within(n, LSP_LIBRARIES) for names in server.values() for n in names)
    analysis = _modules("analysis")
    assert any(_within(n, ("skill_ls.core",)) for names in analysis.values() for n in names)
