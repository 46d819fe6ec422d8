"""A results directory of temple in one call, as plain Python objects (standard library only).

    import temple
    res = temple.results.load("runs/default")       # what `temple run` wrote
    res.summary["agents"][0]["mean_per_task_reward"]
    res.per_task.rows[0].reward                       # per_task.csv, a named tuple a row
    res.comparisons                                   # compare.csv: the verdicts named, or each agent against the baseline
    res.to_pandas()["regret"]                         # DataFrames, where pandas is installed

The files and the meaning of every column are those of docs/reference/results-format.md (and the
Go package results, whose layout versions 1 and 2 this reads). Numbers are written there as the shortest
decimal that reads back exactly, so the floats here are the runner's bit for bit.
"""

from __future__ import annotations

import collections
import csv
import json
import os
import subprocess
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import stats as _stats
from ._command import command_path
from ._lib import TempleError

__all__ = ["Results", "Table", "load"]

PathLike = Union[str, "os.PathLike[str]"]

# The columns that hold integers and text; every other column holds floats (empty: None).
_INT_COLUMNS = frozenset(["run", "task", "steps", "states", "actions", "start", "eps_mistakes", "policy_mistakes",
                          "runs", "wins"])
_TEXT_COLUMNS = frozenset(["agent", "metric", "a", "b", "verdict"])

# The tables of a results directory: attribute, file, whether every directory has it.
_TABLES = [
    ("per_task", "per_task.csv", True),
    ("metrics", "metrics.csv", True),
    ("oracle", "oracle.csv", False),
    ("regret", "regret.csv", False),
    ("comparisons", "compare.csv", False),
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
    two runs or more, run the bundled `temple compare DIR` (which writes compare.csv) — the
    comparisons the experiment named (output.verdicts), else each agent against its baseline, or
    every pair without either. compare=False reads what is there.

    Raises TempleError naming the file and the value when a file is missing or malformed.
    """
    d = os.fspath(directory)
    if not os.path.isdir(d):
        raise TempleError("results %s: no such directory" % d)
    summary_path = os.path.join(d, "summary.json")
    if not os.path.exists(summary_path):
        for top in ("sweep.json", "scaling.json"):
            if os.path.exists(os.path.join(d, top)):
                raise TempleError("results %s: a %s's directory (%s): load one of its points' directories" %
                                  (d, top.split(".")[0], top))
        raise TempleError("results %s: not a results directory of temple: summary.json is missing" % d)
    try:
        with open(summary_path, encoding="utf-8") as f:
            summary = json.load(f)
    except ValueError as e:
        raise TempleError("results %s: summary.json: %s" % (d, e)) from None
    if not isinstance(summary, dict) or not isinstance(summary.get("agents"), list):
        raise TempleError("results %s: summary.json has no list of agents" % d)
    spec = ""
    if os.path.exists(os.path.join(d, "spec.yaml")):
        with open(os.path.join(d, "spec.yaml"), encoding="utf-8") as f:
            spec = f.read()
    if compare and not os.path.exists(os.path.join(d, "compare.csv")):
        _compare(d, summary)
    tables: Dict[str, Optional[Table]] = {}
    for name, file, required in _TABLES:
        path = os.path.join(d, file)
        if os.path.exists(path):
            tables[name] = _read_table(name, path)
        elif required:
            raise TempleError("results %s: %s is missing" % (d, file))
        elif name == "comparisons":
            tables[name] = Table(name, ["a", "b", "runs", "mean_difference", "ci95", "t", "p", "p_holm",
                                        "effect_size_dz", "wins", "verdict", "margin", "p_tost", "p_tost_holm", "mde"], [])
        else:
            tables[name] = None
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


def _read_table(name: str, path: str) -> Table:
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
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


def _row_type_name(table: str) -> str:
    return "".join(part.capitalize() for part in table.split("_")) + "Row"


def _pandas(what: str):
    try:
        import pandas  # type: ignore[import]  # noqa: F401
    except ImportError:
        raise ImportError("%s needs pandas, which is not installed (pip install pandas); without it the "
                          "rows are plain Python: .rows, .column(name), .where(...)" % what) from None
    return pandas
