"""NumPy's numbers wherever the package takes an int or a float: integer and float scalars of
every width, 0-d arrays and NumPy bools, as Gymnasium environments return them. NumPy stays
optional: without it these tests are skipped."""

import io
import os
import shutil
import tempfile
import unittest

import temple

try:
    import numpy as np
except ImportError:  # NumPy is optional
    np = None

from envs import Chain


@unittest.skipIf(np is None, "NumPy is not installed (it is optional)")
class TestNumPyNumbers(unittest.TestCase):
    INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "intp"]
    FLOATS = ["float16", "float32", "float64", "longdouble"]

    def ints(self, v):
        """v as every NumPy integer scalar, and as a 0-d array."""
        return [np.dtype(t).type(v) for t in self.INTS] + [np.array(v), np.array(v, dtype=np.int32)]

    def floats(self, v):
        return [np.dtype(t).type(v) for t in self.FLOATS] + [np.array(v), np.array(v, dtype=np.float32)]

    def test_construction(self):
        for seed in self.ints(3):
            with temple.Agent("o-temple", seed=seed, run=seed, m=np.int64(5), m_s=np.array(3),
                              tau=np.float32(0.25)) as a:
                self.assertEqual(a.seed, 3)
        with temple.Agent("rmax", seed=np.uint64(2**64 - 1)):
            pass

    def test_per_step_calls_act_as_with_python_numbers(self):
        # The same steps with Python's numbers and with each kind of NumPy number: the same actions.
        def episode(convert_int, convert_float, convert_bool):
            with temple.Agent("o-temple", seed=1, m=3, m_s=2) as a:
                a.begin_task(convert_int(6), convert_int(3), convert_float(0.875), index=convert_int(0),
                             terminal_states=np.array([5]))
                acts = []
                s = 0
                for t in range(60):
                    x = a.act(convert_int(s))
                    acts.append(x)
                    self.assertIs(type(x), int)
                    s2 = (s + x + 1) % 6
                    if t % 2:
                        a.observe(convert_int(s), convert_int(x), convert_float(0.5), convert_int(s2),
                                  convert_bool(s2 == 5))
                    else:
                        acts.append(a.observe_act(convert_int(s), convert_int(x), convert_float(0.5), convert_int(s2)))
                    s = s2
                a.end_episode()
                a.end_task()
                return acts, a.metrics()

        want = episode(int, float, bool)  # 0.875 and 0.5: exact in every float width
        for i_t in self.INTS + ["0d"]:
            for f_t in self.FLOATS + ["0d"]:
                ci = (lambda v: np.array(v)) if i_t == "0d" else np.dtype(i_t).type
                cf = (lambda v: np.array(v)) if f_t == "0d" else np.dtype(f_t).type
                with self.subTest(int=i_t, float=f_t):
                    self.assertEqual(episode(ci, cf, np.bool_), want)

    def test_refusals_are_the_same(self):
        with temple.Agent("rmax", seed=1) as a:
            a.begin_task(np.int64(4), np.int32(2), np.float64(0.9))
            with self.assertRaises(temple.TempleError) as cm:
                a.act(np.int64(4))
            self.assertIn("state 4 out of range [0, 4)", str(cm.exception))
            with self.assertRaises(temple.TempleError) as cm:
                a.observe(np.int8(0), np.uint8(0), np.float32("nan"), np.int64(1))
            self.assertIn("reward NaN", str(cm.exception))
            with self.assertRaises(TypeError):
                a.act(np.float64(1.0))  # a float is not a state
            with self.assertRaises(TypeError):
                a.act(np.array([1]))  # nor is a 1-element array

    def test_gym_run_with_numpy_observations_and_rewards(self):
        class NumPyChain(Chain):
            def reset(self, seed=None):
                s, info = super().reset(seed)
                return np.int64(s), info

            def step(self, a):
                s, r, term, trunc, info = super().step(int(a))
                return np.int64(s), np.float32(r), np.bool_(term), np.bool_(trunc), info

        def returns(env, **kw):
            with temple.Agent("q-learning", seed=4) as a:
                return temple.run_episodes(a, env, **kw)

        want = returns(Chain(5, time_limit=20), episodes=30, gamma=0.9)
        got = returns(NumPyChain(5, time_limit=20), episodes=np.int64(30), gamma=np.float32(0.9), max_steps=np.int32(50))
        self.assertEqual(got, want)
        self.assertTrue(all(type(r) is float for r in got))

    def test_environments_with_numpy(self):
        def trace(convert):
            out = []
            with temple.make("online-maze", seed=convert(4), run=convert(1), count=convert(2), steps=convert(6),
                             gamma=np.float32(0.5) if convert is not int else 0.5) as seq:
                for task in seq:
                    out.append(task.reset(seed=convert(9))[0])
                    for i in range(6):
                        out.append(task.step(convert(i % 4))[:4])
                    out.append(task.optimal_value(convert(0)))
            return out

        want = trace(int)
        for t in self.INTS:
            self.assertEqual(trace(np.dtype(t).type), want, t)
        self.assertEqual(trace(np.array), want)

    def test_run_and_config_with_numpy(self):
        tmp = tempfile.mkdtemp()
        try:
            cfg = {"name": "np", "seed": np.uint64(5), "runs": np.int64(1), "episodes": np.int32(10),
                   "steps": np.array(10), "gamma": np.float32(0.5),
                   "tasks": {"family": "online-maze", "count": np.int8(2)}, "agents": [{"type": "rmax", "m": np.int16(4)}]}
            r = temple.run(cfg, out=os.path.join(tmp, "r"), runs=np.int64(2), seed=np.uint32(6), progress=io.StringIO())
            self.assertEqual((r.summary["runs"], r.summary["seed"]), (2, 6))
            self.assertEqual(r.summary["spec"]["gamma"], 0.5)
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main()
