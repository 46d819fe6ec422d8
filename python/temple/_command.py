"""The `temple` command inside the Python package: the Go binary bin/temple that the wheel ships
(`make python` builds it into the source tree), and the console script that runs it."""

import os
import sys
from typing import NoReturn

from ._lib import TempleError

__all__ = ["command_path", "main"]


def command_path() -> str:
    """The path of the temple command this package runs: $TEMPLE_COMMAND if set, else the binary
    bundled in the package (bin/temple). Raises TempleError when there is none."""
    p = os.environ.get("TEMPLE_COMMAND")
    if p:
        return p
    p = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "temple")
    if not os.path.exists(p):
        raise TempleError("the temple command is not at %s: install temple's wheel (make wheel), build it "
                          "into the source tree with `make python`, or set TEMPLE_COMMAND to its path" % p)
    return p


def main() -> NoReturn:
    """The console script `temple`: replaces this process with the bundled command, passing the
    arguments on (so signals, exit codes and the terminal are the command's own)."""
    try:
        path = command_path()
    except TempleError as e:
        print("temple:", e, file=sys.stderr)
        sys.exit(1)
    # A `type: python` learner's cells run in workers of this interpreter, which has the package.
    os.environ.setdefault("TEMPLE_PYTHON", sys.executable)
    os.execv(path, ["temple"] + sys.argv[1:])
