"""What rules are given. Plain values: a rule reads them and reports through `Reporter`."""
from __future__ import annotations

from dataclasses import dataclass

from skill_ls.core.config import Config
from skill_ls.core.index import AgentDecl, Document, Index, SkillDecl
from skill_ls.core.model import Span
from skill_ls.analysis.rules import Reporter
from skill_ls.core.runtimes import Runtime


@dataclass
class FileContext:
    doc: Document
    index: Index | None
    config: Config
    out: Reporter

    def key_span(self, key: str) -> Span:
        fm = self.doc.fm
        if fm is not None and key in fm.fields:
            return fm.fields[key].key_span
        return header_span(self.doc)


@dataclass
class RuntimeContext(FileContext):
    runtime: Runtime
    decl: SkillDecl


@dataclass
class ResolutionContext:
    resolution: object  # skill_ls.core.resolve.NameResolution
    decl: SkillDecl  # the copy being reported on
    index: Index
    config: Config
    out: Reporter


@dataclass
class AgentContext:
    agent: AgentDecl
    index: Index
    config: Config
    out: Reporter


@dataclass
class SidecarContext:
    path: str
    kind: str  # mcp | meta | openai
    skill_path: str | None
    index: Index | None
    config: Config
    out: Reporter


def header_span(doc: Document) -> Span:
    """Where to put a diagnostic about the frontmatter as a whole: its opening line."""
    text = doc.src.line_text(0)
    return Span(0, 0, 0, len(text))


def name_span(doc: Document) -> Span:
    fm = doc.fm
    if fm is not None and "name" in fm.fields:
        return fm.fields["name"].value_span
    return header_span(doc)


def closing_insert_span(doc: Document) -> Span | None:
    fm = doc.fm
    if fm is None or fm.close_line is None:
        return None
    return Span(fm.close_line, 0, fm.close_line, 0)
