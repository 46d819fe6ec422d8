"""Integers checked before they cross into the library: ctypes converts a Python int to a C
int64 or uint64 by dropping its high bits, so 2**64 + s would reach the library as s. Every
integer a caller gives is checked here first: outside the C type, OverflowError; negative where
only a count, an index or a state makes sense, ValueError; not an integer, TypeError."""

from __future__ import annotations

import operator
from typing import Any

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1


def integer(x: Any, what: str) -> int:
    """x as a Python int (NumPy's integers included); TypeError naming what if it is not one
    (a float, a string, a bool is accepted as Python accepts it)."""
    try:
        return operator.index(x)
    except TypeError:
        raise TypeError("%s = %r, want an integer" % (what, x)) from None


def index(x: Any, what: str) -> int:
    """x as an int64 that is at least 0: a state, an action, a run, a task index, a count."""
    v = integer(x, what)
    if v < 0:
        raise ValueError("%s = %d, want >= 0" % (what, v))
    if v > INT64_MAX:
        raise OverflowError("%s = %d does not fit in 64 bits (want < 2**63)" % (what, v))
    return v


def seed(x: Any, what: str = "seed") -> int:
    """x as a uint64 seed: 0 <= seed < 2**64."""
    v = integer(x, what)
    if v < 0:
        raise ValueError("%s = %d, want 0 <= %s < 2**64" % (what, v, what))
    if v > UINT64_MAX:
        raise OverflowError("%s = %d does not fit in 64 bits (want 0 <= %s < 2**64)" % (what, v, what))
    return v
