"""Progress bars for long work (tuning, the matrix benchmark): tqdm on a terminal, silent otherwise.

Logs and CI output stay clean: when stderr is not a TTY the iterable is returned as it is.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(it: Iterable[T], total: int | None = None, desc: str = "") -> Iterator[T]:
    """Iterate over `it`, drawing a bar on stderr only when stderr is a terminal."""
    if not sys.stderr.isatty():
        yield from it
        return
    from tqdm import tqdm

    yield from tqdm(it, total=total, desc=desc, leave=False, dynamic_ncols=True)
