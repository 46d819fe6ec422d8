"""temple from Python: its learners in your loop, its task families as environments, its
experiments and their results (temple's Go library through its C ABI, and its command, both
shipped in this package).

    import temple

    # temple's learners (RMax, Q-learning, O-TempLe, FM-TempLe, ...) in a loop of your own
    with temple.Agent("o-temple", seed=1, tau=0.15) as agent:
        agent.begin_task(n_states=16, n_actions=4, gamma=0.95)
        a = agent.act(s)
        agent.observe(s, a, r, s2, terminated)
        agent.end_episode()
        agent.end_task()
        agent.metrics()                    # the task's diagnostics as a dict

    # temple's task families as Gymnasium-style environments, as the runner draws and steps them
    env = temple.make("online-maze", seed=1)      # one environment through a run's tasks
    s, info = env.reset()                         # info["task"], info["new_task"]
    s, r, terminated, truncated, info = env.step(env.action_space.sample())
    for task in env:                              # or each task as an environment of its own
        task.optimal_value(task.reset()[0])       # V_T(start): the runner's yardstick of optimal
    temple.families()                             # the families, their parameters and ranges

    # an agent through any Gymnasium-style environment, episode after episode
    returns = temple.run_episodes(agent, env[0], episodes=100)

    # experiments through the bundled temple command, results as Python objects
    res = temple.run({"tasks": {"family": "online-maze"}, "agents": [{"type": "o-temple"}]}, out="runs/x")
    res = temple.results.load("runs/x")

Standard library only: NumPy numbers are accepted, never needed; pandas is used by to_pandas()
when installed. With Gymnasium installed, temple.register_gymnasium() registers the families as
Gymnasium environments ("temple/online-maze", ...). The guide: docs/guides/python.md of the
temple repository.
"""

from __future__ import annotations

import ctypes
import json
import operator
from typing import Any, Dict, Iterable, List, Mapping, Optional

from . import _lib
from ._checks import index as check_index
from ._checks import seed as check_seed
from ._checks import text as check_text
from ._checks import values as check_values
from ._command import command_path
from ._lib import TempleError

try:
    from ._version import __version__  # written by make python (and in the wheel) from results.Version
except ImportError:  # a source tree where make python has not run
    __version__ = "unknown"

__all__ = ["Agent", "Discrete", "TempleError", "__version__", "agent_types", "command_path", "families", "loop",
           "make", "register_gymnasium", "results", "run", "run_episodes", "stats"]


def agent_types() -> List[Dict[str, Any]]:
    """The registered agent types, in name order: dicts with the type's name (what Agent takes),
    display name, summary, config keys (its parameters) and drivable (False for the types built
    from the tasks' true models, which Agent refuses)."""
    lib = _lib.library()
    return json.loads(_lib.take_string(lib.temple_agent_types()) or "[]")


class Agent:
    """One learner of temple, behind a handle of the Go library.

    agent_type is a registered type (see agent_types()); params are its parameters under their
    config keys (as in an experiment config: tau=0.15, m=10, base="rmax", ...), decoded onto the
    type's defaults; a key the type does not have raises TempleError with the type's keys.

    seed, run and name choose the learner's random streams: task k draws from the stream the Go
    runner gives agent `name` (by default its type's display name, as the runner names it) in run
    `run`, task k of an experiment with seed `seed`, so the same learner acts the same from Python
    and from Go.

    Calls on one agent are serialized (a lock per agent in the library); give each thread its own
    agent for parallel work. Not usable in a process forked after the agent was created.

    >>> with temple.Agent("q-learning", seed=1) as agent:
    ...     agent.begin_task(n_states=4, n_actions=2, gamma=0.9)
    ...     a = agent.act(0)
    ...     agent.observe(0, a, 1.0, 1)
    ...     agent.end_episode()
    ...     agent.end_task()
    >>> a in (0, 1), agent.closed
    (True, True)
    >>> "o-temple" in [t["name"] for t in temple.agent_types()]
    True

    Integers are checked before they reach the library: a state, action, run or index that is
    negative raises ValueError, one beyond 64 bits OverflowError (ctypes would drop its high bits).
    """

    def __init__(self, agent_type: str, seed: int = 0, *, run: int = 0, name: Optional[str] = None,
                 params: Optional[Mapping[str, Any]] = None, **kwargs: Any) -> None:
        lib = _lib.library()
        p = dict(params or {})
        p.update(kwargs)
        agent_type = check_text(agent_type, "agent_type")
        name = None if name is None else check_text(name, "name")
        check_values(p, "agent type %s" % agent_type)
        try:
            text = json.dumps(p, allow_nan=False, default=_json_number)
        except (TypeError, ValueError) as e:
            raise TempleError("agent type %s: parameters %r: %s" % (agent_type, p, e)) from None
        err = ctypes.c_void_p()
        seed, run = check_seed(seed), check_index(run, "run")
        h = lib.temple_agent_new(agent_type.encode(), text.encode(), seed, run,
                                 None if name is None else name.encode(), ctypes.byref(err))
        if h == 0:
            raise TempleError(_lib.take_string(err.value))
        self._lib, self._h = lib, h
        self.type, self.seed, self.run, self.name = agent_type, seed, run, name
        self.n_states: Optional[int] = None
        self.n_actions: Optional[int] = None
        self._in_task, self._tasks = False, 0
        # The per-step calls, bound once: a step is one or two foreign calls and nothing else.
        self._act, self._observe = lib.steps.temple_act, lib.steps.temple_observe
        self._observe_act = lib.steps.temple_observe_act
        _lib.track(self)

    # -- the per-step calls --------------------------------------------------------------------

    def act(self, s: int) -> int:
        """The learner's action in state s (an int in [0, n_actions)). A state that is not an
        integer raises TypeError, a negative one ValueError, one beyond 64 bits OverflowError."""
        try:
            if s >> 63:  # negative, or beyond int64: ctypes would wrap it (the slow path says why)
                raise OverflowError
            a = self._act(self._h, s)
        except (OverflowError, TypeError, ctypes.ArgumentError):
            a = self._act(self._h, check_index(s, "state"))
        if a < 0:
            raise self._failure(a)
        return a

    def observe(self, s: int, a: int, r: float, s2: int, terminated: bool = False) -> None:
        """Reports the step (s, a, r, s2) that followed act(s). terminated is Gymnasium's: s2 is a
        terminal state (the learner bootstraps nothing past it from then on); a truncated step is
        an ordinary step. States and actions are checked as act's."""
        try:
            if (s | a | s2) >> 63:
                raise OverflowError
            c = self._observe(self._h, s, a, r, s2, 1 if terminated else 0)
        except (OverflowError, TypeError, ctypes.ArgumentError):
            c = self._observe(self._h, check_index(s, "state"), check_index(a, "action"), _real(r), check_index(s2, "next state"),
                              bool(terminated))
        if c < 0:
            raise self._failure(c)

    def observe_act(self, s: int, a: int, r: float, s2: int) -> int:
        """observe(s, a, r, s2) of a step that did not terminate, then act(s2): the learner's
        action in s2. The same two calls in one crossing of the boundary, for the steps of an
        episode that goes on (temple.run_episodes uses it)."""
        try:
            if (s | a | s2) >> 63:
                raise OverflowError
            a2 = self._observe_act(self._h, s, a, r, s2)
        except (OverflowError, TypeError, ctypes.ArgumentError):
            a2 = self._observe_act(self._h, check_index(s, "state"), check_index(a, "action"), _real(r), check_index(s2, "next state"))
        if a2 < 0:
            raise self._failure(a2)
        return a2

    # -- tasks and episodes --------------------------------------------------------------------

    def begin_task(self, n_states: int, n_actions: int, gamma: float, index: Optional[int] = None,
                   terminal_states: Optional[Iterable[int]] = None) -> None:
        """Begins a task of n_states states and n_actions actions with discount gamma. index is
        the task's position in the sequence (default: the number of tasks begun before).
        terminal_states optionally declares the terminal states up front, as temple's runner
        does for a tabular task; the others are learned from the steps observed with
        terminated=True."""
        k = self._tasks if index is None else check_index(index, "index")
        n_states, n_actions = check_index(n_states, "n_states"), check_index(n_actions, "n_actions")
        term = [check_index(x, "terminal state") for x in (() if terminal_states is None else terminal_states)]
        arr = (ctypes.c_int64 * len(term))(*term) if term else None
        self._check(self._lib.temple_begin_task(self._h, k, n_states, n_actions, float(gamma), arr, len(term)))
        self.n_states, self.n_actions = n_states, n_actions
        self._in_task, self._tasks = True, self._tasks + 1

    def end_episode(self) -> None:
        """Ends the episode (at a terminal state or truncated); the task goes on."""
        self._check(self._lib.temple_end_episode(self._h))

    def end_task(self) -> None:
        """Ends the task: multi-task learners (O-TempLe, FM-TempLe, FMRL) keep what they learned."""
        self._check(self._lib.temple_end_task(self._h))
        self._in_task = False

    @property
    def in_task(self) -> bool:
        """Whether a task has begun and not ended."""
        return self._in_task

    def metrics(self) -> Dict[str, float]:
        """The learner's diagnostics of the task that ended last, as a dict (empty for learners
        without any)."""
        return json.loads(self._text(self._lib.temple_metrics(self._h)))

    def templates(self) -> Optional[Dict[str, Any]]:
        """The template library and each pair's template (O-TempLe, FM-TempLe) as a dict with
        "library" and "pairs", or None for learners without templates."""
        return json.loads(self._text(self._lib.temple_templates(self._h)))

    # -- closing -------------------------------------------------------------------------------

    def close(self) -> None:
        """Frees the learner; later calls raise TempleError. Closing twice is harmless."""
        if self._h:
            self._lib.temple_close(self._h)
            self._h = 0  # never a handle: every call now fails as closed

    @property
    def closed(self) -> bool:
        """Whether close() was called."""
        return not self._h

    def __enter__(self) -> "Agent":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self):
        try:
            if getattr(self, "_h", 0) and _lib._pid is not None:
                import os
                if os.getpid() == _lib._pid:
                    self.close()
        except Exception:  # interpreter shutdown: nothing left to free into
            pass

    def __repr__(self) -> str:
        state = "closed" if self.closed else ("in task %d" % (self._tasks - 1) if self._in_task else "open")
        return "temple.Agent(%r, seed=%d, run=%d, %s)" % (self.type, self.seed, self.run, state)

    # -- errors --------------------------------------------------------------------------------

    def _failure(self, code):
        if code == _lib.NO_AGENT:
            return TempleError("the agent is closed" if not self._h else
                               _lib.take_string(self._lib.temple_error(self._h)))
        return TempleError(_lib.take_string(self._lib.temple_error(self._h)))

    def _check(self, code):
        if code < 0:
            raise self._failure(code)

    def _text(self, p):
        if not p:
            raise self._failure(_lib.ERROR if self._h else _lib.NO_AGENT)
        return _lib.take_string(p)

    def _disable_after_fork(self):
        def forked(*args, **kwargs):
            raise _lib.forked_error()
        self._act = self._observe = self._observe_act = forked
        self._lib = _Forked()
        self._h = 0


def _json_number(x):
    """NumPy's (and other) integers and floats as JSON numbers, for parameters."""
    if hasattr(type(x), "__index__"):
        return operator.index(x)
    if hasattr(type(x), "__float__") and not isinstance(x, (str, bytes)):
        return float(x)
    raise TypeError("%r is not a number, string, bool, list or dict" % (x,))


def _real(x):
    """x as a float if it is a real number (NumPy's floats included), else TypeError."""
    if isinstance(x, (str, bytes)) or not hasattr(type(x), "__float__"):
        raise TypeError("reward %r, want a real number" % (x,))
    return float(x)


class _Forked:
    """Stands for the library in a forked child: every call raises."""

    def __getattr__(self, name):
        raise _lib.forked_error()


from . import loop, results, stats  # noqa: E402  (loop uses Agent)
from ._experiment import run  # noqa: E402
from ._gymnasium import register_gymnasium  # noqa: E402
from .envs import Discrete, families, make  # noqa: E402
from .loop import run_episodes  # noqa: E402
