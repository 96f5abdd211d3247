"""The document model (`skill_ls.server.documents`) against Neovim's own text sync, computed by the real
Neovim: no server, no terminal, seconds.

A headless Neovim (0.11+) edits a buffer the way a split paste does — `nvim_paste` in phases whose
chunks end inside multi-byte characters, at random places in the buffer — and between pastes with
`nvim_buf_set_text`. An `on_lines` callback turns every buffer change into the `didChange` content
change Neovim would send (`vim.lsp.sync.compute_diff`, fed exactly as `vim.lsp._changetracking` feeds
it) for each position encoding, and records the buffer after every chunk. The changes travel as
`vim.json.encode` writes them (raw bytes, invalid UTF-8 where a chunk cut a character), are read with
`protocol.decode_body` like the server reads a message, and are replayed through `Document`: after every
chunk the model's text must equal the buffer (its invalid bytes as escapes), for UTF-8, UTF-16 and
UTF-32. A second test checks the model's column counting over invalid bytes against `vim.str_utfindex`.
"""
from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from lsprotocol import types

from skill_ls.server.documents import Document, nvim_prefix_units
from skill_ls.server.protocol import decode_body
from tests.editors.test_nvim import NVIM, NVIM_SKIP_REASON

pytestmark = pytest.mark.editor_requires(NVIM_SKIP_REASON if NVIM is None else None)

ENCODINGS = ("utf-8", "utf-16", "utf-32")

SYNC_LUA = r"""
local SCENARIO, OUT = __SCENARIO__, __OUT__
local sync = require('vim.lsp.sync')
local function unhex(h) return (h:gsub('..', function(x) return string.char(tonumber(x, 16)) end)) end
local f = assert(io.open(SCENARIO, 'rb')); local S = vim.json.decode(f:read('*a')); f:close()
local ENC = { 'utf-8', 'utf-16', 'utf-32' }
local b = vim.api.nvim_get_current_buf()
vim.api.nvim_buf_set_lines(b, 0, -1, true, vim.tbl_map(unhex, S.lines))
local prev = vim.api.nvim_buf_get_lines(b, 0, -1, true)
local pending = { ['utf-8'] = {}, ['utf-16'] = {}, ['utf-32'] = {} }
vim.api.nvim_buf_attach(b, false, {
  on_lines = function(_, buf, _, first, last, new_last)
    -- as vim.lsp._changetracking.incremental_changes builds curr_lines
    local curr, changed = {}, vim.api.nvim_buf_get_lines(buf, first, new_last, true)
    for i = 1, first do curr[i] = prev[i] end
    for i = first + 1, new_last do curr[i] = changed[i - first] end
    for i = last + 1, #prev do curr[i - last + new_last] = prev[i] end
    if #curr == 0 then curr[1] = '' end
    for _, enc in ipairs(ENC) do
      local c = sync.compute_diff(prev, curr, first, last, new_last, enc, '\n')
      table.insert(pending[enc], { range = c.range, text = c.text })
    end
    prev = curr
  end,
})
local function text() return table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, true), '\n') .. '\n' end
local function starts(line)  -- byte columns where a character starts, and the end of the line
  local out = vim.str_utf_pos(line)
  for i, p in ipairs(out) do out[i] = p - 1 end
  out[#out + 1] = #line
  return out
end
local function pick(row, frac)
  local line = vim.api.nvim_buf_get_lines(b, row, row + 1, true)[1]
  local s = starts(line)
  return s[math.min(#s, 1 + math.floor(frac * #s))]
end
local snaps = {}
local function snap()
  snaps[#snaps + 1] = { changes = pending, text = text() }
  pending = { ['utf-8'] = {}, ['utf-16'] = {}, ['utf-32'] = {} }
end
snap()
for _, step in ipairs(S.steps) do
  local n = vim.api.nvim_buf_line_count(b)
  if step.kind == 'paste' then
    local row = step.row % n
    vim.api.nvim_win_set_cursor(0, { row + 1, pick(row, step.frac) })
    for i, chunk in ipairs(step.chunks) do
      local phase = #step.chunks == 1 and -1 or (i == 1 and 1 or (i == #step.chunks and 3 or 2))
      vim.api.nvim_paste(unhex(chunk), false, phase)
      snap()
    end
  else
    local r1, r2 = step.row % n, step.row2 % n
    if r2 < r1 then r1, r2 = r2, r1 end
    local c1, c2 = pick(r1, step.frac), pick(r2, step.frac2)
    if r1 == r2 and c2 < c1 then c1, c2 = c2, c1 end
    vim.api.nvim_buf_set_text(b, r1, c1, r2, c2, vim.split(unhex(step.text), '\n', { plain = true }))
    snap()
  end
end
local g = assert(io.open(OUT, 'wb')); g:write(vim.json.encode(snaps)); g:close()
"""

ALPHABET = ["a", "b", " ", "é", "—", "«", "漢", "😀", "\n", "n°"]


def _scenario(seed: int) -> dict:
    rng = random.Random(seed)
    text = lambda k: "".join(rng.choice(ALPHABET) for _ in range(k))
    lines = [text(rng.randint(0, 12)).replace("\n", "") for _ in range(4)]
    steps: list[dict] = []
    for _ in range(30):
        if rng.random() < 0.7:
            raw = text(rng.randint(1, 60)).encode("utf-8")
            cuts = sorted(rng.sample(range(1, len(raw)), min(len(raw) - 1, rng.randint(1, 5)))) if len(raw) > 1 else []
            chunks = [raw[i:j] for i, j in zip([0, *cuts], [*cuts, len(raw)])]
            steps.append({"kind": "paste", "row": rng.randint(0, 40), "frac": rng.random(),
                          "chunks": [c.hex() for c in chunks]})
        else:
            steps.append({"kind": "edit", "row": rng.randint(0, 40), "row2": rng.randint(0, 40),
                          "frac": rng.random(), "frac2": rng.random(),
                          "text": text(rng.randint(0, 8)).encode("utf-8").hex()})
    return {"lines": [line.encode("utf-8").hex() for line in lines], "steps": steps}


def _run(tmp_path: Path, lua: str) -> bytes:
    script = tmp_path / "driver.lua"
    script.write_text(lua, encoding="utf-8")
    proc = subprocess.run([NVIM or "nvim", "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {script}", "-c", "qa!"],
                          capture_output=True, timeout=120, cwd=tmp_path, check=False)
    out = tmp_path / "out.json"
    assert out.exists(), proc.stderr.decode(errors="replace")[-2000:]
    return out.read_bytes()


def _change(c: dict) -> types.TextDocumentContentChangePartial:
    r = c["range"]
    return types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(**r["start"]), types.Position(**r["end"])), text=c["text"])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_split_pastes_replayed_from_neovims_own_sync_keep_the_model_equal_to_the_buffer(tmp_path: Path, seed: int) -> None:
    (tmp_path / "scenario.json").write_text(json.dumps(_scenario(seed)), encoding="utf-8")
    lua = (SYNC_LUA.replace("__SCENARIO__", json.dumps(str(tmp_path / "scenario.json")))
           .replace("__OUT__", json.dumps(str(tmp_path / "out.json"))))
    snaps = json.loads(decode_body(_run(tmp_path, lua)))
    split = sum(1 for s in snaps if any(0xDC80 <= ord(ch) <= 0xDCFF for ch in s["text"]))
    assert split >= 5, "the scenario should leave the buffer holding a cut character several times"
    for enc in ENCODINGS:
        doc = Document("file:///t/SKILL.md", source=snaps[0]["text"], version=1, encoding=enc)
        for n, s in enumerate(snaps[1:], 1):
            for c in s["changes"][enc] or []:  # an empty Lua table encodes as {}
                doc.apply_change(_change(c))
            assert doc.source == s["text"], (enc, n, s["changes"][enc])


LINE_BYTES = [b"a", b"\xc3\xa9", b"\xe2\x80\x94", b"\xf0\x9f\x98\x80", b"\xc3", b"\xe2", b"\xe2\x80", b"\xf0",
              b"\xf0\x9f", b"\xf0\x9f\x98", b"\x80", b"\x94", b"\xbf", b"\xfe", b"\xff", b"\xed\xa0\x80", b"\xc0\x80",
              b"\xf4\x90\x80\x80", b"\xf0\x80\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xfc\x84\x80\x80\x80\x80"]


def test_column_counting_over_invalid_bytes_is_neovims(tmp_path: Path) -> None:
    """`nvim_prefix_units` equals `vim.str_utfindex(line, enc, byte)` at every character boundary of
    1,000 lines made of valid characters, cut sequences, stray continuation bytes, CESU surrogates,
    overlong and 5-/6-byte forms — the columns Neovim puts in a didChange range."""
    rng = random.Random(7)
    lines = [b"".join(rng.choice(LINE_BYTES) for _ in range(rng.randint(0, 8))) for _ in range(1000)]
    (tmp_path / "lines.bin").write_bytes(b"\n".join(lines))
    lua = r"""
    local f = assert(io.open(__IN__, 'rb')); local all = f:read('*a'); f:close()
    local out = {}
    for line in (all .. '\n'):gmatch('(.-)\n') do
      local r = { ['utf-16'] = {}, ['utf-32'] = {} }
      for enc, t in pairs(r) do
        for i = 0, #line do t[#t + 1] = vim.str_utfindex(line, enc, i) end
        t[#t + 1] = vim.str_utfindex(line, enc)  -- the whole line (no index)
      end
      out[#out + 1] = r
    end
    local g = assert(io.open(__OUT__, 'w')); g:write(vim.json.encode(out)); g:close()
    """.replace("__IN__", json.dumps(str(tmp_path / "lines.bin"))).replace("__OUT__", json.dumps(str(tmp_path / "out.json")))
    result = json.loads(_run(tmp_path, lua))
    assert len(result) == len(lines)
    for line, ref in zip(lines, result):
        segment = line.decode("utf-8", "surrogateescape")
        offsets = [0]
        for ch in segment:
            offsets.append(offsets[-1] + (1 if 0xDC80 <= ord(ch) <= 0xDCFF else len(ch.encode("utf-8"))))
        for enc in ("utf-16", "utf-32"):
            want = [ref[enc][o] for o in offsets]
            assert want[-1] == ref[enc][-1]
            assert nvim_prefix_units(segment, enc == "utf-16") == want, (line, enc)
