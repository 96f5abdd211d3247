"""What rules are given. Plain values: a rule reads them and reports through `Reporter`. Each context
is made for one call and compared with nothing (`eq=False`: identity, and no generated `__eq__`)."""
from __future__ import annotations


from skill_ls.core.agents import AgentDefinition, parse_agent
from skill_ls.core.config import Config
from skill_ls.core.disk import Disk
from skill_ls.core.index import AgentDecl, Document, Index, SkillDecl
from skill_ls.core.model import Span
from skill_ls.core.records import dataclass, field
from skill_ls.core.resolve import NameResolution
from skill_ls.core.spans import key_span
from skill_ls.analysis.rules import Reporter
from skill_ls.core.runtimes import Runtime


@dataclass(eq=False)
class FileContext:
    """What a file rule sees: the document, the index around it, the configuration and the reporter."""

    doc: Document
    index: Index | None
    config: Config
    out: Reporter
    # Every declaration of this file (one per runtime that reads it); empty for a skill under no root.
    readers: tuple[SkillDecl, ...] = field(default=(), kw_only=True)
    kind: str = field(default="skill", kw_only=True)  # skill | command (a command file's frontmatter)

    def key_span(self, key: str) -> Span:
        return key_span(self.doc, key)

    @property
    def disk(self) -> Disk:
        """The index's view of the disk beside the documents (rules ask it, never the file system)."""
        return _disk(self.index)


@dataclass(eq=False)
class RuntimeContext(FileContext):
    """What a runtime rule sees: a file as one runtime reads it (`decl`: that runtime's declaration)."""

    runtime: Runtime
    decl: SkillDecl


@dataclass(eq=False)
class ResolutionContext:
    """What a resolution rule sees: one name's resolution and the copy being reported on."""

    resolution: NameResolution
    decl: SkillDecl  # the copy being reported on
    index: Index
    config: Config
    out: Reporter


@dataclass(eq=False)
class AgentContext:
    """What an agent rule sees: one agent definition and its parsed definition (read once, on demand)."""

    agent: AgentDecl
    index: Index
    config: Config
    out: Reporter
    _definition: AgentDefinition | None = field(default=None, init=False, repr=False)

    @property
    def definition(self) -> AgentDefinition:
        """The definition's values (`parse_agent`), parsed once for all the rules of one check."""
        if self._definition is None:
            self._definition = parse_agent(self.agent, self.index)
        return self._definition


@dataclass(eq=False)
class SidecarContext:
    """What a sidecar rule sees: a file beside a skill (`mcp.json`, `.agh-meta.json`, Codex's
    `agents/openai.yaml`, `capabilities.toml`) and the skill's SKILL.md, if any."""

    path: str
    kind: str  # mcp | meta | openai | capabilities, or a Claude Code plugin/project file (`core.plugins.KINDS`)
    skill_path: str | None
    index: Index | None
    config: Config
    out: Reporter

    @property
    def disk(self) -> Disk:
        """The index's view of the disk beside the documents (rules ask it, never the file system)."""
        return _disk(self.index)


def _disk(index: Index | None) -> Disk:
    return index.disk if index is not None else Disk()

