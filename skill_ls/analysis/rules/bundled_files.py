"""Rules about the files a skill bundles for its runtime to register."""
from __future__ import annotations

import os
import stat

from skill_ls.analysis.rules import rule
from skill_ls.core.runtimes import Runtime
from skill_ls.analysis.rules.context import RuntimeContext
from skill_ls.core.model import Severity
from skill_ls.core.spans import header_span

MAX_LISTED = 200
# Reading: documentation beside the tools (a README, a licence, Markdown or plain text, dotfiles) is
# not a tool an author means to register; the source says only "auto-registered tools".
_DOC_STEMS = ("readme", "license", "licence", "notice", "changelog")
_DOC_SUFFIXES = (".md", ".markdown", ".txt", ".rst")


def _documentation(name: str) -> bool:
    lower = name.lower()
    return lower.startswith(".") or lower.endswith(_DOC_SUFFIXES) or lower.split(".")[0] in _DOC_STEMS


def registers_tools(runtime: Runtime) -> bool:
    """Runtimes that register files of a skill subdirectory as executable tools."""
    return bool(runtime.tool_dirs)


@rule("RF005", Severity.WARNING, "runtime", runtimes=registers_tools)
def bundled_tool_not_executable(ctx: RuntimeContext) -> None:
    """A file in a directory the runtime registers as tools is not executable.

    ## What it does
    Amp auto-registers the files of a skill's `toolbox/` directory as tools; a tool is an executable
    that answers the toolbox protocol. A regular file there without an execute permission bit cannot
    be registered. Reported on the SKILL.md, naming the file. Documentation kept beside the tools (a
    `README`, `LICENSE`, Markdown or text files, dotfiles) is not reported: it is not meant as a tool.

    ## Why is this bad?
    The skill's instructions refer to a tool that never appears: the model looks for it, and the
    skill silently does less than it says.

    ## Example
    `my-skill/toolbox/run-tests` with mode `0644`. Use instead: `chmod +x toolbox/run-tests`.

    ## Fix
    None: permissions live outside the file.

    Source: https://decodeclaude.com/amp-code-spec/enhancements/16-skills/ ("toolbox/ # Optional: auto-registered tools").
    """
    if ctx.doc.read_error:
        return
    skill_dir = ctx.doc.directory
    for sub in ctx.runtime.tool_dirs:
        base = os.path.join(skill_dir, sub)
        names = ctx.disk.listdir(base)
        for name in (names or ())[:MAX_LISTED]:
            st = ctx.disk.stat(os.path.join(base, name), follow=False)
            if st is not None and stat.S_ISREG(st.st_mode) and not st.st_mode & 0o111 and not _documentation(name):
                ctx.out.report(header_span(ctx.doc), f"'{sub}/{name}' is not executable: {ctx.runtime.title} "
                               f"registers the files in {sub}/ as tools and cannot run this one (chmod +x)",
                               data={"file": f"{sub}/{name}"})
