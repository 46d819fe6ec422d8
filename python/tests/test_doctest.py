"""The examples in temple's docstrings run as written (doctest), with temple imported as they
assume."""

import doctest
import unittest

import temple
import temple.envs
import temple.loop
import temple.stats

MODULES = [temple.envs, temple.loop, temple.stats, temple]


def load_tests(loader, tests, ignore):
    for m in MODULES:
        tests.addTests(doctest.DocTestSuite(m, globs={"temple": temple}))
    return tests


class TestDocstringsHaveExamples(unittest.TestCase):
    def test_examples_exist(self):
        finder = doctest.DocTestFinder()
        examples = sum(len(t.examples) for m in MODULES for t in finder.find(m, globs={"temple": temple}))
        self.assertGreaterEqual(examples, 15)


if __name__ == "__main__":
    unittest.main()
