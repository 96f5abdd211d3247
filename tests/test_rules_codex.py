"""Listing budgets (BG002: Codex drops, Claude Code shortens) and agents/openai.yaml (CX001)."""
from __future__ import annotations

from conftest import check_tree, diags_for, skill, write

from skill_ls.core.model import Severity


def pos(d):
    return d.span.start_line, d.span.start_col, d.span.end_col


def test_bg002_codex_listing_drops_skills_past_the_budget(workspace):
    root = workspace / ".agents" / "skills"
    files = [skill(root, f"s{i:02d}", description="d" * 900) for i in range(12)]
    res = check_tree(workspace, runtimes=["codex"])
    flagged = [f for f in files if diags_for(res, f, "BG002")]
    assert flagged and flagged == files[len(files) - len(flagged):]  # the tail of the listing falls out
    d = diags_for(res, flagged[0], "BG002")[0]
    assert d.severity == Severity.WARNING and "5 of 12 skills fall out" in d.message and pos(d) == (1, 6, 9)
    assert len(flagged) == 5  # grouped: a handful of findings, not one per skill past the cut
    assert not diags_for(res, files[0], "BG002")


def test_bg002_claude_code_lists_skills_past_the_budget_by_name_only(workspace):
    root = workspace / ".claude" / "skills"
    files = [skill(root, f"s{i:02d}", description="d" * 1000) for i in range(10)]
    res = check_tree(workspace, runtimes=["claude-code"])
    ds = [d for f in files for d in diags_for(res, f, "BG002")]
    # 10 entries of `- sNN: ` + 1,000 characters, and 9 line breaks = 10,079 > 8,000: names and breaks cost 59,
    # and 7 descriptions of 1,002 fit in the rest: 3 skills are listed by name only, the last three.
    assert len(ds) == 5 and all(d.severity == Severity.INFORMATION for d in ds)
    assert all("10,079 characters" in d.message and "3 of 10 skills are listed by name only" in d.message
               and "0.01 of a 200,000-token context" in d.message for d in ds)
    assert {str(r.path) for r in ds[0].related} <= {str(f) for f in files[7:]}


def test_bg002_claude_code_budget_inputs(workspace, monkeypatch):
    root = workspace / ".claude" / "skills"
    files = [skill(root, f"s{i:02d}", description="d" * 1000) for i in range(10)]
    # A 1M-token context gives 40,000 characters: the listing fits.
    write(workspace / ".skill-ls.toml", "[claude-code]\ncontext_window = 1000000\n")
    assert not [d for f in files for d in diags_for(check_tree(workspace, runtimes=["claude-code"]), f, "BG002")]
    # Claude Code's own setting, in the project's settings: 0.005 of 1M = 20,000 characters: still fits.
    write(workspace / ".claude" / "settings.json", '{"skillListingBudgetFraction": 0.001}')
    ds = [d for f in files for d in diags_for(check_tree(workspace, runtimes=["claude-code"]), f, "BG002")]
    assert ds and "skillListingBudgetFraction 0.001" in ds[0].message and "4,000 characters" in ds[0].message
    # The environment wins over both.
    monkeypatch.setenv("SLASH_COMMAND_TOOL_CHAR_BUDGET", "20000")
    assert not [d for f in files for d in diags_for(check_tree(workspace, runtimes=["claude-code"]), f, "BG002")]


def test_bg002_claude_code_description_cap(workspace):
    root = workspace / ".claude" / "skills"
    f = skill(root, "long", description="d" * 1500, extra="when_to_use: " + "w" * 500 + "\n")
    from skill_ls.analysis.listing import listing
    from skill_ls.core.runtimes import RUNTIMES

    res = check_tree(workspace, runtimes=["claude-code"])
    found = listing(res.index, "claude-code")
    [(decl, cost, _)] = found.entries
    assert cost == len("- long: ") + 1536  # description + " - " + when_to_use, cut at 1,536 with an ellipsis
    assert RUNTIMES["claude-code"].vocabulary.listing_description_cap == 1536 and str(f) == decl.path


def test_bg002_quiet_under_budget(workspace):
    f = skill(workspace / ".agents" / "skills", "a")
    assert not diags_for(check_tree(workspace, runtimes=["codex"]), f, "BG002")


def test_cx001_openai_yaml(workspace):
    s = skill(workspace / ".agents" / "skills", "a")
    y = write(s.parent / "agents" / "openai.yaml", (
        "interface:\n"
        "  display_name: A\n"
        "  short_descripton: typo\n"
        "  icon_small: ./assets/small.svg\n"
        "  brand_color: blue\n"
        "dependencies:\n"
        "  tools:\n"
        "    - type: mcp\n"
        "      value: docs\n"
        "      transport: websocket\n"
        "    - type: cli\n"
        "policy:\n"
        "  allow_implicit_invocation: \"false\"\n"))
    ds = diags_for(check_tree(workspace, runtimes=["codex"]), y, "CX001")
    assert [(pos(d), d.message.split(";")[0].split(" (")[0]) for d in ds] == [
        ((2, 2, 18), "unknown key 'short_descripton' in interface"),
        ((3, 14, 32), "interface.icon_small './assets/small.svg' does not exist in the skill"),
        ((4, 15, 19), "interface.brand_color 'blue' is not a hex color like '#3B82F6'"),
        ((9, 17, 26), "transport 'websocket' is not one of streamable_http, stdio, sse"),
        ((10, 6, 10), "a dependencies.tools entry needs 'value'"),
        ((10, 12, 15), "a dependencies.tools entry needs 'type: mcp'"),
        ((12, 29, 36), "policy.allow_implicit_invocation must be true or false"),
    ]
    assert "did you mean 'short_description'" in ds[0].message
    ok = skill(workspace / ".agents" / "skills", "b")
    good = write(ok.parent / "agents" / "openai.yaml", "interface:\n  display_name: B\n  brand_color: '#3B82F6'\n"
                 "policy:\n  allow_implicit_invocation: false\n")
    assert not diags_for(check_tree(workspace, runtimes=["codex"]), good, "CX001")


def test_codex_depth_limit_of_six(workspace):
    """Codex scans its roots at most 6 levels deep (SPEC §3.5): a deeper skill is never discovered (SH004)."""
    root = workspace / ".agents" / "skills"
    ok = skill(root / "a" / "b" / "c" / "d" / "e", "deep6")
    deep = skill(root / "a" / "b" / "c" / "d" / "e" / "f", "deep7")
    res = check_tree(workspace, runtimes=["codex"])
    assert not diags_for(res, ok, "SH004")
    [d] = diags_for(res, deep, "SH004")
    assert "6" in d.message and d.runtime == "codex"


def _live_state(workspace):
    import os

    from skill_ls.analysis.workspace import WorkspaceState

    (workspace / ".skill-ls.toml").write_text('runtimes = ["codex"]\n')
    state = WorkspaceState(str(workspace), environ=dict(os.environ))
    state.load_config()
    state.install(state.build_index())
    return state


def test_bg002_follows_an_edit_that_keeps_the_name(workspace):
    """In the editor: shortening the first skill's description (an in-place edit, no name change)
    moves every later skill's place in the listing, and the last one is back under the budget."""
    root = workspace / ".agents" / "skills"
    files = [skill(root, f"s{i:02d}", description="d" * 900) for i in range(10)]
    state = _live_state(workspace)

    def flagged() -> dict[str, str]:
        res = state.diagnostics([str(f) for f in files])
        return {p: d.message for p, ds in res.items() for d in ds if d.code == "BG002"}

    before = flagged()
    assert str(files[-1]) in before and all("3 of 10 skills fall out" in m for m in before.values())
    text = files[0].read_text().replace("d" * 900, "short. Use when testing.")
    assert state.set_overlay(str(files[0]), text, 2) == {("codex", "@listing")}  # in place: the listing moved
    after = flagged()
    assert str(files[0]) not in after and all("2 of 10 skills fall out" in m for m in after.values())
    state.drop_overlay(str(files[0]))
    assert flagged() == before


def test_bg002_an_edit_recosts_only_the_edited_entry(workspace, monkeypatch):
    """A keystroke in one skill of a large set must not re-cost the whole listing (at 10,000 skills
    that was ~50 ms per keystroke in a Claude Code or Codex skill)."""
    import skill_ls.analysis.catalog as catalog

    root = workspace / ".agents" / "skills"
    files = [skill(root, f"s{i:02d}", description="d" * 900) for i in range(30)]
    state = _live_state(workspace)
    state.diagnostics([str(f) for f in files])
    calls = []
    real = catalog.catalog_cost
    monkeypatch.setattr(catalog, "catalog_cost", lambda decl, doc=None: calls.append(decl.path) or real(decl, doc))
    text = files[5].read_text().replace("# Skill", "# Skill, edited")
    state.set_overlay(str(files[5]), text, 2)
    diags = state.diagnostics([str(files[-1])])[str(files[-1])]
    assert any(d.code == "BG002" for d in diags)
    assert calls.count(str(files[5])) >= 1 and set(calls) == {str(files[5])}


def test_bg002_claude_code_listing_holds_commands(workspace, private_home):
    """Claude Code's skill tool lists `.claude/commands` (project and personal) beside the skills, each
    `- name: description` (its description, or its first line), unless `disable-model-invocation`."""
    from skill_ls.analysis.listing import listing

    root = workspace / ".claude" / "skills"
    files = [skill(root, f"s{i:02d}", description="d" * 1000) for i in range(7)]
    res = check_tree(workspace, runtimes=["claude-code"])
    assert not [d for f in files for d in diags_for(res, f, "BG002")]  # 7 x 1,007 + 6 = 7,055: fits
    cmd = write(workspace / ".claude" / "commands" / "ops" / "deploy.md", "---\ndescription: " + "c" * 1000 + "\n---\nGo.\n")
    bare = write(private_home / ".claude" / "commands" / "notes.md", "# Take notes\n\nWrite them down.\n")
    hidden = write(workspace / ".claude" / "commands" / "secret.md",
                   "---\ndescription: " + "h" * 3000 + "\ndisable-model-invocation: true\n---\nGo.\n")
    res = check_tree(workspace, runtimes=["claude-code"])
    found = listing(res.index, "claude-code")
    names = [decl.name for decl, _, _ in found.entries]
    assert names[-2:] == ["notes", "ops:deploy"] and "secret" not in names
    costs = {decl.name: cost for decl, cost, _ in found.entries}
    assert costs["ops:deploy"] == len("- ops:deploy: ") + 1000 and costs["notes"] == len("- notes: Take notes")
    # 7 skills + 2 commands = 8,089 > 8,000: one entry loses its description; findings stay on skills.
    ds = [d for f in files for d in diags_for(res, f, "BG002")]
    assert ds and all("of 9 skills and commands are listed by name only" in d.message for d in ds)
    assert not diags_for(res, cmd, "BG002") and not diags_for(res, hidden, "BG002") and not diags_for(res, bare)
    # A command a skill's name holds is that skill's entry, listed once.
    write(workspace / ".claude" / "commands" / "s00.md", "---\ndescription: dup\n---\n")
    names = [decl.name for decl, _, _ in listing(check_tree(workspace, runtimes=["claude-code"]).index,
                                                 "claude-code").entries]
    assert names.count("s00") == 1
    # --no-user-roots leaves the personal commands out.
    names = [decl.name for decl, _, _ in listing(check_tree(workspace, runtimes=["claude-code"], no_user_roots=True)
                                                 .index, "claude-code").entries]
    assert "notes" not in names


def test_bg002_follows_a_command_written_on_disk(workspace):
    """In the editor: a new `.claude/commands` file moves Claude Code's listing over its budget, and the
    skills BG002 then reports on are republished."""
    import os

    from skill_ls.analysis.workspace import WorkspaceState

    root = workspace / ".claude" / "skills"
    files = [skill(root, f"s{i:02d}", description="d" * 1000) for i in range(7)]
    (workspace / ".skill-ls.toml").write_text('runtimes = ["claude-code"]\n')
    state = WorkspaceState(str(workspace), environ=dict(os.environ))
    state.load_config()
    state.install(state.build_index())
    assert not [d for ds in state.diagnostics([str(f) for f in files]).values() for d in ds if d.code == "BG002"]
    cmd = write(workspace / ".claude" / "commands" / "deploy.md", "---\ndescription: " + "c" * 1500 + "\n---\nGo.\n")
    touched = state.file_changed(str(cmd))
    assert touched is not None and ("claude-code", "@listing") in touched
    affected = state.affected_paths(touched)
    flagged = {p for p, ds in state.diagnostics([str(f) for f in files]).items() for d in ds if d.code == "BG002"}
    assert flagged and flagged <= affected


def _listing_edits(workspace, runtime: str, root, seed: int, skills: int) -> None:
    """Edit skills of a listing near its budget again and again in the live state, as the language
    server does (a buffer per edited file; after each keystroke the edited file, the open ones and
    `affected_paths` are diagnosed again, nothing else), and compare what the editor then shows for
    every file with a fresh `skill-ls check` of the same texts on disk."""
    import os
    import random

    from skill_ls.analysis.listing import listing
    from skill_ls.analysis.workspace import WorkspaceState

    rng = random.Random(seed)
    (workspace / ".skill-ls.toml").write_text(f'runtimes = ["{runtime}"]\n')
    lengths = [0, 40, 300, 650, 700, 1200, 1600]  # 1,600: past Claude Code's 1,536-character cap

    def text(i: int, length: int, when: bool, hidden: bool) -> str:
        extra = ("when_to_use: " + "w" * 80 + "\n" if when else "") + ("disable-model-invocation: true\n" if hidden else "")
        description = ("d" * length) or "Short."
        return f"---\nname: s{i:02d}\ndescription: {description}\n{extra}---\n# Skill\n\nInstructions.\n"

    state_of = {i: (rng.choice(lengths[2:5]), False, False) for i in range(skills)}
    files = [write(root / f"s{i:02d}" / "SKILL.md", text(i, *state_of[i]), dedent=False) for i in range(skills)]
    if runtime == "claude-code":
        write(workspace / ".claude" / "commands" / "deploy.md", "---\ndescription: " + "c" * 500 + "\n---\nGo.\n")
    paths = [str(f) for f in files]
    state = WorkspaceState(str(workspace), environ=dict(os.environ))
    state.load_config()
    state.install(state.build_index())
    assert state.index is not None
    built = listing(state.index, runtime)

    def ids(found: dict[str, list]) -> dict[str, list]:
        return {p: sorted(d.identity() for d in ds) for p, ds in found.items() if ds}

    shown = ids(state.diagnostics(paths))
    opened: set[str] = set()
    seen_over, seen_under = False, False
    for step in range(50):
        i = rng.randrange(skills)
        length, when, hidden = state_of[i]
        move = rng.random()
        if move < 0.6:
            length = rng.choice(lengths)
        elif move < 0.75:
            when = not when
        elif move < 0.85:
            hidden = not hidden
        state_of[i] = (length, when, hidden)  # else: the same text again (nothing moves)
        new = text(i, length, when, hidden)
        files[i].write_text(new)  # what `check` reads
        opened.add(paths[i])
        touched = state.set_overlay(paths[i], new, step + 2)
        again = state.affected_paths(touched) | opened
        found = state.diagnostics(sorted(p for p in again if p in paths))
        shown = {**{p: ds for p, ds in shown.items() if p not in found}, **ids(found)}
        shown = {p: ds for p, ds in shown.items() if ds}
        res = check_tree(workspace)
        expected = ids({p: [d for d in res.diagnostics if d.path == p] for p in paths})
        assert shown == expected, f"step {step}: s{i:02d} {state_of[i]}"
        assert listing(state.index, runtime) is built  # followed in place, never built again
        over = any(d.code == "BG002" for d in res.diagnostics)
        seen_over, seen_under = seen_over or over, seen_under or not over
    assert seen_over and seen_under  # the edits pushed the listing over its budget and back under


def test_bg002_live_claude_code_listing_equals_check_after_every_edit(workspace):
    for seed in range(2):
        _listing_edits(workspace, "claude-code", workspace / ".claude" / "skills", seed, 12)


def test_bg002_live_codex_listing_equals_check_after_every_edit(workspace):
    for seed in range(2):
        _listing_edits(workspace, "codex", workspace / ".agents" / "skills", seed, 10)


def test_listing_followed_in_place_equals_the_listing_computed_whole(workspace):
    """The live listing's answers (its cut, the reported entries, each entry's place) after many
    keystrokes in a listing of 300 skills equal the ones computed from its entries in one pass, as
    Claude Code does: descriptions given back first-fit in listing order."""
    import os
    import random

    from skill_ls.analysis.listing import REPORTED, listing
    from skill_ls.analysis.workspace import WorkspaceState

    rng = random.Random(7)
    root = workspace / ".claude" / "skills"
    (workspace / ".skill-ls.toml").write_text('runtimes = ["claude-code"]\n\n[claude-code]\nlisting_budget = 30000\n')
    names = [f"s{i:03d}" for i in range(300)]

    def text(name: str) -> str:
        return f"---\nname: {name}\ndescription: {'d' * rng.choice([5, 60, 61, 120, 400])}\n---\nBody.\n"

    paths = [str(write(root / n / "SKILL.md", text(n), dedent=False)) for n in names]
    state = WorkspaceState(str(workspace), environ=dict(os.environ))
    state.load_config()
    state.install(state.build_index())
    assert state.index is not None
    over = 0
    for step in range(200):
        i = rng.randrange(len(names))
        state.set_overlay(paths[i], text(names[i]), step + 2)
        found = listing(state.index, "claude-code")
        entries = found.entries
        short = [len(d.name) + 2 for d, _, _ in entries]
        left = 30000 - (sum(short) + len(entries) - 1)
        cut = []
        for (decl, cost, _), s in zip(entries, short):
            if cost - s <= left:
                left -= cost - s
            else:
                cut.append(decl.path)
        total = entries[-1][2]
        assert found.total == total
        if total <= 30000:
            assert found.cut_count == 0 and not found.reported
            continue
        ranked = sorted((-cost, decl.path not in cut, -n) for n, (decl, cost, _) in enumerate(entries, 1))
        reported = {entries[-r[2] - 1][0].path: k for k, r in enumerate(ranked[:REPORTED], 1)}
        assert (found.cut_count, found.cut_paths(20), found.reported) == (len(cut), cut[:20], reported)
        over += 1
        for path in rng.sample(paths, 10):
            n = next(k for k, (d, _, _) in enumerate(entries, 1) if d.path == path)
            assert found.place(path) == (n, entries[n - 1][1]) and found.is_cut(path) == (path in cut)
    assert over > 100
