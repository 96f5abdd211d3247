"""Issue 24: values, not just files, are hostile — the typed-value fuzzer.

Hostile values (integers past Python's 4,300-digit limit and `0x` integers whose decimal form is past
it, huge exponents, invalid URLs, regular expressions past the engine's limits, deep nesting, NULs,
lone surrogates, control and bidi characters, every YAML/TOML/JSON type) go into every field of every
file kind skill-ls reads: skills, AGH agents, Claude Code subagents, plugin commands, plugin and
marketplace manifests, hooks, MCP configurations (skill sidecar, plugin `.mcp.json`, frontmatter),
`.agh-meta.json`, `agents/openai.yaml`, `capabilities.toml` and the configuration. Each example is a
workspace of `FILES` such files next to a sentinel skill with a known finding; then every rule
(`check`), every output format, hover and completion at every field, and every command (catalog for
every runtime, `where`, `preview`, `portability`) run over it.

A case is one (file kind, field, value). It passes when nothing raises (a configuration error is
`ConfigError`, a catalog refusal `CatalogError`/`EffectiveSetError`, a preview `PreviewError`), no
file gets SL001 (a failure caught by a boundary is a bug found), the sentinel keeps its finding,
every text and GitHub line is a finding of its own (a line break in a value forges none), and every
output is valid UTF-8 (JSON and SARIF parse).

Counts follow the Hypothesis profile: `ci` (default) a few workspaces; `long` 2,000 workspaces of 50
cases (100,000 cases), recorded in docs/reliability.md.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

FILES = int(os.environ.get("SKILL_LS_FUZZ_FILES", "50"))  # cases per workspace (one index build serves them all)

# -- values ----------------------------------------------------------------------------------------
BIG = "1" * 4301
HUGE = [BIG, "-" + BIG, "0x" + "f" * 3600, "0o" + "7" * 5000, "1e99999", "-1e99999", "1" * 400 + ".5e-99999",
        "9" * 4300, ".inf", ".nan", "0b" + "1" * 15000]
URLS = ["http://[x", "https://a\uff03b/", "http://h:99999999/", "http://[::1", "https://\u2100/", "//", "::",
        "http://a\x00b/", "file:///etc/passwd", "https://exa mple.com", "http://%zz/", "ht!tp://x", "https://0.0.0.0:1/",
        "http://user:pw@h:-1/", "https://" + "a" * 70000]
REGEXES = ["x{4294967296}", "x{4294967295}", "(" * 1200 + ")" * 1200, "(a+)+$", "[", "\\", "(?P<a>)(?P<a>)",
           "a{1000000}{1000000}", "(?<!a+)b", "\\p{L}", "*", "(?", "x" * 20000]
STRINGS = ["", " ", "\x00", "a\x00b", "\ud800", "\udcff", "\ud83d", "\u202eevil", "\x1b]52;c;ZXZpbA==\x07",
           "\x1b[2J", "line\nbreak", "line\u2028sep", "\r", "\t", "%", "::error::x", "${HOME}", "$ARGUMENTS",
           "!`rm -rf /`", "</skill>", '"', "'", "`", "\\", "null", "~", "yes", "0755", "1:30", "2024-01-01",
           "\U0001F600" * 1000, "x" * 100_000, "é" * 5000]
SCALARS = [None, True, False, 0, -1, 2**63, 2**64 + 1, 1.5, float("inf"), float("nan")]


def _nested(depth: int, leaf: object, kind: str) -> object:
    for _ in range(depth):
        leaf = [leaf] if kind == "list" else {"k": leaf}
    return leaf


# A value is (raw text for YAML/TOML/JSON, or None) and (a Python value rendered per format).
RAW = st.sampled_from(HUGE + REGEXES)
VALUES = st.one_of(
    st.sampled_from(HUGE).map(lambda t: ("raw", t)),
    st.sampled_from(URLS + REGEXES + STRINGS).map(lambda t: ("str", t)),
    st.sampled_from(SCALARS).map(lambda v: ("py", v)),
    st.tuples(st.sampled_from([1, 2, 10, 150, 600, 1100]), st.sampled_from(["list", "dict"]),
              st.sampled_from(STRINGS[:6] + [BIG])).map(lambda t: ("py", _nested(t[0], t[2], t[1]))),
    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20)),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                 max_leaves=10).map(lambda v: ("py", v)),
)


def _json(value: tuple[str, object]) -> str:
    kind, v = value
    if kind == "raw":
        return str(v)  # not JSON for some (0x…, .inf): a parse error is a case too
    try:
        return json.dumps(v, ensure_ascii=True, allow_nan=True)
    except (ValueError, RecursionError):
        return "null"


def _yaml(value: tuple[str, object]) -> str:
    kind, v = value
    if kind == "raw":
        return str(v)
    if kind == "str" and isinstance(v, str) and v and v.isprintable() and not v[0] in "!&*-?|>'\"%@`[]{}#,:" \
            and ": " not in v and " #" not in v:
        return v  # plain, as people write it
    return _json(value)  # JSON is flow YAML (escapes included)


def _toml(value: tuple[str, object]) -> str:
    kind, v = value
    if kind == "raw":
        return str(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return '""'
    return _json(value) if not isinstance(v, dict) else "{ k = " + _json(("py", _json(value)[:50])) + " }"


# -- file kinds: where a value can go ----------------------------------------------------------------
SKILL_FIELDS = ["name", "description", "version", "license", "compatibility", "allowed-tools", "metadata", "model",
                "argument-hint", "arguments", "disable-model-invocation", "user-invocable", "context", "agent",
                "hooks", "when_to_use", "slug", "tags", "mcp", "paths", "effort", "shell", "x-custom"]
AGENT_FIELDS = ["name", "description", "provider", "model", "tools", "skills", "mcp", "version", "prompt", "x"]
SUBAGENT_FIELDS = ["name", "description", "tools", "disallowedTools", "model", "permissionMode", "mcpServers", "hooks",
                   "skills", "color", "memory", "maxTurns", "x"]
COMMAND_FIELDS = ["description", "allowed-tools", "argument-hint", "model", "disable-model-invocation", "x"]


def _frontmatter(fields: dict[str, str], name: str) -> str:
    lines = [f"{k}: {v}" for k, v in fields.items()]
    return "---\n" + "\n".join(lines) + "\n---\nBody that mentions skill_use(\"" + name + "\").\n"


def _case(i: int, kind: str, field: str, value: tuple[str, object]) -> list[tuple[str, str]]:
    """(relative path, text) of the files of case `i`."""
    y, j, t = _yaml(value), _json(value), _toml(value)
    n = f"c{i}"
    base_skill = {"name": n, "description": f"Case {i}. Use when fuzzing."}
    if kind == "skill":
        fields = {**base_skill, field: y}
        return [(f".claude/skills/{n}/SKILL.md", _frontmatter(fields, n))]
    if kind == "agh-skill":
        fields = {**base_skill, field: y}
        return [(f".agh/skills/{n}/SKILL.md", _frontmatter(fields, n))]
    if kind == "hooks":
        if field == "json":
            text = '{"PreToolUse": [{"matcher": %s, "hooks": [{"type": "command", "command": "echo", "timeout": %s}]}]}' \
                % (j, j)
        else:
            text = "{PreToolUse: [{matcher: " + y + ", hooks: [{type: command, command: echo, timeout: " + y + "}]}]}"
        return [(f".claude/skills/{n}/SKILL.md", _frontmatter({**base_skill, "hooks": text}, n))]
    if kind == "agent":
        return [(f".agh/agents/{n}/AGENT.md", _frontmatter({"name": n, "provider": "openai", field: y}, n))]
    if kind == "subagent":
        return [(f".claude/agents/{n}.md", _frontmatter({"name": n, "description": "Fuzz.", field: y}, n))]
    if kind == "command":
        return [(f"plug{i}/.claude-plugin/plugin.json", '{"name": "plug%d"}' % i),
                (f"plug{i}/commands/{n}.md", _frontmatter({"description": "Fuzz.", field: y}, n))]
    if kind == "plugin":
        return [(f"plug{i}/.claude-plugin/plugin.json", '{"name": "plug%d", "%s": %s}' % (i, field, j))]
    if kind == "marketplace":
        return [(f"mkt{i}/.claude-plugin/marketplace.json",
                 '{"name": "m", "owner": {"name": "o"}, "plugins": [{"name": "p", "source": "./p", "%s": %s}]}'
                 % (field, j))]
    if kind == "mcp":
        server = '{"type": "http", "url": %s, "headers": {"Authorization": %s}, "command": %s, "args": [%s], ' \
                 '"env": {"TOKEN": %s}, "%s": %s}' % (j, j, j, j, j, field, j)
        return [(f".claude/skills/{n}/SKILL.md", _frontmatter(base_skill, n)),
                (f".claude/skills/{n}/mcp.json", '{"mcpServers": {"s": %s}}' % server)]
    if kind == "plugin-mcp":
        return [(f"plug{i}/.claude-plugin/plugin.json", '{"name": "plug%d"}' % i),
                (f"plug{i}/.mcp.json", '{"mcpServers": {"s": {"url": %s, "%s": %s}}}' % (j, field, j))]
    if kind == "meta":
        return [(f".agh/skills/{n}/SKILL.md", _frontmatter(base_skill, n)),
                (f".agh/skills/{n}/.agh-meta.json", '{"slug": "s", "registry": "r", "version": "1", '
                 '"installed_at": "2025-01-01", "%s": %s}' % (field, j))]
    if kind == "openai":
        return [(f".agents/skills/{n}/SKILL.md", _frontmatter(base_skill, n)),
                (f".agents/skills/{n}/agents/openai.yaml", f"interface:\n  {field}: {y}\npolicy:\n  x: {y}\n")]
    if kind == "capabilities":
        return [(f".agh/agents/{n}/AGENT.md", _frontmatter({"name": n, "provider": "openai"}, n)),
                (f".agh/agents/{n}/capabilities.toml", f"{field} = {t}\n[t]\nx = {t}\n")]
    raise AssertionError(kind)


KINDS = ["skill", "agh-skill", "hooks", "agent", "subagent", "command", "plugin", "marketplace", "mcp", "plugin-mcp",
         "meta", "openai", "capabilities"]
FIELDS = {"skill": SKILL_FIELDS, "agh-skill": SKILL_FIELDS, "hooks": ["yaml", "json"], "agent": AGENT_FIELDS,
          "subagent": SUBAGENT_FIELDS, "command": COMMAND_FIELDS,
          "plugin": ["name", "version", "description", "author", "skills", "agents", "commands", "hooks", "mcpServers"],
          "marketplace": ["name", "source", "version", "strict", "skills"], "mcp": ["type", "timeout", "x"],
          "plugin-mcp": ["type", "command", "x"], "meta": ["slug", "hash", "mcp_servers", "x"],
          "openai": ["display_name", "brand_color", "default_prompt", "x"], "capabilities": ["x", "tools", "y"]}
CASE = st.sampled_from(KINDS).flatmap(lambda k: st.tuples(st.just(k), st.sampled_from(FIELDS[k]), VALUES))


def scaled(factor: float):
    """Examples from the profile (`ci`, `long`), or exactly SKILL_LS_FUZZ_WORKSPACES (a long run split
    over several processes, each with its own `--hypothesis-seed`)."""
    fixed = os.environ.get("SKILL_LS_FUZZ_WORKSPACES")
    return settings(max_examples=int(fixed) if fixed else max(2, int(settings.default.max_examples * factor)),
                    suppress_health_check=list(HealthCheck), deadline=None)


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8", "surrogatepass"))


def _value_class(value: tuple[str, object]) -> str:
    kind, v = value
    if kind == "raw" or (isinstance(v, str) and v in HUGE):
        return "integers/exponents"
    if isinstance(v, str) and v in URLS:
        return "urls"
    if isinstance(v, str) and v in REGEXES:
        return "regexes"
    if isinstance(v, str):
        return "strings (NUL, surrogates, controls, huge)"
    if isinstance(v, (list, dict)):
        return "nesting and containers"
    return "scalars of every type"


def _tally(cases: list[tuple[str, str, tuple[str, object]]]) -> None:
    """With SKILL_LS_FUZZ_TALLY=<file>, one JSON line per workspace: its cases by file kind and value
    class (the per-class counts in docs/reliability.md)."""
    target = os.environ.get("SKILL_LS_FUZZ_TALLY")
    if not target:
        return
    counts: dict[str, int] = {}
    for kind, _, value in cases:
        for key in (f"kind:{kind}", f"class:{_value_class(value)}"):
            counts[key] = counts.get(key, 0) + 1
    with open(target, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(counts) + "\n")


def _one_line(text: str) -> bool:
    return "\n" not in text and "\r" not in text


@scaled(1 / 3)  # ci: 13 workspaces (650 cases); long: 2,000 workspaces (100,000 cases)
@given(st.lists(CASE, min_size=FILES, max_size=FILES))
def test_hostile_values_in_every_field_of_every_file_kind(tmp_path_factory, cases):
    from skill_ls.analysis.catalog import CatalogError, catalog_object
    from skill_ls.analysis.check import CheckOptions, run_check
    from skill_ls.analysis.effective import EffectiveSetError
    from skill_ls.analysis.preview import PreviewError, preview_skill
    from skill_ls.analysis.queries.completion import completions
    from skill_ls.analysis.queries.hover import hover
    from skill_ls.analysis.workspace import WorkspaceState
    from skill_ls.core.labels import where
    from skill_ls.core.runtimes import RUNTIMES
    from skill_ls.output import format_github, format_json, format_sarif, format_text

    base = tmp_path_factory.mktemp("values")
    home = base / "home"
    home.mkdir()
    os.environ["HOME"] = str(home)
    os.environ["AGH_HOME"] = str(home / ".agh")
    ws = base / "ws"
    sentinel = ws / ".claude" / "skills" / "sentinel" / "SKILL.md"
    _write(ws, ".claude/skills/sentinel/SKILL.md", "---\nname: Sentinel_Bad\ndescription: Watches. Use when asked.\n---\nB\n")
    for i, (kind, field, value) in enumerate(cases):
        for rel, text in _case(i, kind, field, value):
            _write(ws, rel, text)
    result = run_check(CheckOptions(paths=[str(ws)], workspace=str(ws), runtimes=[]))
    diags = result.diagnostics
    sl = [d for d in diags if d.code == "SL001"]
    assert not sl, sl[:3]
    assert any(d.path == str(sentinel) and d.code in ("SK008", "SK009") for d in diags)
    text_lines = format_text(diags, 1).splitlines()  # a line break in a value never forges a finding line
    assert all(line.startswith(str(ws)) or line.startswith((".", "/")) or "file(s) checked" in line or
               line.startswith("  ") or not line for line in text_lines), text_lines[:5]
    store = result.index.store
    json.loads(format_json(diags, 1, store).encode("utf-8").decode("utf-8"))
    json.loads(format_sarif(diags, store))
    format_text(diags, 1).encode("utf-8")
    for line in format_github(diags).splitlines():
        assert line.startswith("::"), line
    _tally(cases)
    # Hover and completion at every field of every file; every command.
    state = WorkspaceState(str(ws))
    state.load_config()
    state.install(state.build_index())
    for path in sorted({d.path for d in diags} | {str(p) for p in ws.rglob("*") if p.is_file()}):
        try:
            lines = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()[:12]
        except OSError:
            continue
        for ln, text in enumerate(lines):  # each field: its value (hover: the key's documentation or the name)
            col = min(len(text), text.find(":") + 2) if ":" in text else len(text)
            h = hover(state, path, ln, col)
            assert h is None or isinstance(h.markdown, str)
            completions(state, path, ln, col)
    index = state.index
    for rid in RUNTIMES:
        try:
            obj = catalog_object(index, rid, None)
            json.dumps(obj, ensure_ascii=True)
        except (CatalogError, EffectiveSetError) as exc:
            assert _one_line(str(exc)), exc
        for i in range(0, FILES, 7):
            where(index, rid, f"c{i}", None)
            try:
                preview_skill(index, rid, f"c{i}", None, "a b", None).as_json()
            except PreviewError as exc:
                assert _one_line(str(exc)), exc
    from skill_ls.analysis.portability import as_json, as_markdown, as_text, matrix

    rows = matrix(index, [str(ws)])
    json.dumps(as_json(rows, index.display_path), ensure_ascii=True)
    as_markdown(rows, index.display_path).encode("utf-8", "surrogateescape")
    as_text(rows, index.display_path).encode("utf-8", "surrogateescape")


CONFIG_KEYS = ["runtimes", "select", "ignore", "strict", "x", "check.x", "agh.bundled_roots", "agh.x",
               "claude-code.x", "severity.SK001", "paths", "exclude"]


@scaled(4)  # ci: 160 configurations; long: 24,000
@given(st.sampled_from(CONFIG_KEYS), VALUES, st.sampled_from([".skill-ls.toml", "pyproject.toml"]))
def test_hostile_values_in_the_configuration(tmp_path_factory, key, value, name):
    """Every configuration value is a configuration or a one-line `ConfigError` (exit 2), never a crash."""
    from skill_ls.core.config import ConfigError, load_config

    ws = tmp_path_factory.mktemp("config")
    table, _, leaf = key.rpartition(".")
    prefix = "tool.skill-ls" if name == "pyproject.toml" else ""
    header = ".".join(p for p in (prefix, table) if p)
    text = (f"[{header}]\n" if header else "") + f"{leaf} = {_toml(value)}\n"
    (ws / name).write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        load_config(ws)
    except ConfigError as exc:
        assert _one_line(str(exc)), exc
