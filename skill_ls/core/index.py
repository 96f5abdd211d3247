"""The index: every skill and agent file that the active runtimes read, parsed once.

`Index.build()` walks every root of every active runtime; `Index.update_file()` re-reads one file
(an editor buffer overlays the disk) and returns the names whose resolution it may change.
Documents are parsed lazily and cached by path; nothing here knows about rules or LSP.
"""
from __future__ import annotations

import os
from typing import Any

from skill_ls.core.config import Config
from skill_ls.core.files import read_inside as read_inside, read_json as read_json
from skill_ls.core.discovery import SKILL_FILE, Environment, RootDir, Walker, Excluder, active_runtimes, \
    expand_template, \
    agent_dirs
from skill_ls.core.model import Span
from skill_ls.core.paths import NEVER_ENTER
from skill_ls.core.parse.frontmatter import Frontmatter, parse_frontmatter, quote_repair
from skill_ls.core.parse.yaml12 import js_string, js_truthy
from skill_ls.core.parse.text import MAX_READ_BYTES as MAX_READ_BYTES, SourceText, read_bytes as read_bytes
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.disk import Disk
from skill_ls.core.records import dataclass, field
from skill_ls.core.references import ReferenceResolver
from skill_ls.core.runtimes import RUNTIMES, Runtime, runtime_for_family
from skill_ls.core.shape import shape_refusal
from skill_ls.core.runtimes.agent_families import AGENT_FILE, AGENT_FAMILIES

SKILL_FILE_LOWER = "skill.md"
META_FILE = ".agh-meta.json"
MCP_FILE = "mcp.json"


@dataclass(eq=False)
class Document:
    """One parsed file. `fm` is None for files without frontmatter semantics (JSON sidecars)."""

    path: str
    src: SourceText
    fm: Frontmatter | None
    read_error: str | None = None
    truncated: bool = False  # larger than MAX_READ_BYTES: only the head was read
    size: int = 0
    version: int | None = None  # editor buffer version when from an overlay
    is_agent: bool = False
    failure: str | None = None  # skill-ls's own failure reading it (the reader boundary): reported as SL001
    cache: dict[str, Any] = field(default_factory=dict)  # derived values computed once per parse (e.g. references)
    _directory: str | None = field(default=None, init=False, repr=False)

    @property
    def directory(self) -> str:
        if self._directory is None:  # (not functools.cached_property: its lock costs more than dirname)
            self._directory = os.path.dirname(self.path)
        return self._directory

    @property
    def dir_name(self) -> str:
        return os.path.basename(self.directory)

    def body_lines(self) -> tuple[int, int]:
        start = self.fm.body_start_line if self.fm else 0
        return start, self.src.line_count


class DocumentStore:
    """Parsed documents by path; editor buffers (overlays) take precedence over the disk."""

    def __init__(self) -> None:
        self._docs: dict[str, Document] = {}
        self.overlays: dict[str, tuple[str, int | None]] = {}
        self._lines: dict[str, dict[int, str]] = {}  # lines another process of the same check read (`add_lines`)
        self.loads = 0  # documents parsed so far: `texts(since=...)` leaves out the first ones
        self._load_number: dict[str, int] = {}

    def get(self, path: str, *, agent: bool = False) -> Document:
        doc = self._docs.get(path)
        if doc is not None and doc.is_agent == agent:
            return doc
        doc = self._load(path, agent)
        self._docs[path] = doc
        self.loads += 1
        self._load_number[path] = self.loads
        return doc

    def peek(self, path: str) -> Document:
        """The cached document whatever it was parsed as, loading it as a skill file if needed."""
        doc = self._docs.get(path)
        return doc if doc is not None else self.get(path)

    def source(self, path: str) -> SourceText:
        """The text of a file without parsing it (for position conversion at the output edge)."""
        doc = self._docs.get(path)
        if doc is not None:
            return doc.src
        overlay = self.overlays.get(path)
        if overlay is not None:
            return SourceText.from_str(overlay[0])
        lines = self._lines.get(path)
        if lines is not None:
            # Only the lines another process's findings point into, each at its place (the others
            # empty): what converting those findings' positions reads, without the whole text.
            return SourceText("\n".join(lines.get(n, "") for n in range(max(lines) + 1)))  # (no breaks in lines)
        return SourceText.from_bytes(read_bytes(path)[0])

    def lines(self, wanted: dict[str, set[int]], since: int = 0) -> dict[str, dict[int, str]]:
        """The `wanted` lines (without their breaks) of those files this store has read from disk,
        after its first `since` documents (`loads` at some moment: what it had parsed then is left
        out): what another process needs to place findings computed here (`add_lines` there)."""
        out = {}
        for path, numbers in wanted.items():
            doc = self._docs.get(path)
            if doc is not None and path not in self.overlays and self._load_number.get(path, 0) > since:
                line_text = doc.src.line_text
                out[path] = {n: line_text(n) for n in numbers}
        return out

    def add_lines(self, lines: dict[str, dict[int, str]]) -> None:
        """Lines that another process of the same run read from disk (`lines` there): `source`
        serves them, so findings computed there are placed in the text they were computed from
        without reading the file again."""
        for path, numbered in lines.items():
            if path not in self._docs and numbered:
                self._lines.setdefault(path, {}).update(numbered)

    def release_texts(self) -> int:
        """Let every document read from disk drop its text until next used (see SourceText.release);
        editor buffers are kept. Returns how many were released."""
        return sum(1 for path, doc in self._docs.items() if path not in self.overlays and doc.src.release())

    def invalidate(self, path: str) -> None:
        self._docs.pop(path, None)

    def set_overlay(self, path: str, text: str, version: int | None) -> None:
        self.overlays[path] = (text, version)
        self._docs.pop(path, None)

    def drop_overlay(self, path: str) -> None:
        self.overlays.pop(path, None)
        self._docs.pop(path, None)

    def _load(self, path: str, agent: bool) -> Document:
        """The reader boundary: whatever parsing raises on this file (a value no one foresaw) makes a
        document that failed — blocked everywhere, reported as SL001 on it — never the end of the
        index build, of the run, or of the server's answers about other files."""
        try:
            return self._parse(path, agent)
        except Exception as exc:  # noqa: BLE001
            detail = " ".join(str(exc).split())[:160] if not isinstance(exc, RecursionError) else "nested too deeply"
            why = f"parsing failed ({type(exc).__name__}{': ' + detail if detail else ''})"
            overlay = self.overlays.get(path)
            src = SourceText.from_str(overlay[0]) if overlay is not None else SourceText.from_str("")
            return Document(path, src, None, read_error=f"skill-ls could not read this file: {why}",
                            is_agent=agent, failure=why, version=overlay[1] if overlay else None)

    def _parse(self, path: str, agent: bool) -> Document:
        overlay = self.overlays.get(path)
        if overlay is not None:
            src = SourceText.from_str(overlay[0])
            return Document(path, src, parse_frontmatter(src, allow_toml=agent), size=len(overlay[0]),
                            version=overlay[1], is_agent=agent)
        data, error, truncated = read_bytes(path)
        src = SourceText.from_bytes(data, path if error is None and not truncated else None)
        fm = parse_frontmatter(src, allow_toml=agent) if error is None else None
        return Document(path, src, fm, read_error=error, truncated=truncated, size=len(data), is_agent=agent)


@dataclass
class MarketplaceMeta:
    """A plugin marketplace's `marketplace.json`: its data, or why it cannot be read."""

    path: str
    ok: bool
    problem: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    span: Span = Span(0, 0, 0, 0)
    warning: str | None = None  # a doubt that does not block (the hash is not the SKILL.md bytes')

    def consent_keys(self) -> set[str]:
        keys = set()
        slug, registry, digest = self.data.get("slug"), self.data.get("registry"), self.data.get("hash")
        if isinstance(slug, str):
            keys.add(slug)
            if isinstance(registry, str):
                keys.add(f"{registry}:{slug}")
        if isinstance(digest, str):
            keys.add(digest)
        return keys


def read_marketplace_meta(path: str, skill_md: str | None) -> MarketplaceMeta:
    """Validate `.agh-meta.json` (reading): object with string slug/registry/version/
    installed_at; an optional `hash` is checked against SKILL.md's bytes only as a warning."""
    value, problem, span = read_json(path, "utf-8")
    if problem:
        return MarketplaceMeta(path, False, problem, span=span)
    if not isinstance(value, dict):
        return MarketplaceMeta(path, False, "must be a JSON object")
    missing = [k for k in ("slug", "registry", "version", "installed_at") if not isinstance(value.get(k), str) or not value.get(k)]
    if missing:
        return MarketplaceMeta(path, False, f"missing or non-string field(s): {', '.join(missing)}", value)
    # Reading: "Load-time hash verification must pass" — but neither the hash's format nor what it
    # covers (SKILL.md alone, or the whole directory) is documented. A hash that is the SHA-256 of
    # SKILL.md's bytes is verified; any other never blocks the copy: a warning says it cannot be checked.
    digest = value.get("hash")
    if digest is not None and skill_md is not None:
        if not isinstance(digest, str) or not digest.startswith("sha256:") or len(digest) != 71:
            return MarketplaceMeta(path, True, None, value, warning="'hash' is not sha256:<64 hex digits>, so "
                                   "skill-ls cannot verify it (AGH's hash format is not documented)")
        body, err, _ = read_bytes(skill_md)
        import hashlib  # (only for marketplace copies: its OpenSSL start-up is not free)

        if err is None and hashlib.sha256(body).hexdigest() != digest[7:].lower():
            return MarketplaceMeta(path, True, None, value, warning="'hash' is not the SHA-256 of SKILL.md: if AGH "
                                   "hashes SKILL.md alone, it blocks this skill (SKILL.md changed since install); "
                                   "if it hashes the whole directory this is expected — AGH's documentation does "
                                   "not say which")
    return MarketplaceMeta(path, True, None, value)


@dataclass(eq=False)
class SkillDecl:
    """One copy of a skill as one runtime sees it."""

    path: str  # SKILL.md ('' for Amp built-ins)
    runtime: str
    root: RootDir | None
    tier: str
    name: str
    depth: int = 1
    doc: Document | None = None
    blocked: str | None = None
    undiscovered: str | None = None
    meta: MarketplaceMeta | None = None
    agent: str | None = None  # agent_local copies belong to one agent
    builtin: bool = False
    # A built-in the runtime renders in its catalog (AGH's bundled `agh`): its description, and where
    # that text comes from (`BuiltinSkill.source`). None for names-only built-ins (Amp's).
    builtin_description: str | None = None
    builtin_source: str = ""

    @property
    def loadable(self) -> bool:
        return self.blocked is None and self.undiscovered is None

    @property
    def runtime_def(self) -> Runtime:
        return RUNTIMES[self.runtime]

    @property
    def tier_label(self) -> str:
        """The tier in the runtime's own words (`Runtime.tier_label`): what messages, hover and lenses show."""
        runtime = RUNTIMES.get(self.runtime)
        return runtime.tier_label(self.tier) if runtime is not None else self.tier.replace("_", " ")

    def precedence(self) -> tuple[int, int, str]:
        """Sort key: smaller is higher precedence."""
        rt = RUNTIMES[self.runtime]
        return (-rt.rank(self.tier), self.root.subrank if self.root else 0, self.path)

    @property
    def dir_name(self) -> str:
        return os.path.basename(os.path.dirname(self.path)) if self.path else self.name


@dataclass(eq=False)
class AgentDecl:
    """One agent definition file found by discovery: its family, name, tier and document."""

    path: str
    family: str  # an AGENT_FAMILIES id
    name: str
    tier: str
    doc: Document
    winner: bool = True


_NO_FRONTMATTER = Frontmatter(status="ok", body_start_line=0)  # what a runtime that loads such a file reads


def repaired_frontmatter(doc: Document) -> Frontmatter | None:
    """The frontmatter after the quoting repair of a runtime that retries a block that is not valid
    YAML (`quote_repair`, Claude Code), parsed at the same lines (the repair keeps one line per line);
    None when the block parses as it is, or does not parse after the repair either (computed once
    per parse)."""
    cache = doc.cache
    if "repaired_fm" in cache:
        hit: Frontmatter | None = cache["repaired_fm"]
        return hit
    fm, out = doc.fm, None
    if fm is not None and fm.status == "invalid" and fm.open_line is not None and fm.close_line is not None \
            and any(p.kind == "syntax" for p in fm.problems):
        src = doc.src
        block = "\n".join(src.line_text(n) for n in range(fm.open_line + 1, fm.close_line))
        repaired = quote_repair(block)
        if repaired is not None:
            lines = [src.line_text(n) for n in range(fm.open_line + 1)] + repaired.split("\n") + \
                    [src.line_text(n) for n in range(fm.close_line, src.line_count)]
            parsed = parse_frontmatter(SourceText.from_str("\n".join(lines)))
            out = parsed if parsed.ok else None
    cache["repaired_fm"] = out
    return out


def frontmatter_as_read(doc: Document, runtime: Runtime) -> Frontmatter | None:
    """The frontmatter as `runtime` reads it, or None when it reads none (the copy is blocked there):
    the parsed block when it is valid; for a runtime that loads a file without frontmatter
    (`Runtime.frontmatter_optional`, Claude Code) an empty one; for a runtime that repairs unquoted
    values (`Runtime.repairs_unquoted_values`) the block as that repair reads it; for a runtime that
    ignores a block it cannot read (`ignores_unreadable_frontmatter`) an empty one."""
    fm = doc.fm
    if fm is None or doc.read_error:
        return None
    if fm.ok:
        return fm
    if fm.status == "missing" and runtime.frontmatter_optional:
        return _NO_FRONTMATTER
    read = repaired_frontmatter(doc) if runtime.repairs_unquoted_values else None
    if read is None and runtime.ignores_unreadable_frontmatter:
        read = ignored_frontmatter(doc)
    return read


def ignored_frontmatter(doc: Document) -> Frontmatter | None:
    """What a runtime that ignores a frontmatter it cannot read (`ignores_unreadable_frontmatter`)
    reads of this file: no fields, the body after the block; None when the block is not of that kind
    (it parses, or is unterminated, repeats a key or trips the nesting guards)."""
    fm = doc.fm
    if fm is None or fm.status not in ("invalid", "not_mapping") or fm.close_line is None \
            or any(p.kind not in ("syntax", "not_mapping") for p in fm.problems):
        return None
    hit = doc.cache.get("ignored_fm")
    if not isinstance(hit, Frontmatter):
        hit = doc.cache["ignored_fm"] = Frontmatter(status="ok", open_line=fm.open_line, close_line=fm.close_line,
                                                    body_start_line=fm.body_start_line)
    return hit


def first_line_description(doc: Document, start: int, fallback: str) -> str:
    """Claude Code's description of a skill or command that has none: the first non-blank line of the
    body from line `start`, a heading's `#` marks dropped, cut at 100 characters (97 and "...");
    `fallback` when the body is blank (Claude Code 2.1.332)."""
    src = doc.src
    for n in range(start, src.line_count):
        text = src.line_text(n).strip()
        if text:
            heading = _HEADING.match(text)
            line = heading.group(1) if heading else text
            return line[:97] + "..." if len(line) > 100 else line
    return fallback


_HEADING = lazy_pattern(r"^#+\s+(\S.*)$")


def description_as_read(doc: Document, runtime: Runtime, fm: Frontmatter, fallback: str = "Skill") -> Any:
    """The description `runtime` gives this copy: the field (in its YAML dialect); where the runtime
    describes a skill without one by its body (`Runtime.description_from_body`), a string or number
    (trimmed; blank is none), else the body's first line (`first_line_description`)."""
    value = fm.value_in(runtime.yaml_dialect, "description")
    if not runtime.description_from_body:
        return value
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_string(value)
    return first_line_description(doc, fm.body_start_line, fallback)


def skill_name_for(doc: Document, runtime: Runtime) -> str:
    """The identity a runtime files this copy under: its `identity_key` (Agentcy: the slug) when set,
    else the name (frontmatter or directory, per the runtime's name rule)."""
    fm = frontmatter_as_read(doc, runtime)
    if runtime.identity_key != "name" and fm is not None:
        identity = fm.value_in(runtime.yaml_dialect, runtime.identity_key)
        if isinstance(identity, str) and identity.strip():
            return identity.strip()
    rule = runtime.name_rule
    declared = fm.value_in(runtime.yaml_dialect, "name") if fm is not None else None
    if rule.source == "directory":
        return doc.dir_name
    if isinstance(declared, str) and declared.strip():
        return declared.strip()
    if isinstance(declared, (int, float)) and not isinstance(declared, bool):
        return js_string(declared) if runtime.yaml_dialect == "1.2" else str(declared)
    if runtime.skill_files == "every_md":  # a Markdown file of its own, not a skill directory
        return os.path.splitext(os.path.basename(doc.path))[0]
    return doc.dir_name


def required_value_missing(runtime: Runtime, value: object) -> bool:
    """Whether a required field's value (as the runtime's YAML dialect reads it) counts as missing:
    JavaScript truthiness for Amp (`if (!frontmatter.name || !frontmatter.description) throw`: `0`,
    `false` and `""` are missing, `"   "` and `[]` are not); else null, a blank string or an empty
    list or mapping."""
    if runtime.truthiness == "javascript":
        return not js_truthy(value)
    return value is None or (isinstance(value, str) and not value.strip()) or value == [] or value == {}


def blocked_reason(doc: Document, runtime: Runtime) -> str | None:
    """Why a runtime would refuse to load this copy, or None."""
    if doc.read_error:
        return doc.read_error
    fm = frontmatter_as_read(doc, runtime)
    if fm is None:
        fm = doc.fm
        if fm is None or fm.status == "missing":
            return "no frontmatter"
        if fm.status == "unterminated":
            return "unterminated frontmatter"
        return fm.problems[0].message if fm.problems else "invalid frontmatter"
    if any(p.kind == "duplicate_key" for p in fm.problems):
        return "duplicate key in frontmatter"
    for key in runtime.required_fields:
        if required_value_missing(runtime, fm.value_in(runtime.yaml_dialect, key)):
            return f"required field '{key}' is missing or empty"
    refused = name_refusal(doc, runtime, fm)
    if refused is not None:
        return refused
    if runtime.file_shape is not None:
        refusal = shape_refusal(doc.src, fm, runtime.file_shape)
        if refusal is not None:
            return f"{runtime.title}'s parser refuses it: {refusal}"
    return None


def name_refusal(doc: Document, runtime: Runtime, fm: Frontmatter | None = None) -> str | None:
    """Why a runtime that refuses names outside its rule (`NameRule.refuses`) does not load this
    copy, naming the rule (SK008 for the pattern, SK010 for the length, SK009 for the directory), or None."""
    rule = runtime.name_rule
    fm = fm if fm is not None else doc.fm
    if not rule.refuses or fm is None:
        return None
    value = fm.value_in(runtime.yaml_dialect, "name")
    if not isinstance(value, str) or not value:
        return None  # a missing name is the required-field refusal
    if rule.max_len is not None and len(value) > rule.max_len:
        return f"{runtime.title} refuses a name over {rule.max_len} characters (SK010)"
    if rule.pattern is not None and not rule.pattern.match(value):
        return f"{runtime.title} refuses the name '{value}': not {rule.pattern_text} (SK008)"
    if rule.dir_match is not None and value != doc.dir_name:
        return f"{runtime.title} refuses the name '{value}': it must equal its directory '{doc.dir_name}' (SK009)"
    return None


class Index:
    """Everything the active runtimes would load for one workspace."""

    def __init__(self, workspace: str, env: Environment, config: Config, store: DocumentStore | None = None):
        self.workspace = os.path.abspath(workspace)
        self.env = env
        self.config = config
        self.store = store or DocumentStore()
        self.walker = Walker(Excluder(config.exclude, self.workspace))
        self.roots: dict[str, list[RootDir]] = {}
        self.decls: dict[str, list[SkillDecl]] = {}
        self.by_name: dict[str, dict[str, list[SkillDecl]]] = {}
        self._path_decls: dict[str, list[SkillDecl]] | None = None  # decls_for_path's table
        self.agents: list[AgentDecl] = []
        # The agents by path and the winning definition of each (family, name) and of each name: the
        # one owner of "which definition wins" (first found, bases visited in precedence order).
        self._agent_at: dict[str, AgentDecl] = {}
        self._agent_winner: dict[tuple[str, str], AgentDecl] = {}
        self._agent_winner_by_name: dict[str, AgentDecl] = {}
        self.skipped: list[tuple[str, str]] = []
        self.lowercase_skill_files: list[str] = []
        # Resolved body references; cleared whenever this index learns that the disk changed.
        self.references = ReferenceResolver()
        self.disk = Disk()  # stats and listings the rules ask for (skill_ls/core/disk.py)
        # Facts the analysis layer derives from the whole index (e.g. a runtime's roots, the commands
        # its listing holds): computed once, dropped with the other derived caches.
        self.derived: dict[Any, Any] = {}
        # Facts that read only the declarations (names, tiers, roots, loadability), never a document's
        # text (e.g. a runtime's effective set; a runtime's listing, which its owner updates on each
        # swap): also kept across an in-place document swap (a keystroke that keeps the name),
        # dropped with the other derived caches.
        self.derived_from_names: dict[Any, Any] = {}

    def listed_commands(self, runtime: Runtime) -> list[tuple[str, Document]]:
        """The command files a runtime's listing holds beside its skills
        (`Vocabulary.listing_command_dirs`), as (name, document) by name: each `**/*.md` of those
        directories, named by its path below it (`frontend/review.md` is `frontend:review`); the
        first directory that holds a name keeps it. Directories under `$HOME` are left out with
        `--no-user-roots`. Computed once per index state (`derived`)."""
        key = ("listed_commands", runtime.id)
        hit = self.derived.get(key)
        if isinstance(hit, list):
            return hit
        found: dict[str, Document] = {}
        for template in runtime.vocabulary.listing_command_dirs:
            if self.config.no_user_roots and template.startswith("{home}"):
                continue
            for base in expand_template(template, self.workspace, self.env, self.config):
                for path, parts in self._command_files(base, (), 0):
                    name = ":".join(parts)
                    if name not in found:
                        found[name] = self.store.get(path)
        out = self.derived[key] = sorted(found.items())
        return out

    def _lists_command(self, runtime: Runtime, path: str) -> bool:
        """Whether `path` lies in one of the runtime's listed command directories."""
        for template in runtime.vocabulary.listing_command_dirs:
            for base in expand_template(template, self.workspace, self.env, self.config):
                if path.startswith(base.rstrip(os.sep) + os.sep):
                    return True
        return False

    def _command_files(self, directory: str, parts: tuple[str, ...], depth: int) -> list[tuple[str, tuple[str, ...]]]:
        """`*.md` files below `directory` with the path parts naming them (folders, then the stem)."""
        names = self.disk.listdir(directory)
        out: list[tuple[str, tuple[str, ...]]] = []
        for name in names or ():
            full = os.path.join(directory, name)
            if name.endswith(".md") and self.disk.is_file(full):
                out.append((full, parts + (name[:-3],)))
            elif depth < 8 and not name.startswith(".") and name not in NEVER_ENTER and self.disk.is_dir(full):
                out += self._command_files(full, parts + (name,), depth + 1)
        return out

    # -- building -------------------------------------------------------------------------------
    def forget_disk(self) -> None:
        """Drop what was learnt about the disk beside the documents (reference resolutions, stats,
        listings) and the whole-index facts derived from it (a runtime's roots): something changed there."""
        self.references.clear()
        self.disk.clear()
        self.derived.clear()

    def _clear_caches(self) -> None:
        """Derived facts: about the disk (references, stats, listings) and about the whole index."""
        self.forget_disk()
        self.derived_from_names.clear()

    def build(self) -> "Index":
        self._clear_caches()
        self._path_decls = None
        self.roots = active_runtimes(self.workspace, self.env, self.config, self.walker)
        self.decls = {rid: [] for rid in self.roots}
        for rid, roots in self.roots.items():
            runtime = RUNTIMES[rid]
            for root in roots:
                self.decls[rid].extend(self._scan_root(runtime, root))
            self.decls[rid].extend(self._builtins(runtime, self.decls[rid]))
        self._discover_agents()
        self._reindex_names()
        return self

    def _builtins(self, runtime: Runtime, scanned: list[SkillDecl]) -> list[SkillDecl]:
        """The runtime's built-in skills. A compiled-in skill that a configured root of the same tier
        provides as a file (AGH `bundled_roots`) is that file, not a second copy."""
        out = [SkillDecl("", runtime.id, None, runtime.builtin_tier, name, builtin=True)
               for name in runtime.builtin_names]
        in_tier = {d.name for d in scanned if d.tier == runtime.builtin_tier}
        for b in runtime.builtin_skills:
            if b.name in in_tier:
                continue
            configured = getattr(self.config, b.description_setting, "") if b.description_setting else ""
            description = configured if isinstance(configured, str) and configured else b.description
            source = (f"[{runtime.id}] configuration" if description is not b.description else b.source)
            out.append(SkillDecl("", runtime.id, None, runtime.builtin_tier, b.name, builtin=True,
                                 builtin_description=description, builtin_source=source))
        return out

    def _scan_root(self, runtime: Runtime, root: RootDir) -> list[SkillDecl]:
        every_md = runtime.skill_files == "every_md"
        result = self.walker.walk(root.path, frozenset({SKILL_FILE, SKILL_FILE_LOWER}),
                                  suffix=".md" if every_md else None)
        self.skipped.extend(result.skipped)
        out = []
        if every_md:  # Agentcy: every Markdown file of the root is a skill, wherever it sits
            found = sorted((f for files in result.files.values() for f in files), key=lambda f: f.path)
            return [self._decl(runtime, root, f.path, f.depth) for f in found]
        self.lowercase_skill_files.extend(f.path for f in result.files.get(SKILL_FILE_LOWER, ()))
        found = result.files.get(SKILL_FILE, [])
        for i, f in enumerate(found):
            if f.depth == 0:
                continue  # a SKILL.md directly in the root is not a skill directory of that root
            out.append(self._decl(runtime, root, f.path, f.depth))
        self._apply_scan_limits(runtime, out)
        return out

    def _apply_scan_limits(self, runtime: Runtime, decls: list[SkillDecl]) -> None:
        for d in decls:
            if d.root is not None and d.root.unused:
                d.undiscovered = d.root.unused
        if runtime.scan_depth is not None:
            for d in decls:
                if d.depth > runtime.scan_depth:
                    d.undiscovered = f"deeper than {runtime.title}'s scan depth of {runtime.scan_depth}"
        if runtime.scan_cap is not None:
            candidates = [d for d in decls if d.undiscovered is None]
            for d in candidates[runtime.scan_cap:]:
                d.undiscovered = (f"past {runtime.title}'s cap of {runtime.scan_cap} SKILL.md candidates "
                                  "per scanned directory")

    def _decl(self, runtime: Runtime, root: RootDir, path: str, depth: int, agent: str | None = None) -> SkillDecl:
        doc = self.store.get(path)
        tier = root.tier
        meta = None
        market = runtime.marketplace
        if market is not None and root.tier == market.from_tier:
            meta_path = os.path.join(os.path.dirname(path), market.meta_file)
            if os.path.exists(meta_path):
                tier = market.tier
                meta = read_marketplace_meta(meta_path, path)
        decl = SkillDecl(path, runtime.id, root, tier, skill_name_for(doc, runtime), depth, doc, meta=meta, agent=agent)
        decl.blocked = blocked_reason(doc, runtime)
        if decl.blocked is None and meta is not None and not meta.ok:
            decl.blocked = f"marketplace metadata invalid: {meta.problem}"
        return decl

    def _discover_agents(self) -> None:
        """Every agent definition of every family whose runtime is active (the families' descriptors
        say where), then the agent-local skill roots of the winning definitions."""
        self.agents = []
        self._agent_at, self._agent_winner, self._agent_winner_by_name = {}, {}, {}
        for family in AGENT_FAMILIES.values():
            if runtime_for_family(family.id) not in self.roots:
                continue
            for base, spec in agent_dirs(family, self.workspace, self.env, self.config):
                for path, stem in self._agent_files(base, spec.layout):
                    name = stem
                    if family.name_source != "directory":
                        doc = self.store.get(path, agent=True)
                        declared = doc.fm.value("name") if doc.fm and doc.fm.ok else None
                        name = declared if isinstance(declared, str) and declared else stem
                    self._add_agent(path, family.id, name, spec.tier)
        # Agent-local skill overlays (AGH): only the winning agent file's skills directory counts; a
        # shadowed definition's skills are indexed as never discovered, so they are explained (SH004).
        for rid in self.roots:
            runtime = RUNTIMES[rid]
            for root in self._agent_local_roots(runtime):
                result = self.walker.walk(root.path, frozenset({SKILL_FILE}))
                decls = [self._decl(runtime, root, f.path, f.depth, agent=root.agent)
                         for f in result.files.get(SKILL_FILE, []) if f.depth > 0]
                self._apply_scan_limits(runtime, decls)
                self.decls[rid].extend(decls)

    def _agent_local_roots(self, runtime: Runtime) -> list[RootDir]:
        """The agent-local overlay roots of a runtime whose agents carry their own skills: one per
        winning agent definition of its family, next to the agent file."""
        scoping = runtime.agent_scoping
        if scoping is None or scoping.local_skills_dir is None or scoping.local_tier is None:
            return []
        roots = []
        for a in self.agents:
            if a.family != scoping.family:
                continue
            unused = None
            if not a.winner:  # its skills/ are never read: say so on them (SH004) instead of nothing
                winner = self.agent(a.name, a.family)
                where = self.display_path(winner.path) if winner is not None else "another definition"
                unused = f"its agent definition is shadowed by {where} ({runtime.title} keeps the first one found)"
            roots.append(RootDir(os.path.join(os.path.dirname(a.path), scoping.local_skills_dir), runtime.id,
                                 scoping.local_tier, origin="workspace", agent=a.name, unused=unused))
        return roots

    def _agent_files(self, base: str, layout: str) -> list[tuple[str, str]]:
        """(definition path, name from the path) in `base` for one directory layout."""
        if not os.path.isdir(base):
            return []
        if layout == "tree":
            return [(f, os.path.splitext(os.path.basename(f))[0]) for f in self._md_files(base)]
        entries, _ = self.walker.listdir(base)
        out = []
        for name, full, is_dir in entries:
            if is_dir:
                candidate = os.path.join(full, AGENT_FILE)
                if os.path.isfile(candidate) and not (layout == "dir_or_md" and name == "skills"):
                    out.append((candidate, name))
            elif layout == "dir_or_md" and name.endswith(".md"):
                out.append((full, os.path.splitext(name)[0]))
        return out

    def _md_files(self, base: str) -> list[str]:
        if not os.path.isdir(base):
            return []
        out = []
        stack = [base]
        while stack:
            entries, _ = self.walker.listdir(stack.pop())
            for name, full, is_dir in entries:
                if is_dir and name not in NEVER_ENTER:
                    stack.append(full)
                elif not is_dir and name.endswith(".md"):
                    out.append(full)
        return sorted(out)

    def _add_agent(self, path: str, family: str, name: str, tier: str) -> None:
        doc = self.store.get(path, agent=True)
        decl = AgentDecl(path, family, name, tier, doc)
        if (family, name) in self._agent_winner:
            decl.winner = False  # first found wins (bases are visited in precedence order)
        else:
            self._agent_winner[(family, name)] = decl
            self._agent_winner_by_name.setdefault(name, decl)
        self._agent_at.setdefault(path, decl)
        self.agents.append(decl)

    def _reindex_names(self) -> None:
        self.by_name = {}
        for rid, decls in self.decls.items():
            table: dict[str, list[SkillDecl]] = {}
            for d in decls:
                table.setdefault(d.name, []).append(d)
            self.by_name[rid] = table

    # -- queries --------------------------------------------------------------------------------
    @property
    def active(self) -> list[str]:
        return list(self.roots)

    def display_path(self, path: str) -> str:
        """A path as messages show it: relative to the workspace when inside it."""
        try:
            rel = os.path.relpath(path, self.workspace)
        except ValueError:
            return path
        return path if rel.startswith("..") else rel

    def decls_for_path(self, path: str) -> list[SkillDecl]:
        """The declarations of one file (a table rebuilt after `build` or `update_file`: rules and
        the server ask this per file, and a scan of every declaration made a check quadratic)."""
        if self._path_decls is None:
            table: dict[str, list[SkillDecl]] = {}
            for decls in self.decls.values():
                for d in decls:
                    if d.path:
                        table.setdefault(d.path, []).append(d)
            self._path_decls = table
        return list(self._path_decls.get(path, ()))

    def agent(self, name: str, family: str | None = None) -> AgentDecl | None:
        """The definition that wins for `name` (in `family`, else the first family that has one)."""
        if family is None:
            return self._agent_winner_by_name.get(name)
        return self._agent_winner.get((family, name))

    def agent_at(self, path: str) -> AgentDecl | None:
        """The agent definition at `path`, if the index holds one."""
        return self._agent_at.get(path)

    # -- incremental updates ----------------------------------------------------------------------
    def update_file(self, path: str) -> set[tuple[str, str]]:
        """Re-read one file (disk or overlay). Returns the (runtime, name) pairs whose resolution may
        have changed. A new or deleted SKILL.md inside a root is added or removed."""
        self.store.invalidate(path)
        self._clear_caches()
        self._path_decls = None
        touched: set[tuple[str, str]] = set()
        base = os.path.basename(path)
        if base == AGENT_FILE or path in self._agent_at:
            return self._rebuild_all_names()
        if base != SKILL_FILE and base != META_FILE:
            if base.endswith(".md"):  # a command a runtime's listing holds: that listing may move (BG002)
                touched.update((rid, "@listing") for rid in self.decls if self._lists_command(RUNTIMES[rid], path))
            return touched
        skill_md = path if base == SKILL_FILE else os.path.join(os.path.dirname(path), SKILL_FILE)
        self.store.invalidate(skill_md)
        exists = skill_md in self.store.overlays or os.path.isfile(skill_md)
        for rid, decls in self.decls.items():
            runtime = RUNTIMES[rid]
            old = [d for d in decls if d.path == skill_md]
            for d in old:
                decls.remove(d)
                touched.add((rid, d.name))
            if not exists:
                continue
            for root in self._roots_containing(rid, skill_md):
                rel = os.path.relpath(skill_md, root.path)
                depth = rel.count(os.sep)
                if depth == 0:
                    continue
                decl = self._decl(runtime, root, skill_md, depth, agent=root.agent)
                decls.append(decl)
                touched.add((rid, decl.name))
            containing = self._roots_containing(rid, skill_md)  # once: this loop runs per keystroke
            same_root = [d for d in decls if d.root and d.root in containing]
            for d in same_root:
                d.undiscovered = None
            for r in self._roots_containing(rid, skill_md):
                self._apply_scan_limits(runtime, sorted((d for d in decls if d.root == r), key=lambda d: d.path))
        self._reindex_names()
        return touched

    def _roots_containing(self, rid: str, path: str) -> list[RootDir]:
        roots = list(self.roots.get(rid, ()))
        if rid in self.roots:
            roots += self._agent_local_roots(RUNTIMES[rid])
        return [r for r in roots if path.startswith(r.path.rstrip(os.sep) + os.sep)]

    def _rebuild_all_names(self) -> set[tuple[str, str]]:
        before = {(rid, n) for rid, t in self.by_name.items() for n in t}
        self.walker = Walker(self.walker.excluder)
        self.build()
        after = {(rid, n) for rid, t in self.by_name.items() for n in t}
        return before | after
