#!/usr/bin/env python3
"""Validate every skill directory under PATH with the skills-ref reference library, in one process.

    python bench/skills_ref_all.py PATH [PATH...]

This is what `agentskills validate DIR` does (``skills_ref.validate(DIR)``), applied to every
directory that holds a file named exactly ``SKILL.md`` (hidden directories included; ``.git`` and
``node_modules`` skipped; symlinks not followed), in a single interpreter. The benchmark uses this
rather than one `agentskills validate` process per skill because a per-skill process would mostly
measure N interpreter start-ups (run.py reports that cost separately, extrapolated from a sample).
Prints one JSON object: {"skills", "invalid", "messages"}. Exit status 1 when any skill is invalid.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from skills_ref import validate


def skill_dirs(top: str):
    for root, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "node_modules"))
        if "SKILL.md" in files:
            yield Path(root)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    skills = invalid = messages = 0
    for top in argv:
        for d in skill_dirs(top):
            skills += 1
            try:
                errs = validate(d)
            except Exception as e:  # the reference library raises on some inputs
                errs = [f"{type(e).__name__}: {e}"]
            if errs:
                invalid += 1
                messages += len(errs)
    print(json.dumps({"skills": skills, "invalid": invalid, "messages": messages}))
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
