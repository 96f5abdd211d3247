"""docs/fidelity.md cannot drift: every row names a test that exists, every quote cites a known public
page and is verbatim in that page's text (when the texts are present: see the table's header), and
nothing in the package or its documentation points at files that are not shipped (SPEC sections, the
`sources/*.txt` copies, `../shared`)."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "fidelity.md"
LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")
# `[title](url): «quote»` or `<url>: «quote»`
QUOTE = re.compile(r"^(?:\[[^\]]+\]\((https?://[^)\s]+)\)|<(https?://[^>\s]+)>): «(.+)»$")
TEST = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def _split(line: str) -> list[str]:
    """The cells of a table line; `\\|` is a pipe inside a cell."""
    inner = line.strip()[1:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def _tables() -> tuple[dict[str, str], list[list[str]]]:
    """(page URL -> stored file name, the rows of the behaviour table)."""
    pages: dict[str, str] = {}
    rows: list[list[str]] = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not line.startswith("| ") or line.startswith(("| runtime |", "| page |")):
            continue
        cells = _split(line)
        if len(cells) == 2:  # the pages table
            m = LINK.fullmatch(cells[0])
            assert m is not None and (re.fullmatch(r"`[\w.-]+\.txt`", cells[1]) or cells[1].startswith("not stored")), cells
            pages[m.group(2)] = cells[1].strip("`") if cells[1].startswith("`") else ""  # "": read on the site
        else:
            rows.append(cells)
    return pages, rows


def _sources_dir() -> Path | None:
    """Where the pages' texts are: $SKILL_LS_SOURCES, else a `shared/sources` next to the checkout or
    one of its parents (they are third-party pages and are not shipped with the repository)."""
    env = os.environ.get("SKILL_LS_SOURCES")
    if env:
        return Path(env) if Path(env).is_dir() else None
    for parent in ROOT.parents:
        candidate = parent / "shared" / "sources"
        if candidate.is_dir():
            return candidate
    return None


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_every_row_has_five_cells_and_a_test_that_exists():
    _, rows = _tables()
    assert len(rows) >= 40
    for cells in rows:
        assert len(cells) == 5, cells
        refs = TEST.findall(cells[4])
        assert refs, f"row without a test: {cells[1]}"
        for module, func in refs:
            assert re.search(rf"^(async )?def {func}\(", (ROOT / module).read_text(encoding="utf-8"), re.M), (module, func)


def test_every_quote_cites_a_listed_page_or_states_a_reading():
    pages, rows = _tables()
    assert pages
    for cells in rows:
        m = QUOTE.match(cells[2])
        if m is None:
            assert cells[2].startswith("reading:"), f"row without a linked quote or a stated reading: {cells[1]}"
            continue
        url = m.group(1) or m.group(2)
        assert url in pages, (f"{cells[1]}: {url} is not in the table of pages (add it, with the file name its "
                              "text is stored under, so the quote can be checked)")


def test_every_quote_is_verbatim_in_its_page():
    sources = _sources_dir()
    if sources is None:
        pytest.skip("the pages' texts are not here (set SKILL_LS_SOURCES to a directory holding them)")
    pages, rows = _tables()
    checked = 0
    for cells in rows:
        m = QUOTE.match(cells[2])
        if m is None:
            continue
        if not pages[m.group(1) or m.group(2)]:
            continue  # a page read on its site, not stored (its descriptor cites it: the test below)
        stored = sources / pages[m.group(1) or m.group(2)]
        if not stored.is_file():
            pytest.fail(f"{stored.name} is not in {sources}: the quote of '{cells[1]}' cannot be checked")
        text = _squash(stored.read_text(encoding="utf-8"))
        for part in m.group(3).split(" … "):
            assert _squash(part) in text, (stored.name, part)
            checked += 1
    assert checked >= 40


# -- citations that resolve for a user -------------------------------------------------------------
UNSHIPPED = re.compile(r"SPEC §|SPEC\.md|\bsources/[\w.-]+\.txt|\.\./shared\b|/work/shared")


def _shipped_text_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "ARCHITECTURE.md"]
    for top in ("skill_ls", "docs"):
        files += [p for p in (ROOT / top).rglob("*") if p.is_file() and p.suffix in (".py", ".md", ".toml", ".json")]
    return files


def test_nothing_shipped_points_at_files_a_user_does_not_have():
    """Rule documentation (`skill-ls explain`), docstrings and docs cite the runtimes' public pages by
    URL or documents of this repository, never the condensed spec or the local copies of the pages."""
    found = []
    for path in _shipped_text_files():
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if UNSHIPPED.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()[:120]}")
    assert found == []


def test_explain_cites_public_pages():
    from skill_ls.analysis.rules import all_rules

    for code, r in all_rules().items():
        assert not UNSHIPPED.search(r.doc), code


def test_every_page_read_on_its_site_is_cited_by_its_runtimes_descriptor():
    """A page that is not stored (GitHub Copilot, Cursor, Gemini CLI, OpenCode: read on their sites)
    must be one a runtime descriptor module under skill_ls/core/runtimes/ cites, so the descriptor and
    the table agree on where each behaviour comes from; and its quotes are not empty."""
    pages, rows = _tables()
    cited = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "skill_ls" / "core" / "runtimes").glob("*.py"))
    unstored = {url for url, stored in pages.items() if not stored}
    assert len(unstored) >= 10
    for url in unstored:
        assert url in cited, url
    quoted = [QUOTE.match(cells[2]) for cells in rows]
    assert sum(1 for m in quoted if m is not None and (m.group(1) or m.group(2)) in unstored and m.group(3).strip()) >= 25
