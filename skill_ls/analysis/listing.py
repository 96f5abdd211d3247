"""A runtime's skill listing under its character budget (BG002), kept live across keystrokes.

The listing is runtime data (`Vocabulary.listing_*`; `core/listing_budget.py` for the budget's
inputs). Codex drops the skills past about 8,000 characters of its listing (entries costed by the
code that renders the catalog, `catalog.catalog_cost`); Claude Code sizes its budget from the
model's context, lists every skill by name at least, and gives descriptions back in listing order
while they fit (`- name: description` entries, its commands counted beside its skills).

This module is the one owner of that computation: `listing(index, runtime)` answers BG002 for
`skill-ls check` and the language server alike. It is built once per state of the names (it lives
in `index.derived_from_names`) and then follows the edits of a skill's text: the workspace calls
`refresh_listings` for the declarations whose document it swapped in place (a keystroke that keeps
the name), which changes that entry's cost in O(log n). What BG002 asks afterwards costs what it
reports, not the size of the listing:

* the total and the number of entries are running sums;
* Codex's cut (a prefix of the listing) is a search in a Fenwick tree of the costs;
* Claude Code's cut (descriptions given back first-fit, in order, while they fit what the names
  leave of the budget) is replayed with a segment tree of the descriptions' lengths that finds the
  next entry that still fits in O(log n): one step per description given back (the budget allows
  a few dozen to a few hundred), none per entry left out;
* the reported entries (the longest, at most `REPORTED`) come from the entries sorted by cost.

The derived answers (the cut, the reported entries) are computed on the first question after a
change and kept until the next one. `entries` (every row with its running end) is the one O(n)
view, for tests and callers that want the whole listing.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from typing import TYPE_CHECKING

from skill_ls.core.index import Index, SkillDecl, description_as_read, frontmatter_as_read
from skill_ls.core.parse.frontmatter import Frontmatter
from skill_ls.core.plugins import COMMAND_TIER
from skill_ls.core.runtimes import RUNTIMES, Runtime
from skill_ls.core.runtimes.spec import flag_word

if TYPE_CHECKING:
    from skill_ls.core.index import Document
    from skill_ls.core.listing_budget import BudgetInputs

REPORTED = 5  # BG002 findings per over-budget listing: the entries whose shortening helps most
_UNLISTED = (-1, -1)
_NEVER = 1 << 62  # a description length no budget leaves room for (an entry not listed)


class _Fenwick:
    """Prefix sums of non-negative integers with point updates, and the first prefix past a bound."""

    def __init__(self, values: list[int]) -> None:
        self.n = len(values)
        tree = [0] + values
        for i in range(1, self.n + 1):
            j = i + (i & -i)
            if j <= self.n:
                tree[j] += tree[i]
        self.tree = tree
        self.top = 1 << self.n.bit_length() if self.n else 0

    def add(self, i: int, delta: int) -> None:
        i += 1
        while i <= self.n:
            self.tree[i] += delta
            i += i & -i

    def first_past(self, bound: int) -> int:
        """The first position whose running sum (itself included) exceeds `bound` (n: none)."""
        pos, step, tree = 0, self.top, self.tree
        while step:
            nxt = pos + step
            if nxt <= self.n and tree[nxt] <= bound:
                pos, bound = nxt, bound - tree[nxt]
            step >>= 1
        return pos


class _MinTree:
    """Minimums over positions with point updates, and the first position from `start` at or under a
    limit: what Claude Code's first-fit gives back next."""

    def __init__(self, values: list[int]) -> None:
        size = 1
        while size < max(1, len(values)):
            size *= 2
        tree = [_NEVER] * (2 * size)
        tree[size:size + len(values)] = values
        for i in range(size - 1, 0, -1):
            tree[i] = min(tree[2 * i], tree[2 * i + 1])
        self.size, self.tree = size, tree

    def set(self, i: int, value: int) -> None:
        tree = self.tree
        i += self.size
        tree[i] = value
        i >>= 1
        while i:
            tree[i] = min(tree[2 * i], tree[2 * i + 1])
            i >>= 1

    def first_at_most(self, start: int, limit: int) -> int | None:
        tree, size = self.tree, self.size
        if start >= size:
            return None
        i = start + size
        while tree[i] > limit:  # climb to the next subtree to the right
            while i & 1:
                i >>= 1
            if i == 0:
                return None
            i += 1
        while i < size:  # then down to its first leaf at or under the limit
            i = 2 * i if tree[2 * i] <= limit else 2 * i + 1
        return i - size


class Listing:
    """A runtime's listing: its candidates in listing order (the effective set, then the commands
    the runtime lists beside its skills), each with its cost — (full entry, name only), or not
    listed —, the budget, and what falls past it. Slots are fixed for a state of the names; a
    keystroke changes one slot's cost (`update`)."""

    def __init__(self, runtime: Runtime, order: list[SkillDecl], budget: BudgetInputs | None,
                 commands: list[tuple[str, Document]]) -> None:
        self.runtime = runtime
        self.budget = budget
        # What the listing is built from (`listing` compares the budget and the commands with the
        # index's before answering from it): the effective set in order, the listed commands.
        self.order = order
        self.commands = commands
        self.cap = budget.description_cap if budget is not None else None
        self.names_only = runtime.vocabulary.listing_overflow == "names_only"
        self.separator = 1 if self.names_only else 0  # (newlines between Claude Code's entries)
        # A command whose name a skill holds is that skill's (the first of a name is listed).
        taken = {d.name for d in order}
        listed_commands = [SkillDecl(doc.path, runtime.id, None, COMMAND_TIER, name, doc=doc)
                           for name, doc in commands if name not in taken]
        decls = [d for d in [*order, *listed_commands] if d.doc is not None]
        self.decls = decls
        self.slots: dict[str, list[int]] = {}
        for i, decl in enumerate(decls):
            self.slots.setdefault(decl.path, []).append(i)
        costs = [_listed_entry(decl, runtime, self.cap) for decl in decls]
        self.full = [c[0] if c is not None else 0 for c in costs]
        self.short = [c[1] if c is not None else 0 for c in costs]
        self.listed = [c is not None for c in costs]
        self.unlisted = [i for i, on in enumerate(self.listed) if not on]  # sorted
        self.count = len(decls) - len(self.unlisted)
        self.commands_listed = sum(1 for i, d in enumerate(decls) if d.root is None and self.listed[i])
        self.sum_full = sum(self.full)
        self.sum_short = sum(self.short)
        self.by_cost = sorted((-self.full[i], -i) for i, d in enumerate(decls) if d.root is not None and self.listed[i])
        self._ends = _Fenwick(self.full) if not self.names_only else None
        self._extras = _MinTree([f - s if on else _NEVER for f, s, on in zip(self.full, self.short, self.listed)]) \
            if self.names_only else None
        self._answers: tuple[set[int], int | None, dict[str, int]] | None = None

    # -- following edits -------------------------------------------------------------------------
    def update(self, decl: SkillDecl) -> bool:
        """Cost `decl`'s entry again from its (swapped) document; True when the entry changed."""
        changed = False
        for i in self.slots.get(decl.path, ()):
            if self.decls[i] is not decl:
                continue
            cost = _listed_entry(decl, self.runtime, self.cap)
            full, short, on = (cost[0], cost[1], True) if cost is not None else (0, 0, False)
            if (full, short, on) == (self.full[i], self.short[i], self.listed[i]):
                continue
            changed = True
            was_full, was_on = self.full[i], self.listed[i]
            if was_on and decl.root is not None:
                del self.by_cost[bisect_left(self.by_cost, (-was_full, -i))]
            if on and decl.root is not None:
                insort(self.by_cost, (-full, -i))
            if on != was_on:
                if on:
                    del self.unlisted[bisect_left(self.unlisted, i)]
                else:
                    insort(self.unlisted, i)
                self.count += 1 if on else -1
                if decl.root is None:
                    self.commands_listed += 1 if on else -1
            self.sum_full += full - was_full
            self.sum_short += short - self.short[i]
            if self._ends is not None:
                self._ends.add(i, full - was_full)
            if self._extras is not None:
                self._extras.set(i, full - short if on else _NEVER)
            self.full[i], self.short[i], self.listed[i] = full, short, on
        if changed:
            self._answers = None
        return changed

    # -- what BG002 asks -------------------------------------------------------------------------
    @property
    def total(self) -> int:
        """Characters of the whole listing (entries and the newlines between them)."""
        return self.sum_full + self.separator * max(0, self.count - 1)

    @property
    def has_commands(self) -> bool:
        return self.commands_listed > 0

    def over(self) -> bool:
        return self.budget is not None and self.total > self.budget.budget

    def _solve(self) -> tuple[set[int], int | None, dict[str, int]]:
        """(slots given back — Claude Code —, first slot cut — Codex —, reported paths with their rank)."""
        if self._answers is not None:
            return self._answers
        given: set[int] = set()
        first_cut: int | None = None
        reported: dict[str, int] = {}
        if self.budget is not None and self.total > self.budget.budget:
            if self._extras is not None:
                # Every skill keeps its name; descriptions are given back in order of use (most
                # invoked first; with no history, listing order) while they fit what is left.
                left = self.budget.budget - (self.sum_short + max(0, self.count - 1))
                at = 0
                while left >= 0:
                    j = self._extras.first_at_most(at, left)
                    if j is None:
                        break
                    given.add(j)
                    left -= self.full[j] - self.short[j]
                    at = j + 1
            elif self._ends is not None:
                first_cut = self._ends.first_past(self.budget.budget)
            reported = self._rank(given, first_cut)
        self._answers = (given, first_cut, reported)
        return self._answers

    def _cut(self, i: int, given: set[int], first_cut: int | None) -> bool:
        """Whether slot `i` is cut, given the solution (an over-budget listing's)."""
        if not self.listed[i]:
            return False
        return i not in given if self.names_only else first_cut is not None and i >= first_cut

    def _rank(self, given: set[int], first_cut: int | None) -> dict[str, int]:
        """The longest skill entries (then the cut ones, then the later), at most REPORTED paths: the
        entries sorted by cost, read group by group of equal cost."""
        reported: dict[str, int] = {}
        k, n = 0, len(self.by_cost)

        def cut(path: str) -> bool:
            return any(self._cut(j, given, first_cut) for j in self.slots[path])

        while k < n and len(reported) < REPORTED:
            cost = self.by_cost[k][0]
            end = bisect_right(self.by_cost, (cost, 1))
            group = sorted((not cut(self.decls[-neg].path), neg) for _, neg in self.by_cost[k:end])
            for _, neg in group:
                path = self.decls[-neg].path
                if path not in reported and len(reported) < REPORTED:
                    reported[path] = len(reported) + 1
            k = end
        return reported

    @property
    def reported(self) -> dict[str, int]:
        """The paths BG002 reports on (the longest entries, at most REPORTED) with their rank."""
        return self._solve()[2]

    @property
    def cut_count(self) -> int:
        """How many entries fall out (Codex) or lose their description (Claude Code)."""
        if not self.over():
            return 0
        given, first_cut, _ = self._solve()
        if self.names_only:
            return self.count - len(given)
        if first_cut is None:
            return 0
        return self.count - (first_cut - bisect_left(self.unlisted, first_cut))

    def cut_paths(self, limit: int) -> list[str]:
        """The first `limit` paths cut, in listing order."""
        if not self.over():
            return []
        given, first_cut, _ = self._solve()
        out: list[str] = []
        i = first_cut if first_cut is not None else 0
        while i < len(self.decls) and len(out) < limit:
            if self.listed[i] and i not in given:
                out.append(self.decls[i].path)
            i += 1
        return out

    def is_cut(self, path: str) -> bool:
        if not self.over():
            return False
        given, first_cut, _ = self._solve()
        return any(self._cut(i, given, first_cut) for i in self.slots.get(path, ()))

    def place(self, path: str) -> tuple[int, int] | None:
        """(entry number, 1-based, cost) of the path's first listed entry; None when it is not listed."""
        for i in self.slots.get(path, ()):
            if self.listed[i]:
                return i + 1 - bisect_left(self.unlisted, i), self.full[i]
        return None

    @property
    def entries(self) -> list[tuple[SkillDecl, int, int]]:
        """Every listed entry in order: (declaration, cost, running end of the listing). O(n)."""
        out: list[tuple[SkillDecl, int, int]] = []
        total = 0
        for i, decl in enumerate(self.decls):
            if self.listed[i]:
                total += self.full[i] + (self.separator if out else 0)
                out.append((decl, self.full[i], total))
        return out


def _listed_entry(decl: SkillDecl, runtime: Runtime, cap: int | None) -> tuple[int, int] | None:
    """(full entry, name only) characters of one skill in the runtime's listing, or None when the
    runtime leaves it out (a skill whose frontmatter it cannot read, one the model may not invoke).
    Claude Code's entry is `- name: description` (description + " - " + when_to_use, cut at `cap`
    with an ellipsis); other runtimes' entries are their catalog entries (`catalog_cost`). Kept with
    the parsed document, so a listing built again after a change of names costs its entries once."""
    doc = decl.doc
    assert doc is not None
    costs = doc.cache.setdefault("listing_costs", {})
    key = (decl.runtime, decl.name, decl.path, decl.tier, cap)
    hit: tuple[int, int] | None = costs.get(key)
    if hit is None:
        listed = (decl.root is None or frontmatter_as_read(doc, runtime) is not None) and _model_invocable(decl, runtime)
        hit = costs[key] = _entry_costs(decl, runtime, cap) if listed else _UNLISTED
    return None if hit is _UNLISTED else hit


def _entry_costs(decl: SkillDecl, runtime: Runtime, cap: int | None) -> tuple[int, int]:
    """(full entry, name only) of a listed skill, computed (`_listed_entry` keeps it)."""
    from skill_ls.analysis.catalog import catalog_cost

    doc = decl.doc
    assert doc is not None
    if runtime.vocabulary.listing_overflow != "names_only":
        full = catalog_cost(decl).chars
        return (full, full)
    fm = _read_for_listing(decl, runtime)
    description = description_as_read(doc, runtime, fm, "Custom command" if decl.root is None else "Skill")
    text = str(description) if isinstance(description, (str, int, float)) else ""
    when = fm.value("when_to_use")
    if isinstance(when, (str, int, float)) and str(when):
        text = f"{text} - {when}"
    if cap is not None and len(text) > cap:
        text = text[:cap - 1] + "\u2026"
    name_only = len(decl.name) + 2
    return (name_only + 2 + len(text), name_only)


def _read_for_listing(decl: SkillDecl, runtime: Runtime) -> Frontmatter:
    """The frontmatter the runtime lists an entry by: as it reads it (`frontmatter_as_read`); a
    command whose block does not parse even after the repair is listed with none (Claude Code
    ignores such a block and loads the command)."""
    doc = decl.doc
    assert doc is not None
    fm = frontmatter_as_read(doc, runtime)
    if fm is not None:
        return fm
    start = doc.fm.body_start_line if doc.fm is not None and doc.fm.status == "invalid" else 0
    return Frontmatter(status="ok", body_start_line=start)


def _model_invocable(decl: SkillDecl, runtime: Runtime) -> bool:
    """False when `disable-model-invocation` (read with the runtime's truthiness) keeps the entry out
    of the model's listing (Claude Code lists only what the model may invoke)."""
    if decl.doc is None or runtime.truthiness != "words":
        return True
    value = _read_for_listing(decl, runtime).value("disable-model-invocation")
    return flag_word(value) is not True


def listing(index: Index, runtime: str) -> Listing:
    """A runtime's listing for its effective set. Built once per state of the names (it lives in
    `index.derived_from_names`, which survives a document swapped in place); built again when the
    budget's inputs or the listed commands (read from the disk, once per index state) changed."""
    from skill_ls.analysis.effective import EffectiveSetError, resolve_effective_set
    from skill_ls.core.listing_budget import budget_inputs  # (here: only a listing needs it)

    rt = RUNTIMES[runtime]
    key = ("listing", runtime)
    inputs = budget_inputs(index, rt)
    commands = index.listed_commands(rt)
    hit = index.derived_from_names.get(key)
    if isinstance(hit, Listing):
        if hit.budget == inputs and (hit.commands is commands or _same(hit.commands, commands)):
            hit.commands = commands
            return hit
        order = hit.order
    else:
        try:
            eff = resolve_effective_set(index, runtime, fail_closed=False)
        except EffectiveSetError:
            eff = None
        order = [s.decl for s in eff.enabled if not s.decl.builtin] if eff else []
    built = index.derived_from_names[key] = Listing(rt, order, inputs, commands)
    return built


def _same(a: list[tuple[str, Document]], b: list[tuple[str, Document]]) -> bool:
    return len(a) == len(b) and all(x[0] == y[0] and x[1] is y[1] for x, y in zip(a, b))


# The name of a touched (runtime, name) pair that says only the runtime's listing moved (no name
# changed: BG002's files may change, nothing that resolves names); `Index.update_file` says it of a
# listed command.
MOVED = "@listing"


def refresh_listings(index: Index, decls: list[SkillDecl]) -> set[tuple[str, str]]:
    """The workspace swapped these declarations' documents in place (same names): cost their
    entries again in the listings already built. Returns (runtime, MOVED) for each runtime whose
    listing changed (its cut may have moved for other files) — or is not built yet (it is built on
    the next question)."""
    moved: set[tuple[str, str]] = set()
    for d in decls:
        if RUNTIMES[d.runtime].vocabulary.listing_budget is None:
            continue
        built = index.derived_from_names.get(("listing", d.runtime))
        if not isinstance(built, Listing) or built.update(d):
            moved.add((d.runtime, MOVED))
    return moved


def past_the_budget(index: Index, runtime: str) -> dict[str, tuple[object, ...]]:
    """What BG002 says about each file it reports on in a runtime's listing: path -> everything its
    message and related locations are made of. Empty without a budget or under it. The language
    server compares it before and after a change to republish exactly the files whose finding changed."""
    if RUNTIMES[runtime].vocabulary.listing_budget is None or runtime not in index.decls:
        return {}
    found = listing(index, runtime)
    if not found.over():
        return {}
    out: dict[str, tuple[object, ...]] = {}
    cut, count, total, first = found.cut_count, found.count, found.total, tuple(found.cut_paths(RELATED))
    for path, rank in found.reported.items():
        place = found.place(path)
        out[path] = (rank, place, cut, count, total, first, found.is_cut(path), found.has_commands)
    return out


RELATED = 20  # cut entries a BG002 finding names as related locations
