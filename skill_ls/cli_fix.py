"""`skill-ls check --fix / --unsafe-fixes / --diff`: fix in memory, then write (or print a diff) and summarise."""
from __future__ import annotations

import os
import sys
from collections import Counter

from skill_ls.analysis.check import CheckOptions, open_run
from skill_ls.analysis.fixes import fix_in_memory
from skill_ls.apply import rename_dirs, unified_diff, write_files
from skill_ls.core.discovery import Environment
from skill_ls.core.escape import safe_text
from skill_ls.output import display_path

EXIT_OK, EXIT_FINDINGS = 0, 1


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{code} ×{n}" for code, n in sorted(counter.items()))


def run_fix(opts: CheckOptions, *, unsafe: bool, diff: bool, environ: dict[str, str] | None = None) -> tuple[int, list[str]]:
    """Fix the files under `opts.paths`. Returns (exit status for --diff, summary lines)."""
    checker, scope, files = open_run(opts, environ)
    workspace, config = checker.index.workspace, checker.index.config
    env = Environment.from_environ(environ, config)
    outcome = fix_in_memory(workspace, env, config, files, unsafe=unsafe, jobs=opts.jobs)
    lines: list[str] = []
    for path, why in outcome.reverted:
        print(f"skill-ls: note: {safe_text(display_path(path))}: {safe_text(why)}", file=sys.stderr)
    fixed: Counter[str] = Counter()
    if diff:
        for counter in outcome.fixed.values():
            fixed.update(counter)
        for path in sorted(outcome.files):
            sys.stdout.write(unified_diff(outcome.files[path], display_path(path).replace(os.sep, "/")))
        for code, old, new in outcome.renames:
            sys.stdout.write(f"rename from {safe_text(display_path(old))}\nrename to {safe_text(display_path(new))}\n")
            fixed[code] += 1
        n = sum(fixed.values())
        if n:
            lines.append(f"Would fix {n} finding(s) ({_counts(fixed)}) in "
                         f"{len(outcome.files) + len(outcome.renames)} file(s).")
        else:
            lines.append("Nothing to fix.")
        if outcome.unsafe_available:
            lines.append(_unsafe_hint(outcome.unsafe_available))
        print("\n".join(lines), file=sys.stderr)
        sys.stdout.flush()
        return (EXIT_FINDINGS if outcome.files or outcome.renames else EXIT_OK), []
    written, skipped = write_files(outcome.files, scope)
    not_written = {p for p, _ in skipped}
    done, skipped_dirs = rename_dirs(outcome.renames, scope)
    for path in written:
        fixed.update(outcome.fixed.get(path, Counter[str]()))
    for code, _, _ in done:
        fixed[code] += 1
    for path, why in skipped + skipped_dirs:
        print(f"skill-ls: note: {safe_text(display_path(path))}: {safe_text(why)}", file=sys.stderr)
    n = sum(fixed.values())
    if n and (written or done):
        lines.append(f"Fixed {n} finding(s) ({_counts(fixed)}) in {len(written) + len(done)} file(s).")
    elif not n:
        lines.append("Nothing to fix.")
    if not_written:
        lines.append(f"{len(not_written)} file(s) with fixes were left alone (see the notes above).")
    if outcome.unsafe_available:
        lines.append(_unsafe_hint(outcome.unsafe_available))
    return EXIT_OK, lines


def _unsafe_hint(available: Counter[str]) -> str:
    n = sum(available.values())
    return (f"{n} more finding(s) have unsafe fixes ({_counts(available)}): review them, then run with "
            "--unsafe-fixes to apply them.")
