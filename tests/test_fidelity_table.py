"""docs/fidelity.md cannot drift: every row quotes its source verbatim (a stored source, or a public page
by URL that the runtime's descriptor cites) and names a test that exists."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT.parent / "shared" / "sources"


def _rows() -> list[list[str]]:
    text = (ROOT / "docs" / "fidelity.md").read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| runtime") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            rows.append(cells)
    return rows


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_every_row_has_five_cells_and_a_test_that_exists():
    rows = _rows()
    assert len(rows) >= 20
    for cells in rows:
        assert len(cells) == 5, cells
        for ref in re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", cells[4]):
            module, func = ref
            assert re.search(rf"^(async )?def {func}\(", (ROOT / module).read_text(encoding="utf-8"), re.M), ref
        assert re.search(r"`tests/[\w/]+\.py::\w+`", cells[4]), f"row without a test: {cells[1]}"


URL_ROW = re.compile(r"<(https://[^\s>]+)>: «(.+)»")


def test_every_url_row_cites_a_page_its_descriptor_names():
    """A row quoting a runtime's public documentation names the page by URL (`<https://…>: «words»`);
    the page must be one the runtime's descriptor module cites, so the descriptor and the table agree
    on where each behaviour comes from. (Live pages cannot be fetched in a test: the words are copied
    as the page has them, and a reviewer checks them against the URL.)"""
    cited = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "skill_ls" / "core" / "runtimes").glob("*.py"))
    rows = [cells for cells in _rows() if URL_ROW.match(cells[2])]
    assert len(rows) >= 20
    for cells in rows:
        m = URL_ROW.match(cells[2])
        assert m is not None and m.group(2).strip(), cells[1]
        assert m.group(1).split("#")[0] in cited, (cells[1], m.group(1))


def test_every_quote_is_in_its_source():
    if not SOURCES.is_dir():
        import pytest
        pytest.skip("shared/sources is not beside the checkout")
    for cells in _rows():
        if URL_ROW.match(cells[2]):
            continue  # the public page itself (test above)
        m = re.match(r"`([\w.-]+\.txt)`: «(.+)»", cells[2])
        if m is None:
            assert cells[2].startswith("reading:"), f"row without a source quote or a stated reading: {cells[1]}"
            continue
        source = _squash((SOURCES / m.group(1)).read_text(encoding="utf-8"))
        for part in m.group(2).split(" … "):
            assert _squash(part) in source, (m.group(1), part)
