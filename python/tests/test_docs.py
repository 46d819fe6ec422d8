"""Every Python code block of python/README.md, docs/guides/python.md and README.md runs as written (in a
fresh interpreter, with the temple this test imports; from a scratch directory, so that what the
blocks write stays out of the repository). The guide's shell block of its Install section runs in
python/test_wheel.sh, which has the wheel to install."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

from test_example import ROOT, package_env

PAGES = [os.path.join("python", "README.md"), os.path.join("docs", "guides", "python.md"), "README.md"]


def blocks(page, lang):
    """The code blocks of page (a path from the repository root) in language lang."""
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        text = f.read()
    return re.findall(r"^```" + lang + r"\n(.*?)^```", text, re.S | re.M)


class TestDocs(unittest.TestCase):
    def test_every_python_block_runs(self):
        ran = 0
        for page in PAGES:
            for i, code in enumerate(blocks(page, "python")):
                with self.subTest(page=page, block=i), tempfile.TemporaryDirectory() as tmp:
                    p = subprocess.run([sys.executable, "-c", code], cwd=tmp, env=package_env(),
                                       capture_output=True, text=True)
                    self.assertEqual(p.returncode, 0, "%s block %d:\n%s\n%s" % (page, i, code, p.stderr))
                    ran += 1
        self.assertGreaterEqual(ran, 3)

    def test_the_guides_example_prints_both_shares(self):
        code = blocks(PAGES[1], "python")[0]
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run([sys.executable, "-c", code], cwd=tmp, env=package_env(), check=True,
                                 capture_output=True, text=True).stdout
        lines = out.splitlines()
        self.assertEqual([l.split(" of ")[0].rsplit(" ", 1)[0].strip() for l in lines],
                         ["Q-learning in Python", "O-TempLe from temple"])
        shares = [float(l.split()[-3]) for l in lines]
        self.assertTrue(all(0 < x <= 1 for x in shares), shares)


if __name__ == "__main__":
    unittest.main()
