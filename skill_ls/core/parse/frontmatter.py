"""Frontmatter splitting and YAML/TOML parsing with exact positions.

Parsing never raises on bad input: `parse_frontmatter` always returns a `Frontmatter` whose
`problems` say what is wrong. YAML is composed (never constructed with a full loader), so every key
and value keeps its line and column, and only the safe scalar tags are ever resolved.
"""
from __future__ import annotations

import datetime
import functools
import re
from typing import Any, Iterator

import yaml

from skill_ls.core.parse.data import MAX_INT_BITS, DataError, toml_value
from skill_ls.core.model import Span
from skill_ls.core.parse.yaml12 import core_schema_value, same_reading
from skill_ls.core.parse.text import SourceText
from skill_ls.core.patterns import lazy_pattern
from skill_ls.core.records import dataclass, field
from skill_ls.core.spans import node_span

_Loader: type[yaml.CSafeLoader | yaml.SafeLoader]
try:  # libyaml when present: same marks (code point columns), many times faster
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader


_DELIM = re.compile(r"(---|\.\.\.)[ \t]*")
_OPEN = re.compile(r"---[ \t]*")
_SUPPRESS_LINE = lazy_pattern(r"#\s*skill-ls:\s*disable=([A-Za-z0-9_,\s]+)")
_KEY_VALUE = lazy_pattern(r"^(\s*)([A-Za-z0-9_.\-]+)(\s*):[ \t]+(.*?)\s*$")

# Guards against inputs that make YAML composers recurse or expand without bound.
MAX_NESTING = 200
MAX_NODES = 100_000
MAX_EXPANDED_CHARS = 32 * 1024 * 1024  # scalar characters after alias expansion (plus the block's own size)

STR = "tag:yaml.org,2002:str"


@dataclass(slots=True)
class Problem:
    """A parse problem. `kind` is one of: missing, unterminated, syntax, not_mapping, duplicate_key,
    encoding, too_complex."""

    kind: str
    span: Span
    message: str
    fix_title: str | None = None
    fix_span: Span | None = None
    fix_text: str | None = None


@dataclass(slots=True)
class FieldEntry:
    """One top-level frontmatter field: key and value with their spans."""

    key: str
    key_span: Span
    value: Any
    value_span: Span
    node: Any = None  # the YAML node, None for TOML
    # A plain scalar that a YAML 1.2 reader (Amp) reads differently keeps its text as written in
    # `plain` and its 1.2 value in `yaml12`; both stay None when the readings agree.
    plain: str | None = None
    yaml12: Any = None

    def value_in(self, dialect: str) -> Any:
        """The value as a reader of `dialect` ("1.1" for PyYAML and most runtimes, "1.2") sees it."""
        return self.yaml12 if dialect == "1.2" and self.plain is not None else self.value


@dataclass(slots=True)
class Frontmatter:
    """A document's parsed frontmatter: where it is, its top-level fields with positions, and what is
    wrong with it (never raises: a broken block is a status and problems)."""

    status: str  # ok | missing | unterminated | invalid | not_mapping
    open_line: int | None = None
    close_line: int | None = None
    body_start_line: int = 0
    format: str = "yaml"
    fields: dict[str, FieldEntry] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    suppressed_lines: dict[int, frozenset[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def value(self, key: str, default: Any = None) -> Any:
        entry = self.fields.get(key)
        return default if entry is None else entry.value

    def value_in(self, dialect: str, key: str, default: Any = None) -> Any:
        """`value(key)` as a reader of the YAML `dialect` sees it (see `FieldEntry.value_in`)."""
        entry = self.fields.get(key)
        return default if entry is None else entry.value_in(dialect)

    def block_span(self) -> Span:
        """The frontmatter block (opening line to closing line), or the first line."""
        first = self.open_line or 0
        last = self.close_line if self.close_line is not None else first
        return Span(first, 0, last, 3)


class _TooComplex(Exception):
    pass


class _RecursiveAlias(_TooComplex):
    """An alias used inside its own anchor (`a: &x [*x]`): the value would be a cycle, which no
    runtime can serialise (JSON, catalogs) and recursive walkers never finish."""


def node_value(node: Any, budget: list[int] | None = None) -> Any:
    """Turn a composed YAML node into plain Python values, resolving only safe tags.

    Shared (aliased) nodes are converted once, but every reference is charged its *expanded* size
    (nodes and scalar characters) against the budget: a billion-laughs document yields small shared
    structures whose repr, str or json.dumps would still be exponential, so it is refused here."""
    if budget is None:
        budget = [MAX_NODES, MAX_EXPANDED_CHARS]
    elif len(budget) < 2:
        budget.append(MAX_EXPANDED_CHARS)
    if isinstance(node, yaml.ScalarNode):  # most field values: nothing shared, nothing nested
        budget[0] -= 1
        budget[1] -= len(node.value)
        if budget[0] < 0 or budget[1] < 0:
            raise _TooComplex
        return _scalar(node)
    memo: dict[int, Any] = {}
    sizes: dict[int, tuple[int, int]] = {}

    def charge(nodes: int, chars: int) -> None:
        budget[0] -= nodes
        budget[1] -= chars
        if budget[0] < 0 or budget[1] < 0:
            raise _TooComplex

    def conv(n: Any) -> Any:
        key = id(n)
        if key in memo:
            size = sizes.get(key)
            if size is None:  # still being converted: the alias points into its own anchor
                raise _RecursiveAlias
            charge(*size)
            return memo[key]
        before = (budget[0], budget[1])
        charge(1, 0)
        if isinstance(n, yaml.ScalarNode):
            charge(0, len(n.value))
            val = _scalar(n)
        elif isinstance(n, yaml.SequenceNode):
            val = []
            memo[key] = val
            val.extend(conv(c) for c in n.value)
        else:
            val = {}
            memo[key] = val
            for k, v in n.value:
                kv = conv(k)
                if isinstance(kv, (dict, list)):
                    kv = key_text(kv)
                    charge(0, len(kv))
                val[kv] = conv(v)
        memo[key] = val
        sizes[key] = (before[0] - budget[0], before[1] - budget[1])
        return val

    return conv(node)


def _tree_value(node: Any) -> Any:
    """`node_value` of a node that shares no node (the fast path's entries: no anchor, so no alias),
    without the memo and the budget an alias needs (no anchor and fewer than MAX_FAST_CHARS: the
    budget cannot run out; nesting is bounded before composing)."""
    if isinstance(node, yaml.ScalarNode):
        return _scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return [_tree_value(c) for c in node.value]
    out: dict[Any, Any] = {}
    for k, v in node.value:
        kv = _tree_value(k)
        if isinstance(kv, (dict, list)):
            kv = key_text(kv)
        out[kv] = _tree_value(v)
    return out


def key_text(value: Any) -> str:
    """A complex key (`? [a, b]`, `? {k: v}`) as one flat, hashable string, e.g. `{k: [a, b]}`.

    Never `str()`/`repr()`: each of those escapes the quotes and backslashes of the level below, so
    the string doubles per nesting level (28 levels of `? ` took 5.5 GB). This rendering adds a few
    characters per level and nothing else; it is linear in the size of the key."""
    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Lit):
            parts.append(item.text)
        elif isinstance(item, dict):
            stack.append(_Lit("}"))
            entries = list(item.items())
            for i in range(len(entries) - 1, -1, -1):
                k, v = entries[i]
                stack.extend((v, _Lit(": "), k))
                if i:
                    stack.append(_Lit(", "))
            stack.append(_Lit("{"))
        elif isinstance(item, list):
            stack.append(_Lit("]"))
            for i in range(len(item) - 1, -1, -1):
                stack.append(item[i])
                if i:
                    stack.append(_Lit(", "))
            stack.append(_Lit("["))
        else:
            parts.append("null" if item is None else str(item))
    return "".join(parts)


class _Lit:
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


_constructor = yaml.constructor.SafeConstructor()
_CONSTRUCT: dict[str, Any] = {
    "tag:yaml.org,2002:int": _constructor.construct_yaml_int,
    "tag:yaml.org,2002:float": _constructor.construct_yaml_float,
    "tag:yaml.org,2002:bool": _constructor.construct_yaml_bool,
    "tag:yaml.org,2002:null": _constructor.construct_yaml_null,
}


def _scalar(n: Any) -> Any:
    tag = n.tag
    if tag == STR or n.style:  # quoted scalars are strings whatever they look like
        return n.value
    try:
        if tag == "tag:yaml.org,2002:timestamp":
            value = _constructor.construct_yaml_timestamp(n)
            return value.isoformat() if isinstance(value, (datetime.date, datetime.datetime)) else str(value)
        construct = _CONSTRUCT.get(tag)
        if construct is not None:  # (not construct_object: it keeps every node it ever saw)
            value = construct(n)
            if isinstance(value, int) and value.bit_length() > MAX_INT_BITS:
                return n.value  # (`0x` + 3,600 digits: no decimal form Python will print; a string like a huge decimal)
            return value
    except Exception:  # odd scalars ("0o9", huge ints...) stay strings
        return n.value
    return n.value


_FLOW_BRACKET = lazy_pattern(r"[\[\]{}]")
_COLLECTION_START = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_COLLECTION_END = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


def nesting_too_deep(text: str) -> bool:
    """True when the block nests collections more than MAX_NESTING deep.

    libyaml's composer recurses in C per nesting level and segfaults on ~100,000 levels (`? ? ? …`,
    `- - - …`, deep indentation), and the Python converters recurse too, so this must be exact
    enough to run *before* composing. Every collection needs at least one of the indicator
    characters `[ { - ? :`, so fewer than MAX_NESTING of them is always safe (the fast path);
    otherwise flow brackets are counted (libyaml's parser is quadratic in flow depth) and then the
    parser's event stream, which is iterative, gives the real depth."""
    if sum(text.count(c) for c in "[{-?:") < MAX_NESTING:
        return False
    depth = 0
    for m in _FLOW_BRACKET.finditer(text):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_NESTING:
                return True
        else:
            depth -= 1
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, _COLLECTION_START):
                depth += 1
                if depth > MAX_NESTING:
                    return True
            elif isinstance(event, _COLLECTION_END):
                depth -= 1
    except (yaml.YAMLError, RecursionError, MemoryError, ValueError):
        return False  # compose reports the error (it stops at the same place, before any deep nesting)
    return False


_YAML_ONLY_BREAKS = ("\x85", "\u2028", "\u2029")


class _YamlLines:
    """YAML 1.1 (PyYAML, libyaml) also breaks lines at U+0085, U+2028 and U+2029; LSP and our line
    table break only at `\n`, `\r\n` and `\r`. A block containing one of those characters gets its
    marks recomputed from their code point index (which both loaders count the same way), so a key
    after a description containing U+2028 is reported on its real line, never past the end."""

    def __init__(self, block: str) -> None:
        self.src = SourceText(block, has_crlf="\r" in block)

    @classmethod
    def of(cls, block: str) -> "_YamlLines | None":
        return cls(block) if any(c in block for c in _YAML_ONLY_BREAKS) else None

    def mark(self, mark: Any) -> Any:
        if mark is None:
            return None
        line, col = self.src.offset_to_pos(mark.index)
        return yaml.error.Mark(mark.name, mark.index, line, col, None, None)  # type: ignore[arg-type]  # buffer, pointer unknown (as with the C loader)

    def fix_marks(self, root: Any) -> None:
        for node in _unique_nodes(root, keys=True):
            node.start_mark = self.mark(node.start_mark)
            node.end_mark = self.mark(node.end_mark)


def _unique_nodes(root: Any, *, keys: bool) -> Iterator[Any]:
    """Every node of a composed YAML graph once (an alias is a shared node), depth first; mapping
    keys too when `keys`. Iterative: the graph may be deep."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if keys:
                    stack.append(k)
                stack.append(v)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


def _suppressions(src: SourceText, first: int, last: int) -> dict[int, frozenset[str]]:
    out: dict[int, frozenset[str]] = {}
    if "skill-ls" not in src.text[src.line_start(first):src.line_start(last + 1)]:
        return out
    for line in range(first, last + 1):
        text = src.line_text(line)
        if "skill-ls" not in text:
            continue
        m = _SUPPRESS_LINE.search(text)
        if m:
            out[line] = frozenset(c.strip().upper() for c in m.group(1).split(",") if c.strip())
    return out


def split(src: SourceText) -> tuple[str, int | None, int | None]:
    """Return (status, open_line, close_line) of the frontmatter block."""
    if not _OPEN.fullmatch(src.line_text(0)):
        return "missing", None, None
    fullmatch = _DELIM.fullmatch
    if not src.has_crlf:  # one pass with find: no line table for the common case
        text, find = src.text, src.text.find
        pos, line = find("\n") + 1, 1
        while pos:
            end = find("\n", pos)
            segment = text[pos:] if end == -1 else text[pos:end]
            if segment[:1] in ("-", ".") and fullmatch(segment):
                return "ok", 0, line
            pos, line = end + 1, line + 1
        return "unterminated", 0, None
    for line in range(1, src.line_count):
        text = src.line_text(line)
        if text[:1] in "-." and fullmatch(text):
            return "ok", 0, line
    return "unterminated", 0, None


def parse_frontmatter(src: SourceText, *, allow_toml: bool = False, check_duplicates: bool = True) -> Frontmatter:
    status, open_line, close_line = split(src)
    if status == "missing":
        return Frontmatter(
            status="missing",
            body_start_line=0,
            problems=[Problem("missing", Span(0, 0, 0, len(src.line_text(0))),
                              "missing frontmatter: the file must start with a line '---'")],
        )
    if status == "unterminated":
        return Frontmatter(
            status="unterminated", open_line=0, body_start_line=src.line_count,
            problems=[Problem("unterminated", Span(0, 0, 0, len(src.line_text(0))),
                              "unterminated frontmatter: no closing '---' line")],
        )
    assert open_line is not None and close_line is not None
    fm = Frontmatter(status="ok", open_line=open_line, close_line=close_line, body_start_line=close_line + 1)
    fm.suppressed_lines = _suppressions(src, open_line + 1, close_line - 1)
    block = src.text[src.line_start(open_line + 1):src.line_start(close_line)]
    offset = open_line + 1
    _parse_yaml(fm, src, block, offset, check_duplicates)
    if allow_toml and fm.status in ("invalid", "not_mapping"):
        _try_toml(fm, src, block, offset)
    return fm


# -- the fast path -----------------------------------------------------------------------------------
# Most frontmatter is a few top-level `key: value` lines. For a block made only of top-level entries
# (and blank or comment lines), a one-line entry whose value is a plain or simply quoted scalar is read
# here, with exactly what composing with libyaml gives (same values through the same resolver, same
# marks); any other entry (a nested block, a flow collection, a block scalar...) is composed by libyaml
# on its own lines, placed at their lines of the block so that its marks are the block's, and kept
# (the same entries recur across skills: `requires:\n  mcp: [rube]`). Anything else, and any entry
# libyaml refuses on its own, goes to libyaml whole. tests/test_parser.py checks both paths agree on
# every corpus file and on random blocks.
# (The value is stripped of trailing spaces after matching: a lazy `(.*?) *` retries the end at every character.)
_FAST_LINE = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.\-]{0,127}):(?:( +)(.*))?")
# What libyaml reads unlike a plain line: tabs, CR, YAML-only line breaks (U+0085, U+2028, U+2029), the
# BOM, control and non-printable characters, surrogates (undecodable bytes): the complement of what
# a plain line may hold (\n, \x20-\x7e, \xa0-\u2027, \u202a-\ud7ff, \ue000-\ufefe, \uff00-\ufffd,
# \U00010000-\U0010ffff), written as the few ranges left out (the negated class takes 4 ms to compile
# at every start; tests/test_parser.py checks the two agree on every code point).
_FAST_REFUSE = re.compile("[\\x00-\\x09\\x0b-\\x1f\\x7f-\\x9f\\u2028\\u2029\\ud800-\\udfff\\ufeff\\ufffe\\uffff]")
# Characters that start something other than a plain scalar (indicators), or are reserved.
_PLAIN_FIRST_REFUSE = frozenset("-?:,[]{}#&*!|>'\"%@`")
_resolver = yaml.resolver.Resolver()
_IMPLICIT = (True, False)
MAX_FAST_LINES = 200
MAX_FAST_CHARS = 20_000  # (no anchors, so the node and character budgets cannot run out below this)


def _fast_fields(fm: Frontmatter, block: str, offset: int, check_duplicates: bool) -> bool:
    """Fill `fm` from a block of top-level entries (see above); False (nothing changed) otherwise."""
    if len(block) > MAX_FAST_CHARS or _FAST_REFUSE.search(block) is not None:
        return False
    lines = block.split("\n")
    if len(lines) > MAX_FAST_LINES:
        return False
    starts: list[tuple[int, re.Match[str]]] = []  # each entry's key line
    nested: set[int] = set()  # entries with lines of their own below the key line
    match = _FAST_LINE.fullmatch
    for i, line in enumerate(lines):
        first = line[:1]
        if not first or first == "#":
            continue
        if first == " " or (first == "-" and line[1:2] in ("", " ")):  # (a sequence may sit at column 0)
            if line.strip(" "):
                if not starts:
                    return False
                nested.add(len(starts) - 1)
            continue
        m = match(line)
        if m is None:
            return False
        starts.append((i, m))
    if not starts:
        return False
    # (line, key, value column, raw value) of a one-line scalar, or (line, key, key node, value node,
    # the repeated keys inside the value)
    entries: list[tuple[int, str, int, str] | tuple[int, str, Any, Any, Any]] = []
    for n, (i, m) in enumerate(starts):
        key, raw = m.group(1), (m.group(3) or "").rstrip(" ")
        if n not in nested and _one_line_scalar(raw):
            entries.append((i, key, m.start(3), raw))
            continue
        last = n + 1 == len(starts)
        snippet = "\n" * i + "\n".join(lines[i:len(lines) if last else starts[n + 1][0]]) + ("" if last else "\n")
        if "&" in snippet:  # an anchor: aliases and their budget need the whole block
            return False
        composed = _compose_entry(snippet)
        if composed is None:
            return False
        knode, vnode = composed[0]
        if not isinstance(knode, yaml.ScalarNode) or knode.style or knode.value != key:
            return False
        entries.append((i, key, knode, vnode, composed[1]))
    inner: list[list[Problem]] = []  # duplicates inside composed entries (found after the top level's)
    for entry in entries:
        i, key = entry[0], entry[1]
        if len(entry) == 5 and check_duplicates:
            inner.append([_duplicate_key(k.value, node_span(k, offset), first.start_mark.line + offset)
                          for k, first in entry[4]])
        if key in fm.fields:
            if check_duplicates:
                fm.problems.append(_duplicate_key(key, Span(i + offset, 0, i + offset, len(key)),
                                                  fm.fields[key].key_span.start_line))
            continue
        if len(entry) == 5:
            fm.fields[key] = _field_entry(key, entry[2], entry[3], offset, None)
            continue
        row, col, raw = i + offset, entry[2], entry[3]
        first = raw[0]
        if first == '"' or first == "'":
            fm.fields[key] = FieldEntry(key, Span(row, 0, row, len(key)), raw[1:-1],
                                        Span(row, col, row, col + len(raw)))
            continue
        tag = _resolver.resolve(yaml.ScalarNode, raw, _IMPLICIT)  # type: ignore[no-untyped-call]
        value = raw if tag == STR else _scalar(yaml.ScalarNode(tag, raw))
        field_ = FieldEntry(key, Span(row, 0, row, len(key)), value, Span(row, col, row, col + len(raw)))
        if tag != "tag:yaml.org,2002:binary":
            read12 = core_schema_value(raw)
            if not same_reading(read12, value):
                field_.plain, field_.yaml12 = raw, read12
        fm.fields[key] = field_
    for problems in reversed(inner):  # (libyaml's path walks the values last to first)
        fm.problems.extend(problems)
    return True


def _one_line_scalar(raw: str) -> bool:
    """A value read the same as a plain or simply quoted scalar on its own line."""
    if not raw:
        return False  # `key:` with nothing after: a nested block or a null with its own marks
    first = raw[0]
    if first == '"' or first == "'":
        return len(raw) >= 2 and raw[-1] == first and first not in raw[1:-1] and "\\" not in raw
    return not (first in _PLAIN_FIRST_REFUSE or "#" in raw or ": " in raw or raw[-1] == ":")


@functools.lru_cache(maxsize=256)
def _compose_entry(snippet: str) -> tuple[tuple[Any, Any], list[tuple[Any, Any]]] | None:
    """libyaml's (key node, value node) for one entry's lines, with the repeated keys inside the value
    (`_duplicate_keys`); None when libyaml refuses the lines, nests them too deep, or reads them as
    anything but one key and its value. Kept: nothing changes a composed node."""
    if nesting_too_deep(snippet):
        return None
    try:
        root = yaml.compose(snippet, Loader=_Loader)
    except (yaml.YAMLError, RecursionError, MemoryError, ValueError):
        return None
    if not isinstance(root, yaml.MappingNode) or len(root.value) != 1:
        return None
    return root.value[0], list(_duplicate_keys(root, [MAX_NODES]))


def _field_entry(key: str, knode: Any, vnode: Any, offset: int, budget: list[int] | None) -> FieldEntry:
    """The field of one composed entry (`budget` None: the fast path's, whose value shares no node)."""
    # Collections keep their node (nested positions: skills lists, mcp_servers); a scalar's
    # span is all anyone needs, and nodes with their marks dominate an index's memory.
    value = node_value(vnode, budget) if budget is not None else _tree_value(vnode)
    entry = FieldEntry(key, node_span(knode, offset), value, node_span(vnode, offset),
                       None if isinstance(vnode, yaml.ScalarNode) else vnode)
    if isinstance(vnode, yaml.ScalarNode) and not vnode.style and vnode.tag != "tag:yaml.org,2002:binary":
        read12 = core_schema_value(vnode.value)
        if not same_reading(read12, entry.value):
            entry.plain, entry.yaml12 = vnode.value, read12
    return entry


def _parse_yaml(fm: Frontmatter, src: SourceText, block: str, offset: int, check_duplicates: bool) -> None:
    if _fast_fields(fm, block, offset, check_duplicates):
        return
    if nesting_too_deep(block):
        fm.status = "invalid"
        fm.problems.append(Problem("too_complex", fm.block_span(),
                                   f"frontmatter is nested more than {MAX_NESTING} levels deep"))
        return
    try:
        root = yaml.compose(block, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        fm.status = "invalid"
        if exc.problem_mark is not None or exc.context_mark is not None:
            relines = _YamlLines.of(block)
            if relines is not None:
                exc.problem_mark = relines.mark(exc.problem_mark)
                exc.context_mark = relines.mark(exc.context_mark)
        fm.problems.append(_syntax_problem(exc, src, offset))
        return
    except (yaml.YAMLError, RecursionError, MemoryError, ValueError) as exc:
        fm.status = "invalid"
        fm.problems.append(Problem("syntax", fm.block_span(), f"YAML error: {exc}"))
        return
    if root is None or (isinstance(root, yaml.ScalarNode) and root.tag == "tag:yaml.org,2002:null"):
        return  # empty frontmatter: a mapping with no keys
    relines = _YamlLines.of(block)
    if relines is not None:
        relines.fix_marks(root)
    if not isinstance(root, yaml.MappingNode):
        fm.status = "not_mapping"
        kind = "a list" if isinstance(root, yaml.SequenceNode) else "a single value"
        fm.problems.append(Problem("not_mapping", node_span(root, offset),
                                   f"frontmatter must be a mapping of keys to values, not {kind}"))
        return
    budget = [MAX_NODES, MAX_EXPANDED_CHARS + 2 * len(block)]
    try:
        if check_duplicates:
            _check_duplicates(root, fm, offset, budget)
        for knode, vnode in root.value:
            key = knode.value if isinstance(knode, yaml.ScalarNode) else node_value(knode, budget)
            key = key_text(key) if isinstance(key, (dict, list)) else str(key)
            if key in fm.fields:
                continue  # first occurrence keeps its position; SK004 reports the duplicate
            fm.fields[key] = _field_entry(key, knode, vnode, offset, budget)
    except _RecursiveAlias:
        fm.status = "invalid"
        fm.fields.clear()
        fm.problems.append(Problem("too_complex", fm.block_span(),
                                   "frontmatter contains a recursive alias (an anchor used inside itself)"))
    except _TooComplex:
        fm.status = "invalid"
        fm.fields.clear()
        fm.problems.append(Problem("too_complex", fm.block_span(),
                                   f"frontmatter expands to more than {MAX_NODES} YAML nodes (alias bomb?)"))


def _duplicate_key(key: str, span: Span, first_line: int) -> Problem:
    """A key written twice in one mapping (`first_line`: 0-based line of its first occurrence)."""
    return Problem("duplicate_key", span, f"duplicate key '{key}' (first defined on line {first_line + 1}); "
                   "runtimes disagree on which one wins")


def _check_duplicates(root: Any, fm: Frontmatter, offset: int, budget: list[int]) -> None:
    for knode, first in _duplicate_keys(root, budget):
        fm.problems.append(_duplicate_key(knode.value, node_span(knode, offset), first.start_mark.line + offset))


def _duplicate_keys(root: Any, budget: list[int]) -> Iterator[tuple[Any, Any]]:
    """(key node, the first key node of its name) for each repeated key of each mapping of the graph."""
    for node in _unique_nodes(root, keys=False):
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooComplex
        if isinstance(node, yaml.MappingNode):
            first: dict[str, Any] = {}
            for knode, vnode in node.value:
                if isinstance(knode, yaml.ScalarNode):
                    if knode.value in first:
                        yield knode, first[knode.value]
                    else:
                        first[knode.value] = knode


def _syntax_problem(exc: yaml.MarkedYAMLError, src: SourceText, offset: int) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line = (mark.line if mark else 0) + offset
    col = mark.column if mark else 0
    text = src.line_text(line)
    col = min(col, len(text))
    problem = exc.problem or "syntax error"
    message = f"YAML syntax error: {problem}"
    span = Span(line, col, line, max(col + 1, col) if col < len(text) else col)
    fix = _quote_fix(src, line, offset, problem)
    if fix is not None:
        fix_line, key, value, vstart = fix
        quoted = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        vtext = src.line_text(fix_line)
        return Problem(
            "syntax",
            span,  # where the parser stopped: the ': ' may be hundreds of characters into the value
            f"YAML syntax error in '{key}': the value contains ': ' (or starts with a reserved character); "
            "quote the value",
            fix_title=f"Quote the value of '{key}'",
            fix_span=Span(fix_line, vstart, fix_line, vstart + len(value)),
            fix_text=quoted,
        ) if vtext else Problem("syntax", span, message)
    return Problem("syntax", span, message)


def _quote_fix(src: SourceText, line: int, offset: int, problem: str) -> tuple[int, str, str, int] | None:
    """Find the `key: value` line that needs quoting for the common unquoted-colon mistakes."""
    if "mapping values are not allowed" not in problem and "cannot start any token" not in problem:
        return None
    for candidate in (line, line - 1):
        if candidate < offset:
            continue
        m = _KEY_VALUE.match(src.line_text(candidate))
        if not m:
            continue
        value = m.group(4)
        if not value or value[0] in "\"'|>[{":
            continue
        if ": " in value or value.endswith(":") or value[0] in "`@%":
            return candidate, m.group(2), value, m.start(4)
    return None


_TOML_KEY = lazy_pattern(r"^\s*([A-Za-z0-9_\-]+|\"[^\"]*\")\s*=")
_TOML_ERR_POS = lazy_pattern(r"\(at line (\d+), column (\d+)\)")


def _try_toml(fm: Frontmatter, src: SourceText, block: str, offset: int) -> None:
    try:
        data = toml_value(block.replace("\r\n", "\n").replace("\r", "\n"))
    except DataError:
        return  # keep the YAML diagnosis: it is the primary format
    fm.status = "ok"
    fm.format = "toml"
    fm.problems = [p for p in fm.problems if p.kind not in ("syntax", "not_mapping", "too_complex")]
    key_lines: dict[str, int] = {}
    for line in range(offset, (fm.close_line or offset)):
        m = _TOML_KEY.match(src.line_text(line))
        if m:
            key_lines.setdefault(m.group(1).strip('"'), line)
        elif src.line_text(line).lstrip().startswith("["):
            header = src.line_text(line).strip().strip("[]").strip()
            key_lines.setdefault(header.split(".")[0].strip('"'), line)
    for key, value in data.items():
        line = key_lines.get(key, offset)
        text = src.line_text(line)
        start = max(text.find(key), 0)
        span = Span(line, start, line, start + len(key))
        fm.fields[key] = FieldEntry(key, span, value, Span(line, start, line, len(text)))


_REPAIR_LINE = lazy_pattern(r"^([a-zA-Z_-]+):\s+(\S.*)$")
_REPAIR_NEEDS_QUOTES = lazy_pattern(r"[{}\[\]*&#!|>%@`]|: ")


def quote_repair(block: str) -> str | None:
    """The frontmatter block as a runtime that repairs unquoted values reads it after a YAML error
    (Claude Code 2.1.332, `parseFrontmatter`'s fallback): each top-level `key: value` line whose value
    is not quoted, not a YAML flow list, and holds a character YAML reserves (`{}[]*&#!|>%@` and
    backquote) or `: ` is quoted; leading tabs become two spaces each. None when the repaired block
    does not parse either (or is not a mapping)."""
    out: list[str] = []
    for line in block.split("\n"):
        m = _REPAIR_LINE.match(line)
        if m:
            key, value = m.group(1), m.group(2)
            quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
            flow_list = False
            if value.startswith("[") and value.endswith("]") and not nesting_too_deep(value):
                try:
                    flow_list = isinstance(yaml.load(value, Loader=_Loader), list)
                except (yaml.YAMLError, RecursionError, ValueError):
                    flow_list = False
            if not quoted and not flow_list and _REPAIR_NEEDS_QUOTES.search(value):
                line = f'{key}: "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        out.append(re.sub(r"^\t+", lambda t: "  " * len(t.group(0)), line))
    text = "\n".join(out)
    if nesting_too_deep(text):
        return None
    try:
        value = yaml.load(text, Loader=_Loader)
    except (yaml.YAMLError, RecursionError, ValueError):
        return None
    return text if isinstance(value, dict) else None
