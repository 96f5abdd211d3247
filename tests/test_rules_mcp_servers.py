"""MCP server definitions (MS001-MS006) in mcp.json, SKILL.md metadata and agent files."""
from __future__ import annotations

import json

from conftest import check_tree, diags_for, skill, write

from skill_ls.core.mcp_servers import secret_in, server_findings, unpinned_package
from skill_ls.core.model import Severity

GH = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def pos(d):
    return d.span.start_line, d.span.start_col, d.span.end_col


def sidecar(workspace, servers, *, flat=False):
    f = skill(workspace / ".agh" / "skills", "a")
    path = f.parent / "mcp.json"
    path.write_text(json.dumps(servers if flat else {"mcpServers": servers}, indent=2) + "\n", encoding="utf-8")
    return path


def test_ms001_command_or_url_matching_type(workspace):
    p = sidecar(workspace, {"docs": {"type": "http"}, "none": {"args": ["x"]}, "remote": {"url": "https://x.io/mcp"},
                            "ok": {"command": "node", "args": ["s.js"]}, "web": {"type": "sse", "url": "https://y/s"}})
    ds = diags_for(check_tree(workspace), p, "MS001")
    assert [(pos(d), d.severity) for d in ds] == [((3, 6, 12), Severity.ERROR), ((5, 4, 10), Severity.ERROR),
                                                  ((11, 6, 11), Severity.WARNING)]
    assert "no 'url'" in ds[0].message and "neither" in ds[1].message and "type: http" in ds[2].message


def test_ms002_plain_http_to_remote_host(workspace):
    p = sidecar(workspace, {"a": {"type": "http", "url": "http://mcp.example.com/x"},
                            "b": {"type": "http", "url": "http://localhost:3000/mcp"}})
    [d] = diags_for(check_tree(workspace), p, "MS002")
    assert pos(d) == (4, 6, 11) and "mcp.example.com" in d.message


def test_ms003_literal_secrets(workspace):
    p = sidecar(workspace, {"gh": {"command": "srv", "env": {"GITHUB_TOKEN": GH, "OTHER": "${OTHER}"}},
                            "api": {"command": "srv", "args": ["--api-key", "Zq8vN2xK7pL4wR9tY3mB6cD1"]},
                            "hdr": {"type": "http", "url": "https://x/mcp", "headers": {"X-Api-Key": "your-key-here"}}})
    ds = diags_for(check_tree(workspace), p, "MS003")
    assert [(pos(d), d.severity) for d in ds] == [((5, 8, 22), Severity.ERROR), ((11, 6, 12), Severity.WARNING)]
    assert "a GitHub token" in ds[0].message and "GITHUB_TOKEN" in ds[0].message
    assert secret_in("ANTHROPIC_API_KEY", "sk-ant-api03-" + "x" * 30) == "an Anthropic API key"
    assert secret_in("AWS", "AKIAIOSFODNN7EXAMPLE") == "an AWS access key id"
    assert secret_in("TOKEN", "<your token>") is None and secret_in("NAME", "a" * 40) is None


def test_ms004_unpinned_packages():
    assert unpinned_package("npx", ["-y", "@modelcontextprotocol/server-github"]) == "@modelcontextprotocol/server-github"
    assert unpinned_package("npx", ["-y", "chrome-devtools-mcp@latest"]) == "chrome-devtools-mcp@latest"
    assert unpinned_package("npx", ["-y", "@scope/pkg@1.2.3"]) is None
    assert unpinned_package("uvx", ["mcp-server-git"]) == "mcp-server-git"
    assert unpinned_package("uvx", ["mcp-server-git==0.6.2"]) is None
    assert unpinned_package("uvx", ["--from", "git+https://x", "tool"]) == "git+https://x"
    assert unpinned_package("node", ["server.js"]) is None


def test_ms004_url_and_git_sources_pinned_by_commit():
    # Corpus review (issue 25): a plugin's `npx -y https://github.com/o/r/archive/<commit>.tar.gz` was
    # reported unpinned, with the advice to append '@1.2.3' to the URL.
    sha = "26579fef93bf519bd5c9c3b6b2add272f0652615"
    assert unpinned_package("npx", ["-y", f"https://github.com/fablerlabs/x402-tools/archive/{sha}.tar.gz"]) is None
    assert unpinned_package("npx", ["-y", "github:o/r#1a2b3c4"]) is None
    assert unpinned_package("npx", ["-y", "https://registry.npmjs.org/p/-/p-1.2.3.tgz"]) is None
    assert unpinned_package("uvx", ["--from", f"git+https://github.com/o/r@{sha}", "tool"]) is None
    moving = "https://github.com/o/r/archive/main.tar.gz"
    assert unpinned_package("npx", ["-y", moving]) == moving
    assert unpinned_package("npx", ["-y", "git+https://github.com/o/r.git"]) == "git+https://github.com/o/r.git"
    [f] = [f for f in server_findings("s", {"command": "npx", "args": ["-y", moving]}) if f.code == "MS004"]
    assert "pin it to a commit or a released tarball" in f.message and "@1.2.3" not in f.message


def test_ms004_ms005_ms006_in_a_sidecar(workspace):
    p = sidecar(workspace, {"gh": {"command": "npx", "args": ["-y", "server-github"]},
                            "lan": {"command": "srv", "args": ["--host", "0.0.0.0"]}, "empty": {}})
    res = check_tree(workspace)
    [d4] = diags_for(res, p, "MS004")
    [d5] = diags_for(res, p, "MS005")
    [d6] = diags_for(res, p, "MS006")
    assert pos(d4) == (4, 6, 12) and pos(d5) == (11, 6, 12) and pos(d6) == (16, 4, 11)


def test_duplicate_servers_in_json(workspace):
    f = skill(workspace / ".agh" / "skills", "a")
    p = f.parent / "mcp.json"
    p.write_text('{"mcpServers": {\n  "db": {"command": "a"},\n  "db": {"command": "b"}\n}}\n', encoding="utf-8")
    [d] = diags_for(check_tree(workspace), p, "MS006")
    assert "declared twice" in d.message and d.span.start_line == 1


def test_amp_flat_map_is_accepted(workspace):
    p = sidecar(workspace, {"chrome": {"command": "npx", "args": ["-y", "chrome-devtools-mcp@0.9.0"],
                                       "includeTools": ["navigate_page"]}}, flat=True)
    res = check_tree(workspace)
    [d] = diags_for(res, p, "MC001")
    assert d.severity == Severity.INFORMATION and "Amp" in d.message
    assert not [d for d in diags_for(res, p) if d.code.startswith("MS")]


def test_skill_frontmatter_servers(workspace):
    f = skill(workspace / ".agh" / "skills", "a", extra=(
        "metadata:\n  agh:\n    mcp_servers:\n      - name: gh\n        command: npx\n        args: [-y, server-github]\n"
        "        env:\n          GITHUB_TOKEN: " + GH + "\n      - name: gh\n        command: node\n"))
    res = check_tree(workspace)
    [d3] = diags_for(res, f, "MS003")
    assert pos(d3) == (10, 10, 22)
    [d4] = diags_for(res, f, "MS004")
    assert d4.span.start_line == 8
    [d6] = diags_for(res, f, "MS006")
    assert d6.span.start_line == 11


def test_subagent_mcp_servers(workspace):
    a = write(workspace / ".claude" / "agents" / "r.md",
              "---\nname: r\ndescription: Reviews.\nmcpServers:\n  - github\n  - remote:\n      type: http\n"
              "      url: http://mcp.example.com/x\n---\nReview.\n")
    res = check_tree(workspace)
    [d] = diags_for(res, a, "MS002")
    assert d.span.start_line == 7 and d.runtime == "claude-code"
    assert not diags_for(res, a, "MS001")


def test_clean_servers_have_no_findings(workspace):
    p = sidecar(workspace, {"gh": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github@2025.4.8"],
                                   "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
                            "local": {"command": "srv", "args": ["--host", "127.0.0.1"]},
                            "docs": {"type": "http", "url": "https://docs.example.com/mcp",
                                     "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}}})
    found = [d for d in diags_for(check_tree(workspace), p) if d.code.startswith("MS")]
    # an AGH skill: AGH sends "${VAR}" literally (MS007, issue 23); nothing else is wrong
    assert sorted(d.message.split(" to ")[0] for d in found) == [
        "MCP server 'docs' sets headers.Authorization", "MCP server 'gh' sets env.GITHUB_TOKEN"]
    assert {d.code for d in found} == {"MS007"}
