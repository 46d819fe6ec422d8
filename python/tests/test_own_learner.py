"""A learner written outside temple, judged by temple as its own are: `type: python` (the class run
in a Python worker through temple's library) and `type: external` (the same class served over the
agent protocol by python -m temple.external). Same rows run after run, no change to the other
agents' rows, its failures named, its source part of the experiment's identity."""

import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

import temple
from temple import learner as learner_module

LEARNER = textwrap.dedent('''
    import os
    import random
    import time


    class Mine:
        """Optimistic Q-learning; fails in task fail_task when MINE_FAIL is set, sleeps in act
        when sleep > 0."""

        def __init__(self, seed, alpha=0.3, fail_task=-1, sleep=0.0):
            self.alpha, self.fail_task, self.sleep = alpha, fail_task, sleep

        def begin_task(self, n_states, n_actions, gamma, index, terminal, seed):
            self.q = [[1.0] * n_actions for _ in range(n_states)]
            self.gamma, self.task, self.rng = gamma, index, random.Random(seed)
            self.steps = 0

        def act(self, state):
            if self.task == self.fail_task and os.environ.get("MINE_FAIL"):
                raise ValueError("boom in task %d" % self.task)
            if self.sleep:
                time.sleep(self.sleep)
            q = self.q[state]
            best = max(q)
            return self.rng.choice([a for a, v in enumerate(q) if v == best])

        def observe(self, state, action, reward, next_state, terminated):
            target = reward + (0.0 if terminated else self.gamma * max(self.q[next_state]))
            self.q[state][action] += self.alpha * (target - self.q[state][action])
            self.steps += 1

        def end_task(self):
            return {"steps_seen": self.steps}
''')


def config(agents, name="own", runs=2):
    return {"name": name, "seed": 5, "runs": runs, "episodes": 15, "steps": 20,
            "tasks": {"family": "online-maze", "count": 4}, "agents": agents}


RMAX = {"type": "rmax", "m": 5}


class _Quiet:
    def write(self, text):
        pass

    def flush(self):
        pass


QUIET = _Quiet()


def rows(directory, agent):
    with open(os.path.join(directory, "per_task.csv"), newline="") as f:
        return [r for r in csv.DictReader(f) if r["agent"] == agent]


class TestOwnLearner(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.module = os.path.join(cls.tmp, "mine.py")
        with open(cls.module, "w") as f:
            f.write(LEARNER)
        cls.mine = {"type": "python", "name": "Mine", "class": "mine:Mine", "path": cls.tmp, "params": {"alpha": 0.3}}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def out(self, name):
        return os.path.join(self.tmp, name)

    def test_it_is_judged_and_reproducible(self):
        a = temple.run(config([self.mine, RMAX]), out=self.out("a"), progress=QUIET)
        b = temple.run(config([self.mine, RMAX]), out=self.out("b"), jobs=2, progress=QUIET)  # any parallelism
        self.assertEqual(a.agents, ["Mine", "RMax"])
        self.assertEqual(rows(self.out("a"), "Mine"), rows(self.out("b"), "Mine"))
        self.assertEqual(len(rows(self.out("a"), "Mine")), 8)  # 2 runs x 4 tasks
        share, _ = a.share_of_optimal()["Mine"]
        self.assertLess(share, 1.0)
        steps = [r.value for r in a.metrics.where(agent="Mine", metric="steps_seen")]
        self.assertEqual(steps, [15 * 20.0] * 8, "end_task's metrics are in metrics.csv")
        # Its source is part of the experiment's identity.
        self.assertIn(self.module, a.spec)
        self.assertIn("inputs:", a.spec)
        # temple compare sees it like any agent.
        out = subprocess.run([temple.command_path(), "compare", self.out("a"), "--pair", "Mine:RMax"],
                             capture_output=True, text=True, check=True).stdout
        self.assertIn("Mine", out)

    def test_adding_it_changes_no_other_agent(self):
        temple.run(config([RMAX]), out=self.out("alone"), progress=QUIET)
        temple.run(config([self.mine, RMAX]), out=self.out("beside"), progress=QUIET)
        self.assertEqual(rows(self.out("alone"), "RMax"), rows(self.out("beside"), "RMax"))

    def test_python_and_external_give_the_same_rows(self):
        external = {"type": "external", "name": "Mine", "params": {"alpha": 0.3}, "dir": self.tmp,
                    "command": [sys.executable, "-m", "temple.external", "mine:Mine", "--path", self.tmp],
                    "files": ["mine.py"]}
        temple.run(config([self.mine]), out=self.out("py"), progress=QUIET)
        # The external learner's process imports temple.external: the package's directory on its path.
        package = os.path.dirname(os.path.dirname(os.path.abspath(temple.__file__)))
        saved = os.environ.get("PYTHONPATH")
        os.environ["PYTHONPATH"] = package + (os.pathsep + saved if saved else "")
        try:
            temple.run(config([external]), out=self.out("ext"), progress=QUIET)
        finally:
            if saved is None:
                del os.environ["PYTHONPATH"]
            else:
                os.environ["PYTHONPATH"] = saved
        self.assertEqual(rows(self.out("py"), "Mine"), rows(self.out("ext"), "Mine"))

    def test_a_failure_is_named_and_the_other_cells_kept(self):
        failing = dict(self.mine, params={"alpha": 0.3, "fail_task": 2})
        d = self.out("fails")
        os.environ["MINE_FAIL"] = "1"
        try:
            with self.assertRaises(temple.TempleError) as cm:
                temple.run(config([failing, RMAX]), out=d, progress=QUIET)
        finally:
            del os.environ["MINE_FAIL"]
        msg = str(cm.exception)
        self.assertIn("agent Mine, run 0, task 2", msg)
        self.assertIn("ValueError: boom in task 2", msg)
        self.assertIn("mine.py", msg, "the traceback's last lines name the learner's file")
        cells = sorted(os.listdir(os.path.join(d, "cells")))
        self.assertEqual([c for c in cells if "RMax" in c], ["run-000--RMax.json", "run-001--RMax.json"])
        # The failure was transient (MINE_FAIL): running again resumes, reusing RMax's cells.
        res = temple.run(config([failing, RMAX]), out=d, progress=QUIET)
        self.assertEqual(res.agents, ["Mine", "RMax"])

    def test_a_learner_that_hangs_fails_its_cell(self):
        slow = dict(self.mine, name="Slow", params={"sleep": 5.0}, timeout=0.3)
        with self.assertRaises(temple.TempleError) as cm:
            temple.run(config([slow], runs=1), out=self.out("slow"), progress=QUIET)
        self.assertIn("learner Slow: no return from act within 300ms", str(cm.exception))

    def test_a_changed_learner_is_never_reused(self):
        d = self.out("changed")
        other = os.path.join(self.tmp, "changing")
        os.makedirs(other)
        shutil.copy(self.module, other)
        agent = dict(self.mine, path=other)
        temple.run(config([agent], runs=1), out=d, progress=QUIET)
        with open(os.path.join(other, "mine.py"), "a") as f:
            f.write("\n# changed\n")
        with self.assertRaises(temple.TempleError) as cm:
            temple.run(config([agent], runs=1), out=d, progress=QUIET)
        self.assertIn("mine.py", str(cm.exception))

    def test_the_worker_refuses_a_module_that_changed(self):
        with self.assertRaises(learner_module.LearnerError) as cm:
            learner_module.load_class("mine:Mine", self.module, "0" * 64)
        self.assertIn("changed since the experiment started", str(cm.exception))

    def tune(self, search, name):
        cfg = config([dict(self.mine, path=None), RMAX], name=name)
        del cfg["agents"][0]["path"]  # beside the config: its directory is the default
        if search is not None:
            cfg["search"] = search
        path = os.path.join(self.tmp, name + ".yaml")
        with open(path, "w") as f:
            json.dump(cfg, f)  # JSON is YAML
        return subprocess.run([temple.command_path(), "tune", path, "--budget", "2", "--runs", "1",
                               "--out", self.out(name)], capture_output=True, text=True,
                              env=dict(os.environ, TEMPLE_PYTHON=sys.executable))

    def test_tuned_with_the_same_budget_in_its_declared_space(self):
        done = self.tune({"Mine": {"alpha": [0.1, 0.9]}}, "tuned")
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(self.out("tuned"), "tuned.yaml")) as f:
            tuned = f.read()
        self.assertIn("alpha:", tuned)
        with open(os.path.join(self.out("tuned"), "search.json")) as f:
            record = json.load(f)
        budgets = {a["name"]: len(a["trials"]) for a in record["agents"]}
        self.assertEqual(budgets, {"Mine": 2, "RMax": 2})

    def test_without_a_space_tuning_says_how_to_declare_one(self):
        done = self.tune(None, "untuned")
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("search: {Mine: {alpha: [0.01, 1]}}", done.stderr)


if __name__ == "__main__":
    unittest.main()


class TestGuides(unittest.TestCase):
    """docs/guides/own-learner.md and docs/reference/external-agents.md as written: their blocks
    are the example's files, their commands run (from a scratch directory beside examples/)."""

    @classmethod
    def setUpClass(cls):
        from test_docs import blocks
        from test_example import ROOT, package_env
        cls.root, cls.blocks = ROOT, staticmethod(blocks)
        cls.env = dict(package_env(), TEMPLE_PYTHON=sys.executable)
        home = os.path.dirname(os.path.dirname(os.path.abspath(temple.__file__)))
        cls.env["PYTHONPATH"] = home + (os.pathsep + cls.env["PYTHONPATH"] if cls.env.get("PYTHONPATH") else "")
        cls.tmp = tempfile.mkdtemp()
        os.symlink(os.path.join(ROOT, "examples"), os.path.join(cls.tmp, "examples"))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def read(self, *path):
        with open(os.path.join(self.root, *path)) as f:
            return f.read()

    def test_the_guides_blocks_are_the_examples_files(self):
        page = os.path.join("docs", "guides", "own-learner.md")
        self.assertEqual(self.blocks(page, "python")[0], self.read("examples", "own-learner", "optq.py"))
        yamls = self.blocks(page, "yaml")
        self.assertEqual(yamls[0], self.read("examples", "own-learner", "judge.yaml"))
        self.assertIn(yamls[1], self.read("examples", "own-learner", "tune.yaml"))

    def test_the_guides_commands_run(self):
        page = os.path.join("docs", "guides", "own-learner.md")
        lines = [l for b in self.blocks(page, "sh") for l in b.splitlines() if l.startswith("temple ")]
        self.assertEqual(len(lines), 4)
        for line in lines:
            args = [temple.command_path()] + line.split()[1:]
            p = subprocess.run(args, cwd=self.tmp, env=self.env, capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, "%s:\n%s" % (line, p.stderr))
        with open(os.path.join(self.tmp, "runs", "own-learner-tuning", "tuned.yaml")) as f:
            self.assertIn("q_init:", f.read())
        code = self.blocks(page, "python")[1]
        p = subprocess.run([sys.executable, "-c", code], cwd=self.tmp, env=self.env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        verdicts = p.stdout.splitlines()[-2:]  # after temple.run's output, the two printed
        self.assertTrue(all(v.startswith("OptQ") and "p =" in v for v in verdicts), p.stdout)

    def test_the_protocols_learner_runs_under_its_config(self):
        page = os.path.join("docs", "reference", "external-agents.md")
        d = os.path.join(self.tmp, "protocol")
        os.makedirs(d)
        with open(os.path.join(d, "learner.py"), "w") as f:
            f.write(self.blocks(page, "python")[0])
        with open(os.path.join(d, "config.yaml"), "w") as f:
            f.write(self.blocks(page, "yaml")[0])
        p = subprocess.run([temple.command_path(), "run", os.path.join(d, "config.yaml"), "--out", os.path.join(d, "out")],
                           env=self.env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(rows(os.path.join(d, "out"), "Mine")), 6)  # 2 runs x 3 tasks


class TestBenchmark(unittest.TestCase):
    """temple benchmark --add with examples/own-learner's Python learner, end to end: OptQ is tuned
    in its declared space with the benchmark's budget, judged beside the benchmark's learners and
    given a rank and a verdict in benchmark.json."""

    SPEC = textwrap.dedent('''
        name: own
        margin: 5%
        tuning: {settings: 2, runs: 1}
        learners:
          - {type: rmax, name: RMax}
        references: []
        families:
          - name: maze
            runs: 2
            config:
              episodes: 10
              steps: 20
              tasks: {family: online-maze, pool: 3, count: 3}
    ''')

    def test_an_added_python_learner_is_ranked_with_a_verdict(self):
        from test_example import ROOT, package_env
        env = dict(package_env(), TEMPLE_PYTHON=sys.executable)
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        spec = os.path.join(tmp, "own.yaml")
        with open(spec, "w") as f:
            f.write(self.SPEC)
        out = os.path.join(tmp, "out")
        add = os.path.join(ROOT, "examples", "own-learner", "benchmark-add.yaml")
        p = subprocess.run([temple.command_path(), "benchmark", "--spec", spec, "--add", add, "--out", out, "--jobs", "1"],
                           env=env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(os.path.join(out, "benchmark.json")) as f:
            family = json.load(f)["families"][0]
        learners = {l["name"]: l for l in family["learners"]}
        self.assertEqual(sorted(learners), ["OptQ", "RMax"])
        self.assertEqual(family["not_applicable"] + family["not_tuned"], [])
        optq = learners["OptQ"]
        self.assertEqual(optq["type"], "python")
        self.assertEqual(optq["budget"]["settings"], 2)  # the benchmark's budget, in its search: space
        self.assertIn(optq["rank"], (1, 2))
        self.assertEqual(family["best_single_task"], "RMax")
        self.assertEqual(optq["verdict"]["against"], "RMax")
        self.assertEqual(optq["verdict"]["runs"], 2)
        self.assertTrue(optq["verdict"]["verdict"].startswith(("OptQ", "RMax")), optq["verdict"])
        with open(os.path.join(out, "benchmark.md")) as f:
            self.assertIn("| OptQ | python |", f.read())
