"""temple's task families as registered Gymnasium environments, when Gymnasium is installed.

temple needs no Gymnasium: temple.make's environments follow its API by themselves. Where it is
installed, register_gymnasium() registers every family as "temple/FAMILY-v0", so that
gymnasium.make("temple/online-maze-v0", seed=..., count=...) makes a gymnasium.Env over
temple.make (Gymnasium's own spaces, wrappers and checks then apply to it).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple


def register_gymnasium() -> List[str]:
    """Registers every task family with Gymnasium as "temple/FAMILY-v0" and returns the ids.
    ImportError when Gymnasium is not installed."""
    import gymnasium  # type: ignore

    from .envs import families
    ids = []
    for f in families():
        env_id = "temple/%s-v0" % f["name"]
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=_entry_point, kwargs={"family": f["name"]})
        ids.append(env_id)
    return ids


def _entry_point(**kwargs: Any) -> Any:
    return _env_class()(**kwargs)


_cls: Any = None


def _env_class() -> Any:
    """The gymnasium.Env subclass over temple.make, defined on first use (Gymnasium imported then)."""
    global _cls
    if _cls is not None:
        return _cls
    import gymnasium  # type: ignore
    from gymnasium import spaces  # type: ignore

    from .envs import RENDER_MODES, make

    class TempleEnv(gymnasium.Env):  # type: ignore[misc]
        """temple.make(family, **kwargs) as a gymnasium.Env: one environment through a run's
        tasks, with Gymnasium's Discrete spaces (every task of the sequence must have the same
        numbers of states and actions: use temple.make for those whose sizes change)."""

        metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

        def __init__(self, family: str, render_mode: Optional[str] = None, **kwargs: Any) -> None:
            self._seq = make(family, render_mode=render_mode, **kwargs)
            sizes = {(t.observation_space.n, t.action_space.n) for t in self._seq}
            if len(sizes) != 1:
                raise ValueError("temple/%s: its tasks have different numbers of states and actions %s; a "
                                 "Gymnasium environment has fixed spaces (use temple.make)" % (family, sorted(sizes)))
            (n_states, n_actions), = sizes
            self.observation_space = spaces.Discrete(n_states)
            self.action_space = spaces.Discrete(n_actions)
            self.render_mode = render_mode

        def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[int, Dict[str, Any]]:
            super().reset(seed=seed)
            return self._seq.reset(seed=seed, options=options)

        def step(self, action: Any) -> Tuple[int, float, bool, bool, Dict[str, Any]]:
            return self._seq.step(int(action))

        def render(self) -> Optional[str]:
            return self._seq.render()

        def close(self) -> None:
            self._seq.close()

    _cls = TempleEnv
    return _cls
