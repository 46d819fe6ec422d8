"""The same learner from Python and from Go: every call that temple's runner made to each agent of
trajectory.yaml (a sequence of FrozenLake maps), replayed through the C ABI with the same seed,
run and name, gives the same actions, the same metrics and the same templates.

The trajectories come from `go run ./capi/trajectory tests/trajectory.yaml` (or the file named by
TEMPLE_TRAJECTORIES)."""

import json
import os
import shutil
import subprocess
import unittest

import temple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

_cells = {}


def cells(config="trajectory.yaml", variable="TEMPLE_TRAJECTORIES"):
    """The trajectories of the runner on config (a file of tests/): from the file named by the
    environment variable, else from go run ./capi/trajectory."""
    if config not in _cells:
        path = os.environ.get(variable)
        if path:
            with open(path) as f:
                text = f.read()
        else:
            if shutil.which("go") is None:
                raise unittest.SkipTest("go is not on PATH: set %s to the output of "
                                        "go run ./capi/trajectory python/tests/%s" % (variable, config))
            text = subprocess.run(["go", "run", "./capi/trajectory", os.path.join(HERE, config)],
                                  cwd=ROOT, check=True, capture_output=True, text=True).stdout
        _cells[config] = [json.loads(line) for line in text.splitlines()]
    return _cells[config]


def replay(test, cell, declare_terminal=True, name=True, combined=False):
    """Replays cell through a new agent; returns the number of actions compared. combined: the
    steps of an episode that goes on are one observe_act call, as temple.run_episodes makes them."""
    params = dict(cell["agent"])
    typ, agent_name = params.pop("type"), params.pop("name")
    compared = 0
    with temple.Agent(typ, seed=cell["seed"], run=cell["run"], name=agent_name if name else None,
                      params=params) as agent:
        for task in cell["tasks"]:
            terminal = set(task["terminal_states"])
            agent.begin_task(task["n_states"], task["n_actions"], cell["gamma"], index=task["index"],
                             terminal_states=task["terminal_states"] if declare_terminal else None)
            for e, episode in enumerate(task["episodes"]):
                got = None
                for t, (s, a, r, s2) in enumerate(episode):
                    s, a, s2 = int(s), int(a), int(s2)
                    if got is None:
                        got = agent.act(s)
                    if got != a:
                        test.fail("%s run %d task %d episode %d step %d: action %d from Python, %d from Go" %
                                  (agent_name, cell["run"], task["index"], e, t, got, a))
                    if combined and t + 1 < len(episode):
                        got = agent.observe_act(s, a, r, s2)
                    else:
                        agent.observe(s, a, r, s2, s2 in terminal)
                        got = None
                    compared += 1
                agent.end_episode()
            agent.end_task()
            want = task["metrics"] or {}
            got = agent.metrics()
            # The runner also gives the learners the task's true model, for diagnostics against the
            # truth (misidentification rate, template error): those metrics exist only in Go.
            test.assertLessEqual(set(got), set(want), agent_name)
            test.assertEqual(got, {k: want[k] for k in got}, "%s task %d" % (agent_name, task["index"]))
            test.assertEqual(agent.templates(), task["templates"], "%s task %d" % (agent_name, task["index"]))
    return compared


class TestSameLearner(unittest.TestCase):
    def test_every_agent_acts_as_in_the_go_runner(self):
        names = set()
        for cell in cells():
            with self.subTest(agent=cell["agent"]["name"], run=cell["run"]):
                self.assertGreater(replay(self, cell), 500)
                names.add(cell["agent"]["type"])
        self.assertEqual(names, {"o-temple", "fm-temple", "rmax", "q-learning", "delayed-q", "fmrl"})

    def test_observe_act_is_observe_then_act(self):
        for cell in cells():
            if cell["run"] == 0:
                with self.subTest(agent=cell["agent"]["name"]):
                    self.assertGreater(replay(self, cell, combined=True), 500)

    def test_the_default_name_is_the_runners(self):
        # Without name=, an agent is named as the runner names it by default (O-TempLe), so it
        # draws the same streams.
        cell = next(c for c in cells() if c["agent"]["name"] == "O-TempLe")
        replay(self, cell, name=False)
        renamed = next(c for c in cells() if c["agent"]["name"] == "O-TempLe renamed")
        with self.assertRaises(AssertionError):  # another name, other streams: other actions
            replay(self, renamed, name=False)

    def test_terminal_states_learned_from_steps(self):
        # Q-learning never bootstraps from a terminal state and learns that it is terminal before
        # the first step into it: it acts the same whether the terminal states are declared or
        # learned from terminated steps.
        for cell in cells():
            if cell["agent"]["type"] == "q-learning":
                self.assertGreater(replay(self, cell, declare_terminal=False), 500)


if __name__ == "__main__":
    unittest.main()
