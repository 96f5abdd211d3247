"""Codex: roots from the repository root down, user and admin roots; duplicates load both."""
from __future__ import annotations

from skill_ls.core.runtimes.spec import (
    DESCRIPTION_DOC,
    NAME_DOC,
    STANDARD_FIELDS,
    FieldSpec,
    HomeDir,
    NameRule,
    RootSpec,
    Runtime,
    Vocabulary,
)

CODEX_FIELDS: dict[str, FieldSpec] = {
    "name": FieldSpec("str", NAME_DOC + " Optional; defaults to the directory name.", max_len=64),
    "description": FieldSpec("str", DESCRIPTION_DOC, required=True, max_len=1024, min_len=1),
    "license": STANDARD_FIELDS["license"],
    "compatibility": STANDARD_FIELDS["compatibility"],
    "metadata": FieldSpec("map", "Arbitrary metadata."),
    "allowed-tools": STANDARD_FIELDS["allowed-tools"],
}

CODEX = Runtime(
    id="codex", title="Codex",
    tiers=("system", "admin", "user_legacy", "user", "project", "repo"),
    tier_labels={"user_legacy": "user ($CODEX_HOME/skills)", "repo": "repository"},
    roots=(
        RootSpec("repo", "{repo_chain}/.agents/skills"),
        RootSpec("project", "{workspace}/.codex/skills"),
        RootSpec("user", "{home}/.agents/skills", origin="user"),
        RootSpec("user_legacy", "{codex_home}/skills", origin="user"),
        RootSpec("system", "{codex_home}/skills/.system", origin="user"),
        RootSpec("admin", "/etc/codex/skills", origin="system"),
    ),
    fields=CODEX_FIELDS,
    name_rule=NameRule(None, "", 64, None, "frontmatter_or_directory"),
    home_dirs=(HomeDir("codex_home", "CODEX_HOME", ".codex"),),
    default_extra_tier="repo",
    conflict="load_both", scan_depth=6, unknown_field_severity="information",
    catalog_format="reference", catalog_order="name",
    # The skills listing of the initial context holds about 8,000 characters; skills past it
    # fall out (https://developers.openai.com/codex/skills).
    vocabulary=Vocabulary(listing_budget=8000, listing_overflow="drop"),
)
