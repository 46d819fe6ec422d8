"""The worker of a Python learner's cell (python -m temple._cell): `temple run` starts as many as it
runs cells of `type: python` agents at once, and writes each cell's request (external.CellRequest,
JSON) as a line on a worker's standard input. The worker loads the learner's class from the file the experiment recorded
(checking its SHA-256), then asks temple's library to run the cell with the runner's own code
(temple_cell_run), which calls the learner's methods through the C function pointers below and
writes its progress on file descriptor 3. Not for direct use.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
from typing import Any, Dict, Optional

from . import _lib
from .learner import Learner, error_text, load_class

PROGRESS = 3  # the file descriptor temple reads the worker's progress from

i64, u64, dbl, vp = ctypes.c_int64, ctypes.c_uint64, ctypes.c_double, ctypes.c_void_p


class _Callbacks(ctypes.Structure):
    _fields_ = [
        ("new_learner", ctypes.CFUNCTYPE(i64, u64)),
        ("begin_task", ctypes.CFUNCTYPE(i64, i64, i64, i64, dbl, ctypes.POINTER(i64), i64, u64)),
        ("act", ctypes.CFUNCTYPE(i64, i64)),
        ("observe_act", ctypes.CFUNCTYPE(i64, i64, i64, dbl, i64, i64)),
        ("observe", ctypes.CFUNCTYPE(i64, i64, i64, dbl, i64, i64)),
        ("end_episode", ctypes.CFUNCTYPE(i64)),
        ("end_task", ctypes.CFUNCTYPE(i64, vp, i64)),
        ("error", ctypes.CFUNCTYPE(i64, vp, i64)),
        ("close", ctypes.CFUNCTYPE(i64)),
    ]


def _write(addr: int, cap: int, text: str) -> int:
    data = text.encode("utf-8")
    if len(data) > cap:
        data = data[:cap - 3] + b"..."
    ctypes.memmove(addr, data, len(data))
    return len(data)


def callbacks(cls: Any, params: Dict[str, Any]) -> _Callbacks:
    """The function pointers of a learner of class cls built with params: every call's exception
    is kept (its traceback's last lines) and reported as -1."""
    state: Dict[str, Any] = {"learner": None, "error": "", "metrics": ""}

    def guarded(f):
        def call(*args):
            try:
                return f(*args)
            except BaseException as e:  # the learner's own failure, whatever it is, fails its cell
                state["error"] = error_text(e)
                return -1
        return call

    def new_learner(seed):
        learner = Learner(cls, seed, params)
        state["learner"] = learner
        # The per-step calls, bound once: the learner's own methods, its answers checked inline.
        state["observe"], state["act"], state["check"] = learner.obj.observe, learner.obj.act, learner.check_action
        return 0

    def begin_task(index, n_states, n_actions, gamma, terminal, n_terminal, seed):
        state["learner"].begin_task(index, n_states, n_actions, gamma, [terminal[i] for i in range(n_terminal)], seed)
        state["n_actions"] = n_actions
        return 0

    def act(s):
        a = state["act"](s)
        if type(a) is int and 0 <= a < state["n_actions"]:
            return a
        return state["check"](s, a)  # the slow path: an int-like (a NumPy integer), or an error with the reason

    def observe_act(s, a, r, s2, terminated):
        state["observe"](s, a, r, s2, terminated != 0)
        return act(s2)

    def observe(s, a, r, s2, terminated):
        state["observe"](s, a, r, s2, terminated != 0)
        return 0

    def end_episode():
        state["learner"].end_episode()
        return 0

    def end_task(buf, cap):
        m = state["learner"].end_task()
        if not m:
            return 0
        text = json.dumps(m, allow_nan=True)
        if len(text.encode("utf-8")) > cap:
            raise ValueError("end_task's metrics take %d bytes as JSON, more than %d" % (len(text), cap))
        return _write(buf, cap, text)

    def error(buf, cap):
        return _write(buf, cap, state["error"] or "unknown error")

    def close():
        if state["learner"] is not None:
            state["learner"].close()
        return 0

    fields = dict(new_learner=new_learner, begin_task=begin_task, act=act, observe_act=observe_act, observe=observe,
                  end_episode=end_episode, end_task=end_task, close=close)
    cb = _Callbacks()
    for name, ftype in _Callbacks._fields_:
        f = error if name == "error" else guarded(fields[name])
        setattr(cb, name, ftype(f))
    return cb


def _report(text: str) -> None:
    os.write(PROGRESS, ("error %s\n" % json.dumps(text)).encode("utf-8"))


def main(argv: Optional[list] = None) -> int:
    """Runs the cells requested on standard input, one a line, until it closes."""
    lib = None
    classes: Dict[Any, Any] = {}
    for line in sys.stdin:
        req: Dict[str, Any] = {}
        try:
            req = json.loads(line)
            key = (req["class"], req["module_file"], req.get("digest"))
            if key not in classes:
                classes[key] = load_class(req["class"], req["module_file"], req.get("digest") or None)
            cls = classes[key]
            if lib is None:
                lib = _lib.library()
                lib.temple_cell_run.restype = ctypes.c_int
                lib.temple_cell_run.argtypes = [ctypes.c_char_p, ctypes.POINTER(_Callbacks), ctypes.c_int]
        except BaseException as e:
            _report("learner %s: loading %s: %s" % (req.get("agent", "?"), req.get("class", "?"), error_text(e)))
            continue
        cb = callbacks(cls, req.get("params") or {})
        lib.temple_cell_run(json.dumps(req).encode("utf-8"), ctypes.byref(cb), PROGRESS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
