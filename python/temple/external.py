"""temple's agent protocol, served: a learner class of yours as a `type: external` agent.

    python -m temple.external optq:OptQ [--path DIR]

reads temple's messages on standard input and answers on standard output, one JSON object a line
(docs/reference/external-agents.md), calling the class as `type: python` does (temple.learner).
The learner's own prints go to standard error. This module is also the protocol's reference: a
learner in another language answers the same lines. It needs neither temple's library nor any
package beyond Python's standard library.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Any, Dict, Optional

from .learner import Learner, error_text, load_class

__all__ = ["PROTOCOL", "serve", "main"]

PROTOCOL = 1  # the protocol's version, answered to hello

_ASKS = {"hello", "act", "observe_act", "end_task"}  # the messages temple waits for an answer to


def serve(cls: Any, stdin: IO[str], stdout: IO[str]) -> int:
    """Answers temple's messages on stdin with a learner of class cls until close; 0 when closed
    cleanly. A learner's exception is answered as an error at the next message that awaits an
    answer, with its traceback's last lines."""
    learner: Optional[Learner] = None
    failure: Optional[str] = None

    def answer(msg: Dict[str, Any]) -> None:
        stdout.write(json.dumps(msg) + "\n")
        stdout.flush()

    for line in stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "close":
            if learner is not None and failure is None:
                learner.close()
            return 0
        if failure is not None:
            if kind in _ASKS:
                answer({"type": "error", "message": failure})
            continue
        try:
            if kind == "hello":
                if msg.get("protocol") != PROTOCOL:
                    raise ValueError("temple speaks protocol %r, this server %d" % (msg.get("protocol"), PROTOCOL))
                learner = Learner(cls, msg["seed"], msg.get("params") or {})
                answer({"type": "ready", "protocol": PROTOCOL})
            elif learner is None:
                raise ValueError("message %r before hello" % kind)
            elif kind == "begin_task":
                learner.begin_task(msg["index"], msg["n_states"], msg["n_actions"], msg["gamma"], msg["terminal"],
                                   msg["seed"])
            elif kind == "act":
                answer({"action": learner.act(msg["state"])})
            elif kind == "observe_act":
                learner.observe(msg["state"], msg["action"], msg["reward"], msg["next_state"], msg["terminated"])
                answer({"action": learner.act(msg["next_state"])})
            elif kind == "observe":
                learner.observe(msg["state"], msg["action"], msg["reward"], msg["next_state"], msg["terminated"])
            elif kind == "end_episode":
                learner.end_episode()
            elif kind == "end_task":
                answer({"metrics": learner.end_task()})
            else:
                raise ValueError("unknown message type %r" % kind)
        except Exception as e:
            failure = error_text(e)
            if kind in _ASKS:
                answer({"type": "error", "message": failure})
    return 0


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m temple.external", description=__doc__.splitlines()[0])
    parser.add_argument("cls", metavar="module:Class", help="the learner's class")
    parser.add_argument("--path", help="a directory to look for the module in first")
    args = parser.parse_args(argv)
    if args.path:
        sys.path.insert(0, args.path)
    cls = load_class(args.cls)
    out = sys.stdout
    sys.stdout = sys.stderr  # the learner's prints must not break the protocol
    return serve(cls, sys.stdin, out)


if __name__ == "__main__":
    sys.exit(main())
