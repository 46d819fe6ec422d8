"""Loading temple's C ABI (the Go library built from capi/) with ctypes.

The library is loaded on first use, not on import: a process may import temple and then fork
(multiprocessing's "fork" start method) as long as it has not created an agent yet. The Go runtime
does not survive fork, so a child forked after the library was loaded must not call into it: every
call there raises TempleError instead of hanging.
"""

from __future__ import annotations

import ctypes
import os
import threading
from typing import Any, Optional

__all__ = ["TempleError", "library", "take_string"]

ERROR = -1  # the call was refused: temple_error(h) says why
NO_AGENT = -2  # the handle is not open


class TempleError(Exception):
    """A call the Go library refused, with its message (bad parameters, a state out of range, ...)."""


_lock = threading.Lock()
_lib: Any = None
_pid: Optional[int] = None  # the process that loaded the library


def _path():
    p = os.environ.get("TEMPLE_LIBRARY")
    if p:
        return p
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "libtemple.so")


def _declare(lib):
    i64, c_int, dbl, p = ctypes.c_int64, ctypes.c_int, ctypes.c_double, ctypes.c_void_p
    for name, res, args in [
        ("temple_agent_new", i64, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint64, i64, ctypes.c_char_p,
                                   ctypes.POINTER(p)]),
        ("temple_begin_task", c_int, [i64, i64, i64, i64, dbl, ctypes.POINTER(i64), i64]),
        ("temple_act", i64, [i64, i64]),
        ("temple_observe", c_int, [i64, i64, i64, dbl, i64, c_int]),
        ("temple_observe_act", i64, [i64, i64, i64, dbl, i64]),
        ("temple_end_episode", c_int, [i64]),
        ("temple_end_task", c_int, [i64]),
        ("temple_metrics", p, [i64]),
        ("temple_templates", p, [i64]),
        ("temple_error", p, [i64]),
        ("temple_close", c_int, [i64]),
        ("temple_agent_types", p, []),
        ("temple_tasks_new", i64, [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint64, i64,
                                   ctypes.c_char_p, ctypes.POINTER(p)]),
        ("temple_tasks_info", p, [i64]),
        ("temple_optimal_value", c_int, [i64, i64, i64, ctypes.POINTER(dbl)]),
        ("temple_env_new", i64, [i64, i64, ctypes.c_uint64]),
        ("temple_env_reset", i64, [i64]),
        ("temple_env_step", i64, [i64, i64, ctypes.POINTER(dbl)]),
        ("temple_paired_tests", p, [ctypes.c_char_p, ctypes.POINTER(p)]),
        ("temple_mean_ci", p, [ctypes.c_char_p, ctypes.POINTER(p)]),
        ("temple_free", None, [p]),
    ]:
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args


def library() -> Any:
    """The loaded library (loading it on first use)."""
    global _lib, _pid
    with _lock:
        if _lib is not None and _pid != os.getpid():
            raise forked_error()
        if _lib is None:
            path = _path()
            if not os.path.exists(path):
                raise TempleError(
                    "temple's Go library is not at %s: build it with `make python` in the temple "
                    "repository, or set TEMPLE_LIBRARY to its path" % path)
            lib = ctypes.CDLL(path)
            _declare(lib)
            # The per-step calls keep the GIL: they take a few hundred nanoseconds, and releasing
            # and taking back the GIL would cost as much again. The other calls release it.
            lib.steps = ctypes.PyDLL(path)  # type: ignore[attr-defined]
            _declare(lib.steps)
            _lib, _pid = lib, os.getpid()
        return _lib


def forked_error() -> "TempleError":
    """The error of a call into the library from a process forked after it was loaded."""
    return TempleError(
        "temple's Go library was loaded in process %d before this process (%d) was forked from it; "
        "the Go runtime does not survive fork: create agents only in the child (multiprocessing "
        "start method 'spawn' or 'forkserver', or load temple after the fork)" % (_pid or 0, os.getpid()))


def take_string(p: Optional[int]) -> Optional[str]:
    """The text of a char * the library returned, which is then freed."""
    if not p:
        return None
    try:
        return ctypes.string_at(p).decode("utf-8")
    finally:
        _lib.temple_free(p)


# Agents opened in this process; a forked child disables them (see _after_fork_in_child).
_live: Any = None


def track(agent: Any) -> None:
    """Remembers agent, to disable it in a child forked later."""
    global _live
    if _live is None:
        import weakref
        _live = weakref.WeakSet()
    _live.add(agent)


def _after_fork_in_child():
    if _lib is None:
        return
    for a in list(_live or ()):
        a._disable_after_fork()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
