"""temple.make: temple's task families as Gymnasium-style environments. The same tasks, start
states and transitions as the Go runner (replaying the runner's trajectories), the runner's share
of optimal from a learner driven in Python, and every refusal with the Go message."""

import io
import json
import os
import shutil
import tempfile
import unittest

import temple
from test_same_learner import cells


def make_like(cell):
    """The task sequence of a trajectory's cell: its family and parameters, seed, run, settings
    and the agent whose transitions it replays."""
    block = dict(cell["family"])
    family = block.pop("family")
    return temple.make(family, seed=cell["seed"], run=cell["run"], agent=cell["agent"]["name"],
                       steps=cell["steps"], gamma=cell["gamma"], start=cell["start"], **block)


class TestSameTransitionsAsTheRunner(unittest.TestCase):
    def test_replay_every_cell(self):
        steps = 0
        for cell in cells():
            with self.subTest(agent=cell["agent"]["name"], run=cell["run"]), make_like(cell) as seq:
                self.assertEqual(len(seq), len(cell["tasks"]))
                for task, want in zip(seq, cell["tasks"]):
                    self.assertEqual((task.observation_space.n, task.action_space.n, task.terminal_states),
                                     (want["n_states"], want["n_actions"], want["terminal_states"]))
                    for e, episode in enumerate(want["episodes"]):
                        s, info = task.reset()
                        self.assertEqual(s, int(episode[0][0]), "episode %d's start" % e)
                        self.assertEqual((info["task"], info["task_family"]), (task.index, "frozenlake"))
                        for t, (s0, a, r, s2) in enumerate(episode):
                            obs, reward, terminated, truncated, _ = task.step(int(a))
                            self.assertEqual((obs, reward), (int(s2), r), "task %d episode %d step %d" % (task.index, e, t))
                            self.assertEqual(terminated, int(s2) in want["terminal_states"])
                            last = t + 1 == len(episode)
                            self.assertEqual(terminated or truncated, last)
                            self.assertEqual(truncated, last and not terminated and len(episode) == cell["steps"])
                            steps += 1
        self.assertGreater(steps, 10000)

    def test_replay_simulators(self):
        # Discretized CartPole: every reset (one draw per task, repeated) and every step's cell
        # and reward as in the runner, each episode ending where the runner's ended.
        steps = 0
        for cell in cells("trajectory_sim.yaml", "TEMPLE_SIM_TRAJECTORIES"):
            with self.subTest(agent=cell["agent"]["name"], run=cell["run"]), make_like(cell) as seq:
                for task, want in zip(seq, cell["tasks"]):
                    self.assertTrue(task.simulator)
                    for e, episode in enumerate(want["episodes"]):
                        s, _ = task.reset()
                        self.assertEqual(s, int(episode[0][0]), "episode %d's start" % e)
                        for t, (s0, a, r, s2) in enumerate(episode):
                            obs, reward, terminated, truncated, _ = task.step(int(a))
                            self.assertEqual((obs, reward), (int(s2), r), "task %d episode %d step %d" % (task.index, e, t))
                            self.assertEqual(terminated or truncated, t + 1 == len(episode))
                            steps += 1
        self.assertGreater(steps, 1000)

    def test_the_tasks_do_not_depend_on_the_agent_and_the_transitions_do(self):
        cell = cells()[0]
        a, b = make_like(cell), make_like(dict(cell, agent={"name": "someone else"}))
        self.assertEqual([t.params for t in a], [t.params for t in b])
        starts = [(ta.reset()[0], tb.reset()[0]) for ta, tb in zip(a, b)]
        self.assertTrue(all(x == y for x, y in starts))  # starts: shared by the agents of a run
        ta, tb = a[0], b[0]
        differ = False
        for _ in range(20):
            ta.reset(), tb.reset()
            xs, ys = [], []
            for _ in range(5):
                x, y = ta.step(1), tb.step(1)
                xs.append(x[0]), ys.append(y[0])
                if x[2] or x[3] or y[2] or y[3]:
                    break
            differ |= xs != ys
        self.assertTrue(differ)  # slippery ice, other streams: other transitions
        a.close(), b.close()


# A small online-maze experiment with Q-learning, the learner of test_share_of_optimal.
SMALL = {"name": "qlearn", "seed": 11, "runs": 2, "episodes": 200, "steps": 20,
         "tasks": {"family": "online-maze", "count": 3},
         "agents": [{"type": "q-learning", "name": "Q-learning"}]}


class TestShareOfOptimal(unittest.TestCase):
    def test_a_learner_driven_in_python_earns_what_it_earns_in_the_runner(self):
        tmp = tempfile.mkdtemp()
        try:
            res = temple.run(SMALL, out=os.path.join(tmp, "r"), progress=io.StringIO())
        finally:
            shutil.rmtree(tmp)
        want = {(row.run, row.task): row for row in res.regret}
        shares = []
        for run in range(SMALL["runs"]):
            seq = temple.make("online-maze", seed=SMALL["seed"], run=run, agent="Q-learning", count=3,
                              episodes=SMALL["episodes"], steps=SMALL["steps"])
            total, optimal = 0.0, 0.0
            with temple.Agent("q-learning", seed=SMALL["seed"], run=run, name="Q-learning") as agent:
                for task in seq:
                    agent.begin_task(task.observation_space.n, task.action_space.n, task.gamma, index=task.index,
                                     terminal_states=task.terminal_states)
                    reward, best = 0.0, 0.0
                    for _ in range(task.episodes):
                        s, _ = task.reset()
                        best += task.optimal_value()
                        ret = 0.0
                        while True:
                            a = agent.act(s)
                            s2, r, terminated, truncated, _ = task.step(a)
                            agent.observe(s, a, r, s2, terminated)
                            ret += r
                            s = s2
                            if terminated or truncated:
                                break
                        agent.end_episode()
                        reward += ret
                    agent.end_task()
                    row = want[(run, task.index)]
                    # Bit for bit: the same returns, summed in the same order.
                    self.assertEqual((reward, best), (row.reward, row.optimal_reward), (run, task.index))
                    total, optimal = total + reward, optimal + best
            shares.append(total / optimal)
        self.assertEqual(shares, res.agent("Q-learning")["oracle"]["share_of_optimal"]["per_run"])


class TestGymRun(unittest.TestCase):
    def test_gym_run_on_a_task_is_the_runners_loop(self):
        # temple.run_episodes on temple.make tasks with the runner's agent: the runner's per-task reward.
        tmp = tempfile.mkdtemp()
        try:
            res = temple.run(dict(SMALL, runs=1), out=os.path.join(tmp, "r"), progress=io.StringIO())
        finally:
            shutil.rmtree(tmp)
        seq = temple.make("online-maze", seed=SMALL["seed"], run=0, agent="Q-learning", count=3,
                          steps=SMALL["steps"])
        with temple.Agent("q-learning", seed=SMALL["seed"], name="Q-learning") as agent:
            for task in seq:
                returns = temple.run_episodes(agent, task, episodes=SMALL["episodes"])  # gamma: the task's
                got = 0.0
                for r in returns:
                    got += r
                self.assertEqual(got, res.per_task.where(task=task.index)[0].reward)


class TestRefusals(unittest.TestCase):
    def assertRefused(self, f, *words):
        with self.assertRaises(temple.TempleError) as cm:
            f()
        for w in words:
            self.assertIn(w, str(cm.exception))

    def test_bad_family_key_and_setting(self):
        self.assertRefused(lambda: temple.make("online-mazes"), 'family = "online-mazes"', "online-maze")
        self.assertRefused(lambda: temple.make("online-maze", hieght=3), 'no parameter "hieght"', "height")
        self.assertRefused(lambda: temple.make("online-maze", width=0), "width")
        self.assertRefused(lambda: temple.make("online-maze", steps=0), "steps = 0")
        self.assertRefused(lambda: temple.make("online-maze", gamma=1.0), "gamma = 1")
        self.assertRefused(lambda: temple.make("online-maze", start="sometimes"), 'start = "sometimes"')
        for kwargs, error in [({"run": -1}, ValueError), ({"seed": -1}, ValueError), ({"run": 2 ** 70}, OverflowError),
                              ({"seed": 2 ** 64}, OverflowError)]:
            with self.subTest(**kwargs), self.assertRaises(error):
                temple.make("online-maze", **kwargs)
        self.assertRefused(lambda: temple.make("online-maze", params={"family": "grid"}), '"family" is not a parameter')

    def test_bad_steps(self):
        with temple.make("online-maze", seed=2, count=2, steps=3) as seq:
            task = seq[0]
            self.assertRefused(lambda: task.step(0), "call reset first")
            task.reset()
            self.assertRefused(lambda: task.step(4), "action 4 out of range [0, 4)")
            with self.assertRaises(ValueError):
                task.step(-1)
            for a in [2 ** 64, 2 ** 64 + 1, 2 ** 63]:  # would reach the library as 0, 1, a negative
                with self.assertRaises(OverflowError):
                    task.step(a)
            with self.assertRaises(OverflowError):
                task.optimal_value(2 ** 64)
            with self.assertRaises(OverflowError):
                task.reset(seed=2 ** 64)
            with self.assertRaises(TypeError):
                task.step(1.5)
            for _ in range(3):
                done = task.step(0)
            self.assertTrue(done[3])  # truncated after steps = 3
            self.assertRefused(lambda: task.step(0), "the episode has ended", "call reset")
            task.reset()
            task.step(0)  # usable again
        self.assertRefused(lambda: task.reset(), "closed")

    def test_simulator_has_no_optimal_value(self):
        with temple.make("mountaincar", seed=1) as seq:
            task = seq[0]
            self.assertTrue(task.simulator)
            s, _ = task.reset()
            self.assertIn(s, range(task.observation_space.n))
            self.assertRefused(task.optimal_value, "simulator", "no optimal value")
        with temple.make("online-maze", seed=1, count=1) as seq:
            self.assertRefused(seq[0].optimal_value, "call reset first")
            self.assertRefused(lambda: seq[0].optimal_value(16), "state 16 out of range")


class TestEpisodes(unittest.TestCase):
    def test_start_rules_and_reseeding(self):
        with temple.make("online-maze", seed=3, count=2) as seq:
            task = seq[0]
            starts = {task.reset()[0] for _ in range(20)}
            self.assertEqual(len(starts), 1)  # random-per-task: one start for the task's episodes
            task.step(0)
            first = task.reset(seed=3)[0], task.step(2)[:2]
            again = task.reset(seed=3)[0], task.step(2)[:2]
            self.assertEqual(first, again)  # reset(seed=) restarts the streams
        with temple.make("online-maze", seed=3, count=2, start="random-per-episode") as seq:
            self.assertGreater(len({seq[0].reset()[0] for _ in range(50)}), 1)

    def test_fixed_start(self):
        with temple.make("online-maze", seed=3, count=2, start="fixed", start_cell=[1, 1]) as seq:
            self.assertEqual({seq[k].reset()[0] for k in (0, 1) for _ in range(3)}, {0})  # cell (1, 1): state 0
        with temple.make("online-maze", seed=3, count=2, start="fixed", start_state=5) as seq:
            self.assertEqual(seq[1].reset()[0], 5)
        with self.assertRaises(temple.TempleError) as cm:
            temple.make("online-maze", count=1, start="fixed", start_state=16)
        self.assertIn("start_state = 16", str(cm.exception))
        with self.assertRaises(temple.TempleError) as cm:
            temple.make("online-maze", count=1, start="fixed", start_cell=[9, 9])
        self.assertIn("start_cell = (9,9) is not an open cell", str(cm.exception))  # the runner's message

    def test_same_arguments_same_everything(self):
        def trace():
            out = []
            with temple.make("online-maze", seed=5, run=1, count=3) as seq:
                for task in seq:
                    s, _ = task.reset()
                    out.append(s)
                    for i in range(10):
                        x = task.step(i % 4)
                        out.append(x[:4])
                        if x[2] or x[3]:
                            task.reset()
            return out
        self.assertEqual(trace(), trace())

    def test_info_and_sequence(self):
        with temple.make("frozenlake", map="8x8", count=2) as seq:
            self.assertEqual(len(seq), 2)
            self.assertEqual((seq.params["map"], seq.params["count"], seq.params["slippery"]), ("8x8", 2, True))
            self.assertEqual((seq.steps, seq.gamma, seq.episodes, seq.start), (30, 0.95, 3000, "random-per-task"))
            task = seq[1]
            s, info = task.reset()
            self.assertEqual(info["family"], "frozenlake")
            self.assertEqual(info["task"], 1)
            self.assertEqual(task.observation_space.n, 64)
            self.assertTrue(task.terminal_states)
            self.assertEqual(json.loads(json.dumps(info))["params"], task.params)
            self.assertGreaterEqual(task.optimal_value(), 0)


if __name__ == "__main__":
    unittest.main()
