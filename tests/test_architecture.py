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
from collections import Counter
from pathlib import Path

from skill_ls.core.runtimes import RUNTIMES

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
    """ARCHITECTURE.md's code map names every module (a new module gets its entry), except a
    runtime's descriptor module: the map says "one module per runtime, named for its id", so adding a
    runtime (the recipe) touches no documentation but its README row."""
    from skill_ls.core.runtimes import RUNTIMES

    descriptors = {rid.replace("-", "_") for rid in RUNTIMES}
    text = (PACKAGE.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    missing = [str(p.relative_to(PACKAGE.parent)) for p in sorted(PACKAGE.rglob("*.py"))
               if p.stem not in ("__init__", "__main__") and not re.search(rf"\b{re.escape(p.stem)}\b", text)
               and not (p.parent.name == "runtimes" and p.stem in descriptors)]
    assert missing == []


def test_the_check_sees_imports() -> None:
    """Guard against a vacuous pass: the scan finds the imports we know are there."""
    server = _modules("server")
    assert any(_within(n, LSP_LIBRARIES) for names in server.values() for n in names)
    analysis = _modules("analysis")
    assert any(_within(n, ("skill_ls.core",)) for names in analysis.values() for n in names)


# -- runtimes are data ------------------------------------------------------------------------------
DESCRIPTORS = PACKAGE / "core" / "runtimes"

# Literals equal to a runtime id that are not about a runtime: (path under skill_ls/, literal) -> why.
NOT_A_RUNTIME: dict[tuple[str, str], str] = {}
AGENT_FAMILIES_PENDING: dict[str, int] = {}  # agent families are data (core/runtimes/agent_families.py)


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def runtime_id_literals() -> dict[str, list[tuple[int, str]]]:
    """Every string literal equal to a runtime id in the package, outside the descriptors and
    docstrings: path -> [(line, literal)]."""
    ids = set(RUNTIMES)
    found: dict[str, list[tuple[int, str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if DESCRIPTORS in path.parents:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        docs = _docstrings(tree)
        rel = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in ids and id(node) not in docs:
                if (rel, node.value) not in NOT_A_RUNTIME:
                    found.setdefault(rel, []).append((node.lineno, node.value))
    return found


def test_no_runtime_id_outside_the_descriptors() -> None:
    """Runtimes are data: no `if runtime == "amp"`, no table keyed by runtime ids, no hard-coded
    runtime choice outside skill_ls/core/runtimes/ — code asks the descriptor."""
    found = runtime_id_literals()
    offending = {path: hits for path, hits in found.items() if len(hits) > AGENT_FAMILIES_PENDING.get(path, 0)}
    assert not offending, "runtime ids named outside skill_ls/core/runtimes/ (ask the descriptor): " + "; ".join(
        f"{path}:{line} {value!r}" for path, hits in offending.items() for line, value in hits)


def test_the_runtime_id_scan_sees_a_branch() -> None:
    """The scan itself: a comparison, a table key and a subscript are all found."""
    source = 'if runtime == "amp":\n    pass\nX = {"codex": 1}\nY = RUNTIMES["agh"]\n"""a docstring: agh"""\n'
    tree = ast.parse(source)
    docs = _docstrings(tree)
    hits = Counter(n.value for n in ast.walk(tree)
                   if isinstance(n, ast.Constant) and n.value in RUNTIMES and id(n) not in docs)
    assert hits == Counter({"amp": 1, "codex": 1, "agh": 1})


def test_every_catalog_format_named_by_a_runtime_exists() -> None:
    from skill_ls.analysis.catalog import FORMATS

    assert {rt.catalog_format for rt in RUNTIMES.values()} <= set(FORMATS)


def _module_graph() -> dict[str, set[str]]:
    """Every `skill_ls` module and the `skill_ls` modules it imports anywhere (top level, inside a
    function, or under TYPE_CHECKING: a lazy import is still a dependency)."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("skill_ls"):
                deps.add(node.module)
                deps.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("skill_ls"))
        graph[name] = deps
    return {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}


KNOWN_CIRCLES: set[frozenset[str]] = set()  # none: keep it that way


def test_no_import_circles() -> None:
    """No module imports (even lazily) a module that imports it back, directly or through others;
    a package's `__init__` re-exporting its modules is not a circle of its own."""
    graph = _module_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[frozenset[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w.startswith(v + "."):
                continue  # a package importing its own modules (the registry loads its rule families)
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(frozenset(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert [sorted(c) for c in circles if c not in KNOWN_CIRCLES] == []


FS_CALLS = re.compile(r"\b(?:os\.(?:walk|stat|lstat|listdir|scandir|access|open|readlink)|os\.path\.(?:exists|lexists|"
                      r"isfile|isdir|islink|getsize|getmtime)|open)\(")


def test_rules_ask_the_index_not_the_disk() -> None:
    """A rule reads what the index gives it: documents through the store, sidecars through the core's
    readers, stats and listings through `ctx.disk` (cached per index, dropped when the disk changes)."""
    offending = []
    for path in sorted((PACKAGE / "analysis" / "rules").glob("*.py")):
        if path.name == "__init__.py":
            continue  # the registry lists its own package to load the families
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FS_CALLS.search(line.split("#", 1)[0]):
                offending.append(f"{path.name}:{n}: {line.strip()}")
    assert offending == []


# The LSP features that answer a question about a position or a document: the answer is a query of
# `skill_ls.analysis.queries` (ARCHITECTURE.md, "Add an LSP feature"); the feature only converts it.
QUERY_FEATURES = ("hover", "definition", "references", "completion", "code_lens", "symbols", "links",
                  "code_actions")
CONVERTER_MAY_READ = ("skill_ls.server", "skill_ls.analysis.queries", "skill_ls.analysis.navigation",
                      "skill_ls.analysis.workspace", "skill_ls.core.index", "skill_ls.core.model")


def test_lsp_features_convert_query_values_and_decide_no_content() -> None:
    features = _modules("server/features")
    assert {f"skill_ls.server.features.{name}" for name in QUERY_FEATURES} <= features.keys()
    decided = sorted(f"{module} imports {name}" for module, names in features.items()
                     if module.rsplit(".", 1)[-1] in QUERY_FEATURES
                     for name in names if name.startswith("skill_ls") and not _within(name, CONVERTER_MAY_READ))
    assert decided == [], "the question belongs in skill_ls/analysis/queries/; the feature only converts"


def test_every_query_module_has_its_in_process_test() -> None:
    """The recipe: a query in `analysis/queries/<feature>.py`, its content tested in process in
    `tests/test_queries_<feature>.py`."""
    queries = [p.stem for p in sorted((PACKAGE / "analysis" / "queries").glob("*.py")) if p.stem != "__init__"]
    tests = PACKAGE.parent / "tests"
    assert queries and [q for q in queries if not (tests / f"test_queries_{q}.py").exists()] == []
