"""temple.run_episodes against small Gymnasium-style environments written here."""

import unittest

import temple
from envs import DOWN, LEFT, RIGHT, UP, Chain, Discrete, FrozenLake


class Spy:
    """An agent that records what run() tells it and always moves right (action 1)."""

    def __init__(self):
        self.calls, self.in_task, self.n_states, self.n_actions = [], False, None, None

    def begin_task(self, n_states, n_actions, gamma, terminal_states=None):
        self.calls.append(("begin", n_states, n_actions, gamma))
        self.in_task, self.n_states, self.n_actions = True, n_states, n_actions

    def act(self, s):
        self.calls.append(("act", s))
        return 1

    def observe(self, s, a, r, s2, terminated):
        self.calls.append(("observe", s, a, r, s2, terminated))

    def observe_act(self, s, a, r, s2):
        self.observe(s, a, r, s2, False)
        return self.act(s2)

    def end_episode(self):
        self.calls.append(("end_episode",))

    def end_task(self):
        self.calls.append(("end_task",))
        self.in_task = False


class TestRunProtocol(unittest.TestCase):
    def test_terminated_and_truncated_as_gymnasium(self):
        # Chain of 3 reaches its end in 2 steps: terminated. With a time limit of 1 the first step
        # is truncated: an ordinary step for the agent, and the episode ends.
        spy = Spy()
        self.assertEqual(temple.run_episodes(spy, Chain(3), episodes=1, gamma=0.9), [1.0])
        self.assertEqual(spy.calls, [("begin", 3, 2, 0.9), ("act", 0), ("observe", 0, 1, 0.0, 1, False),
                                     ("act", 1), ("observe", 1, 1, 1.0, 2, True), ("end_episode",),
                                     ("end_task",)])
        spy = Spy()
        self.assertEqual(temple.run_episodes(spy, Chain(3, time_limit=1), episodes=2, gamma=0.9), [0.0, 0.0])
        self.assertEqual(spy.calls[1:4], [("act", 0), ("observe", 0, 1, 0.0, 1, False), ("end_episode",)])
        self.assertEqual(len(spy.calls), 1 + 2 * 3 + 1)

    def test_max_steps_truncates(self):
        spy = Spy()
        temple.run_episodes(spy, Chain(10), episodes=3, max_steps=4, gamma=0.9)
        observed = [c for c in spy.calls if c[0] == "observe"]
        self.assertEqual(len(observed), 12)
        self.assertFalse(any(c[5] for c in observed))

    def test_space_start_offsets(self):
        # Discrete(n, start=k): the agent sees 0..n-1, the environment k..k+n-1.
        spy = Spy()
        temple.run_episodes(spy, Chain(3, start=5), episodes=1, gamma=0.9)
        self.assertEqual(spy.calls[1:3], [("act", 0), ("observe", 0, 1, 0.0, 1, False)])

    def test_continues_a_task_in_progress(self):
        with temple.Agent("q-learning", seed=1) as agent:
            agent.begin_task(3, 2, 0.9)
            temple.run_episodes(agent, Chain(3), episodes=2, max_steps=50)
            self.assertTrue(agent.in_task)  # run did not begin it, so it leaves it open
            with self.assertRaises(ValueError):
                temple.run_episodes(agent, Chain(4), episodes=1)
            agent.end_task()
            with self.assertRaises(ValueError):
                temple.run_episodes(agent, Chain(3), episodes=1)  # a new task needs gamma

    def test_refuses_non_discrete_spaces(self):
        class Box:
            shape = (2,)
        env = Chain(3)
        env.observation_space = Box()
        with self.assertRaises(TypeError):
            temple.run_episodes(Spy(), env, episodes=1, gamma=0.9)


class TestLearning(unittest.TestCase):
    def test_rmax_learns_the_chain(self):
        # RMax with m = 1 on a deterministic chain: once every pair it needs is known it plans
        # the optimal policy, n-1 steps right for return 1. It explores within the first
        # episodes (at most 2n pairs to try); every later episode is optimal.
        n = 6
        with temple.Agent("rmax", seed=4, m=1) as agent:
            returns = temple.run_episodes(agent, Chain(n), episodes=40, max_steps=100, gamma=0.95)
            self.assertEqual(returns[-20:], [1.0] * 20)

    def test_rmax_and_o_temple_on_frozenlake(self):
        # Not slippery, the 4x4 lake's shortest path takes 6 steps. RMax-based learners with a small
        # m find it: the last episodes all reach the goal.
        lake = FrozenLake(slippery=False)
        for typ, params in [("rmax", {"m": 1}), ("o-temple", {"m": 1, "m_s": 1})]:
            with temple.Agent(typ, seed=2, **params) as agent:
                returns = temple.run_episodes(agent, lake, episodes=200, max_steps=100, gamma=0.95, seed=3)
                self.assertEqual(returns[-50:], [1.0] * 50, typ)


class TestFrozenLake(unittest.TestCase):
    """The test environment has toytext's dynamics (env/toytext/frozenlake.go)."""

    def test_outcomes(self):
        lake = FrozenLake()
        self.assertEqual(lake.terminal_states(), [5, 7, 11, 12, 15])
        # Slippery LEFT from the corner 0: left (stay), down (4), up (stay).
        self.assertEqual(sorted(s for _, s in lake.outcomes(0, LEFT)), [0, 0, 4])
        # DOWN from 14: right (15, the goal), down (stay 14), left (13).
        self.assertEqual(sorted(s for _, s in lake.outcomes(14, DOWN)), [13, 14, 15])
        self.assertEqual(sorted(s for _, s in lake.outcomes(6, UP)), [2, 5, 7])
        self.assertEqual(FrozenLake(slippery=False).outcomes(6, RIGHT), [(1.0, 7)])

    def test_step(self):
        lake = FrozenLake(slippery=False)
        self.assertEqual(lake.reset(seed=0), (0, {}))
        self.assertEqual(lake.step(DOWN), (4, 0.0, False, False, {}))
        self.assertEqual(lake.step(RIGHT), (5, 0.0, True, False, {}))  # a hole
        lake.s = 14
        self.assertEqual(lake.step(RIGHT), (15, 1.0, True, False, {}))

    def test_discrete(self):
        self.assertEqual((Discrete(3).n, Discrete(3, start=2).start), (3, 2))


if __name__ == "__main__":
    unittest.main()
