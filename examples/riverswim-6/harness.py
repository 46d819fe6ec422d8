#!/usr/bin/env python3
"""Run published learners on RiverSwim-6 beside temple's (docs/experiments/c-ucrl.md, psrl.md).

The reference learners come from checkouts you make yourself; nothing of theirs is in this
repository:

    git clone https://github.com/StatisticalRL/learners statisticalrl-learners
    git -C statisticalrl-learners checkout 6fd6743
    git clone https://github.com/HippolyteBourel/UCRL_implementation bourel
    git -C bourel checkout e121fe2

Then, with Python 3, NumPy and SciPy (Debian: apt-get install python3-numpy python3-scipy):

    nice -n 10 python3 examples/riverswim-6/harness.py --statisticalrl statisticalrl-learners \\
        --bourel bourel --seeds 10 --temple ./temple

Every learner runs --seeds times on the MDP of riverswim-6.json (StatisticalRL's river-swim-6:
one task of 100 000 steps from state 0, no reset), at seeds --first-seed (default 0) onwards; the
cumulative reward at each checkpoint is written to --out (CSV: implementation, seed, step,
reward) and summarised as mean ± SD. Seed k seeds NumPy's and Python's global generators (which
the references draw from) with k; the environment has a generator of its own, seeded with
1000 + k. With --temple, temple's UCRL2, C-UCRL and PSRL run from side-by-side.yaml (γ 0.999;
another config with --config, its seed replaced by --temple-seed when given) cut at each
checkpoint: the learners are not told the task's length, so the first 20 000 steps of a
100 000-step run are a 20 000-step run.

How each reference is run (their bugs are described in docs/experiments/c-ucrl.md and psrl.md):
  - StatisticalRL UCRL2 and PSRL: MDPs_discrete.UCRL2.UCRL2 and MDPs_discrete.PSRL.PSRL with
    (nS, nA, δ = 0.05), reset(0), then play(s) and update(s, a, r, s') each step, as published.
  - StatisticalRL UCRL_SA (C-UCRL with unknown classes): MDPs_discrete.Equivalence.
    UCRL_equivalence.UCRL_SA(range(nS), range(nA), 0.05). As published it crashes at its first
    episode (AggEstimate indexes an array with floats); the harness casts its index maps to
    integers after each UpdateEquivalenceClasses, and changes nothing else. It prints at every
    episode; the harness silences stdout while it runs.
  - Bourel's C_UCRL, UCRL2 and PSRL (marked TODO there): experiments/learners/C_UCRL.C_UCRL,
    UCRL.UCRL2 and PSRL.PSRL with (nS, nA, 0.05), reset(0), play, update. C_UCRL_C imports
    pylab, which it uses only for figures: the harness gives it an empty stand-in when
    matplotlib is missing.
"""

import argparse
import contextlib
import csv
import io
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import types

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def load_mdp(path):
    """The one task of a temple-mdp/v1 JSON file as (P[s][a] = [(s', p)], R[s][a], start)."""
    with open(path) as f:
        doc = json.load(f)
    task = doc["tasks"][0]
    states = {name: k for k, name in enumerate(task["states"])}
    actions = {name: k for k, name in enumerate(task["actions"])}
    S, A = len(states), len(actions)
    P = [[[] for _ in range(A)] for _ in range(S)]
    R = [[0.0] * A for _ in range(S)]
    for t in task["transitions"]:
        s, a = states[t["state"]], actions[t["action"]]
        for o in t["outcomes"]:
            P[s][a].append((states[o["next"]], o["p"]))
            R[s][a] += o["p"] * o["r"]  # the rewards of this file depend on (s, a) only
    (start,) = [states[name] for name, p in task["start"].items() if p == 1]
    return S, A, P, R, start


class RiverSwim:
    """The MDP of riverswim-6.json with its own random generator."""

    def __init__(self, path, seed):
        self.S, self.A, self.P, self.R, self.start = load_mdp(path)
        self.rng = np.random.default_rng(seed)

    def step(self, s, a):
        nexts, probs = zip(*self.P[s][a])
        return nexts[self.rng.choice(len(nexts), p=probs)], self.R[s][a]


def statisticalrl(path):
    """The StatisticalRL learners of a checkout at path."""
    sys.path[:0] = [os.path.join(path, "src"), path]
    from statisticalrl_learners.MDPs_discrete.PSRL import PSRL
    from statisticalrl_learners.MDPs_discrete.UCRL2 import UCRL2
    from statisticalrl_learners.MDPs_discrete.Equivalence import UCRL_equivalence

    class UCRLSA(UCRL_equivalence.UCRL_SA):
        """UCRL_SA with integer index maps (as published it indexes with floats and crashes)."""

        def UpdateEquivalenceClasses(self):
            super().UpdateEquivalenceClasses()
            self.indexmap = self.indexmap.astype(int)
            self.reverseindexmap = self.reverseindexmap.astype(int)

    return {
        "StatisticalRL UCRL2": lambda S, A: UCRL2(S, A, 0.05),
        "StatisticalRL PSRL": lambda S, A: PSRL(S, A, 0.05),
        "StatisticalRL UCRL_SA": lambda S, A: UCRLSA(list(range(S)), list(range(A)), 0.05),
    }


def bourel(path):
    """Bourel's learners of a checkout at path."""
    sys.path.insert(0, os.path.join(path, "experiments"))
    try:
        import pylab  # noqa: F401
    except ImportError:
        sys.modules["pylab"] = types.ModuleType("pylab")  # used only for figures
    from learners.C_UCRL import C_UCRL
    from learners.PSRL import PSRL
    from learners.UCRL import UCRL2

    return {
        "Bourel UCRL2": lambda S, A: UCRL2(S, A, 0.05),
        "Bourel C_UCRL": lambda S, A: C_UCRL(S, A, 0.05),
        "Bourel PSRL": lambda S, A: PSRL(S, A, 0.05),
    }


def run(make, mdp_path, seed, checkpoints):
    """Cumulative reward of one run at each checkpoint."""
    np.random.seed(seed)
    random.seed(seed)
    env = RiverSwim(mdp_path, 1000 + seed)
    learner = make(env.S, env.A)
    s, total, out = env.start, 0.0, []
    with contextlib.redirect_stdout(io.StringIO()):
        if hasattr(learner, "reset"):
            learner.reset(s)
        for t in range(1, checkpoints[-1] + 1):
            a = int(learner.play(s))
            nxt, r = env.step(s, a)
            learner.update(s, a, r, nxt)
            total += r
            s = nxt
            if t in checkpoints:
                out.append(total)
    return out


def temple(binary, config_path, seeds, checkpoints, seed=None):
    """temple's rows: the config (one task of 100 000 steps, runs: 10) cut at each checkpoint,
    at its own seed or at seed, per_task.csv read back."""
    rows = []
    with open(config_path) as f:
        config = f.read()
    if seed is not None:
        config = re.sub(r"(?m)^seed:\s*\d+\s*$", f"seed: {seed}", config)
    # the cut configs are written elsewhere: make the task file's path absolute
    here = os.path.dirname(os.path.abspath(config_path))
    config = re.sub(r"(?m)^(\s*file:\s*)(\S+)$", lambda m: m.group(1) + os.path.join(here, m.group(2)), config)
    with tempfile.TemporaryDirectory() as tmp:
        for steps in checkpoints:
            cfg = os.path.join(tmp, f"steps-{steps}.yaml")
            with open(cfg, "w") as f:
                f.write(config.replace("steps: 100000", f"steps: {steps}").replace("runs: 10", f"runs: {seeds}"))
            out = os.path.join(tmp, f"out-{steps}")
            subprocess.run([binary, "run", cfg, "--out", out], check=True, stdout=subprocess.DEVNULL)
            with open(os.path.join(out, "per_task.csv")) as f:
                for row in csv.DictReader(f):
                    rows.append(("temple " + row["agent"], int(row["run"]), steps, float(row["reward"])))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--statisticalrl", help="checkout of StatisticalRL/learners (6fd6743)")
    ap.add_argument("--bourel", help="checkout of HippolyteBourel/UCRL_implementation (e121fe2)")
    ap.add_argument("--temple", help="a temple binary, to run --config beside them")
    ap.add_argument("--config", default=os.path.join(HERE, "side-by-side.yaml"), help="temple's config")
    ap.add_argument("--only", nargs="*", help="names of the reference learners to run (default: all)")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--first-seed", type=int, default=0, help="the references' first seed")
    ap.add_argument("--temple-seed", type=int, help="temple's seed (default: the config's)")
    ap.add_argument("--checkpoints", default="20000,50000,100000")
    ap.add_argument("--mdp", default=os.path.join(HERE, "riverswim-6.json"))
    ap.add_argument("--out", default="riverswim-6-side-by-side.csv")
    args = ap.parse_args()
    checkpoints = [int(x) for x in args.checkpoints.split(",")]

    learners = {}
    if args.statisticalrl:
        learners.update(statisticalrl(os.path.abspath(args.statisticalrl)))
    if args.bourel:
        learners.update(bourel(os.path.abspath(args.bourel)))
    if args.only:
        learners = {k: v for k, v in learners.items() if k in args.only}
    rows = []
    with open(args.out, "w", newline="") as f:  # written as the runs end
        w = csv.writer(f)
        w.writerow(["implementation", "seed", "step", "reward"])
        for name, make in learners.items():
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                for step, total in zip(checkpoints, run(make, args.mdp, seed, checkpoints)):
                    rows.append((name, seed, step, total))
                    w.writerow(rows[-1])
                f.flush()
                print(f"{name}, seed {seed}: {rows[-1][3]:.1f}", file=sys.stderr)
        if args.temple:
            rows += temple(args.temple, args.config, args.seeds, checkpoints, args.temple_seed)
            w.writerows(r for r in rows if r[0].startswith("temple "))
    print("| implementation | runs | " + " | ".join(f"at {c:,}" for c in checkpoints) + " |")
    print("|---|---|" + "---|" * len(checkpoints))
    for name in dict.fromkeys(r[0] for r in rows):
        cells = []
        for c in checkpoints:
            x = [r[3] for r in rows if r[0] == name and r[2] == c]
            sd = math.sqrt(sum((v - sum(x) / len(x)) ** 2 for v in x) / (len(x) - 1)) if len(x) > 1 else 0
            cells.append(f"{sum(x) / len(x):,.0f} ± {sd:,.0f} (median {sorted(x)[len(x) // 2]:,.0f})")
        print(f"| {name} | {len(x)} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
