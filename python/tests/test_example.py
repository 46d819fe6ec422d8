"""examples/python runs as its README says, with the package on PYTHONPATH."""

import os
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class TestExample(unittest.TestCase):
    def test_frozenlake_sequence(self):
        env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
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
