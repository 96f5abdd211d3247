"""docs/fidelity.md cannot drift: every row quotes its source verbatim and names a test that exists."""
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


def test_every_quote_is_in_its_source():
    if not SOURCES.is_dir():
        import pytest
        pytest.skip("shared/sources is not beside the checkout")
    for cells in _rows():
        m = re.match(r"`([\w.-]+\.txt)`: «(.+)»", cells[2])
        if m is None:
            assert cells[2].startswith("reading:"), f"row without a source quote or a stated reading: {cells[1]}"
            continue
        source = _squash((SOURCES / m.group(1)).read_text(encoding="utf-8"))
        for part in m.group(2).split(" … "):
            assert _squash(part) in source, (m.group(1), part)
