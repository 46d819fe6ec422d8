package describe

import (
	"fmt"
	"slices"
	"strings"

	"github.com/temple-rl/temple/agenttypes"
	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/families"
)

// AgentTypes describes every agent type of the registry (package agenttypes), in name order. A
// template learner's entry lists base: and its own keys, and says that the keys of its base
// learner apply too.
func AgentTypes() []Entry {
	var out []Entry
	for _, t := range agenttypes.Types() {
		p := t.Defaults()
		e := Entry{Name: t.Name, Summary: t.Summary, Params: Of(p)}
		for k := range e.Params {
			e.Params[k].Search = searchOf(t.Name, p, e.Params[k].Key)
			if e.Params[k].Key == "base" { // the registry's base learners
				e.Params[k].Range = strings.Join(agenttypes.BaseNames(), " | ")
			}
		}
		if keys := agenttypes.Keys(p); len(keys) > 0 && keys[0] == "base" {
			e.Note = fmt.Sprintf("and the keys of its base learner: those of agent type %s (the default base) or of the base named; "+
				"temple tune searches the base's with its own", agenttypes.BaseNames()[0])
		}
		out = append(out, e)
	}
	return out
}

// TaskFamilies describes every task family of the registry (package families), in name order.
func TaskFamilies() []Entry {
	var out []Entry
	for _, f := range families.All() {
		out = append(out, Entry{Name: f.Name, Summary: f.Summary, Params: Of(f.Defaults())})
	}
	return out
}

// searchOf says how temple tune searches key of type typ: its range and scale, "on request" when
// only a config's search: block gives it a range, "" when it is never searched.
func searchOf(typ string, p agenttypes.Params, key string) string {
	d, ok := agenttypes.Scale(typ, p, key)
	if !ok {
		return ""
	}
	text := strings.Join(d.Choices, " | ")
	if len(d.Choices) == 0 {
		text = fmt.Sprintf("%g – %g", d.Low, d.High)
		if d.InRewardUnits {
			text = fmt.Sprintf("(%g – %g)·reward scale", d.Low, d.High)
		}
		if d.Log {
			text += ", log"
		}
	}
	if !slices.ContainsFunc(agenttypes.SearchSpace(typ, p), func(s agenttypes.Dim) bool { return s.Key == key }) {
		text = "on request: " + text
	}
	return text
}

// Config describes the keys of a config file itself (package experiment's Spec): the top-level
// keys with the defaults of a config (experiment.Default), then the keys of each block the spec
// reads itself: oracle, output, sweep (each entry of the list) and scaling.
func Config() []Entry {
	s := experiment.Default()
	s.Name = "experiment" // what a config without name: gets (experiment.Parse)
	top := Of(s)
	for i, p := range top {
		switch p.Key {
		case "tasks":
			top[i].Default = fmt.Sprintf("{family: %s, count: %d}", s.Tasks.Family, s.Tasks.Params.(*families.OnlineMazeParams).Tasks)
		case "agents":
			top[i].Default = "[" + strings.Join(s.AgentNames(), ", ") + "]"
		case "sweep", "scaling":
			top[i].Default = "none"
		}
	}
	return []Entry{
		{Name: "config", Summary: "the top-level keys of a config file", Params: top},
		{Name: "oracle", Summary: "oracle: how learners are measured against the optimal policy of each task's true model", Params: Of(s.Oracle)},
		{Name: "output", Summary: "output: what the results directory holds besides the per-task results", Params: Of(s.Output)},
		{Name: "sweep", Summary: "sweep: a list of entries, each one swept parameter and its values", Params: Of(experiment.SweepParam{})},
		{Name: "scaling", Summary: "scaling: maze sizes and template counts of the sample-complexity law (tasks.family online-maze)", Params: Of(experiment.Scaling{})},
	}
}
