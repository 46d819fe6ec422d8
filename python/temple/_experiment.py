"""temple.run: an experiment through the bundled temple command, its results loaded."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
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
    command's default directory is used. The command's output, its progress lines included, is
    copied to progress (default sys.stdout; works in notebooks too) as it comes; pass
    open(os.devnull, "w") for silence. An experiment the command refuses (bad config, unknown
    preset, an occupied --out) raises TempleError with the command's message. An interrupted run
    (Ctrl-C) keeps what finished, and running it again resumes.
    """
    progress = sys.stdout if progress is None else progress
    args: List[str] = [command_path()]
    tmp = None
    try:
        if config is None:
            args.append("run")
        elif isinstance(config, dict):
            fd, tmp = tempfile.mkstemp(prefix="temple-config-", suffix=".yaml")
            with os.fdopen(fd, "w") as f:
                json.dump(config, f, indent=1, default=_json_number)  # JSON is YAML
            args += ["run", tmp]
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
        written = _execute(args, progress, tmp)
    finally:
        if tmp:
            os.unlink(tmp)
    d = os.fspath(out) if out is not None else written
    if d is None:
        raise TempleError("temple.run: the command did not say where it wrote the results (a sweep or a "
                          "scaling study?): give out= and load its points with temple.results.load")
    return load(d, compare=compare)


def _execute(args: List[str], progress: TextIO, config_file: Optional[str]) -> Optional[str]:
    """Runs the command, copying its standard output to progress line by line; returns the
    results directory it names ("Results: DIR (...)"), if any. Raises TempleError on failure."""
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1) as p:
        errors: List[str] = []
        reader = threading.Thread(target=lambda: errors.append(p.stderr.read()), daemon=True)  # type: ignore[union-attr]
        reader.start()
        written = None
        try:
            for line in p.stdout:  # type: ignore[union-attr]
                progress.write(line)
                progress.flush()
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
        if config_file:  # a dict's temporary file: name the dict instead
            msg = msg.replace("config " + config_file, "config (the dict given to temple.run, as JSON)")
        raise TempleError(msg)
    if errors and errors[0].strip():
        sys.stderr.write(errors[0])
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
