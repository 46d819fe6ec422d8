"""temple.make's environments against Gymnasium's documented Env API, checked without Gymnasium
(there is no package index here): what gymnasium.utils.env_checker.check_env asks of an
environment with Discrete spaces — reset's and step's signatures and return types,
observations inside the observation space, spaces with sample() and seed(), determinism under
reset(seed=...) and a seeded action space, metadata, spec, np_random, unwrapped, render and
close. Where Gymnasium is importable, the registered environments also pass its own check_env."""

import inspect
import random
import unittest

import temple


def check_env_api(test, make_env):
    """Fails test on any departure from Gymnasium's Env API by an environment of make_env()."""
    env = make_env()
    # Attributes Gymnasium reads.
    test.assertIsInstance(env.metadata, dict)
    test.assertIn("render_modes", env.metadata)
    test.assertIs(env.unwrapped, env)
    test.assertTrue(env.spec.id.startswith("temple/"))
    test.assertIsInstance(env.spec.max_episode_steps, int)
    for space in (env.observation_space, env.action_space):
        test.assertIsInstance(space.n, int)
        test.assertGreaterEqual(space.n, 1)
        test.assertEqual(space.shape, ())
        x = space.sample()
        test.assertIsInstance(x, int)
        test.assertTrue(space.contains(x))
        test.assertIn(x, space)
        test.assertFalse(space.contains(space.start + space.n))
        test.assertFalse(space.contains("0"))
    # Signatures: reset(*, seed=None, options=None), step(action).
    params = inspect.signature(env.reset).parameters
    test.assertEqual(params["seed"].kind, inspect.Parameter.KEYWORD_ONLY)
    test.assertIsNone(params["seed"].default)
    test.assertIn("options", params)
    test.assertEqual(list(inspect.signature(env.step).parameters), ["action"])
    # reset -> (obs, info); step -> (obs, float reward, bool, bool, dict).
    obs, info = env.reset(seed=42)
    test.assertIsInstance(obs, int)
    test.assertTrue(env.observation_space.contains(obs))
    test.assertIsInstance(info, dict)
    test.assertIsInstance(env.np_random, random.Random)
    for _ in range(env.spec.max_episode_steps + 1):
        out = env.step(env.action_space.sample())
        test.assertEqual(len(out), 5)
        obs, reward, terminated, truncated, info = out
        test.assertIsInstance(obs, int)
        test.assertTrue(env.observation_space.contains(obs))
        test.assertIsInstance(reward, float)
        test.assertIsInstance(terminated, bool)
        test.assertIsInstance(truncated, bool)
        test.assertIsInstance(info, dict)
        if terminated or truncated:
            break
    test.assertTrue(terminated or truncated, "an episode never ended within max_episode_steps")
    # Determinism: the same seeds give the same episode (check_env's reset and step determinism).
    def episode(seed):
        obs, info = env.reset(seed=seed)
        env.action_space.seed(seed)
        trace = [(obs, sorted(info))]
        for _ in range(env.spec.max_episode_steps):
            obs, r, te, tr, info = env.step(env.action_space.sample())
            trace.append((obs, r, te, tr, info))
            if te or tr:
                break
        return trace
    test.assertEqual(episode(123), episode(123))
    draws = env.reset(seed=7) and [env.np_random.random() for _ in range(3)]
    env.reset(seed=7)
    test.assertEqual([env.np_random.random() for _ in range(3)], draws)
    env.close()
    env.close()  # twice: harmless
    # Rendering: None without a render_mode, text with "ansi".
    env = make_env()
    env.reset(seed=1)
    test.assertIsNone(env.render())
    env.close()


class TestGymnasiumAPI(unittest.TestCase):
    def test_the_sequence_is_an_environment(self):
        check_env_api(self, lambda: temple.make("online-maze", seed=1, count=3, episodes=2))

    def test_each_task_is_an_environment(self):
        for family in ["online-maze", "frozenlake", "riverswim", "taxi"]:
            with self.subTest(family=family):
                check_env_api(self, lambda: temple.make(family, seed=1)[0])

    def test_render_ansi(self):
        with temple.make("online-maze", seed=1, count=1, render_mode="ansi") as env:
            env.reset(seed=1)
            text = env.render()
            rows = text.splitlines()[1:]
            self.assertEqual(len(rows), 4)
            self.assertEqual(sum(r.count("A") for r in rows), 1)
            self.assertEqual(rows[0][3], "G")  # the goal (4, 4): the top-right cell
        with temple.make("riverswim", render_mode="ansi") as env:
            env.reset()
            self.assertIn("state", env.render())
        with self.assertRaises(ValueError):
            temple.make("online-maze", render_mode="rgb_array")

    def test_gymnasium_check_env_where_importable(self):
        try:
            import gymnasium
            from gymnasium.utils.env_checker import check_env
        except ImportError:
            self.skipTest("Gymnasium is not installed (no package index here): test_the_sequence_is_an_environment "
                          "and test_each_task_is_an_environment check its documented API instead")
        ids = temple.register_gymnasium()
        self.assertIn("temple/online-maze-v0", ids)
        env = gymnasium.make("temple/online-maze-v0", seed=1, count=3, episodes=2)
        check_env(env.unwrapped)
        env.close()


class TestSequenceAsOneEnvironment(unittest.TestCase):
    def test_episodes_go_through_the_tasks_in_order(self):
        with temple.make("online-maze", seed=1, count=3, episodes=2, steps=5) as env:
            seen = []
            for _ in range(6):
                obs, info = env.reset()
                seen.append((info["task"], info["episode"], info["new_task"]))
                done = False
                while not done:
                    obs, r, te, tr, step_info = env.step(0)
                    self.assertEqual(step_info["task"], info["task"])
                    done = te or tr
                self.assertEqual(step_info["truncated_by"], "steps")
                self.assertEqual(step_info["episode_step"], 5)
            self.assertEqual(seen, [(0, 0, True), (0, 1, False), (1, 0, True), (1, 1, False), (2, 0, True), (2, 1, False)])
            with self.assertRaises(temple.TempleError) as cm:
                env.reset()
            self.assertIn("the sequence is over", str(cm.exception))
            self.assertEqual(env.reset(seed=1)[1]["task"], 0)  # starts again

    def test_the_sequence_steps_as_its_tasks(self):
        # An episode of the sequence is the same episode as its task's: same streams.
        with temple.make("online-maze", seed=4, count=2, episodes=1) as env, \
                temple.make("online-maze", seed=4, count=2, episodes=1) as other:
            for k in range(2):
                a = [env.reset()[0]] + [env.step(i % 4)[:4] for i in range(10)]
                b = [other[k].reset()[0]] + [other[k].step(i % 4)[:4] for i in range(10)]
                self.assertEqual(a, b)

    def test_names_say_the_task(self):
        with temple.make("online-maze", count=3) as env:
            self.assertEqual(len({t.name for t in env}), 3)


class TestFamilies(unittest.TestCase):
    def test_families_with_parameters_and_ranges(self):
        fams = {f["name"]: f for f in temple.families()}
        self.assertIn("online-maze", fams)
        keys = {p["key"]: p for p in fams["online-maze"]["params"]}
        self.assertEqual(keys["count"]["type"], "integer")
        self.assertTrue(keys["count"]["range"])
        # Every family's every key is accepted by make with its default.
        with temple.make("online-maze", count=int(keys["count"]["default"])) as env:
            self.assertEqual(len(env), int(keys["count"]["default"]))


if __name__ == "__main__":
    unittest.main()
