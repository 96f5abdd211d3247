"""MCP server definitions wherever skills and agents declare them, as plain values with positions.

Sources of definitions: a skill's `mcp.json` (AGH: `mcpServers`/`mcp_servers` wrapper; Amp: a flat
map of servers, https://ampcode.com/news/lazy-load-mcp-with-skills), `metadata.agh.mcp_servers` in
SKILL.md, AGH `AGENT.md` `mcp_servers`, Claude Code subagent `mcpServers`, and Claude Code plugin
`.mcp.json`. `server_findings` says what is wrong with one server (rules/mcp_servers.py reports it).
Reading only: nothing here starts a server or opens a connection.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

from skill_ls.core.index import read_bytes
from skill_ls.core.model import Span
from skill_ls.core.parse.data import DataError, json_value
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.records import dataclass, field
from skill_ls.core.runtimes.spec import str_items

# Claude Code `.mcp.json` transports (https://code.claude.com/docs/en/mcp): stdio needs `command`;
# http and sse need `url`. `streamable-http` and `ws` are accepted spellings of other clients.
URL_TYPES = ("http", "sse", "streamable-http", "streamableHttp", "ws")
STDIO_TYPES = ("stdio",)
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0", "host.docker.internal")

TOKEN_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an Anthropic API key", lazy_pattern(r"sk-ant-[A-Za-z0-9_-]{20,}")),
    ("an OpenAI API key", lazy_pattern(r"sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}")),
    ("a GitHub token", lazy_pattern(r"(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("an AWS access key id", lazy_pattern(r"(?:AKIA|ASIA)[0-9A-Z]{16}")),
    ("a Slack token", lazy_pattern(r"xox[abposr]-[A-Za-z0-9-]{10,}")),
    ("a Google API key", lazy_pattern(r"AIza[0-9A-Za-z_-]{35}")),
)
SECRET_NAME = lazy_pattern(r"(?i)(?:^|[_-])(?:api[_-]?key|key|token|secret|password|passwd|pat|auth)$")
PLACEHOLDER = lazy_pattern(r"(?i)^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$|^<.*>$|^\{\{.*\}\}$|your|xxx|changeme|example|"
                         r"placeholder|replace|dummy|redacted|\*\*\*|\.\.\.")
NOT_SECRETS = frozenset({"disabled", "enabled", "required", "optional", "inherit", "anonymous", "localhost"})
WEAKER_SECRETS = ("a high-entropy literal", "a literal secret")  # warnings, not errors (MS003)
RUNNERS = {"npx": "npm", "bunx": "npm", "pnpx": "npm", "uvx": "pypi"}


@dataclass
class ServerFinding:
    """A problem found in one MCP server entry, before it is placed in a document (the MS rules)."""

    code: str  # MS001-MS006
    message: str
    locate: tuple[str, ...] = ()  # key path inside the server to point at (empty: the server itself)
    warning: bool = False  # a weaker form of an error-level code


def entropy(text: str) -> float:
    counts: dict[str, int] = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    return -sum(c / len(text) * math.log2(c / len(text)) for c in counts.values()) if text else 0.0


def secret_in(name: str, value: str) -> str | None:
    """What kind of secret `value` (named `name`) is, or None."""
    for kind, pattern in TOKEN_PATTERNS:
        if pattern.search(value):
            return kind
    v = value.strip()
    if SECRET_NAME.search(name) and len(v) >= 16 and " " not in v and not PLACEHOLDER.search(v) \
            and "$" not in v and entropy(v) >= 3.5:
        return "a high-entropy literal"
    if SECRET_NAME.search(name) and len(v) >= 8 and " " not in v and not PLACEHOLDER.search(v) and "$" not in v \
            and v.lower() not in NOT_SECRETS and not v.startswith(("/", "./", "~", "http://", "https://")):
        return "a literal secret"  # not a known token format, but a value where a reference belongs
    return None


def unpinned_package(command: str, args: list[str]) -> str | None:
    """The package a `npx`/`uvx` command runs without a fixed version, or None."""
    base = command.rsplit("/", 1)[-1]
    if base not in RUNNERS:
        return None
    rest = [a for a in args if isinstance(a, str)]
    i = 0
    while i < len(rest) and rest[i].startswith("-"):
        if rest[i] in ("--from", "-p", "--package", "--with") and i + 1 < len(rest):
            pkg = rest[i + 1]
            return None if _pinned(pkg, RUNNERS[base]) else pkg
        i += 1
    if i >= len(rest):
        return None
    pkg = rest[i]
    if pkg.startswith((".", "/")) or pkg.endswith((".js", ".py", ".ts")):
        return None
    return None if _pinned(pkg, RUNNERS[base]) else pkg


_SOURCE_PREFIXES = ("git+", "git:", "github:", "gitlab:", "bitbucket:", "gist:", "file:", "http:", "https:")
# A commit id as a path segment or after '#'/'@' (a 40-hex id anywhere; a short one must hold a digit),
# or a version in a tarball's name (`pkg-1.2.3.tgz`, `archive/v1.2.3.tar.gz`).
_FIXED_SOURCE = lazy_pattern(r"(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-f])|[#@](?=[0-9a-f]*\d)[0-9a-f]{7,39}\b"
                           r"|[/-]v?\d+\.\d+(?:\.\d+)*(?:[-+][\w.]+)?\.(?:tgz|tar\.gz|zip|whl)$", re.I)


def is_source_spec(pkg: str) -> bool:
    """A package given by URL or git source (`https://.../archive/<sha>.tar.gz`, `git+https://...#<sha>`)."""
    return pkg.lower().startswith(_SOURCE_PREFIXES) or "://" in pkg


def _pinned(pkg: str, registry: str) -> bool:
    if is_source_spec(pkg):  # a URL or git source is fixed by a commit id or a versioned tarball, not '@x.y'
        return bool(_FIXED_SOURCE.search(pkg))
    if registry == "pypi":
        return bool(re.search(r"(==|@)\d", pkg))
    name, at, version = pkg.rpartition("@") if pkg.count("@") > (1 if pkg.startswith("@") else 0) else (pkg, "", "")
    return bool(at) and bool(re.match(r"^v?\d", version))


SHELL_PLACEHOLDER = lazy_pattern(r"\$(?:\{[A-Za-z_][A-Za-z0-9_]*(?::?-[^}]*)?\}|[A-Za-z_][A-Za-z0-9_]*)")


def server_findings(name: str, server: Any, *, shape_checked: bool = True,
                    literal: tuple[str, str] | None = None) -> list[ServerFinding]:
    """Everything wrong with one server definition (`shape_checked=False`: a runtime whose own rule
    already checks command/url, like AGH's AG004). `literal`: (runtime title, where a secret belongs
    instead) for a runtime that sends the definition's values literally, expanding no `${VAR}`."""
    out: list[ServerFinding] = []
    if not isinstance(server, dict) or not server:
        out.append(ServerFinding("MS006", f"MCP server '{name}' is empty: give it a 'command' (stdio) or a 'url'"))
        return out
    kind = server.get("type", server.get("transport"))
    raw_command, raw_url = server.get("command"), server.get("url")
    command = raw_command if isinstance(raw_command, str) else ""
    url = raw_url if isinstance(raw_url, str) else ""
    has_command, has_url = bool(command.strip()), bool(url.strip())
    if shape_checked:
        if kind is not None and kind not in URL_TYPES + STDIO_TYPES:
            out.append(ServerFinding("MS001", f"MCP server '{name}' has type {kind!r}: use 'stdio' (with 'command'), "
                                     "'http' or 'sse' (with 'url')", ("type",)))
        elif kind in URL_TYPES and not has_url:
            out.append(ServerFinding("MS001", f"MCP server '{name}' is type '{kind}' but has no 'url'",
                                     ("type",)))
        elif kind in STDIO_TYPES and not has_command:
            out.append(ServerFinding("MS001", f"MCP server '{name}' is type 'stdio' but has no 'command'", ("type",)))
        elif kind is None and not has_command and not has_url:
            out.append(ServerFinding("MS001", f"MCP server '{name}' has neither 'command' (stdio) nor 'url' "
                                     "(http/sse): it cannot start"))
        elif kind is None and has_url and not has_command:
            out.append(ServerFinding("MS001", f"MCP server '{name}' has a 'url' but no 'type': set 'type: http' (or "
                                     "'sse'); without it Claude Code reads a stdio server and finds no 'command'",
                                     ("url",), warning=True))
    if has_url:
        parts = url_parts(url)
        if parts is None:
            out.append(ServerFinding("MS001", f"MCP server '{name}' has a 'url' that is not a URL ({url_problem(url)}): "
                                     "the client cannot connect to it", ("url",)))
        scheme, host = parts or ("", "")
        if scheme == "http" and host not in LOCAL_HOSTS:
            out.append(ServerFinding("MS002", f"MCP server '{name}' talks plain http to '{host}': requests, tokens and "
                                     "tool results travel unencrypted; use https", ("url",)))
    for section in ("env", "headers"):
        values = server.get(section)
        if isinstance(values, dict):
            for key, value in values.items():
                if isinstance(value, str):
                    kind_ = secret_in(str(key), value)
                    advice = (f"{literal[1]} instead of committing the secret ({literal[0]} expands no \"${{VAR}}\")"
                              if literal else "reference an environment variable (\"${VAR}\") instead of committing "
                              "the secret")
                    if kind_:
                        out.append(ServerFinding("MS003", f"MCP server '{name}' has {kind_} written in "
                                                 f"{section}.{key}: {advice}", (section, str(key)),
                                                 warning=kind_ in WEAKER_SECRETS))
                    elif literal and SHELL_PLACEHOLDER.search(value):
                        out.append(ServerFinding("MS007", f"MCP server '{name}' sets {section}.{key} to {value!r}: "
                                                 f"{literal[0]} sends it as a literal string and does not expand shell "
                                                 f"placeholders, so the server receives these characters; "
                                                 f"{literal[1]} with the real value", (section, str(key))))
    args = server.get("args")
    arg_list = str_items(args)
    for i, arg in enumerate(arg_list):
        flag = arg_list[i - 1] if i else ""
        label = flag.lstrip("-") if flag.startswith("-") else ""
        kind_ = secret_in(label, arg) if label else next((k for k, p in TOKEN_PATTERNS if p.search(arg)), None)
        if kind_:
            out.append(ServerFinding("MS003", f"MCP server '{name}' passes {kind_} in args: " + (
                f"{literal[1]} instead" if literal else "read it from the environment instead"), ("args", str(i)),
                warning=kind_ in WEAKER_SECRETS))
        elif literal and SHELL_PLACEHOLDER.search(arg):
            out.append(ServerFinding("MS007", f"MCP server '{name}' passes {arg!r} in args: {literal[0]} does not "
                                     "expand shell placeholders in MCP server definitions, so the server receives "
                                     "these characters", ("args", str(i))))
    if has_command:
        pkg = unpinned_package(command.strip(), arg_list)
        if pkg:
            advice = ("pin it to a commit or a released tarball" if is_source_spec(pkg)
                      else f"pin it ('{pkg.split('@latest')[0]}@1.2.3')")
            out.append(ServerFinding("MS004", f"MCP server '{name}' runs '{pkg}' without a fixed version: every start "
                                     f"may run different code; {advice}", ("args",)))
    bind = [a for a in arg_list + str_items(list((server.get("env") or {}).values())
                                             if isinstance(server.get("env"), dict) else [])
            if "0.0.0.0" in a]
    if bind or (has_url and "0.0.0.0" in url):
        out.append(ServerFinding("MS005", f"MCP server '{name}' binds or connects to 0.0.0.0: a local server listening "
                                 "on every interface is reachable from the network; use 127.0.0.1",
                                 ("url",) if not bind else ("args",)))
    return out


def url_parts(url: str) -> tuple[str, str] | None:
    """(scheme, lower-case host) of `url`, or None when it is not a URL `urllib` can read: every
    hostile value (`http://[x`, a netloc that changes under NFKC such as `https://a\uff03b/`, a port
    past 65535) is a value, never an exception (issue 24, class 1)."""
    from urllib.parse import urlsplit  # (only for a server with a url: urllib.parse is ~1.5 ms of a start)

    try:
        parsed = urlsplit(url.strip())
        return parsed.scheme, (parsed.hostname or "").lower()
    except (ValueError, TypeError, UnicodeError):
        return None


def url_problem(url: str) -> str:
    """Why `url_parts(url)` is None, in one line."""
    from urllib.parse import urlsplit

    try:
        urlsplit(url.strip()).hostname
    except (ValueError, TypeError, UnicodeError) as exc:
        return " ".join(str(exc).split())[:200] or type(exc).__name__
    return "unreadable"


@dataclass
class ServerFile:
    """A JSON file of MCP servers (skill `mcp.json`, plugin `.mcp.json`) with its text for positions."""

    path: str
    text: str = ""
    servers: dict[str, Any] = field(default_factory=dict)
    shape: str = "none"  # wrapped | flat | none
    duplicates: list[str] = field(default_factory=list)
    ok: bool = False


def read_server_file(path: str) -> ServerFile:
    data, error, _ = read_bytes(path)
    out = ServerFile(path)
    if error:
        return out
    out.text = data.decode("utf-8-sig", errors="replace")
    dups: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: dict[str, Any] = {}
        for k, v in items:
            if k in seen and isinstance(v, dict):
                dups.append(k)
            seen[k] = v
        return seen

    try:
        value = json_value(out.text, object_pairs_hook=pairs)
    except DataError:
        return out
    if not isinstance(value, dict):
        return out
    wrapped = value.get("mcpServers", value.get("mcp_servers"))
    if isinstance(wrapped, dict):
        out.servers, out.shape = dict(wrapped), "wrapped"
    elif value and all(isinstance(v, dict) for v in value.values()):
        out.servers, out.shape = dict(value), "flat"
    out.duplicates = dups
    out.ok = out.shape != "none"
    return out


def locate_in_json(text: str, name: str, path: tuple[str, ...]) -> Span:
    """Best position of server `name` (and a key path inside it) in JSON text: the key, else the server."""
    def find(needle: str, start: int) -> int:
        return text.find(needle, start)

    at = find(json.dumps(name) + ":", 0)
    if at < 0:
        at = find(json.dumps(name), 0)
    if at < 0:
        return Span(0, 0, 0, 0)
    end = at + len(json.dumps(name))
    for part in path:
        if part.isdigit():
            continue
        nxt = find(json.dumps(part), end)
        if nxt < 0:
            break
        at, end = nxt, nxt + len(json.dumps(part))
    line = text.count("\n", 0, at)
    col = at - (text.rfind("\n", 0, at) + 1)
    return Span(line, col, line, col + (end - at))
