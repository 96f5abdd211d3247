#!/usr/bin/env python3
"""Generate a synthetic skill tree for benchmarking skill-ls.

    python bench/generate.py OUT_DIR --skills N [--seed S]

Layout (all under OUT_DIR, which must be empty or absent):

    ws/                          the workspace (has an empty .git marker and .skill-ls.toml)
      .agh/skills/<name>/        AGH workspace tier
      .agh/agents/<name>/AGENT.md
      .claude/skills/<name>/     Claude Code project root (also Amp root 4)
      .agents/skills/<name>/     agentskills / Codex / Amp root 1
    home/                        private $HOME
      .agh/skills/<name>/        $AGH_HOME: user tier, and marketplace tier (with .agh-meta.json)
      .claude/skills/<name>/     Claude Code personal root (also Amp root 5)
      .config/amp/skills/<name>/ Amp root 3
    extra/.agh/skills/<name>/    AGH additional root (agh.additional_roots)
    bundled/skills/<name>/       AGH bundled root (agh.bundled_roots)
    manifest.json

N counts SKILL.md files (every copy). About 20 % of them are *shadow copies*: a name that already
exists in another root of the same runtime family (the five AGH roots, or the four Claude/Amp roots).
About 3 % are deliberately broken (unterminated frontmatter, unquoted `: ` in a value, unknown key,
missing description). Bodies and frontmatter are real SKILL.md files drawn at random from the shared
corpus, with `name:` rewritten to the directory name. Same seed, same tree (byte for byte).
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import random
import re
import sys
from pathlib import Path

DEFAULT_CORPUS = Path(os.environ.get("SKILL_LS_CORPUS", "/work/shared/corpus"))

# (key, runtime family, share of N). Shares sum to 1.0.
ROOTS = [
    ("agh.workspace", "agh", 0.20),
    ("agh.user", "agh", 0.10),
    ("agh.marketplace", "agh", 0.06),
    ("agh.additional", "agh", 0.10),
    ("agh.bundled", "agh", 0.07),
    ("claude.project", "claude", 0.20),
    ("claude.personal", "claude", 0.07),
    ("agents.workspace", "claude", 0.15),
    ("amp.user", "claude", 0.05),
]
SHADOW_SHARE = 0.20
BROKEN_SHARE = 0.03
BROKEN_KINDS = ("unterminated", "yaml_colon", "unknown_key", "missing_description")
NAME_OK = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def root_dirs(out: Path) -> dict[str, Path]:
    ws = out / "ws"
    home = out / "home"
    agh_home = home / ".agh"
    return {
        "agh.workspace": ws / ".agh" / "skills",
        "agh.user": agh_home / "skills",
        "agh.marketplace": agh_home / "skills",
        "agh.additional": out / "extra" / ".agh" / "skills",
        "agh.bundled": out / "bundled" / "skills",
        "claude.project": ws / ".claude" / "skills",
        "claude.personal": home / ".claude" / "skills",
        "agents.workspace": ws / ".agents" / "skills",
        "amp.user": home / ".config" / "amp" / "skills",
    }


# --------------------------------------------------------------------------- corpus pool

class Template:
    """A corpus SKILL.md split around its `name:` line so the name can be rewritten cheaply."""

    __slots__ = ("source", "stem", "fm_before", "fm_after", "body", "desc_idx")

    def __init__(self, source, stem, fm_before, fm_after, body, desc_idx):
        self.source = source
        self.stem = stem
        self.fm_before = fm_before  # frontmatter lines before the name line
        self.fm_after = fm_after  # frontmatter lines after the name line
        self.body = body  # everything after the closing delimiter (with it), as text
        self.desc_idx = desc_idx  # index in fm_after of the `description:` line, or None

    def render(self, name: str) -> str:
        fm = self.fm_before + [f"name: {name}"] + self.fm_after
        return "---\n" + "\n".join(fm) + "\n" + self.body


def slugify(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    s = re.sub(r"-{2,}", "-", s)
    return (s or "skill")[:48].strip("-") or "skill"


FALLBACK = [
    ("pdf-tools", ["description: Extract text and tables from PDF files. Use when the user mentions PDFs.",
                   "license: MIT"], 40),
    ("release-notes", ["description: >-", "  Draft release notes from merged pull requests.",
                       "  Use when preparing a release.", "metadata:", "  owner: docs"], 120),
    ("sql-review", ["description: Review SQL migrations for locking and data-loss risks.",
                    "allowed-tools: Read Grep"], 260),
]


def fallback_pool() -> list[Template]:
    """Built-in templates, used only when the shared corpus is not available."""
    pool = []
    for stem, after, lines in FALLBACK:
        body = ["---", "", f"# {stem}", ""]
        body += [f"Step {i}: do the thing described in [the guide](references/guide.md)." for i in range(lines)]
        pool.append(Template(f"<builtin:{stem}>", stem, [], after, "\n".join(body) + "\n", 0))
    return pool


def load_pool(corpus: Path) -> list[Template]:
    """Every corpus SKILL.md whose frontmatter is well formed and has a single-line `name:`."""
    if not Path(corpus).is_dir():
        print(f"warning: corpus {corpus} not found; using built-in templates", file=sys.stderr)
        return fallback_pool()
    try:
        import yaml  # PyYAML; only used to vet templates
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    except ImportError:  # pragma: no cover - PyYAML is installed with the project
        yaml = None
    paths = []
    for root, dirs, files in os.walk(corpus):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "node_modules"))
        if "SKILL.md" in files:
            paths.append(Path(root) / "SKILL.md")
    paths.sort()
    pool: list[Template] = []
    for p in paths:
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        text = text.replace("\r\n", "\n").replace("\r", "\n").lstrip("\ufeff")
        lines = text.split("\n")
        if not lines or lines[0].rstrip() != "---":
            continue
        end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
        if end is None:
            continue
        fm = lines[1:end]
        name_idx = [i for i, l in enumerate(fm) if l.startswith("name:")]
        if len(name_idx) != 1:
            continue
        ni = name_idx[0]
        if ni + 1 < len(fm) and fm[ni + 1][:1] in (" ", "\t"):
            continue  # multi-line name value
        before, after = fm[:ni], fm[ni + 1:]
        body = "\n".join(lines[end:])
        desc = [i for i, l in enumerate(after) if l.startswith("description:")]
        t = Template(str(p), slugify(p.parent.name), before, after, body, desc[0] if desc else None)
        if yaml is not None:
            try:
                data = yaml.load("\n".join(before + ["name: probe-name"] + after), Loader=loader)
            except Exception:
                continue
            if not isinstance(data, dict) or data.get("name") != "probe-name" or not data.get("description"):
                continue
        if t.desc_idx is None:
            continue
        pool.append(t)
    if not pool:
        raise SystemExit(f"no usable SKILL.md found under {corpus}")
    return pool


# --------------------------------------------------------------------------- breakage

def broken_text(t: Template, name: str, kind: str) -> str:
    if kind == "unterminated":
        # Drop the closing delimiter: the whole file becomes "frontmatter".
        body = t.body.split("\n", 1)[1] if "\n" in t.body else ""
        # Later `---` rules in the body would close the block; turn them into `***` rules.
        body = "\n".join("***" if l.rstrip() in ("---", "...") else l for l in body.split("\n"))
        return "---\n" + "\n".join(t.fm_before + [f"name: {name}"] + t.fm_after) + "\n" + body
    if kind == "yaml_colon":
        after = list(t.fm_after)
        # Replace the description (and any continuation lines) by a plain scalar with `: ` inside.
        i = t.desc_idx
        j = i + 1
        while j < len(after) and after[j][:1] in (" ", "\t"):
            j += 1
        after[i:j] = ["description: Use when: the user asks about " + name.replace("-", " ")]
        return "---\n" + "\n".join(t.fm_before + [f"name: {name}"] + after) + "\n" + t.body
    if kind == "unknown_key":
        after = list(t.fm_after) + ["descripton: typo of description", "tags: [bench, synthetic]"]
        return "---\n" + "\n".join(t.fm_before + [f"name: {name}"] + after) + "\n" + t.body
    if kind == "missing_description":
        after = list(t.fm_after)
        i = t.desc_idx
        j = i + 1
        while j < len(after) and after[j][:1] in (" ", "\t"):
            j += 1
        del after[i:j]
        return "---\n" + "\n".join(t.fm_before + [f"name: {name}"] + after) + "\n" + t.body
    raise ValueError(kind)


# --------------------------------------------------------------------------- agents

AGENTS = [
    ("reviewer", "claude", "approve-reads", ["agh__skill_view", "agh__fs_*"],
     "You are a careful code reviewer. Read the diff, load the relevant skills, and report findings."),
    ("planner", "codex", "deny-all", ["agh__skill_*"],
     "You plan work in small verifiable steps. Always load the planning skill before answering."),
    ("release-bot", "claude", "approve-all", ["agh__skill_view", "mcp__github__*"],
     "You prepare releases: changelog, version bump, tag. Ask before publishing anything."),
]


def agent_md(name, provider, permissions, tools, prompt, disabled):
    lines = ["---", f"name: {name}", f"provider: {provider}", f"permissions: {permissions}", "tools:"]
    lines += [f"  - {t}" for t in tools]
    if disabled:
        lines += ["skills:", "  disabled:"] + [f"    - {d}" for d in disabled]
    lines += ["---", "", prompt, ""]
    return "\n".join(lines)


# --------------------------------------------------------------------------- main generator

def generate(out: Path, n: int, seed: int = 0, corpus: Path = DEFAULT_CORPUS, quiet: bool = False) -> dict:
    out = Path(out).resolve()
    if out.exists() and any(out.iterdir()):
        raise SystemExit(f"{out} exists and is not empty")
    rng = random.Random(seed)
    pool = load_pool(corpus)
    dirs = root_dirs(out)
    ws, home = out / "ws", out / "home"
    agh_home = home / ".agh"

    keys = [k for k, _, _ in ROOTS]
    family = {k: f for k, f, _ in ROOTS}
    weights = [w for _, _, w in ROOTS]

    n_shadow = int(round(n * SHADOW_SHARE)) if n >= 5 else 0
    n_primary = n - n_shadow
    # physical directory -> names used there (user and marketplace share $AGH_HOME/skills)
    used_in_dir: dict[Path, set[str]] = {d: set() for d in dirs.values()}
    name_roots: dict[str, list[str]] = {}
    taken: set[str] = set()
    stem_count: dict[str, int] = {}
    entries = []  # (root_key, name, template)

    def fresh_name(t: Template) -> str:
        base = t.stem
        while True:
            c = stem_count.get(base, 0) + 1
            stem_count[base] = c
            name = base if c == 1 else f"{base}-{c}"
            if name not in taken and NAME_OK.match(name):
                taken.add(name)
                return name

    # Make sure every root gets at least one skill when n allows it.
    forced = keys[:] if n_primary >= len(keys) else []
    for i in range(n_primary):
        root = forced[i] if i < len(forced) else rng.choices(keys, weights)[0]
        t = rng.choice(pool)
        name = fresh_name(t)
        entries.append((root, name, t))
        used_in_dir[dirs[root]].add(name)
        name_roots.setdefault(name, []).append(root)

    primaries = [(r, nm) for r, nm, _ in entries]
    shadowed_names = 0
    attempts = 0
    made = 0
    while made < n_shadow and attempts < n_shadow * 50:
        attempts += 1
        src_root, name = rng.choice(primaries)
        fam = family[src_root]
        cands = [k for k in keys if family[k] == fam and k not in name_roots[name]
                 and name not in used_in_dir[dirs[k]]]
        if not cands:
            continue
        root = rng.choices(cands, [dict(zip(keys, weights))[k] for k in cands])[0]
        t = rng.choice(pool)  # a different body under the same name, as in real life
        entries.append((root, name, t))
        used_in_dir[dirs[root]].add(name)
        if len(name_roots[name]) == 1:
            shadowed_names += 1
        name_roots[name].append(root)
        made += 1

    # Choose broken files (never more than ~3 %; at least one when n >= 20).
    n_broken = int(round(n * BROKEN_SHARE))
    if n >= 20:
        n_broken = max(n_broken, 1)
    broken_idx = set(rng.sample(range(len(entries)), min(n_broken, len(entries))))

    counts_root = {k: 0 for k in keys}
    broken_counts = {k: 0 for k in BROKEN_KINDS}
    marketplace = []
    total_bytes = 0
    registry_epoch = 1_750_000_000 + (seed % 100_000)
    for idx, (root, name, t) in enumerate(entries):
        d = dirs[root] / name
        d.mkdir(parents=True, exist_ok=True)
        if idx in broken_idx:
            kind = BROKEN_KINDS[len([1 for i in broken_idx if i < idx]) % len(BROKEN_KINDS)]
            text = broken_text(t, name, kind)
            broken_counts[kind] += 1
        else:
            text = t.render(name)
        data = text.encode("utf-8")
        (d / "SKILL.md").write_bytes(data)
        total_bytes += len(data)
        counts_root[root] += 1
        if root == "agh.marketplace":
            ts = registry_epoch + rng.randrange(0, 90 * 86400)
            meta = {
                "slug": name,
                "registry": rng.choice(["agh-hub", "community", "acme-internal"]),
                "version": f"{rng.randrange(0, 4)}.{rng.randrange(0, 20)}.{rng.randrange(0, 10)}",
                "installed_at": _dt.datetime.fromtimestamp(ts, _dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            }
            (d / ".agh-meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
            marketplace.append(name)

    # Agents: a few valid AGENT.md files in the workspace.
    agh_names = sorted({nm for r, nm, _ in entries if family[r] == "agh"})
    agents = []
    for i, (aname, provider, perms, tools, prompt) in enumerate(AGENTS[: 3 if n >= 3 else 2]):
        disabled = [agh_names[(seed + i) % len(agh_names)]] if (agh_names and i == 0) else []
        p = ws / ".agh" / "agents" / aname / "AGENT.md"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(agent_md(aname, provider, perms, tools, prompt, disabled), encoding="utf-8")
        agents.append(str(p))

    # Private homes always exist (so watchers have something to watch), plus workspace markers.
    for d in dirs.values():
        d.mkdir(parents=True, exist_ok=True)
    (ws / ".git").mkdir(parents=True, exist_ok=True)
    (ws / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    config = ws / ".skill-ls.toml"
    config.write_text(
        "# generated by bench/generate.py\n[agh]\n"
        f"bundled_roots = [{json.dumps(str(out / 'bundled'))}]\n"
        f"additional_roots = [{json.dumps(str(out / 'extra'))}]\n",
        encoding="utf-8",
    )

    files_under_ws = sum(counts_root[k] for k in ("agh.workspace", "claude.project", "agents.workspace"))
    manifest = {
        "generator": "bench/generate.py",
        "seed": seed,
        "skills": n,
        "root": str(out),
        "workspace": str(ws),
        "home": str(home),
        "agh_home": str(agh_home),
        "additional_root": str(out / "extra"),
        "bundled_root": str(out / "bundled"),
        "config": str(config),
        "env": {"HOME": str(home), "AGH_HOME": str(agh_home)},
        "roots": {k: str(v) for k, v in dirs.items()},
        "counts": {
            "skill_files": len(entries),
            "unique_names": len(name_roots),
            "shadow_copies": made,
            "shadowed_names": shadowed_names,
            "broken": sum(broken_counts.values()),
            "broken_by_kind": broken_counts,
            "marketplace": len(marketplace),
            "agents": len(agents),
            "per_root": counts_root,
            "skill_files_under_workspace": files_under_ws,
            "bytes": total_bytes,
        },
        "agents": agents,
        "corpus": str(corpus),
        "corpus_templates": len(pool),
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    if not quiet:
        c = manifest["counts"]
        print(f"{out}: {c['skill_files']} SKILL.md ({c['unique_names']} names, {c['shadow_copies']} shadow "
              f"copies, {c['broken']} broken, {c['marketplace']} marketplace), {c['agents']} AGENT.md",
              file=sys.stderr)
    return manifest


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--skills", type=int, required=True, help="number of SKILL.md files (all copies)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    if a.skills < 1:
        ap.error("--skills must be >= 1")
    m = generate(a.out_dir, a.skills, a.seed, a.corpus, a.quiet)
    print(json.dumps({k: m[k] for k in ("workspace", "home", "agh_home", "counts")}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
