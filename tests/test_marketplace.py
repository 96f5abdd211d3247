"""Marketplace integrity (SPEC §3.1, §8; issue 7).

A skill under `$AGH_HOME/skills/<name>` with `.agh-meta.json` is a marketplace skill. Its metadata must
be a JSON object with string `slug`, `registry`, `version`, `installed_at` and an optional
`hash` (a hash that is not `sha256:<hex of SKILL.md>` is a warning: its input is not documented). Anything
else -> MC001 and the skill is blocked (`where` lists it with `blocked: true`, and it shadows nothing). Its MCP servers (frontmatter
`metadata.agh.mcp_servers` or the `mcp.json` sidecar) need a consent key -- the slug, `registry:slug`
or the hash -- in `skills.allowed_marketplace_mcp` of `$AGH_HOME/config.toml`; without one -> MC002.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from conftest import skill, write
from skill_ls.cli import main

GOOD_META = {"slug": "pg-tools", "registry": "hub", "version": "1.2.0", "installed_at": "2026-01-01T00:00:00Z"}
SERVERS = "metadata:\n  agh:\n    mcp_servers:\n      - name: pg\n        command: pg-mcp\n"


@pytest.fixture
def agh_home(private_home) -> Path:
    return private_home / ".agh"


def market_skill(agh_home: Path, meta, *, extra: str = "", name: str = "pg") -> Path:
    path = skill(agh_home / "skills", name, extra=extra)
    raw = meta if isinstance(meta, (str, bytes)) else json.dumps(meta)
    p = agh_home / "skills" / name / ".agh-meta.json"
    p.write_bytes(raw if isinstance(raw, bytes) else raw.encode())
    return path


def sha(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def check_json(capsys, workspace: Path, agh_home: Path) -> list[dict]:
    code = main(["check", "--format", "json", "--workspace", str(workspace), str(agh_home), str(workspace)])
    out = capsys.readouterr().out
    assert code in (0, 1)
    return json.loads(out)["diagnostics"]


def where(capsys, workspace: Path, name: str = "pg") -> list[dict]:
    assert main(["where", name, "--format", "json", "--workspace", str(workspace), "--runtime", "agh"]) == 0
    return json.loads(capsys.readouterr().out)["entries"]


def codes_for(diags: list[dict], code: str) -> list[dict]:
    return [d for d in diags if d["code"] == code]


BAD_METAS = {
    "not-json": "{slug: pg",
    "empty-file": "",
    "binary": b"\xff\xfe\x00\x01",
    "array": "[1, 2]",
    "string": '"pg"',
    "missing-slug": {k: v for k, v in GOOD_META.items() if k != "slug"},
    "missing-registry": {k: v for k, v in GOOD_META.items() if k != "registry"},
    "missing-version": {k: v for k, v in GOOD_META.items() if k != "version"},
    "missing-installed_at": {k: v for k, v in GOOD_META.items() if k != "installed_at"},
    "non-string-version": dict(GOOD_META, version=1.2),
    "empty-slug": dict(GOOD_META, slug=""),
    "null-registry": dict(GOOD_META, registry=None),
    "deeply-nested": "[" * 100_000,
}


@pytest.mark.parametrize("case", sorted(BAD_METAS))
def test_bad_metadata_is_mc001_and_blocks(case, workspace, agh_home, capsys):
    skill(workspace / ".agh" / "skills", "unrelated")
    market_skill(agh_home, BAD_METAS[case])
    diags = check_json(capsys, workspace, agh_home)
    mc001 = codes_for(diags, "MC001")
    assert mc001 and all(d["path"].endswith(".agh-meta.json") for d in mc001), diags
    assert any("blocks" in d["message"] for d in mc001)
    entries = where(capsys, workspace)
    assert entries and entries[0]["tier"] == "marketplace" and entries[0]["blocked"] is True, entries
    assert not entries[0]["resolved_to_winner"]


@pytest.mark.parametrize("digest", [123, "md5:" + "0" * 32, "sha256:abc", "sha256:" + "0" * 64])
def test_a_hash_skill_ls_cannot_verify_warns_and_never_blocks(digest, workspace, agh_home, capsys):
    """Issue 23 reading: "Load-time hash verification must pass", but the hash's format and input
    (SKILL.md alone, or the whole directory) are not documented: a hash that is not SHA-256 of
    SKILL.md's bytes is a warning, and the copy is not blocked."""
    path = market_skill(agh_home, GOOD_META)
    (path.parent / ".agh-meta.json").write_text(json.dumps(dict(GOOD_META, hash=digest)))
    mc001 = codes_for(check_json(capsys, workspace, agh_home), "MC001")
    assert [d["severity"] for d in mc001] == ["warning"] and "AGH blocks this marketplace skill" not in mc001[0]["message"]
    assert where(capsys, workspace)[0]["blocked"] is False


def test_hash_of_skill_md_is_verified_and_an_edit_after_install_warns(workspace, agh_home, capsys):
    path = market_skill(agh_home, GOOD_META)
    meta = dict(GOOD_META, hash=sha(path))
    (path.parent / ".agh-meta.json").write_text(json.dumps(meta))
    assert not codes_for(check_json(capsys, workspace, agh_home), "MC001")
    path.write_text(path.read_text() + "\nEdited after install.\n")
    mc001 = codes_for(check_json(capsys, workspace, agh_home), "MC001")
    assert mc001 and "not the SHA-256 of SKILL.md" in mc001[0]["message"]
    assert where(capsys, workspace)[0]["blocked"] is False


def test_uppercase_hex_hash_matches(workspace, agh_home, capsys):
    path = market_skill(agh_home, GOOD_META)
    (path.parent / ".agh-meta.json").write_text(json.dumps(dict(GOOD_META, hash=sha(path).upper().replace("SHA256", "sha256"))))
    assert not codes_for(check_json(capsys, workspace, agh_home), "MC001")


def test_valid_metadata_loads_as_marketplace(workspace, agh_home, capsys):
    market_skill(agh_home, GOOD_META)
    diags = check_json(capsys, workspace, agh_home)
    assert not codes_for(diags, "MC001") and not codes_for(diags, "MC002")
    entries = where(capsys, workspace)
    assert entries[0]["tier"] == "marketplace" and entries[0]["blocked"] is False and entries[0]["resolved_to_winner"]


def test_blocked_marketplace_copy_shadows_nothing(workspace, agh_home, tmp_path, capsys):
    bundled = tmp_path / "bundled"
    skill(bundled / "skills", "pg", description="Bundled pg.")
    write(workspace / ".skill-ls.toml", f'[agh]\nbundled_roots = ["{bundled}"]\n', dedent=False)
    market_skill(agh_home, {k: v for k, v in GOOD_META.items() if k != "slug"})  # invalid metadata: blocked
    entries = where(capsys, workspace)
    winner = [e for e in entries if e["resolved_to_winner"]]
    assert len(winner) == 1 and winner[0]["tier"] == "bundled"
    assert any(e["tier"] == "marketplace" and e["blocked"] for e in entries)
    assert main(["catalog", "--workspace", str(workspace), "--runtime", "agh", "--format", "json"]) == 0
    cat = json.loads(capsys.readouterr().out)
    assert [s["tier"] for s in cat["skills"] if s["name"] == "pg"] == ["bundled"]


# -- MC002: consent for a marketplace skill's MCP servers ---------------------------------------------
def _config(agh_home: Path, allowed) -> None:
    write(agh_home / "config.toml", f"[skills]\nallowed_marketplace_mcp = {json.dumps(allowed)}\n", dedent=False)


@pytest.mark.parametrize("where_declared", ["frontmatter", "sidecar", "sidecar-snake"])
def test_servers_without_consent_are_mc002(where_declared, workspace, agh_home, capsys):
    extra = SERVERS if where_declared == "frontmatter" else ""
    path = market_skill(agh_home, GOOD_META, extra=extra)
    if where_declared.startswith("sidecar"):
        key = "mcpServers" if where_declared == "sidecar" else "mcp_servers"
        write(path.parent / "mcp.json", json.dumps({key: {"pg": {"command": "pg-mcp"}}}), dedent=False)
    _config(agh_home, ["someone-else", "hub:other"])
    mc002 = codes_for(check_json(capsys, workspace, agh_home), "MC002")
    assert len(mc002) == 1 and "pg-tools" in mc002[0]["message"] and mc002[0]["severity"] == "warning"


@pytest.mark.parametrize("key", ["slug", "registry:slug", "hash"])
def test_consent_key_allows_servers(key, workspace, agh_home, capsys):
    path = market_skill(agh_home, GOOD_META, extra=SERVERS)
    digest = sha(path)
    (path.parent / ".agh-meta.json").write_text(json.dumps(dict(GOOD_META, hash=digest)))
    allowed = {"slug": "pg-tools", "registry:slug": "hub:pg-tools", "hash": digest}[key]
    _config(agh_home, [allowed])
    diags = check_json(capsys, workspace, agh_home)
    assert not codes_for(diags, "MC002") and not codes_for(diags, "MC001")


@pytest.mark.parametrize("config", ["", "[skills\n", "skills = 3\n", "[skills]\nallowed_marketplace_mcp = 'pg-tools'\n",
                                    "[skills]\nallowed_marketplace_mcp = [1, {a = 2}]\n", None])
def test_missing_or_malformed_consent_config_means_no_consent(config, workspace, agh_home, capsys):
    market_skill(agh_home, GOOD_META, extra=SERVERS)
    if config is not None:
        write(agh_home / "config.toml", config, dedent=False)
    assert len(codes_for(check_json(capsys, workspace, agh_home), "MC002")) == 1


def test_no_servers_no_mc002_and_user_skills_never_need_consent(workspace, agh_home, capsys):
    market_skill(agh_home, GOOD_META)  # marketplace, but no servers
    skill(agh_home / "skills", "mine", extra=SERVERS)  # user tier (no .agh-meta.json)
    assert not codes_for(check_json(capsys, workspace, agh_home), "MC002")


def test_blocked_marketplace_skill_gets_no_mc002(workspace, agh_home, capsys):
    market_skill(agh_home, {"slug": "pg-tools"}, extra=SERVERS)
    diags = check_json(capsys, workspace, agh_home)
    assert codes_for(diags, "MC001") and not codes_for(diags, "MC002")
