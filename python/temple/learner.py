"""Your own learner, judged by temple beside its learners: the class temple expects, and how it is
loaded and called (docs/guides/own-learner.md).

A learner is a class of your own, in a module of your own. temple builds one per cell (a run of
one agent) and calls it exactly as its runner calls its own learners:

    class OptQ:
        def __init__(self, seed, alpha=0.2, bonus=1.0):        # seed= and your params:
            ...
        def begin_task(self, n_states, n_actions, gamma, index, terminal, seed):
            ...                                                # terminal: the task's terminal states
        def act(self, state):                                  # -> an action, 0 .. n_actions-1
            ...
        def observe(self, state, action, reward, next_state, terminated):
            ...
        def end_episode(self):                                 # optional
            ...
        def end_task(self):                                    # optional; may return {name: number}
            ...

`seed` is drawn from the runner's stream of the agent and run, and begin_task's `seed` from its
stream of the task: a learner that draws its random numbers from them (random.Random(seed)) gives
the same results run after run. Every keyword listed is always passed; a learner may take
**kwargs for those it does not use. The dict end_task returns is the task's diagnostics (in
metrics.csv); close(), when the class has it, is called when the cell ends.

A config names the class as `type: python` with `class: module:Class` (the module is looked for
beside the config, then on PYTHONPATH) and its keyword arguments as `params:`; `temple run` runs
its cells in a Python process through temple's library, and `python -m temple.external
module:Class` serves the same class over temple's agent protocol for `type: external`.
"""

from __future__ import annotations

import hashlib
import importlib
import operator
import os
import sys
import traceback
import types
from typing import Any, Dict, List, Mapping, Optional

__all__ = ["LearnerError", "Learner", "load_class", "error_text"]


class LearnerError(Exception):
    """A learner that cannot be loaded, or that broke the protocol (an action out of range, ...)."""


def load_class(spec: str, module_file: Optional[str] = None, digest: Optional[str] = None) -> Any:
    """The class of spec ("module:Class").

    With module_file, the module is built from that file's bytes, which must have the SHA-256
    digest when one is given (what the experiment recorded: the learner temple runs is the one its
    results name); its directory, less the module's own path, goes first on sys.path for what it
    imports. Without, the module is imported as Python finds it.
    """
    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise LearnerError("class %r, want module:Class" % spec)
    if module_file is None:
        mod = importlib.import_module(module)
    else:
        mod = _module_from_file(module, module_file, digest)
    try:
        return getattr(mod, name)
    except AttributeError:
        raise LearnerError("module %s (%s) has no class %s" % (module, getattr(mod, "__file__", "?"), name)) from None


def _module_from_file(module: str, path: str, digest: Optional[str]) -> types.ModuleType:
    with open(path, "rb") as f:
        data = f.read()
    got = hashlib.sha256(data).hexdigest()
    if digest and got != digest:
        raise LearnerError("%s changed since the experiment started (SHA-256 %s, recorded %s): run the experiment "
                           "again with --force, or restore the file" % (path, got, digest))
    package = os.path.basename(path) == "__init__.py"
    depth = module.count(".") + (2 if package else 1)
    root = os.path.abspath(path)
    for _ in range(depth):
        root = os.path.dirname(root)
    if root not in sys.path:
        sys.path.insert(0, root)
    parent, _, _ = module.rpartition(".")
    if parent:
        importlib.import_module(parent)
    mod = types.ModuleType(module)
    mod.__file__ = path
    if package:
        mod.__path__ = [os.path.dirname(path)]  # type: ignore[attr-defined]
        mod.__package__ = module
    else:
        mod.__package__ = parent
    sys.modules[module] = mod
    try:
        exec(compile(data, path, "exec"), mod.__dict__)
    except BaseException:
        del sys.modules[module]
        raise
    return mod


def error_text(exc: BaseException, lines: int = 10) -> str:
    """The last lines of exc's traceback: what a failed cell says of its learner's error."""
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)).rstrip().splitlines()
    if len(text) > lines:
        text = ["..."] + text[-lines:]
    return "\n".join(text)


class Learner:
    """A learner class's instance as temple calls it: the keywords passed, the answers checked."""

    def __init__(self, cls: Any, seed: int, params: Mapping[str, Any]) -> None:
        self.obj = cls(seed=seed, **dict(params))
        self.n_actions = 0
        self._end_episode = getattr(self.obj, "end_episode", None)
        self._end_task = getattr(self.obj, "end_task", None)

    def begin_task(self, index: int, n_states: int, n_actions: int, gamma: float, terminal: List[int],
                   seed: int) -> None:
        self.n_actions = n_actions
        self.obj.begin_task(n_states=n_states, n_actions=n_actions, gamma=gamma, index=index, terminal=terminal,
                            seed=seed)

    def act(self, state: int) -> int:
        return self.check_action(state, self.obj.act(state))

    def check_action(self, state: int, a: Any) -> int:
        """a, act(state)'s answer, as an action: an int (or int-like, a NumPy integer) in range."""
        try:
            a = operator.index(a)
        except TypeError:
            raise LearnerError("act(%d) returned %r, want an action (an int) in 0..%d" % (state, a, self.n_actions - 1)) from None
        if not 0 <= a < self.n_actions:
            raise LearnerError("act(%d) returned action %d, want one of 0..%d" % (state, a, self.n_actions - 1))
        return a

    def observe(self, state: int, action: int, reward: float, next_state: int, terminated: bool) -> None:
        self.obj.observe(state, action, reward, next_state, terminated)

    def end_episode(self) -> None:
        if self._end_episode is not None:
            self._end_episode()

    def end_task(self) -> Dict[str, float]:
        m = self._end_task() if self._end_task is not None else None
        if m is None:
            return {}
        if not isinstance(m, Mapping):
            raise LearnerError("end_task returned %r, want None or a dict of metrics {name: number}" % (m,))
        out = {}
        for k, v in m.items():
            if not isinstance(k, str):
                raise LearnerError("end_task's metric name %r is not a string" % (k,))
            try:
                out[k] = float(v)
            except (TypeError, ValueError):
                raise LearnerError("end_task's metric %s = %r is not a number" % (k, v)) from None
        return out

    def close(self) -> None:
        close = getattr(self.obj, "close", None)
        if close is not None:
            close()
