"""temple.stats and Results.paired_tests give the numbers temple compare writes, to the bit."""

import csv
import os
import shutil
import subprocess
import tempfile
import unittest

import temple

CONFIG = {"name": "stats", "seed": 11, "runs": 4, "episodes": 20, "steps": 20,
          "tasks": {"family": "online-maze", "count": 3},
          "agents": [{"type": "rmax", "m": 3}, {"type": "q-learning"}, {"type": "psrl"}]}


class _Quiet:
    def write(self, text):
        pass

    def flush(self):
        pass


class TestStats(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.out = os.path.join(cls.tmp, "stats")
        cls.res = temple.run(CONFIG, out=cls.out, progress=_Quiet())

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_paired_tests_are_temple_compares(self):
        pairs = [("RMax", "Q-learning"), ("PSRL", "RMax")]
        subprocess.run([temple.command_path(), "compare", self.out, "--pair", "RMax:Q-learning", "--pair", "PSRL:RMax"],
                       check=True, capture_output=True)
        with open(os.path.join(self.out, "compare.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        got = self.res.paired_tests(*pairs)
        self.assertEqual(len(rows), 2)
        for c, row in zip(got, rows):
            self.assertEqual((c["a"], c["b"]), (row["a"], row["b"]))
            for key, column in [("mean_diff", "mean_difference"), ("ci95", "ci95"), ("t", "t"), ("p", "p"), ("p_adjusted", "p_holm"),
                                ("effect_size", "effect_size_dz"), ("margin", "margin"), ("p_tost", "p_tost"),
                                ("p_tost_adjusted", "p_tost_holm"), ("mde", "mde")]:
                self.assertEqual(float(row[column]), c[key], (key, row))
            self.assertEqual(c["verdict"], row["verdict"])

    def test_an_absolute_margin_is_temple_compares(self):
        subprocess.run([temple.command_path(), "compare", self.out, "--pair", "RMax:Q-learning", "--margin", "50"],
                       check=True, capture_output=True)
        with open(os.path.join(self.out, "compare.csv"), newline="") as f:
            row = next(csv.DictReader(f))
        c = self.res.paired_tests(("RMax", "Q-learning"), margin="50")[0]
        self.assertEqual((c["margin"], c["p_tost"], c["p_tost_adjusted"], c["verdict"]),
                         (50.0, float(row["p_tost"]), float(row["p_tost_holm"]), row["verdict"]))

    def test_mean_ci_is_the_summarys(self):
        a = self.res.agent("RMax")
        m = temple.stats.mean_ci(a["per_run"])
        self.assertEqual((m["mean"], m["ci95"]), (a["mean_per_task_reward"], a["ci95"]))

    def test_bad_input_is_refused(self):
        with self.assertRaises(temple.TempleError):
            temple.stats.paired_tests({"A": [1.0, 2.0], "B": [1.0]}, [("A", "B")])
        with self.assertRaises(temple.TempleError):
            temple.stats.paired_tests({"A": [1.0, 2.0]}, [("A", "C")])
        with self.assertRaises(temple.TempleError):
            temple.stats.paired_tests({"A": [1.0, 2.0], "B": [1.0, 2.5]}, [("A", "B")], margin="-5%")
        with self.assertRaises(ValueError):
            temple.stats.mean_ci([1.0, float("nan")])


if __name__ == "__main__":
    unittest.main()
