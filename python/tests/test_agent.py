"""The Python client: construction, the protocol, every refused call, the C ABI's codes, fork and
threads. Run from python/: python3 -m unittest discover -s tests"""

import ctypes
import math
import os
import threading
import unittest

import temple
from temple import _lib


class Index:
    """An int-like that is not an int (as NumPy's integers are not): accepted through __index__."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


class TestConstruction(unittest.TestCase):
    def test_agent_types(self):
        types = {t["name"]: t for t in temple.agent_types()}
        for name in ["rmax", "q-learning", "o-temple", "fm-temple", "fmrl", "delayed-q"]:
            self.assertTrue(types[name]["drivable"], name)
        for name in ["abs-rl", "maxqinit-q-learning", "maxqinit-delayed-q", "maxqinit-rmax"]:
            self.assertFalse(types[name]["drivable"], name)
        self.assertIn("tau", types["o-temple"]["keys"])
        self.assertEqual(types["o-temple"]["display"], "O-TempLe")

    def test_every_drivable_type_runs_a_task(self):
        for t in temple.agent_types():
            if not t["drivable"]:
                continue
            # A task begun from outside states no reward range: PSRL's Beta posterior is given one.
            params = {"reward_min": 0, "reward_max": 1} if "reward_min" in t["keys"] else {}
            with temple.Agent(t["name"], seed=3, **params) as agent:
                agent.begin_task(n_states=5, n_actions=3, gamma=0.9)
                s = 0
                for _ in range(50):
                    a = agent.act(s)
                    self.assertIn(a, range(3))
                    s2 = (s + a) % 5
                    agent.observe(s, a, 0.5, s2, False)
                    s = s2
                agent.end_episode()
                agent.end_task()
                self.assertIsInstance(agent.metrics(), dict)

    def test_psrl_without_a_reward_range_is_refused_at_begin_task(self):
        with temple.Agent("psrl", seed=1) as agent:
            with self.assertRaises(temple.TempleError) as cm:
                agent.begin_task(n_states=5, n_actions=3, gamma=0.9)
            self.assertIn("give reward_min and reward_max", str(cm.exception))

    def test_bad_parameter_name_raises_the_go_message(self):
        with self.assertRaises(temple.TempleError) as cm:
            temple.Agent("o-temple", seed=1, taux=0.15)
        msg = str(cm.exception)
        self.assertIn('has no parameter "taux"', msg)
        self.assertIn("tau", msg.split("it has")[1])

    def test_bad_parameter_value_raises(self):
        with self.assertRaises(temple.TempleError) as cm:
            temple.Agent("q-learning", alpha=2.5)
        self.assertIn("alpha", str(cm.exception))
        with self.assertRaises(temple.TempleError):
            temple.Agent("rmax", m="many")
        with self.assertRaises(temple.TempleError):
            temple.Agent("q-learning", alpha=float("nan"))

    def test_unknown_type_and_model_based_types_are_refused(self):
        with self.assertRaises(temple.TempleError) as cm:
            temple.Agent("o-tempel")
        self.assertIn("o-temple", str(cm.exception))  # the message lists the types
        with self.assertRaises(temple.TempleError) as cm:
            temple.Agent("maxqinit-rmax")
        self.assertIn("true models", str(cm.exception))

    def test_name_and_type_are_not_parameters(self):
        with self.assertRaises(temple.TempleError):
            temple.Agent("rmax", params={"name": "x"})

    def test_int_likes_as_parameters(self):
        with temple.Agent("rmax", seed=Index(3), m=Index(4)) as a:
            a.begin_task(2, 1, 0.9)
            for _ in range(4):
                a.observe(0, 0, 0.0, 1, False)
            a.end_episode()
            a.end_task()
            self.assertEqual(a.metrics()["known_pairs"], 1)  # m = 4 samples make (0, 0) known
        with self.assertRaises(temple.TempleError):
            temple.Agent("rmax", m=object())

    def test_params_dict_and_keywords(self):
        # Keywords add to params= and win over it: m = 1, one sample makes a pair known.
        with temple.Agent("rmax", params={"m": 1000, "r_max": 2}, m=1) as a:
            a.begin_task(2, 1, 0.9)
            a.observe(0, 0, 0.0, 1, False)
            a.end_episode()
            a.end_task()
            self.assertEqual(a.metrics()["known_pairs"], 1)
        with self.assertRaises(temple.TempleError) as cm:
            temple.Agent("rmax", params={"tau": 0.1})
        self.assertIn('no parameter "tau"', str(cm.exception))

    def test_bad_seed_and_run(self):
        with self.assertRaises(ValueError):
            temple.Agent("rmax", seed=-1)
        with self.assertRaises(TypeError):
            temple.Agent("rmax", seed=1.5)

    def test_integers_outside_int64_raise_before_the_library(self):
        # ctypes would drop the high bits: 2**70 would reach the library as run 0.
        for kwargs, error in [({"run": 2 ** 70}, OverflowError), ({"run": -1}, ValueError),
                              ({"seed": 2 ** 64}, OverflowError), ({"seed": -(2 ** 64)}, ValueError)]:
            with self.subTest(**kwargs), self.assertRaises(error):
                temple.Agent("rmax", **kwargs)
        with temple.Agent("rmax", seed=1) as a:
            for bad, error in [(lambda: a.begin_task(4 + 2 ** 64, 2, 0.9), OverflowError),
                               (lambda: a.begin_task(4, 2, 0.9, index=2 ** 64), OverflowError),
                               (lambda: a.begin_task(4, 2, 0.9, terminal_states=[2 ** 64 + 1]), OverflowError)]:
                with self.assertRaises(error):
                    bad()
            a.begin_task(4, 2, 0.9)
            for s in [2 ** 64, 2 ** 63, 1 + 2 ** 64]:
                with self.subTest(state=s):
                    with self.assertRaises(OverflowError):
                        a.act(s)
                    with self.assertRaises(OverflowError):
                        a.observe(0, 0, 0.0, s)
                    with self.assertRaises(OverflowError):
                        a.observe(0, s, 0.0, 1)
                    with self.assertRaises(OverflowError):
                        a.observe_act(s, 0, 0.0, 1)
            with self.assertRaises(ValueError):
                a.act(-(2 ** 64))
            self.assertIn(a.act(1), (0, 1))  # still usable


class TestProtocol(unittest.TestCase):
    def setUp(self):
        self.agent = temple.Agent("o-temple", seed=1, tau=0.15)

    def tearDown(self):
        self.agent.close()

    def assertRefused(self, f, *words):
        with self.assertRaises(temple.TempleError) as cm:
            f()
        for w in words:
            self.assertIn(w, str(cm.exception))

    def test_calls_before_begin_task(self):
        a = self.agent
        self.assertRefused(lambda: a.act(0), "begin_task")
        self.assertRefused(lambda: a.observe(0, 0, 0.0, 1), "begin_task")
        self.assertRefused(a.end_episode, "begin_task")
        self.assertRefused(a.end_task, "begin_task")
        self.assertRefused(a.metrics, "no task has ended")

    def test_begin_task_checks(self):
        a = self.agent
        self.assertRefused(lambda: a.begin_task(0, 4, 0.9), "n_states = 0")
        self.assertRefused(lambda: a.begin_task(4, 0, 0.9), "n_actions = 0")
        self.assertRefused(lambda: a.begin_task(4, 4, 1.0), "gamma = 1")
        self.assertRefused(lambda: a.begin_task(4, 4, float("nan")), "gamma = NaN")
        with self.assertRaises(ValueError):
            a.begin_task(4, 4, 0.9, index=-1)
        self.assertRefused(lambda: a.begin_task(4, 4, 0.9, terminal_states=[4]), "terminal state 4")
        self.assertRefused(lambda: a.begin_task(1 << 20, 1 << 20, 0.9), "pairs")
        a.begin_task(4, 4, 0.9)
        self.assertRefused(lambda: a.begin_task(4, 4, 0.9), "call end_task first")

    def test_every_index_is_checked_and_a_refused_call_changes_nothing(self):
        a = self.agent
        a.begin_task(n_states=6, n_actions=3, gamma=0.9)
        self.assertRefused(lambda: a.act(6), "state 6 out of range [0, 6)")
        with self.assertRaises(ValueError):
            a.act(-1)  # negative: refused before the library
        self.assertRefused(lambda: a.observe(6, 0, 0.0, 1), "state 6")
        self.assertRefused(lambda: a.observe(0, 3, 0.0, 1), "action 3 out of range [0, 3)")
        with self.assertRaises(ValueError):
            a.observe(0, -1, 0.0, 1)
        self.assertRefused(lambda: a.observe(0, 0, 0.0, 6), "next state 6")
        self.assertRefused(lambda: a.observe(0, 0, float("nan"), 1), "reward NaN")
        self.assertRefused(lambda: a.observe(0, 0, math.inf, 1), "reward +Inf")
        self.assertRefused(lambda: a.observe(0, 0, -math.inf, 1), "reward -Inf")
        self.assertRefused(lambda: a.observe_act(0, 0, 0.0, 6), "next state 6")
        self.assertRefused(lambda: a.observe_act(0, 0, float("nan"), 1), "reward NaN")
        with self.assertRaises(TypeError):
            a.act(1.5)
        with self.assertRaises(TypeError):
            a.observe(0, 0, "one", 1)
        # Still usable, and its metrics show no sample from the refused calls.
        x = a.act(0)
        a.observe(0, x, 1.0, 1, False)
        self.assertRefused(a.end_task, "call end_episode first")
        a.end_episode()
        a.end_task()
        self.assertEqual(a.metrics()["samples_recorded"], 1)

    def test_int_likes_are_accepted(self):
        a = self.agent
        a.begin_task(Index(6), Index(3), 0.9)
        x = a.act(Index(2))
        a.observe(Index(2), Index(x), 1, Index(3), 0)

    def test_metrics_and_templates(self):
        a = temple.Agent("o-temple", m=10, m_s=5)
        a.begin_task(n_states=2, n_actions=1, gamma=0.9)
        for _ in range(20):
            a.observe(0, 0, 0.0, 1, False)
            a.observe(1, 0, 0.0, 0, False)
        a.end_episode()
        a.end_task()
        m = a.metrics()
        # Both pairs reached m = 10 samples and were identified after m_s = 5; both move
        # deterministically with reward 0: one template.
        self.assertEqual((m["known_pairs"], m["identified_pairs"], m["library_size"]), (2, 2, 1))
        t = a.templates()
        self.assertEqual(len(t["library"]), 1)
        self.assertEqual(t["pairs"], [t["library"][0]["id"]] * 2)
        a.close()
        with temple.Agent("q-learning") as q:
            self.assertIsNone(q.templates())
            q.begin_task(2, 2, 0.5)
            q.end_task()
            self.assertEqual(q.metrics(), {})

    def test_close(self):
        a = self.agent
        a.begin_task(4, 2, 0.9)
        a.close()
        a.close()  # harmless
        self.assertTrue(a.closed)
        for f in [lambda: a.act(0), lambda: a.observe(0, 0, 0.0, 1), a.end_episode, a.end_task, a.metrics,
                  a.templates, lambda: a.begin_task(4, 2, 0.9)]:
            self.assertRefused(f, "closed")

    def test_context_manager_closes(self):
        with temple.Agent("rmax", seed=1) as a:
            a.begin_task(3, 2, 0.9)
        self.assertTrue(a.closed)
        self.assertRefused(lambda: a.act(0), "closed")


class TestCABI(unittest.TestCase):
    """The library's own checks, below the Python class."""

    def test_codes(self):
        lib = _lib.library()
        err = ctypes.c_void_p()
        self.assertEqual(lib.temple_agent_new(b"nope", b"", 1, 0, None, ctypes.byref(err)), 0)
        self.assertIn('agent type "nope"', _lib.take_string(err.value))
        self.assertEqual(lib.temple_agent_new(b"rmax", b"[1, 2]", 1, 0, None, ctypes.byref(err)), 0)
        self.assertIn("not a JSON object", _lib.take_string(err.value))
        self.assertEqual(lib.temple_agent_new(b"rmax", b"{}", 1, -1, None, ctypes.byref(err)), 0)
        self.assertIn("run = -1", _lib.take_string(err.value))
        h = lib.temple_agent_new(b"rmax", None, 1, 0, None, ctypes.byref(err))
        self.assertGreater(h, 0)
        self.assertEqual(lib.temple_act(h, 0), _lib.ERROR)
        self.assertIn("begin_task", _lib.take_string(lib.temple_error(h)))
        self.assertEqual(lib.temple_begin_task(h, 0, 3, 2, 0.9, None, 2), _lib.ERROR)  # 2 terminal states at NULL
        self.assertEqual(lib.temple_begin_task(h, 0, 3, 2, 0.9, None, 0), 0)
        self.assertEqual(lib.temple_close(h), 0)
        self.assertEqual(lib.temple_close(h), _lib.NO_AGENT)
        for code in [lib.temple_act(h, 0), lib.temple_observe(h, 0, 0, 0.0, 1, 0), lib.temple_end_episode(h),
                     lib.temple_end_task(h), lib.temple_begin_task(h, 0, 3, 2, 0.9, None, 0)]:
            self.assertEqual(code, _lib.NO_AGENT)
        self.assertIsNone(lib.temple_metrics(h))
        self.assertIn("with handle %d: it was closed or never opened" % h, _lib.take_string(lib.temple_error(h)))
        self.assertEqual(lib.temple_act(12345678, 0), _lib.NO_AGENT)


class TestProcessesAndThreads(unittest.TestCase):
    @unittest.skipUnless(hasattr(os, "fork"), "no fork here")
    def test_forked_child_gets_an_error_not_a_hang(self):
        agent = temple.Agent("rmax", seed=1)
        agent.begin_task(4, 2, 0.9)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: the Go runtime did not come along
            code = 0
            for f in [lambda: agent.act(0), lambda: temple.Agent("rmax"), temple.agent_types]:
                try:
                    f()
                    code = 1
                except temple.TempleError as e:
                    if "fork" not in str(e):
                        code = 2
                except BaseException:
                    code = 3
            os.write(w, bytes([code]))
            os._exit(0)
        os.close(w)
        got = os.read(r, 1)
        os.close(r)
        os.waitpid(pid, 0)
        self.assertEqual(got, b"\x00")
        self.assertIn(agent.act(0), (0, 1))  # the parent's agent is untouched
        agent.close()

    def test_one_agent_per_thread(self):
        def work(seed, out):
            with temple.Agent("o-temple", seed=seed) as a:
                a.begin_task(8, 2, 0.9)
                acts = []
                for i in range(2000):
                    s = i % 8
                    x = a.act(s)
                    acts.append(x)
                    a.observe(s, x, 0.0, (s + 1) % 8, False)
                a.end_episode()
                a.end_task()
                out[seed] = acts
        threaded, serial = {}, {}
        ts = [threading.Thread(target=work, args=(k, threaded)) for k in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        for k in range(4):
            work(k, serial)
        self.assertEqual(threaded, serial)  # each agent's actions depend on its seed only

    def test_one_agent_shared_by_threads_is_serialized(self):
        a = temple.Agent("q-learning", seed=1)
        a.begin_task(8, 2, 0.9)
        errors = []

        def work():
            try:
                for i in range(3000):
                    s = i % 8
                    a.observe(s, a.act(s), 1.0, (s + 1) % 8, False)
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)
        ts = [threading.Thread(target=work) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])
        a.end_episode()
        a.end_task()
        a.close()


if __name__ == "__main__":
    unittest.main()
