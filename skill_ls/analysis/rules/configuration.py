"""Configuration rule: the project's own `.skill-ls.toml` / `[tool.skill-ls]`."""
from __future__ import annotations

from skill_ls.core.config import ConfigError
from skill_ls.core.model import Diagnostic, Severity, Span
from skill_ls.analysis.rules import RULES, replace_fix, rule


@rule("CF001", Severity.ERROR, "config", fix="unsafe")
def invalid_configuration(error: ConfigError, path: str) -> list[Diagnostic]:
    """The skill-ls configuration file is malformed or has an unknown key or value.

    ## What it does
    Reads `.skill-ls.toml` (or `[tool.skill-ls]` in `pyproject.toml`) strictly: invalid TOML, an
    unknown key, an unknown runtime or tier, or a value of the wrong type is reported at the line
    TOML gives, with the closest known key for an unknown one. `skill-ls check` exits with status 2
    naming the file; the language server shows this diagnostic on the file and leaves the offending
    key out, applying the rest of the file (a file that is not valid TOML: the default
    configuration).

    ## Why is this bad?
    A typo in the configuration (`bundled_root` for `bundled_roots`) would otherwise silently drop
    a whole root from the analysis.

    ## Fix safety
    Unsafe: an unknown key with a close known key is renamed to it (in the editor; `check` stops at
    a bad configuration), after which the setting takes effect.
    """
    line = max((error.line or 1) - 1, 0)
    r = RULES["CF001"]
    rest = ("the key is ignored, the rest of the file applies" if error.keys
            else "skill-ls is using the default configuration")
    key = error.keys[-1] if error.keys else None
    span = Span(line, 0, line, 0)
    fix = None
    if key is not None and error.col is not None:
        span = Span(line, error.col, line, error.col + len(key))
        if error.suggestion:
            fix = replace_fix(f"Rename '{key}' to '{error.suggestion}'", path, span, error.suggestion, safe=False)
    return [Diagnostic(path, span, r.code, f"{error.args[0]}; {rest}", r.severity, fix=fix)]
