package learners

import "github.com/temple-rl/temple/agent"

// Every base of this package can have its pair counts set outright, which O-TempLe's options
// that withdraw counts need (agent.Replacer is optional to a base).
var (
	_ agent.Replacer = (*RMax)(nil)
	_ agent.Replacer = (*MBIEEB)(nil)
	_ agent.Replacer = (*E3)(nil)
	_ agent.Replacer = (*UCRL2)(nil)
	_ agent.Replacer = (*PSRL)(nil)
)
