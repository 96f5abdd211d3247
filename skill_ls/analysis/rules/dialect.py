"""YAML dialect rules: a value that a YAML 1.2 runtime (Amp) reads differently from YAML 1.1 readers."""
from __future__ import annotations

from typing import Any

from skill_ls.analysis.rules import rule
from skill_ls.core.runtimes import Runtime
from skill_ls.analysis.rules.context import RuntimeContext
from skill_ls.core.model import Severity


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "the boolean " + ("true" if value else "false")
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    return f'the string "{value}"'


def reads_yaml_12(runtime: Runtime) -> bool:
    """Runtimes whose YAML reader is not YAML 1.1 (Amp's JavaScript `yaml`: YAML 1.2)."""
    return runtime.yaml_dialect != "1.1"


@rule("SK015", Severity.WARNING, "runtime", runtimes=reads_yaml_12)
def yaml_reading_differs(ctx: RuntimeContext) -> None:
    """A value that a YAML 1.2 runtime reads differently from the YAML 1.1 readers.

    ## What it does
    Amp parses frontmatter with the JavaScript `yaml` package (YAML 1.2, core schema); PyYAML and most
    other runtimes read YAML 1.1. For a field the runtime reads, a plain (unquoted) value whose two
    readings differ is reported: `yes`/`no`/`on`/`off`/`y`/`n` (booleans in 1.1, strings in 1.2),
    octal-looking numbers (`0755` is 493 in 1.1 and 755 in 1.2), `1_000`, `1:30`, `0o17`.

    ## Why is this bad?
    The same file means two things. `disable-model-invocation: no` is `false` for YAML 1.1 readers but
    the string "no" for Amp, and Amp hides a skill whenever the value is truthy in JavaScript — a
    non-empty string is — so the skill silently disappears from Amp's catalog.

    ## Example
    ```yaml
    disable-model-invocation: no
    ```
    Use instead: `disable-model-invocation: false`.

    ## Fix
    None offered: which reading the author meant is theirs to say (write `true`/`false`, or quote the
    string).

    Source: `parseSkillFile` and `formatAvailableSkills` in https://decodeclaude.com/amp-code-spec/enhancements/16-skills/ (`yaml.parse`,
    `!s.frontmatter["disable-model-invocation"]`).
    """
    fm = ctx.doc.fm
    if fm is None or not fm.ok:
        return
    for key in ctx.runtime.fields:
        entry = fm.fields.get(key)
        if entry is None or entry.plain is None:
            continue
        ctx.out.report(entry.value_span,
                       f"{ctx.runtime.title} reads YAML {ctx.runtime.yaml_dialect}: '{entry.plain}' is "
                       f"{_describe(entry.yaml12)} there, but {_describe(entry.value)} for YAML 1.1 readers; "
                       "write the value unambiguously (true/false, or quote a string)",
                       data={"yaml11": repr(entry.value), "yaml12": repr(entry.yaml12)})
