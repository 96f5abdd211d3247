"""Did you mean …? The one place that picks the closest known word to a typo (field names, enum
values, models, tools, configuration keys), so every finding suggests the same way."""
from __future__ import annotations

import difflib
import functools
from typing import Iterable

CUTOFF = 0.75  # difflib's ratio: below this a "suggestion" is more often wrong than right


@functools.lru_cache(maxsize=4096)
def _closest(value: str, choices: tuple[str, ...]) -> str | None:
    lower = {c.lower(): c for c in choices}
    if value.lower() in lower:  # only the case differs
        return lower[value.lower()]
    match = difflib.get_close_matches(value, choices, n=1, cutoff=CUTOFF)
    return match[0] if match else None


def closest(value: object, choices: Iterable[str]) -> str | None:
    """The known word `value` most likely meant (the same word in another case first), or None."""
    return _closest(str(value), tuple(choices))


def did_you_mean(value: object, choices: Iterable[str]) -> str:
    """" (did you mean 'x'?)" for a message, or "" when nothing is close."""
    close = closest(value, choices)
    return f" (did you mean '{close}'?)" if close is not None else ""
