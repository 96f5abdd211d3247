"""Configuration: `.skill-ls.toml`, `[tool.skill-ls]` in pyproject.toml, and the same keys
in camelCase from the language client. A bad configuration raises `ConfigError` with a message that
names the file and the problem; callers decide whether that is exit 2 (CLI) or a diagnostic (server).
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Any

from skill_ls.core.parse.data import DataError, toml_value
from skill_ls.core.parse.text import read_bytes
from skill_ls.core.escape import safe_text
from skill_ls.core.model import Severity
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.records import dataclass, field, fields
from skill_ls.core.runtimes import BASE_RUNTIME, RUNTIMES, skill_tree_dir_names

if TYPE_CHECKING:  # (pathlib is imported where a path is made: a check without configuration never needs it)
    from pathlib import Path

CONFIG_FILE = ".skill-ls.toml"
RUNTIME_IDS = tuple(RUNTIMES)
DRAFT_SEVERITIES = ("error", "warning", "ignore")


class ConfigError(Exception):
    """`keys`: the key path the problem is about (`("agh", "bundled_root")`), when it is about one key
    (the rest of the file can still apply: `load_config_file_lenient`); None for the whole file."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None,
                 keys: tuple[str, ...] | None = None, suggestion: str | None = None):
        super().__init__(message)
        self.path = path
        self.line = line
        self.keys = keys
        self.suggestion = suggestion  # the known key an unknown one most likely meant
        self.col: int | None = None  # where the key is written on `line` (0-based), when found

    def __str__(self) -> str:
        """One line whatever the values it quotes hold (a line break, a control character, a byte of
        a file name that is not UTF-8 are shown as escapes): the CLI's one-line error, the server's
        message and the configuration finding all print it (found by the value fuzzer, issue 24)."""
        where = f"{self.path}: " if self.path else ""
        return safe_text(f"{where}{self.args[0]}")


@dataclass(frozen=True)
class ExtraRoot:
    """A root added by configuration (`roots = [...]`), for one runtime, at a tier or the runtime's lowest."""

    path: Path
    runtime: str
    tier: str | None


@dataclass(shared_init=True)
class Config:
    """The configuration of a workspace (`.skill-ls.toml` or `[tool.skill-ls]` in pyproject.toml, or the
    same keys from the editor), with the defaults for what it leaves out."""

    runtimes: tuple[str, ...] = ("auto",)
    roots: tuple[ExtraRoot, ...] = ()
    exclude: tuple[str, ...] = ()
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: dict[str, Severity] = field(default_factory=dict)
    no_user_roots: bool = False
    agh_home: Path | None = None
    agh_bundled_roots: tuple[Path, ...] = ()
    agh_additional_roots: tuple[Path, ...] = ()
    agh_disabled: tuple[str, ...] = ()
    agh_draft_fields: str = "error"
    agh_bundled_skill_description: str = ""  # the bundled `agh` skill's text ('' = the documented excerpt)
    amp_skills_path: tuple[Path, ...] = ()
    claude_enterprise_roots: tuple[Path, ...] = ()
    claude_context_window: int | None = None  # tokens (None: the descriptor's default)
    claude_listing_budget_fraction: float | None = None
    claude_listing_budget: int | None = None  # characters, as SLASH_COMMAND_TOOL_CHAR_BUDGET
    agentcy_max_prompt_chars: int = 16_000
    source: str | None = None  # the file the configuration came from

    def __getattr__(self, name: str) -> Any:
        """A runtime setting with no field above (`Setting` of a descriptor added later): its
        default until the configuration sets it (setattr stores it on the instance)."""
        if name in RUNTIME_SETTING_DEFAULTS:
            return RUNTIME_SETTING_DEFAULTS[name]
        raise AttributeError(name)


_CONFIG_FIELDS = tuple(f.name for f in fields(Config))
_KIND_DEFAULTS: dict[str, Any] = {"path": None, "paths": (), "str": "", "strs": (), "draft": "warning", "roots": ()}
# Settings that descriptors declare and `Config` has no field for: a new runtime's settings are data
# (its `settings`), never a change here.
RUNTIME_SETTING_DEFAULTS: dict[str, Any] = {
    s.attr: s.default if s.default is not None else _KIND_DEFAULTS.get(s.kind)
    for rt in RUNTIMES.values() for s in rt.settings.values() if s.attr not in _CONFIG_FIELDS
}


# (section, key) -> (attribute, kind). kind: str | bool | int | paths | strs | runtimes | draft
_SCHEMA: dict[tuple[str, str], tuple[str, str]] = {
    ("", "runtimes"): ("runtimes", "runtimes"),
    ("", "exclude"): ("exclude", "strs"),
    ("", "no_user_roots"): ("no_user_roots", "bool"),
    ("rules", "select"): ("select", "codes"),
    ("rules", "ignore"): ("ignore", "codes"),
    # Each runtime's own keys, `[<runtime id>] key = …`, come from its descriptor's `settings`.
    **{(rt.id, key): (s.attr, s.kind) for rt in RUNTIMES.values() for key, s in rt.settings.items()},
}
_SECTIONS = {"rules", "roots", *RUNTIMES}


def schema_entries() -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """((section, key), (Config attribute, kind)) of every configuration key (the editor settings
    are generated from these: skill_ls.core.settings_schema)."""
    return list(_SCHEMA.items())
_CAMEL_SECTIONS = {rid.replace("-", "_"): rid for rid in RUNTIMES}  # claudeCode -> claude_code -> claude-code
_CODE = lazy_pattern(r"^[A-Z]{1,3}[0-9]{0,3}$")


def _camel_to_snake(key: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", lambda m: "_" + m.group(1).lower(), key)


def _as_list(value: Any, what: str) -> list[Any]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        raise ConfigError(f"'{what}' must be a list")
    return value


def _convert(kind: str, value: Any, what: str, base: Path | str) -> Any:
    if kind == "bool":
        if not isinstance(value, bool):
            raise ConfigError(f"'{what}' must be true or false")
        return value
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ConfigError(f"'{what}' must be a positive integer")
        return value
    if kind == "fraction":
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value <= 1:
            raise ConfigError(f"'{what}' must be a number greater than 0 and at most 1")
        return float(value)
    if kind == "path":
        if not isinstance(value, str) or not value:
            raise ConfigError(f"'{what}' must be a path string")
        return _path(value, base)
    if kind == "str":
        if not isinstance(value, str):
            raise ConfigError(f"'{what}' must be a string")
        return value
    if kind == "draft":
        if value not in DRAFT_SEVERITIES:
            raise ConfigError(f"'{what}' must be one of {', '.join(DRAFT_SEVERITIES)}")
        return value
    items = _as_list(value, what)
    if not all(isinstance(v, str) for v in items):
        raise ConfigError(f"'{what}' must be a list of strings")
    if kind == "paths":
        return tuple(_path(v, base) for v in items)
    if kind == "runtimes":
        for v in items:
            if v != "auto" and v not in RUNTIME_IDS:
                raise ConfigError(f"unknown runtime '{v}' in '{what}' (known: auto, {', '.join(RUNTIME_IDS)})")
        return tuple(items) or ("auto",)
    if kind == "codes":
        codes = tuple(c.strip().upper() for v in items for c in v.split(",") if c.strip())
        for c in codes:
            if not _CODE.match(c):
                raise ConfigError(f"'{c}' in '{what}' is not a rule code or prefix")
        return codes
    return tuple(items)


def _path(value: str, base: Path | str) -> Path:
    from pathlib import Path

    p = Path(os.path.expanduser(value)) if value.startswith("~") else Path(value)
    return p if p.is_absolute() else (Path(base) / p)


def config_from_mapping(data: dict[str, Any], *, base: Path, source: str | None = None, camel: bool = False) -> Config:
    """Build a Config from a TOML table or an LSP settings object (camelCase when `camel`)."""
    cfg = Config(source=source)
    if not isinstance(data, dict):
        raise ConfigError("configuration must be a table", source)
    try:
        _apply(cfg, data, base, camel)
    except ConfigError as exc:
        exc.path = exc.path or source
        raise
    return cfg


def _unknown_key(message: str, key: str, known: list[str], keys: tuple[str, ...] | None = None) -> ConfigError:
    """An unknown key, with the closest known key ("did you mean") when there is one."""
    import difflib

    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    hint = close[0] if close else None
    return ConfigError(message + (f"; did you mean '{hint}'?" if hint else ""), keys=keys, suggestion=hint)


def _apply(cfg: Config, data: dict[str, Any], base: Path, camel: bool) -> None:
    for raw_key, value in data.items():
        try:
            _apply_key(cfg, raw_key, value, base, camel)
        except ConfigError as exc:
            if exc.keys is None:
                exc.keys = (raw_key,)
            raise


def _apply_key(cfg: Config, raw_key: str, value: Any, base: Path, camel: bool) -> None:
    norm = (lambda k: _camel_to_snake(k)) if camel else (lambda k: k)
    if camel and _unset(value):
        return
    key = norm(raw_key)
    if camel:
        key = _CAMEL_SECTIONS.get(key, key)
    if key in ("roots",):
        cfg.roots = tuple(_extra_root(r, base) for r in _as_list(value, "roots"))
        return
    if key in _SECTIONS and isinstance(value, dict):
        for raw_sub, sub in value.items():
            if camel and _unset(sub):
                continue
            try:
                _apply_sub(cfg, key, raw_key, norm(raw_sub), raw_sub, sub, base)
            except ConfigError as exc:
                if exc.keys is None:
                    exc.keys = (raw_key, raw_sub)
                raise
        return
    spec = _SCHEMA.get(("", key))
    if spec is None:
        if camel and key in ("server", "trace"):
            return  # editor-only settings
        known = [k for (section, k) in _SCHEMA if section == ""] + sorted(_SECTIONS)
        raise _unknown_key(f"unknown key '{raw_key}'", key, known, keys=(raw_key,))
    setattr(cfg, spec[0], _convert(spec[1], value, key, base))


def _apply_sub(cfg: Config, key: str, raw_key: str, sk: str, raw_sub: str, sub: Any, base: Path) -> None:
    if key == "rules" and sk == "severity":
        cfg.severity = _severities(sub)
        return
    spec = _SCHEMA.get((key, sk))
    if spec is None:
        known = [k for (section, k) in _SCHEMA if section == key] + (["severity"] if key == "rules" else [])
        raise _unknown_key(f"unknown key '{raw_sub}' in [{raw_key}]", sk, known)
    if spec[1] == "roots":  # a runtime's own list of roots (Agentcy: `[agentcy] roots`)
        tier = RUNTIMES[key].extra_root_tier
        paths = _convert("paths", sub, f"{key}.{sk}", base)
        cfg.roots = cfg.roots + tuple(ExtraRoot(p, key, tier) for p in paths)
        return
    setattr(cfg, spec[0], _convert(spec[1], sub, f"{key}.{sk}", base))


def _unset(value: Any) -> bool:
    """Client settings leave a key at its default with null or "": VS Code sends every declared
    setting, and `skillLs.agh.home` defaults to "" (meaning `$AGH_HOME`, or `~/.agh`)."""
    return value is None or value == ""


def _extra_root(item: Any, base: Path) -> ExtraRoot:
    if not isinstance(item, dict):
        raise ConfigError("each [[roots]] entry must be a table with 'path' and 'runtime'")
    unknown = set(item) - {"path", "runtime", "tier"}
    if unknown:
        raise ConfigError(f"unknown key '{sorted(unknown)[0]}' in [[roots]]")
    path, runtime, tier = item.get("path"), item.get("runtime", BASE_RUNTIME), item.get("tier")
    if not isinstance(path, str) or not path:
        raise ConfigError("[[roots]] entry needs a 'path' string")
    if runtime not in RUNTIME_IDS:
        raise ConfigError(f"[[roots]] entry names unknown runtime '{runtime}'")
    if tier is not None and not isinstance(tier, str):
        raise ConfigError("[[roots]] 'tier' must be a string")
    if tier is not None and tier not in RUNTIMES[runtime].tier_names():
        raise ConfigError(f"[[roots]] tier '{tier}' is not a tier of {runtime} "
                          f"(tiers: {', '.join(RUNTIMES[runtime].tier_names())})")
    return ExtraRoot(_path(path, base), runtime, tier)


def _severities(value: Any) -> dict[str, Severity]:
    if not isinstance(value, dict):
        raise ConfigError("'rules.severity' must be a table of CODE = severity")
    out = {}
    for code, sev in value.items():
        if not isinstance(sev, str):
            raise ConfigError(f"severity of {code} must be a string")
        try:
            out[code.upper()] = Severity.parse(sev)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
    return out


def find_config_file(workspace: Path | str) -> Path | None:
    candidate = os.path.join(workspace, CONFIG_FILE)
    if os.path.isfile(candidate):
        return _as_path(candidate)
    pyproject = os.path.join(workspace, "pyproject.toml")
    if os.path.isfile(pyproject):
        raw, error, _ = read_bytes(pyproject)  # never blocks on a FIFO or a device
        if error is not None:
            return None
        text = raw.decode("utf-8", errors="replace")
        try:
            data = toml_value(text)
        except DataError:
            # A broken pyproject is not ours to report, unless it holds our table: then its error is
            # the configuration's (one line, exit 2), not silence.
            return _as_path(pyproject) if "tool.skill-ls" in text else None
        if isinstance(data.get("tool"), dict) and "skill-ls" in data["tool"]:
            return _as_path(pyproject)
    return None


def _as_path(path: str) -> Path:
    from pathlib import Path

    return Path(path)


def load_config_file(path: Path) -> Config:
    raw, error, _ = read_bytes(str(path))  # never blocks on a FIFO or a device
    if error is not None:
        raise ConfigError(f"cannot read configuration: {error}", str(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"cannot read configuration: not UTF-8 ({exc.reason} at byte {exc.start})", str(path)) from None
    try:
        data = toml_value(text)
    except DataError as exc:
        raise ConfigError(exc.message if not exc.line and not exc.column else
                          f"{exc.message} (at line {exc.line + 1}, column {exc.column + 1})", str(path),
                          exc.line + 1 if exc.line or exc.column else None) from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("skill-ls", {})
    try:
        return config_from_mapping(data, base=path.parent, source=str(path))
    except ConfigError as exc:
        _locate(exc, text)
        raise


def _locate(exc: ConfigError, text: str) -> None:
    """Point an error without a line at the first line that names the offending key."""
    if exc.line is not None:
        return
    m = re.search(r"'([^']+)'", exc.args[0])
    key = exc.keys[-1] if exc.keys else (m.group(1).split(".")[-1] if m else None)
    if key is None:
        return
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(rf"\s*\[*\s*\"?{re.escape(key)}\b", line) or f"'{key}'" in line or f'"{key}"' in line:
            exc.line = i
            m = re.match(rf"\s*\[*\s*\"?({re.escape(key)})\b", line)
            exc.col = m.start(1) if m else None
            return


def load_config_file_lenient(path: Path) -> tuple[Config, list[ConfigError]]:
    """The language server's reading: a key that is unknown or has a bad value is reported and left
    out, and the rest of the file applies (a typo in one key must not turn every other setting off).
    A file that cannot be read or is not TOML raises, as in `load_config_file`."""
    try:
        return load_config_file(path), []
    except ConfigError as first:
        if first.keys is None:
            raise
    raw, _, _ = read_bytes(str(path))  # read and parsed once already: only a key was wrong
    text = (raw or b"").decode("utf-8")
    data = toml_value(text)
    table = data.get("tool", {}).get("skill-ls", {}) if path.name == "pyproject.toml" else data
    errors: list[ConfigError] = []
    for _ in range(100):
        try:
            return config_from_mapping(table, base=path.parent, source=str(path)), errors
        except ConfigError as exc:
            if not exc.keys:
                raise
            _locate(exc, text)
            errors.append(exc)
            node: Any = table
            for k in exc.keys[:-1]:
                node = node.get(k) if isinstance(node, dict) else None
            if not isinstance(node, dict) or exc.keys[-1] not in node:
                raise
            del node[exc.keys[-1]]
    raise errors[-1]


def load_config(workspace: Path | str, explicit: Path | None = None) -> Config:
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError("configuration file not found", str(explicit))
        return load_config_file(explicit)
    found = find_config_file(workspace)
    return load_config_file(found) if found else Config()


def merge_client_settings(base: Config, settings: dict[str, Any] | None, workspace: Path) -> Config:
    """Overlay camelCase client settings (LSP) on a file configuration: client keys win."""
    if not settings:
        return base
    overlay = config_from_mapping(settings, base=workspace, source="client settings", camel=True)
    names = [*_CONFIG_FIELDS, *RUNTIME_SETTING_DEFAULTS]
    merged = Config(**{k: getattr(base, k) for k in _CONFIG_FIELDS})
    for name in RUNTIME_SETTING_DEFAULTS:
        setattr(merged, name, getattr(base, name))
    defaults = Config()
    for name in names:
        value = getattr(overlay, name)
        if name != "source" and value != getattr(defaults, name):
            setattr(merged, name, value)
    return merged


# Directory names that make a folder part of a skill tree rather than a project of its own: the
# runtimes' skill and agent directories (read from the descriptors) and a plugin's component
# directories and marketplace folder (core/plugins.py's layout). Generated into the Neovim plugin's
# root detection (skill_ls.core.editor_patterns).
SKILL_TREE_PARTS = skill_tree_dir_names() | frozenset({"commands", "plugins"})
PROJECT_MARKERS = (CONFIG_FILE, "pyproject.toml", ".git")  # pyproject.toml only with [tool.skill-ls]


def project_root(folder: Path, home: Path | None = None) -> Path:
    """The project a folder belongs to (one server per project).

    - A folder holding a project marker (`.skill-ls.toml`, `pyproject.toml` with `[tool.skill-ls]`,
      `.git`) is its own project.
    - Otherwise the nearest ancestor holding a marker decides: one with a skill-ls configuration is
      the project (the folder is one of its skill directories or configured roots, e.g. the demo's
      `shared/`); one with only `.git` is the project when the folder is part of a skill tree (a
      skill directory, or a path through a directory of the runtimes' skill trees: `.agh`, `.claude`,
      `.agents`, `skills`, `agents`, … — `skill_tree_dir_names()`, read from the descriptors).
    - Ancestors are searched below `home` only (never `$HOME` itself or above it) when the folder
      is inside `home`, and never at the file-system root. Otherwise the folder is its own project.
    """
    folder = folder.resolve() if not folder.is_absolute() else folder
    if find_config_file(folder) is not None or (folder / ".git").exists():
        return folder
    skill_dir = (folder / "SKILL.md").is_file() or (folder / "AGENT.md").is_file()
    limit = home if home is not None and home != folder and home in folder.parents else None
    for parent in folder.parents:
        if parent == limit or parent == parent.parent:
            break
        if find_config_file(parent) is not None:
            return parent
        if (parent / ".git").exists():
            between = folder.relative_to(parent).parts
            return parent if skill_dir or any(p in SKILL_TREE_PARTS for p in between) else folder
    return folder
