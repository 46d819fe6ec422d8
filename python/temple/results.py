"""A results directory of temple in one call, as plain Python objects (standard library only).

    import temple
    res = temple.results.load("runs/default")       # what `temple run` wrote
    res.summary["agents"][0]["mean_per_task_reward"]
    res.per_task.rows[0].reward                       # per_task.csv, a named tuple a row
    res.comparisons                                   # compare.csv: what temple run tested
    res.to_pandas()["regret"]                         # DataFrames, where pandas is installed

The files and the meaning of every column are those of docs/reference/results-format.md (and the
Go package results, whose results format this reads, checking every file as temple's readers
do). Numbers are written there as the shortest
decimal that reads back exactly, so the floats here are the runner's bit for bit.
"""

from __future__ import annotations

import collections
import csv
import hashlib
import io
import json
import os
import stat
import subprocess
from typing import IO, Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import stats as _stats
from ._command import command_path
from ._lib import TempleError

__all__ = ["Results", "Table", "load"]

PathLike = Union[str, "os.PathLike[str]"]

# Generated from results.Layout (results/layout.go) by go generate ./cli/describe: edit that, not these lines.
# The results format this loader reads (results.FormatVersion).
_FORMAT_VERSION = 4
# Every file and directory temple writes into a results directory (results.Layout).
_SPEC_YAML = "spec.yaml"
_TASKS_JSON = "tasks.json"
_PER_TASK_CSV = "per_task.csv"
_METRICS_CSV = "metrics.csv"
_ORACLE_CSV = "oracle.csv"
_REGRET_CSV = "regret.csv"
_SUMMARY_JSON = "summary.json"
_TIMINGS_JSON = "timings.json"
_REPORT_HTML = "report.html"
_SWEEP_CSV = "sweep.csv"
_FIGURES = "figures"
_CELLS = "cells"
_EPISODES = "episodes"
_TEMPLATES = "templates"
_SETUP_JSON = "setup.json"
_SWEEP_JSON = "sweep.json"
_SCALING_CSV = "scaling.csv"
_SCALING_FIT_CSV = "scaling_fit.csv"
_SCALING_JSON = "scaling.json"
_CHECKSUMS_JSON = "checksums.json"
_COMPARE_CSV = "compare.csv"
_TEMPLE_LOCK = ".temple.lock"
# The files temple writes at the top of a directory and records there, all but the record and the
# lock: one of them that checksums.json does not list is not temple's.
_TEMPLE_FILES = (_SPEC_YAML, _TASKS_JSON, _PER_TASK_CSV, _METRICS_CSV, _ORACLE_CSV, _REGRET_CSV, _SUMMARY_JSON,
                 _TIMINGS_JSON, _REPORT_HTML, _SWEEP_CSV, _SETUP_JSON, _SWEEP_JSON, _SCALING_CSV, _SCALING_FIT_CSV,
                 _SCALING_JSON, _COMPARE_CSV)
# The files checksums.json lists without a checksum: they differ between identical runs.
_UNCHECKED_FILES = (_TIMINGS_JSON, _REPORT_HTML)
# end of the generated names

# The columns that hold integers and text; every other column holds floats (empty: None).
_INT_COLUMNS = frozenset(["run", "task", "steps", "states", "actions", "start", "eps_mistakes", "policy_mistakes",
                          "runs", "wins"])
_TEXT_COLUMNS = frozenset(["agent", "metric", "a", "b", "verdict"])

# The tables of a results directory: attribute, file, whether every directory has it.
_TABLES = [
    ("per_task", _PER_TASK_CSV, True),
    ("metrics", _METRICS_CSV, True),
    ("oracle", _ORACLE_CSV, False),
    ("regret", _REGRET_CSV, False),
    ("comparisons", _COMPARE_CSV, False),
]


class Table(Sequence):
    """The rows of one CSV file of a results directory: a sequence of named tuples whose fields
    are the file's columns (ints for run, task, steps, ...; str for agent, metric, verdict; float
    for the rest; None for an empty cell).

    len(table), table[i], iteration and table.column("reward") work as on a list;
    table.where(agent="O-TempLe") keeps the matching rows; table.to_pandas() is a DataFrame.
    """

    def __init__(self, name: str, columns: Sequence[str], rows: Sequence[Tuple[Any, ...]]):
        self.name = name
        self.columns: List[str] = list(columns)
        self._row = collections.namedtuple(_row_type_name(name), self.columns, rename=True)  # type: ignore[misc]
        self.rows: List[NamedTuple] = [self._row(*r) for r in rows]

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i):  # type: ignore[override]
        return self.rows[i]

    def __iter__(self) -> Iterator[NamedTuple]:
        return iter(self.rows)

    def __repr__(self) -> str:
        return "<temple.results.Table %s: %d rows of %s>" % (self.name, len(self.rows), ",".join(self.columns))

    def column(self, name: str) -> List[Any]:
        """The values of column name, one per row."""
        try:
            i = self.columns.index(name)
        except ValueError:
            raise KeyError("%s has no column %r (it has %s)" % (self.name, name, ", ".join(self.columns))) from None
        return [r[i] for r in self.rows]

    def where(self, **equal: Any) -> "Table":
        """The rows whose columns equal the given values: where(agent="RMax", run=0)."""
        idx = []
        for k in equal:
            if k not in self.columns:
                raise KeyError("%s has no column %r (it has %s)" % (self.name, k, ", ".join(self.columns)))
            idx.append((self.columns.index(k), equal[k]))
        return Table(self.name, self.columns, [r for r in self.rows if all(r[i] == v for i, v in idx)])

    def to_pandas(self):
        """The table as a pandas DataFrame (pandas is optional: ImportError without it)."""
        pd = _pandas("Table.to_pandas")
        return pd.DataFrame([tuple(r) for r in self.rows], columns=self.columns)


class Results:
    """What one experiment's results directory holds.

    - summary: summary.json as a dict: name, tool_version, seed, runs, spec, and per agent its
      mean per-task reward with the 95% CI across runs (per_run: each run's value) and, with the
      oracle, "oracle" (share_of_optimal, mean_regret, mean_eps_mistakes, regret_by_phase);
      "optimal" is the optimum's mean per-task reward.
    - per_task, metrics: per_task.csv and metrics.csv (Table).
    - oracle, regret: oracle.csv and regret.csv, or None when the oracle was off.
    - comparisons: compare.csv, the paired comparison of the agents (a, b, runs,
      mean_difference, ci95, t, p, p_holm, effect_size_dz, wins, verdict, then the equivalence
      test's margin, p_tost, p_tost_holm and the minimum detectable effect mde); an empty Table when
      the experiment has one agent or one run (nothing to pair), or without compare.csv when
      loaded with compare=False.
    - spec: spec.yaml's text, the fully resolved spec (it reads back as a config).
    - directory: where it was read from.
    """

    def __init__(self, directory: str, summary: Dict[str, Any], spec: str, tables: Dict[str, Optional[Table]]):
        self.directory = directory
        self.summary = summary
        self.spec = spec
        self.per_task: Table = tables["per_task"]  # type: ignore[assignment]
        self.metrics: Table = tables["metrics"]  # type: ignore[assignment]
        self.oracle: Optional[Table] = tables["oracle"]
        self.regret: Optional[Table] = tables["regret"]
        self.comparisons: Table = tables["comparisons"]  # type: ignore[assignment]

    @property
    def agents(self) -> List[str]:
        """The agents' names, in the summary's order."""
        return [a["name"] for a in self.summary["agents"]]

    def agent(self, name: str) -> Dict[str, Any]:
        """The summary of agent name (mean_per_task_reward, ci95, per_run, oracle, ...)."""
        for a in self.summary["agents"]:
            if a["name"] == name:
                return a
        raise KeyError("%s has no agent %r (it has %s)" % (self.directory, name, ", ".join(self.agents)))

    def share_of_optimal(self) -> Dict[str, Tuple[float, float]]:
        """Each agent's share of optimal as (mean over runs, 95% CI), as `temple run` prints it;
        empty without the oracle."""
        out = {}
        for a in self.summary["agents"]:
            s = (a.get("oracle") or {}).get("share_of_optimal")
            if s:
                out[a["name"]] = (s["mean"], s["ci95"])
        return out

    def paired_tests(self, *pairs: Tuple[str, str], margin: str = "5%") -> List[Dict[str, Any]]:
        """The paired tests and equivalence tests of `temple compare --pair A:B ... --margin M`
        on this experiment's runs (each run's mean per-task reward), adjusted together over the
        pairs given (A, B): temple.stats's dicts, the numbers temple prints. A percentage margin
        is of the larger mean regret of the two agents with the oracle, of the larger mean
        per-task reward without it, as temple compare's. Without pairs: every pair of agents."""
        if not pairs:
            names = self.agents
            pairs = tuple((a, b) for i, a in enumerate(names) for b in names[i + 1:])
        per_run, references = {}, {}
        for a in (a for pair in pairs for a in pair):
            agent = self.agent(a)
            per_run[a] = agent["per_run"]
            oracle = agent.get("oracle")
            references[a] = oracle["mean_regret"]["mean"] if oracle else agent["mean_per_task_reward"]
        return _stats.paired_tests(per_run, pairs, margin=margin, references=references)

    def to_pandas(self) -> Dict[str, Any]:
        """Every table as a pandas DataFrame, by attribute name (per_task, metrics, oracle,
        regret, comparisons; those absent are left out). pandas is optional: ImportError
        without it."""
        _pandas("Results.to_pandas")
        return {name: t.to_pandas() for name, t in self._tables().items()}

    def _tables(self) -> Dict[str, Table]:
        return {name: getattr(self, name) for name, _, _ in _TABLES if getattr(self, name) is not None}

    def __repr__(self) -> str:
        return "<temple.results.Results %s: %s, %d runs, agents %s>" % (
            self.directory, self.summary.get("name"), self.summary.get("runs", 0), ", ".join(self.agents))


def load(directory: PathLike, compare: bool = True) -> Results:
    """Reads the results directory of one experiment (`temple run --out DIR`, temple.run).

    compare: when the directory has no compare.csv and the experiment has two agents or more and
    two runs or more, run the bundled `temple compare DIR` (which writes compare.csv) — what
    temple run tested: the comparisons the experiment named (output.verdicts), else every pair
    of up to four agents, else each agent against its baseline (every pair without one).
    compare=False reads what is there.

    Every file is checked as temple's own readers check it (docs/reference/results-format.md):
    the bytes parsed are the bytes whose SHA-256 the directory's checksums.json records, every
    other file it lists is there unchanged, and a file of temple's names that it does not list
    is refused. Raises TempleError naming the file and the value when a file is missing,
    malformed, changed after temple wrote it, or not temple's.
    """
    d = os.fspath(directory)
    if not os.path.isdir(d):
        raise TempleError("results %s: no such directory" % d)
    summary_path = os.path.join(d, _SUMMARY_JSON)
    if not os.path.exists(summary_path):
        for top in (_SWEEP_JSON, _SCALING_JSON):
            if os.path.exists(os.path.join(d, top)):
                raise TempleError("results %s: a %s's directory (%s): load one of its points' directories" %
                                  (d, top.split(".")[0], top))
        raise TempleError("results %s: not a results directory of temple: %s is missing" % (d, _SUMMARY_JSON))
    data = _read_regular(summary_path, _MAX_LAYOUT_BYTES)
    try:
        summary = json.loads(data)
    except ValueError as e:
        raise TempleError("results %s: %s: %s" % (d, _SUMMARY_JSON, e)) from None
    if not isinstance(summary, dict) or not isinstance(summary.get("agents"), list):
        raise TempleError("results %s: %s has no list of agents" % (d, _SUMMARY_JSON))
    version = summary.get("format_version")
    if isinstance(version, int) and version > _FORMAT_VERSION:
        raise TempleError("%s is of results format %d, written by a newer temple than this one (format %d); "
                          "read it with that temple" % (summary_path, version, _FORMAT_VERSION))
    record = _Record(d)
    record.check(_SUMMARY_JSON, data)
    spec = record.read(_SPEC_YAML, _MAX_LAYOUT_BYTES).decode("utf-8")
    if compare and not os.path.exists(os.path.join(d, _COMPARE_CSV)):
        _compare(d, summary)
        record = _Record(d)  # compare.csv is listed now
    tables: Dict[str, Optional[Table]] = {}
    for name, file, required in _TABLES:
        path = os.path.join(d, file)
        if os.path.exists(path) or record.lists(file):
            if not os.path.exists(path):
                raise TempleError("results %s: %s is missing (temple wrote it: %s lists it); run the "
                                  "experiment again to write it again (it resumes from the cells)" % (d, file, _CHECKSUMS_JSON))
            data = _read_regular(path, _MAX_TABLE_BYTES)
            tables[name] = _read_table(name, path, data)  # first: a damaged line is named
            record.check(file, data)
        elif required:
            raise TempleError("results %s: %s is missing" % (d, file))
        elif name == "comparisons":
            tables[name] = Table(name, ["a", "b", "runs", "mean_difference", "ci95", "t", "p", "p_holm",
                                        "effect_size_dz", "wins", "verdict", "margin", "p_tost", "p_tost_holm", "mde"], [])
        else:
            tables[name] = None
    record.verify()
    return Results(d, summary, spec, tables)


def _compare(d: str, summary: Dict[str, Any]) -> None:
    """Runs `temple compare` on d when there is something to pair."""
    if len(summary["agents"]) < 2 or summary.get("runs", 0) < 2:
        return
    args = [command_path(), "compare", d]
    output = (summary.get("spec") or {}).get("output") or {}
    if not output.get("verdicts") and not output.get("baseline"):
        args.append("--all")
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        raise TempleError("results %s: temple compare: %s" % (d, _command_error(p.stderr)))


def _command_error(stderr: str) -> str:
    """The message of a failed temple command ("temple: ..." on its standard error)."""
    text = stderr.strip()
    return text[len("temple: "):] if text.startswith("temple: ") else text


def _read_table(name: str, path: str, data: bytes) -> Table:
    """The table of the CSV file at path whose content is data."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TempleError("%s: not UTF-8 text (%s)" % (path, e)) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        columns = next(reader)
    except StopIteration:
        raise TempleError("%s: empty file, want a header line" % path) from None
    kinds = [int if c in _INT_COLUMNS else str if c in _TEXT_COLUMNS else float for c in columns]
    rows = []
    for line, rec in enumerate(reader, start=2):
        if len(rec) != len(columns):
            raise TempleError("%s line %d: %d fields, want %d (%s)" % (path, line, len(rec), len(columns),
                                                                      ",".join(columns)))
        row: List[Any] = []
        for c, kind, v in zip(columns, kinds, rec):
            if kind is str:
                row.append(v)
            elif v == "":
                row.append(None)
            else:
                try:
                    row.append(kind(v))
                except ValueError:
                    raise TempleError("%s line %d: %s = %r, want %s" % (
                        path, line, c, v, "an integer" if kind is int else "a number")) from None
        rows.append(tuple(row))
    return Table(name, columns, rows)


# What temple's Go readers check of a results directory (package results: checksums.go), the same
# checks here.
_MAX_LAYOUT_BYTES = 256 << 20
_MAX_TABLE_BYTES = 4 << 30
_MAX_RECORD_BYTES = 1 << 30


def _open_regular(path: str) -> IO[bytes]:
    """The regular file at path, open for reading: a named pipe, a device or a directory (or a
    link to one) is refused before anything is read from it, without waiting on a pipe."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise TempleError("%s: %s" % (path, e.strerror)) from None
    f = os.fdopen(fd, "rb")
    mode = os.fstat(f.fileno()).st_mode
    if not stat.S_ISREG(mode):
        f.close()
        raise TempleError("%s is not a regular file (%s): temple reads only regular files" % (path, _kind(mode)))
    return f


def _read_regular(path: str, most: int) -> bytes:
    """The content of the regular file at path, of at most most bytes: a named pipe, a device or a
    directory (or a link to one) is refused before anything is read from it, without waiting on
    a pipe, and a larger file before it is read."""
    with _open_regular(path) as f:
        st = os.fstat(f.fileno())
        if st.st_size > most:
            raise TempleError("%s is %d bytes, more than the %d such a file may hold" % (path, st.st_size, most))
        data = f.read(most + 1)
    if len(data) > most:
        raise TempleError("%s holds more than the %d bytes such a file may hold" % (path, most))
    return data


def _chunks(path: str, most: int) -> Iterator[bytes]:
    """The content of the regular file at path, of at most most bytes, a megabyte at a time (as
    _read_regular checks it)."""
    with _open_regular(path) as f:
        st = os.fstat(f.fileno())
        if st.st_size > most:
            raise TempleError("%s: its content is not what temple wrote (%d bytes, %s records %d): it was "
                              "changed after it was written" % (path, st.st_size, _CHECKSUMS_JSON, most))
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                return
            yield chunk


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


class _Record:
    """A results directory's checksums.json: the files temple wrote there with their SHA-256 and
    size. The checksums guard against damage and mistakes, not against a file forged together
    with its entry."""

    def __init__(self, d: str):
        self.d = d
        path = os.path.join(d, _CHECKSUMS_JSON)
        again = ("run the experiment again with this version (temple run %s --out %s --allow-other-version: it "
                 "resumes from the cells and writes every file again)" % (os.path.join(d, _SPEC_YAML), d))
        if not os.path.lexists(path):
            raise TempleError("results %s has no %s: it is not a results directory of this temple (results "
                              "format %d), or one written before its files were checksummed; %s" % (d, _CHECKSUMS_JSON, _FORMAT_VERSION, again))
        try:
            rec = json.loads(_read_regular(path, _MAX_RECORD_BYTES))
        except ValueError:
            rec = None
        files = rec.get("files") if isinstance(rec, dict) else None
        if not isinstance(files, dict) or not all(
                isinstance(k, str) and _local(k) and isinstance(v, str) and len(v) == 64 for k, v in files.items()):
            raise TempleError("%s: not a record of checksums (it was changed after temple wrote it)" % path)
        sizes = rec.get("sizes") or {}
        unchecked = rec.get("unchecked") or []
        if not isinstance(sizes, dict) or not isinstance(unchecked, list) or \
                not all(k in files and isinstance(v, int) and not isinstance(v, bool) and v >= 0 for k, v in sizes.items()) or \
                not all(u in _UNCHECKED_FILES for u in unchecked):
            raise TempleError("%s: not a record of checksums (it was changed after temple wrote it)" % path)
        version = rec.get("format_version")
        if isinstance(version, int) and version > _FORMAT_VERSION:
            raise TempleError("results %s is of results format %d, written by a newer temple than this one (format %d); "
                              "read it with that temple" % (d, version, _FORMAT_VERSION))
        if version != _FORMAT_VERSION:
            raise TempleError("results %s is of results format %s, written by an older temple than this one (format %d), "
                              "whose %s does not list every file it wrote; %s" % (d, version or 3, _FORMAT_VERSION, _CHECKSUMS_JSON, again))
        self.files: Dict[str, str] = files
        self.sizes: Dict[str, int] = sizes
        self.unchecked: List[str] = unchecked

    def lists(self, name: str) -> bool:
        return name in self.files or name in self.unchecked

    def _problem(self, name: str, what: str) -> TempleError:
        return TempleError("%s: %s" % (os.path.join(self.d, name), what))

    def check(self, name: str, data: bytes) -> None:
        """Refuses data, the content read of the file name, unless it is what temple wrote."""
        if name not in self.files:
            raise self._problem(name, "%s does not list it: temple did not write it there, or the writing of "
                                      "the directory stopped before it was recorded; run the experiment again to write it "
                                      "again (it resumes from the cells)" % _CHECKSUMS_JSON)
        got = hashlib.sha256(data).hexdigest()
        if got != self.files[name]:
            raise self._problem(name, "its content is not what temple wrote (SHA-256 %.12s…, %s records "
                                      "%.12s…): it was changed after it was written; run the experiment again to write it "
                                      "again (it resumes from the cells)" % (got, _CHECKSUMS_JSON, self.files[name]))

    def read(self, name: str, most: int) -> bytes:
        """The content of the file name, read once, if it is what temple wrote."""
        path = os.path.join(self.d, name)
        if not os.path.lexists(path):
            if name in self.files:
                raise self._problem(name, "it is missing (temple wrote it: %s lists it); run the experiment "
                                          "again to write it again (it resumes from the cells)" % _CHECKSUMS_JSON)
            raise TempleError("results %s: %s is missing" % (self.d, name))
        data = _read_regular(path, min(most, self.sizes.get(name, most)))
        self.check(name, data)
        return data

    def verify(self) -> None:
        """Checks every file the record lists but the cells (which carry their own checksums), and
        refuses a file of temple's names at the top that it does not list."""
        for name in sorted(self.files):
            if name.startswith(_CELLS + "/"):
                continue
            path = os.path.join(self.d, name)
            if not os.path.lexists(path):
                self.read(name, 0)  # refused: missing
            h = hashlib.sha256()
            for chunk in _chunks(path, self.sizes.get(name, _MAX_TABLE_BYTES)):
                h.update(chunk)
            if h.hexdigest() != self.files[name]:
                raise self._problem(name, "its content is not what temple wrote (SHA-256 %.12s…, %s records "
                                          "%.12s…): it was changed after it was written; run the experiment again to write "
                                          "it again (it resumes from the cells)" % (h.hexdigest(), _CHECKSUMS_JSON, self.files[name]))
        for name in _TEMPLE_FILES:
            path = os.path.join(self.d, name)
            if os.path.lexists(path) and not os.path.isdir(path) and not self.lists(name):
                self.check(name, b"")  # refused: not listed


def _local(name: str) -> bool:
    """Whether name is a path below a directory, with /: not absolute, no .. part, not empty."""
    parts = name.split("/")
    return bool(name) and not name.startswith("/") and "\\" not in name and all(p not in ("", ".", "..") for p in parts)


def _row_type_name(table: str) -> str:
    return "".join(part.capitalize() for part in table.split("_")) + "Row"


def _pandas(what: str):
    try:
        import pandas  # type: ignore[import]  # noqa: F401
    except ImportError:
        raise ImportError("%s needs pandas, which is not installed (pip install pandas); without it the "
                          "rows are plain Python: .rows, .column(name), .where(...)" % what) from None
    return pandas
