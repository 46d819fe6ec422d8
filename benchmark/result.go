package benchmark

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/temple-rl/temple/measures"
)

// Result is benchmark.json.
type Result struct {
	Benchmark string `json:"benchmark"`
	Seed      uint64 `json:"seed"`
	// Margin is the equivalence margin of every verdict (temple compare --margin).
	Margin string `json:"margin"`
	// Budget is what every learner of every family got to tune.
	Budget   Budget   `json:"budget"`
	Families []Family `json:"families"`
}

// Family is one family's results.
type Family struct {
	Name string `json:"name"`
	// TuningSeed is FamilySeed(benchmark seed, name); DesignSeeds are the seeds the tuning ran
	// on, JudgingSeed the seed of the judged run (temple tune's, from TuningSeed).
	TuningSeed  uint64   `json:"tuning_seed"`
	DesignSeeds []uint64 `json:"design_seeds"`
	JudgingSeed uint64   `json:"judging_seed"`
	// Runs are the judged run's runs (task sequences).
	Runs int `json:"runs"`
	// Objective is what the tuning minimised or maximised and the ranks order by: regret (with
	// the oracle) or reward (simulators).
	Objective string `json:"objective"`
	// Measures are the hardness and transfer measures of the judged run 0's tasks; null, with
	// MeasuresNote saying why, when the tasks have no model.
	Measures     *Measures `json:"measures"`
	MeasuresNote string    `json:"measures_note,omitempty"`
	// Optimum is the optimal policy's mean per-task reward (null without the oracle).
	Optimum *Estimate `json:"optimum"`
	// BestSingleTask is the single-task learner of least regret on the design seed (its
	// tuning's chosen score: choosing it uses no judged run), every verdict's other side.
	BestSingleTask string `json:"best_single_task"`
	// Learners are ranked, least regret first; References are the headroom, never ranked.
	Learners   []Learner `json:"learners"`
	References []Learner `json:"references"`
	// NotApplicable are the learners the family's tasks refuse, with the refusal; NotTuned the
	// learners written outside temple without a search space.
	NotApplicable []Excluded `json:"not_applicable"`
	NotTuned      []Excluded `json:"not_tuned"`
	// Stability compares the ranks above (the first tuning's: the headline) with those of a
	// second tuning of the same learners, judged at the same judging seed (tuning: seeds: 2;
	// absent otherwise).
	Stability *Stability `json:"rank_stability,omitempty"`
}

// Learner is one learner's (or reference's) result on a family.
type Learner struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// SingleTask says that the learner learns each task alone (a candidate for the best
	// single-task learner).
	SingleTask bool `json:"single_task"`
	// Setting is the tuned agent, as a config gives it (type, name, its keys).
	Setting json.RawMessage `json:"setting"`
	Budget  TunedBudget     `json:"budget"`
	// DesignScore is the chosen setting's mean objective (the family's Objective) per task over
	// its runs of the design seed, as its tuning scored it; null for an untuned reference.
	DesignScore *num `json:"design_score"`
	// Regret is the mean over runs of the run's mean per-task regret, with its 95% CI half-width;
	// null without the oracle. Reward is the same of the per-task reward.
	Regret *Estimate `json:"regret"`
	Reward Estimate  `json:"reward"`
	// Rank is 1 for the least mean regret (0 for a reference: never ranked).
	Rank int `json:"rank,omitempty"`
	// Verdict is the paired comparison with the best single-task learner (absent for it).
	Verdict *Verdict `json:"verdict,omitempty"`
}

// TunedBudget is what a learner's tuning spent: settings tried and trial runs (setting × run).
type TunedBudget struct {
	Settings  int `json:"settings"`
	TrialRuns int `json:"trial_runs"`
}

// Estimate is a mean over runs with its 95% confidence half-width.
type Estimate struct {
	Mean num `json:"mean"`
	CI95 num `json:"ci95"`
}

func estimate(mean, ci float64) Estimate { return Estimate{Mean: num(mean), CI95: num(ci)} }

// Verdict is temple compare's comparison of a learner (A) with the best single-task learner (B)
// on the runs' mean per-task rewards: A − B, so a positive difference is less regret for A.
type Verdict struct {
	Against string `json:"against"`
	// Text is temple compare's verdict: "A > B" (A earned more), "A < B", "level" (TOST at the
	// margin) or "not distinguishable".
	Text           string `json:"verdict"`
	Runs           int    `json:"runs"`
	MeanDifference num    `json:"mean_difference"`
	CI95           num    `json:"ci95"`
	PHolm          num    `json:"p_holm"`
	Margin         num    `json:"margin"`
	PTOSTHolm      num    `json:"p_tost_holm"`
	// MDE is the least true difference the paired test detects with 80% power.
	MDE num `json:"mde"`
}

// Excluded is a learner left out of a family, and why.
type Excluded struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Reason string `json:"reason"`
}

// Measures are measures.Family as benchmark.json gives them (docs/reference/measures.md).
type Measures struct {
	Tasks             int    `json:"tasks"`
	Diameter          Spread `json:"diameter"`
	DiameterSampled   bool   `json:"diameter_sampled"`
	ValueSpan         Spread `json:"value_span"`
	ValueNorm         Spread `json:"value_norm"`
	SumReciprocalGaps Spread `json:"sum_reciprocal_gaps"`
	MinGap            Spread `json:"min_gap"`
	DistinctModels    int    `json:"distinct_models"`
	Occurrences       []int  `json:"occurrences"`
	Recurring         num    `json:"recurring"`
	ModelGap          num    `json:"model_gap"`
	Templates         int    `json:"templates"`
	TemplateGap       num    `json:"template_gap"`
	RankingGap        num    `json:"ranking_gap"`
	PairsPerTemplate  num    `json:"pairs_per_template"`
	SameSize          bool   `json:"same_size"`
	IndexAgreement    num    `json:"index_agreement"`
}

// Spread is a measure over the tasks: mean, least, largest.
type Spread struct {
	Mean num `json:"mean"`
	Min  num `json:"min"`
	Max  num `json:"max"`
}

func spreadOf(s measures.Spread) Spread { return Spread{num(s.Mean), num(s.Min), num(s.Max)} }

func newMeasures(f measures.Family) *Measures {
	t := f.Transfer
	return &Measures{Tasks: t.Tasks, Diameter: spreadOf(f.Diameter), DiameterSampled: f.DiameterSampled,
		ValueSpan: spreadOf(f.ValueSpan), ValueNorm: spreadOf(f.ValueNorm), SumReciprocalGaps: spreadOf(f.SumReciprocalGaps),
		MinGap: spreadOf(f.MinGap), DistinctModels: t.Models, Occurrences: t.Occurrences, Recurring: num(t.Recurring),
		ModelGap: num(t.ModelGap), Templates: t.Templates, TemplateGap: num(t.TemplateGap), RankingGap: num(t.RankingGap),
		PairsPerTemplate: num(t.PairsPerTemplate), SameSize: t.SameSize, IndexAgreement: num(t.IndexAgreement)}
}

// num is a number that benchmark.json writes as null when it is not finite (a gap of +Inf with
// fewer than two models, an index agreement of NaN between tasks of different sizes).
type num float64

func (x num) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

func (x *num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*x = num(math.NaN())
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	*x = num(f)
	return err
}
