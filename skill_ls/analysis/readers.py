"""Which runtimes read a skill file, and which of them know a frontmatter key.

A key is *unknown* (SK007) only when no runtime that reads the file knows it; a key that some readers
know and others ignore is a portability note (PT001). A root can be a *guest* of another runtime's
directory (Amp reads `.claude/skills`): the host's keys are expected there, so the guest ignoring
them is not reported. A SKILL.md under no runtime root is meant to be installed anywhere: every
runtime counts as a possible reader.
"""
from __future__ import annotations

import functools
from typing import Iterable

from skill_ls.core.index import SkillDecl
from skill_ls.core.records import dataclass
from skill_ls.core.runtimes import RUNTIMES, RootSpec, Runtime, all_known_fields


@dataclass(frozen=True, shared_init=True)
class Reader:
    """A runtime that reads a root: itself (`host` None) or a guest that borrows another runtime's directory."""

    runtime: str
    host: str | None  # the runtime whose directory a guest root borrows


def root_spec(runtime: Runtime, tier: str) -> RootSpec | None:
    for spec in runtime.roots:
        if spec.tier == tier:
            return spec
    return None


def readers_of(decls: Iterable[SkillDecl]) -> list[Reader]:
    """The runtimes that read one file (from its declarations), in registry order, once each."""
    # Asked by several rules for every runtime reading every file, and the same few (runtime, tier)
    # combinations recur across files: each combination is worked out once.
    return list(_readers(tuple((d.runtime, d.tier, d.builtin) for d in decls)))


@functools.lru_cache(maxsize=1024)
def _readers(decls: tuple[tuple[str, str, bool], ...]) -> tuple[Reader, ...]:
    seen: dict[str, Reader] = {}
    for runtime_id, tier, builtin in decls:
        if builtin or runtime_id in seen or runtime_id not in RUNTIMES:
            continue
        spec = root_spec(RUNTIMES[runtime_id], tier)
        seen[runtime_id] = Reader(runtime_id, spec.guest_of if spec is not None else None)
    order = list(RUNTIMES)
    return tuple(sorted(seen.values(), key=lambda r: order.index(r.runtime)))


def knows(runtime_id: str, key: str) -> bool:
    rt = RUNTIMES.get(runtime_id)
    return rt is not None and key in rt.fields


def known_by_a_reader(key: str, readers: list[Reader]) -> bool:
    return any(knows(r.runtime, key) or (r.host is not None and knows(r.host, key)) for r in readers)


def ignoring_readers(key: str, readers: list[Reader]) -> list[str]:
    """Readers that ignore `key`, leaving out guests whose host knows it."""
    return [r.runtime for r in readers
            if not knows(r.runtime, key) and not (r.host is not None and knows(r.host, key))]


def knowing_runtimes(key: str) -> list[str]:
    return list(all_known_fields().get(key, ()))


def titles(runtime_ids: Iterable[str]) -> str:
    return ", ".join(RUNTIMES[r].title for r in runtime_ids)
