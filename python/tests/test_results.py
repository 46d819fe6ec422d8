"""temple.run and temple.results.load: an experiment through the bundled command, its results
directory read back as Python objects, and every refusal with the command's message."""

import csv
import io
import json
import os
import shutil
import sys
import tempfile
import types
import unittest

import temple

SMALL = {"name": "small", "seed": 3, "runs": 2, "episodes": 30, "steps": 20,
         "tasks": {"family": "online-maze", "count": 4},
         "agents": [{"type": "o-temple", "m": 20, "m_s": 10}, {"type": "rmax", "m": 20}]}


class TestRunAndLoad(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.out = os.path.join(cls.tmp, "small")
        cls.progress = io.StringIO()
        cls.res = temple.run(SMALL, out=cls.out, progress=cls.progress)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_progress_is_shown(self):
        text = self.progress.getvalue()
        self.assertIn("progress: 16/16 tasks (100%)", text)  # 2 runs x 2 agents x 4 tasks
        self.assertIn("Results: " + self.out, text)

    def test_summary(self):
        r = self.res
        self.assertEqual((r.summary["name"], r.summary["seed"], r.summary["runs"]), ("small", 3, 2))
        self.assertEqual(r.agents, ["O-TempLe", "RMax"])
        with open(os.path.join(self.out, "summary.json")) as f:
            self.assertEqual(r.summary, json.load(f))
        self.assertEqual(r.agent("RMax")["per_run"], r.summary["agents"][1]["per_run"])
        with self.assertRaises(KeyError) as cm:
            r.agent("Rmax")
        self.assertIn("O-TempLe, RMax", str(cm.exception))
        self.assertTrue(r.spec.startswith("name: small"), r.spec[:40])

    def test_tables_are_the_files_exactly(self):
        for name, file in [("per_task", "per_task.csv"), ("metrics", "metrics.csv"), ("oracle", "oracle.csv"),
                           ("regret", "regret.csv"), ("comparisons", "compare.csv")]:
            table = getattr(self.res, name)
            with open(os.path.join(self.out, file), newline="") as f:
                rows = list(csv.reader(f))
            self.assertEqual(table.columns, rows[0], name)
            self.assertEqual(len(table), len(rows) - 1, name)
            for got, want in zip(table, rows[1:]):
                # Every value reads back to the number the runner wrote, floats bit for bit.
                for column, v, text in zip(table.columns, got, want):
                    if text == "":
                        self.assertIsNone(v)
                    elif isinstance(v, str):
                        self.assertEqual(v, text)
                    else:
                        self.assertIsInstance(v, int if column in ("run", "task", "steps", "states", "actions",
                                                                   "start", "eps_mistakes", "runs", "wins")
                                              else float, (name, column))
                        self.assertEqual(v, type(v)(text), (name, column))
        self.assertEqual(len(self.res.per_task), 16)
        row = self.res.per_task[0]
        self.assertEqual((row.run, row.agent, row.task), (0, "O-TempLe", 0))
        self.assertIsInstance(row.steps, int)
        self.assertIsInstance(row.reward, float)

    def test_where_and_column(self):
        t = self.res.regret.where(agent="RMax", run=1)
        self.assertEqual(t.column("task"), [0, 1, 2, 3])
        shares = self.res.share_of_optimal()
        self.assertEqual(set(shares), {"O-TempLe", "RMax"})
        oracle = self.res.agent("RMax")["oracle"]["share_of_optimal"]
        self.assertEqual(shares["RMax"], (oracle["mean"], oracle["ci95"]))
        with self.assertRaises(KeyError):
            t.column("rewrad")
        with self.assertRaises(KeyError):
            t.where(agnet="RMax")

    def test_comparisons(self):
        c = self.res.comparisons
        self.assertEqual(len(c), 1)  # O-TempLe against the baseline, RMax
        self.assertEqual((c[0].a, c[0].b, c[0].runs), ("O-TempLe", "RMax", 2))
        self.assertIn("RMax", c[0].verdict)
        self.assertGreater(c[0].margin, 0)  # 5% of the larger mean regret of the two
        self.assertGreater(c[0].mde, 0)

    def test_load_again_reads_the_same(self):
        again = temple.results.load(self.out, compare=False)
        self.assertEqual(again.per_task.rows, self.res.per_task.rows)
        self.assertEqual(again.comparisons.rows, self.res.comparisons.rows)

    def test_to_pandas(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            with self.assertRaises(ImportError) as cm:
                self.res.to_pandas()
            self.assertIn("needs pandas, which is not installed (pip install pandas)", str(cm.exception))
            with self.assertRaises(ImportError):
                self.res.per_task.to_pandas()
            return
        frames = self.res.to_pandas()
        self.assertEqual(list(frames["per_task"].columns), self.res.per_task.columns)
        self.assertEqual(len(frames["regret"]), len(self.res.regret))


class TestRefusals(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.quiet = io.StringIO()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_unknown_preset_and_bad_config_give_the_go_message(self):
        with self.assertRaises(temple.TempleError) as cm:
            temple.run("online-mazes", out=os.path.join(self.tmp, "x"), progress=self.quiet)
        self.assertIn('no preset "online-mazes"', str(cm.exception))
        self.assertIn("online-maze", str(cm.exception).split(";", 1)[1])
        bad = dict(SMALL, agents=[{"type": "rmax", "mm": 3}])
        with self.assertRaises(temple.TempleError) as cm:
            temple.run(bad, out=os.path.join(self.tmp, "y"), progress=self.quiet)
        self.assertIn('agent type rmax has no parameter "mm"', str(cm.exception))
        self.assertIn("the dict given to temple.run", str(cm.exception))
        with self.assertRaises(TypeError):
            temple.run(SMALL, runs=1.5, out=os.path.join(self.tmp, "z"), progress=self.quiet)

    def test_comparisons_are_what_temple_run_tested(self):
        # The verdicts named, else every pair of up to four agents (a baseline or not), else each
        # against the baseline: temple run's and temple compare's (results.Verdicts).
        three = dict(SMALL, agents=SMALL["agents"] + [{"type": "q-learning"}])
        r = temple.run(dict(three, output={"baseline": "RMax"}), out=os.path.join(self.tmp, "three"), progress=self.quiet)
        self.assertEqual([(c.a, c.b) for c in r.comparisons],
                         [("O-TempLe", "RMax"), ("O-TempLe", "Q-learning"), ("RMax", "Q-learning")])
        r = temple.run(dict(three, output={"verdicts": ["Q-learning:O-TempLe"]}), out=os.path.join(self.tmp, "named"),
                       progress=self.quiet)
        self.assertEqual([(c.a, c.b) for c in r.comparisons], [("Q-learning", "O-TempLe")])

    def test_config_file_and_one_run(self):
        path = os.path.join(self.tmp, "one.yaml")
        with open(path, "w") as f:
            json.dump(dict(SMALL, runs=1), f)
        r = temple.run(path, out=os.path.join(self.tmp, "one"), progress=self.quiet)
        self.assertEqual(r.summary["runs"], 1)
        self.assertEqual(len(r.comparisons), 0)  # one run: nothing to pair
        self.assertEqual(r.comparisons.columns[10:], ["verdict", "margin", "p_tost", "p_tost_holm", "mde"])

    def test_default_directory_is_the_commands(self):
        cwd = os.getcwd()
        os.chdir(self.tmp)
        try:
            r = temple.run(dict(SMALL, runs=1), progress=self.quiet)
        finally:
            os.chdir(cwd)
        self.assertTrue(os.path.exists(os.path.join(self.tmp, r.directory, "summary.json")), r.directory)

    def test_paths_of_a_dict_are_the_working_directorys_and_of_a_file_the_files(self):
        from test_example import ROOT
        mdp_dir = os.path.join(ROOT, "examples", "custom-mdp")
        config = {"name": "inv", "runs": 1, "episodes": 5, "tasks": {"family": "custom", "file": "inventory.json"},
                  "agents": [{"type": "q-learning"}]}
        cwd = os.getcwd()
        os.chdir(mdp_dir)
        try:
            r = temple.run(config, out=os.path.join(self.tmp, "inv"), progress=self.quiet)
        finally:
            os.chdir(cwd)
        self.assertEqual(r.summary["runs"], 1)
        path = os.path.join(self.tmp, "inv.json")
        with open(path, "w") as f:
            json.dump(config, f)
        with self.assertRaises(temple.TempleError) as cm:  # inventory.json is not beside this file
            temple.run(path, out=os.path.join(self.tmp, "inv2"), progress=self.quiet)
        self.assertIn(os.path.join(self.tmp, "inventory.json"), str(cm.exception))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "inv2")))  # a run that cannot start makes nothing

    def test_load_refuses_what_is_not_a_results_directory(self):
        with self.assertRaises(temple.TempleError) as cm:
            temple.results.load(os.path.join(self.tmp, "nothing"))
        self.assertIn("no such directory", str(cm.exception))
        with self.assertRaises(temple.TempleError) as cm:
            temple.results.load(self.tmp)
        self.assertIn("summary.json is missing", str(cm.exception))
        with open(os.path.join(self.tmp, "sweep.json"), "w") as f:
            f.write("{}")
        with self.assertRaises(temple.TempleError) as cm:
            temple.results.load(self.tmp)
        self.assertIn("sweep's directory", str(cm.exception))

    def test_load_names_file_line_and_value(self):
        out = os.path.join(self.tmp, "r")
        temple.run(dict(SMALL, runs=1), out=out, progress=self.quiet)
        path = os.path.join(out, "per_task.csv")
        with open(path) as f:
            lines = f.read().splitlines()
        fields = lines[2].split(",")
        fields[4] = "twenty"  # steps
        lines[2] = ",".join(fields)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        with self.assertRaises(temple.TempleError) as cm:
            temple.results.load(out)
        self.assertIn("per_task.csv line 3: steps = 'twenty', want an integer", str(cm.exception))
        os.remove(path)
        with self.assertRaises(temple.TempleError) as cm:
            temple.results.load(out)
        self.assertIn("per_task.csv is missing", str(cm.exception))


class TestLoadChecksWhatItReads(unittest.TestCase):
    """Issue 51, case 4: temple.results.load checks every file as temple's own readers do, so an
    edited verdict or summary no longer loads as true."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.base = os.path.join(cls.tmp, "base")
        three = dict(SMALL, agents=SMALL["agents"] + [{"type": "q-learning"}], output={"baseline": "RMax"})
        temple.run(three, out=cls.base, progress=io.StringIO())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def setUp(self):
        self.out = os.path.join(self.tmp, self.id().rsplit(".", 1)[1])
        shutil.copytree(self.base, self.out)

    def edit(self, name, old, new):
        path = os.path.join(self.out, name)
        with open(path) as f:
            text = f.read()
        self.assertIn(old, text)
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))

    def refused(self, *want):
        with self.assertRaises(temple.TempleError) as cm:
            temple.results.load(self.out)
        for w in want:
            self.assertIn(w, str(cm.exception))

    def test_an_edited_verdict_is_refused(self):
        temple.results.load(self.out)  # writes compare.csv
        path = os.path.join(self.out, "compare.csv")
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        header = rows[0]
        self.assertGreater(len(rows), 1, "compare.csv holds no comparison")
        rows[1][header.index("p_holm")] = "0.123456"  # a p-value temple did not write
        with open(path, "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(rows)
        self.refused(path, "its content is not what temple wrote")

    def test_an_edited_summary_is_refused_when_compare_csv_exists(self):
        temple.results.load(self.out)  # writes compare.csv
        self.edit("summary.json", '"ci95": ', '"ci95": 1')
        self.refused(os.path.join(self.out, "summary.json"), "its content is not what temple wrote")

    def test_a_file_whose_entry_was_deleted_is_refused(self):
        path = os.path.join(self.out, "checksums.json")
        with open(path) as f:
            rec = json.load(f)
        del rec["files"]["summary.json"]
        del rec["sizes"]["summary.json"]
        with open(path, "w") as f:
            json.dump(rec, f)
        self.refused(os.path.join(self.out, "summary.json"), "checksums.json does not list it")

    def test_an_edited_file_it_does_not_read_is_refused(self):
        self.edit("tasks.json", '"runs"', ' "runs"')
        self.refused(os.path.join(self.out, "tasks.json"), "its content is not what temple wrote")

    def test_no_record_and_a_newer_format_are_refused(self):
        os.rename(os.path.join(self.out, "checksums.json"), os.path.join(self.out, "old.json"))
        self.refused("has no checksums.json")
        os.rename(os.path.join(self.out, "old.json"), os.path.join(self.out, "checksums.json"))
        self.edit("checksums.json", '"format_version": 4', '"format_version": 5')
        self.refused("is of results format 5, written by a newer temple")

    @unittest.skipUnless(hasattr(os, "mkfifo"), "no named pipes")
    def test_a_named_pipe_is_refused_at_once(self):
        for name in ("summary.json", "per_task.csv"):
            path = os.path.join(self.out, name)
            os.rename(path, path + ".saved")
            os.mkfifo(path)  # reading it would wait for a writer forever
            self.refused(path + " is not a regular file (a named pipe)")
            os.remove(path)
            os.rename(path + ".saved", path)


if __name__ == "__main__":
    unittest.main()
