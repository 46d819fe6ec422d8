"""The statistics of `temple compare`, from Python: the paired t-test, the equivalence test
(TOST) at a margin and the minimum detectable effect, their p-values adjusted together (Holm with
Shaffer's bound), and the 95% confidence interval of a mean, computed by temple's own code (its
library), so that a notebook gets the numbers temple prints.

    >>> import temple
    >>> cs = temple.stats.paired_tests({"A": [3.0, 4.0, 5.5], "B": [1.0, 2.5, 3.0]}, [("A", "B")])
    >>> cs[0]["verdict"], round(cs[0]["mean_diff"], 3), round(cs[0]["p"], 4) == round(cs[0]["p_adjusted"], 4)
    ('A > B', 2.0, True)
    >>> m = temple.stats.mean_ci([1.0, 2.0, 3.0]); (m["mean"], round(m["ci95"], 4))
    (2.0, 2.4841)

temple.results.Results.paired_tests applies them to an experiment's runs.
"""

from __future__ import annotations

import ctypes
import json
import math
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from . import _lib
from ._lib import TempleError

__all__ = ["paired_tests", "mean_ci"]


def _call(name: str, text: str) -> Any:
    lib = _lib.library()
    f = getattr(lib, name)
    err = ctypes.c_void_p()
    p = f(text.encode("utf-8"), ctypes.byref(err))
    if not p:
        raise TempleError(_lib.take_string(err.value) or "%s failed" % name)
    return json.loads(_lib.take_string(p) or "null")


def _numbers(values: Sequence[Any], what: str) -> List[float]:
    out = []
    for v in values:
        x = float(v)
        if math.isnan(x) or math.isinf(x):
            raise ValueError("%s: %r is not a finite number" % (what, v))
        out.append(x)
    return out


def paired_tests(per_run: Mapping[str, Sequence[float]], pairs: Sequence[Tuple[str, str]],
                 margin: str = "5%", references: Optional[Mapping[str, float]] = None) -> List[Dict[str, Any]]:
    """The two-sided paired t-test of each pair (A, B) over the runs (per_run[A][i] and
    per_run[B][i] paired: the same task sequence) and the two one-sided tests (TOST) of their
    equivalence at margin, adjusted together over the pairs given, as `temple compare --pair A:B
    ... --margin M` computes them. margin is a percentage of the larger of the two agents'
    references (references[A]: temple compare takes the mean regret with the oracle; an agent
    without one: the mean of its values) or an absolute difference ("0.5"). Each result is a dict:
    a, b, n, mean_diff (A − B), ci95 (the half-width of its 95% CI), t, p, p_adjusted,
    effect_size (Cohen's d_z), wins (runs where A is above B), margin, p_tost and
    p_tost_adjusted (None where the margin is 0), mde (the minimum detectable effect) and verdict
    ("A > B", "A < B", "A and B are level" or "A and B are not distinguishable", at 0.05 after
    adjustment). Raises TempleError for unequal runs or fewer than 2, or a bad margin."""
    request = {"per_run": {str(k): _numbers(v, "per_run[%s]" % k) for k, v in per_run.items()},
               "pairs": [[str(a), str(b)] for a, b in pairs], "margin": str(margin),
               "references": {str(k): float(v) for k, v in (references or {}).items()}}
    out = _call("temple_paired_tests", json.dumps(request))
    for c in out:  # JSON writes 2.0 as 2: the numbers are floats, as temple's
        for k in ("mean_diff", "ci95", "t", "p", "p_adjusted", "effect_size", "margin", "p_tost", "p_tost_adjusted", "mde"):
            if c[k] is not None:
                c[k] = float(c[k])
    return out


def mean_ci(values: Sequence[float]) -> Dict[str, float]:
    """{"mean": m, "ci95": h}: the mean of values and the half-width of its 95% confidence
    interval (Student's t with n − 1 degrees of freedom; 0 for one value), temple's every ±."""
    out = _call("temple_mean_ci", json.dumps(_numbers(values, "values")))
    return {k: float(v) for k, v in out.items()}
