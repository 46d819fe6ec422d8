package results

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Tuning records how temple tune chose the agents of a config (the tuning: block of the tuned
// config it writes, and summary.json's "tuning"): every agent got the same budget — the same
// settings, each run on the same design seed's runs by successive halving — and the seeds used
// are kept so that a verdict is judged on others.
type Tuning struct {
	// Seed is temple tune's --seed; DesignSeeds are the experiment seeds derived from it that
	// the trials ran on (runs 0 to the last of Runs − 1 of each).
	Seed        uint64   `yaml:"seed" json:"seed"`
	DesignSeeds []uint64 `yaml:"design_seeds" json:"design_seeds"`
	// Objective is what the search minimised or maximised: "regret" (per task, against the
	// oracle) or "reward" (per task).
	Objective string `yaml:"objective" json:"objective"`
	// Settings is the number of settings every agent tried; Runs the runs per setting at each
	// stage of successive halving (half the settings survive each stage).
	Settings int   `yaml:"settings" json:"settings"`
	Runs     []int `yaml:"runs" json:"runs"`
	// Draws is how the settings were drawn: "shared" (each parameter's values shared by the
	// agents that have it, at the same settings) or absent (each agent its own design).
	Draws string `yaml:"draws,omitempty" json:"draws,omitempty"`
	// Agents says, per agent, what was searched and its score on the design seeds.
	Agents []TunedAgent `yaml:"agents" json:"agents"`
	// DesignTasks are the SHA-256 of the task sequences of the design seed's runs the trials ran
	// on (each as tasks.json encodes a run), those that the judging seed does not draw too: the
	// tasks that identify the design seed, so that judging on them is refused whatever the seed
	// (a family: file pointed at the design's tasks.json, CheckTasks).
	DesignTasks []string `yaml:"design_tasks,omitempty" json:"design_tasks,omitempty"`
	// AllowDesignSeeds runs the config on a design seed all the same (temple run
	// --allow-design-seeds): its results then say nothing a verdict may rest on.
	AllowDesignSeeds bool `yaml:"allow_design_seeds,omitempty" json:"allow_design_seeds,omitempty"`
}

// TunedAgent is one agent's share of a tuning.
type TunedAgent struct {
	Name string `yaml:"name" json:"name"`
	// Searched are the parameters the search varied.
	Searched []string `yaml:"searched" json:"searched"`
	// Settings and TrialRuns are its budget: settings tried, and cells (setting × run) run.
	Settings  int `yaml:"settings" json:"settings"`
	TrialRuns int `yaml:"trial_runs" json:"trial_runs"`
	// Score is the chosen setting's objective on the design seeds, over its runs.
	Score float64 `yaml:"score" json:"score"`
}

// UsedSeeds are the seeds a judging run may not use: the tuning's seed and its design seeds.
func (t *Tuning) UsedSeeds() []uint64 { return append([]uint64{t.Seed}, t.DesignSeeds...) }

// CheckSeed refuses to judge on a seed used in the tuning, unless AllowDesignSeeds.
func (t *Tuning) CheckSeed(seed uint64) error {
	if t == nil || t.AllowDesignSeeds || !slices.Contains(t.UsedSeeds(), seed) {
		return nil
	}
	var used []string
	for _, s := range t.UsedSeeds() {
		used = append(used, strconv.FormatUint(s, 10))
	}
	return fmt.Errorf("seed %d was used to tune this config's agents (tuning: seeds %s): a verdict is judged on a seed never used "+
		"to tune; give another --seed, or --allow-design-seeds to run on it anyway", seed, strings.Join(used, ", "))
}

// CheckTasks refuses to judge on the tasks of a design run, whatever the seed: runs are the
// digests of the judging runs' task sequences (as DesignTasks), unless AllowDesignSeeds.
func (t *Tuning) CheckTasks(runs []string) error {
	if t == nil || t.AllowDesignSeeds {
		return nil
	}
	for run, d := range runs {
		if k := slices.Index(t.DesignTasks, d); k >= 0 {
			return fmt.Errorf("tasks: run %d faces the task sequence of design run %d of the tuning (design seed %d), on which the agents "+
				"were tuned: a verdict is judged on tasks never used to tune; run on tasks drawn from another seed, or give "+
				"--allow-design-seeds to run on them anyway", run, k, t.UsedSeeds()[len(t.UsedSeeds())-1])
		}
	}
	return nil
}

// Describe is one line on how the agents were tuned, for the terminal and report.html.
func (t *Tuning) Describe() string {
	var runs []string
	for _, r := range t.Runs {
		runs = append(runs, strconv.Itoa(r))
	}
	var seeds []string
	for _, s := range t.DesignSeeds {
		seeds = append(seeds, strconv.FormatUint(s, 10))
	}
	last := 0
	if len(t.Runs) > 0 {
		last = t.Runs[len(t.Runs)-1]
	}
	draws := ""
	if t.Draws != "" {
		draws = fmt.Sprintf(" (draws %s)", t.Draws)
	}
	return fmt.Sprintf("every agent tuned by temple tune --seed %d with the same budget: %d settings%s, successive halving over %s runs "+
		"(design seed %s, runs 0-%d), objective %s per task", t.Seed, t.Settings, draws, strings.Join(runs, "/"), strings.Join(seeds, ", "), last-1, t.Objective)
}
