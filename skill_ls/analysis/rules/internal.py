"""skill-ls's own failure: a file it could not check."""
from __future__ import annotations

from skill_ls.analysis.rules import INTERNAL_ERROR, rule
from skill_ls.core.model import Severity


@rule(INTERNAL_ERROR, Severity.ERROR, "internal")
def internal_error() -> None:
    """skill-ls could not check this file (a failure inside skill-ls, not in the file).

    ## What it does
    Every rule and every reader runs behind an error boundary: when one of them fails on a file
    (a value no one foresaw, a bug), the failure becomes this finding on that file, at its first
    line, naming the rule or reader and the error; every other rule and every other file is still
    checked, and the language server keeps answering.

    ## Why is this bad?
    The file was not fully checked: findings the failed part would have given are missing. It is
    an error so that CI notices a file skill-ls could not vouch for.

    ## Fix
    Nothing in the file needs to change; please report the message (and, if you can, the file) at
    the project's issue tracker. `# skill-ls: disable=SL001` or `ignore = ["SL001"]` silence it.
    """
