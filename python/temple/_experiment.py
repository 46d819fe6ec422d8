"""temple.run: an experiment through the bundled temple command, its results loaded."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from typing import Any, Dict, List, Optional, TextIO, Union

from ._command import command_path
from ._lib import TempleError
from .results import Results, _command_error, load

__all__ = ["run"]

Config = Union[None, str, "os.PathLike[str]", Dict[str, Any]]


def run(config: Config = None, *, out: Optional[Union[str, "os.PathLike[str]"]] = None,
        runs: Optional[int] = None, seed: Optional[int] = None, jobs: Optional[int] = None,
        tasks: Optional[str] = None, force: bool = False, progress: Optional[TextIO] = None,
        compare: bool = True) -> Results:
    """Runs an experiment with the temple command bundled in this package and returns its results
    (temple.results.load).

    config is one of:
      - None: the built-in default experiment (`temple run`);
      - a path to a YAML (or JSON) config file (`temple run FILE`);
      - a preset's name, an experiment of the paper (`temple reproduce NAME`; `temple reproduce
        --list` lists them);
      - a dict: a config as Python data, the keys of a YAML config
        (docs/reference/configuration.md), e.g. {"name": "mine", "runs": 3,
        "tasks": {"family": "online-maze"},
        "agents": [{"type": "o-temple"}, {"type": "rmax"}]}.
    out, runs, seed, jobs, tasks and force are the command's flags (--out, ...); without out the
    command's default directory is used. A dict's relative paths (a task file) are read from the
    working directory, a config file's from the file's directory. The command's output, its
    progress lines included, is copied to progress (default sys.stdout; works in notebooks too)
    as it comes; pass
    open(os.devnull, "w") for silence. An experiment the command refuses (bad config, unknown
    preset, an occupied --out) raises TempleError with the command's message. An interrupted run
    (Ctrl-C) keeps what finished, and running it again resumes.
    """
    progress = sys.stdout if progress is None else progress
    args: List[str] = [command_path()]
    stdin = None
    if config is None:
        args.append("run")
    elif isinstance(config, dict):
        # Given on standard input: the dict's relative paths are the working directory's.
        stdin = json.dumps(config, indent=1, default=_json_number)  # JSON is YAML
        args += ["run", "-"]
    else:
        c = os.fspath(config)
        if os.path.exists(c) or c.endswith((".yaml", ".yml", ".json")):
            args += ["run", c]
        else:
            args += ["reproduce", c]
    if out is not None:
        args += ["--out", os.fspath(out)]
    for flag, n in [("--runs", runs), ("--seed", seed), ("--jobs", jobs)]:
        if n is not None:
            args += [flag, str(_integer(n, flag))]
    if tasks is not None:
        args += ["--tasks", str(tasks)]
    if force:
        args.append("--force")
    written = _execute(args, progress, stdin)
    d = os.fspath(out) if out is not None else written
    if d is None:
        raise TempleError("temple.run: the command did not say where it wrote the results (a sweep or a "
                          "scaling study?): give out= and load its points with temple.results.load")
    return load(d, compare=compare)


def _execute(args: List[str], progress: TextIO, stdin: Optional[str]) -> Optional[str]:
    """Runs the command (with stdin on its standard input, if given), copying its standard output
    (the results) and its standard error (the progress lines and notes) to progress line by line
    as they come; returns the results directory it names ("Results: DIR (...)"), if any. Raises
    TempleError with the command's message on failure."""
    lock = threading.Lock()

    def show(line: str) -> None:
        with lock:
            progress.write(line)
            progress.flush()

    # A `type: python` learner's cells run in workers of this interpreter, which has the package.
    env = dict(os.environ)
    env.setdefault("TEMPLE_PYTHON", sys.executable)
    with subprocess.Popen(args, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1, env=env) as p:
        errors: List[str] = []

        def read_stderr() -> None:
            for line in p.stderr:  # type: ignore[union-attr]
                if line.startswith(("progress: ", "note: ")) and not errors:
                    show(line)
                else:  # the command's error ("temple: ..." and its further lines), raised below
                    errors.append(line)

        reader = threading.Thread(target=read_stderr, daemon=True)
        reader.start()
        if stdin is not None:
            p.stdin.write(stdin)  # type: ignore[union-attr]
            p.stdin.close()  # type: ignore[union-attr]
        written = None
        try:
            for line in p.stdout:  # type: ignore[union-attr]
                show(line)
                if line.startswith("Results: ") and " (" in line:
                    written = line[len("Results: "):line.rindex(" (")]
            code = p.wait()
        except BaseException:  # KeyboardInterrupt: the command stops as on Ctrl-C, keeping what finished
            p.send_signal(signal.SIGINT)
            p.wait()
            raise
        reader.join()
    if code != 0:
        msg = _command_error("".join(errors)) or "%s exited with status %d" % (" ".join(args), code)
        msg = msg.replace("config (standard input)", "config (the dict given to temple.run, as JSON)")
        raise TempleError(msg)
    return written


def _integer(v: Any, flag: str) -> int:
    import operator
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError("%s = %r, want an integer" % (flag.lstrip("-"), v)) from None


def _json_number(x: Any) -> Any:
    from . import _json_number as number
    return number(x)
