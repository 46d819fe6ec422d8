// Package alllearners registers every learner built into temple: importing it (import _
// "github.com/temple-rl/temple/alllearners") runs the init functions by which each learner's
// own file registers its agent type (agenttypes.Register). The experiment runner and the C
// library import it, so that every program that runs learners — the temple command, the Python
// library, their tests — sees every built-in type. It names no learner: a new learner's file in
// one of these packages registers itself.
//
// It imports the learners' packages (learners, baseline, temple) and nothing else.
package alllearners

import (
	_ "github.com/temple-rl/temple/baseline"
	_ "github.com/temple-rl/temple/learners"
	_ "github.com/temple-rl/temple/temple"
)
