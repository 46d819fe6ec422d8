"""examples/python runs as its README says, with the package that this test imports (the installed
wheel, or the source tree through PYTHONPATH)."""

import os
import subprocess
import sys
import unittest

import temple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def package_env():
    """The environment in which a child Python imports the temple this test imported."""
    env = dict(os.environ)
    home = os.path.dirname(os.path.dirname(os.path.abspath(temple.__file__)))
    if home == os.path.join(ROOT, "python"):  # the source tree
        env["PYTHONPATH"] = home
    return env


class TestExample(unittest.TestCase):
    def test_frozenlake_sequence(self):
        env = package_env()
        out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "python", "frozenlake_sequence.py"),
                              "--episodes", "20"], env=env, check=True, capture_output=True, text=True).stdout
        lines = out.splitlines()
        self.assertEqual([l.split()[0] for l in lines[1:]], ["O-TempLe", "RMax", "Q-learning"])
        for line in lines[1:]:
            means = [float(x) for x in line.split("(")[0].split()[1:]]
            self.assertEqual(len(means), 4)  # one per map
            self.assertTrue(all(0 <= m <= 1 for m in means), line)


if __name__ == "__main__":
    unittest.main()
