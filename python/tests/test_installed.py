"""The package as installed from the wheel: with TEMPLE_EXPECT_WHEEL=1 (python/test_wheel.sh),
temple is imported from the virtual environment, not the source tree, and the wheel's metadata,
the package and the bundled command agree on the version."""

import importlib.metadata
import os
import subprocess
import unittest

import temple

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class TestInstalled(unittest.TestCase):
    def test_version_is_the_commands(self):
        out = subprocess.run([temple.command_path(), "--version"], check=True, capture_output=True, text=True).stdout
        self.assertEqual(out.split(), ["temple", "version", temple.__version__])

    @unittest.skipUnless(os.environ.get("TEMPLE_EXPECT_WHEEL") == "1", "not testing an installed wheel")
    def test_imported_from_the_wheel(self):
        here = os.path.abspath(temple.__file__)
        self.assertFalse(here.startswith(os.path.join(ROOT, "python") + os.sep), here)
        self.assertIn("site-packages", here)
        self.assertEqual(importlib.metadata.version("temple"), temple.__version__)
        self.assertTrue(os.access(temple.command_path(), os.X_OK))


if __name__ == "__main__":
    unittest.main()
