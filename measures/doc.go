// Package measures computes, from a family's true tabular models, the numbers a benchmark shows
// beside the family's verdicts: how hard each task is (Colosseum's hardness measures: the
// diameter, the span and the environmental value norm of the optimal values, the suboptimality
// gaps; Conserva & Rauber, NeurIPS 2022) and what a sequence of tasks offers to transfer (its
// distinct models and how often they recur, its transition templates G with their gap τ, S·A/G,
// whether a state's dynamics keep their index from task to task). docs/reference/measures.md
// defines each measure with its reference.
//
// Every measure is exact, from the model (mdp.Model); none draws from the task. A model is read
// as the runner plays it: terminal states end the episode and the next begins from the start
// distribution μ, and only the states some policy reaches from μ count.
//
// It imports the tabular model (mdp) and the templates (template) only.
package measures
