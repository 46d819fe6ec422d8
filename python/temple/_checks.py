"""Values checked before they cross into the library: ctypes converts a Python int to a C
int64 or uint64 by dropping its high bits, so 2**64 + s would reach the library as s, and a C
string ends at its first NUL. Every integer a caller gives is checked here first: outside the C
type, OverflowError; negative where only a count, an index or a state makes sense, ValueError;
not an integer, TypeError. Names are checked for NUL characters (text) and parameters for all of
these and for numbers that are not finite (values, TempleError), naming the key."""

from __future__ import annotations

import math
import operator
from typing import Any, Mapping

from ._lib import TempleError

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


def text(x: Any, what: str) -> str:
    """x as a string for the library: ValueError naming what when it holds a NUL character, which
    a C string cannot carry ("rmax\\x00junk" would reach the library as "rmax")."""
    s = str(x)
    if "\x00" in s:
        raise ValueError("%s = %r holds a NUL character, which temple's names cannot hold" % (what, s))
    return s


def values(p: Mapping[str, Any], what: str) -> None:
    """Checks the values of the parameters p (a config block: an agent's, a family's, the
    settings) before they become JSON for the library, naming the key: an integer beyond 64 bits
    raises OverflowError, a number that is not finite (NaN, infinity: JSON has none) TempleError
    (as the library refuses any other value), a string with a NUL ValueError. Lists and mappings
    are checked item by item."""

    def check(v: Any, key: str) -> None:
        if isinstance(v, bool) or v is None:
            return
        if isinstance(v, str):
            text(v, key)
        elif hasattr(type(v), "__index__"):
            n = operator.index(v)
            if not INT64_MIN <= n <= INT64_MAX:
                raise OverflowError("%s: %s = %d does not fit in 64 bits (want -2**63 <= %s < 2**63)" % (what, key, n, key))
        elif isinstance(v, Mapping):
            for k, x in v.items():
                check(x, "%s.%s" % (key, k))
        elif isinstance(v, (list, tuple)):
            for k, x in enumerate(v):
                check(x, "%s[%d]" % (key, k))
        elif hasattr(type(v), "__float__"):
            f = float(v)
            if math.isnan(f) or math.isinf(f):  # a value temple refuses, as it refuses others: TempleError
                raise TempleError("%s: %s = %r, want a finite number" % (what, key, v))

    for k, v in p.items():
        check(v, str(k))
