package describe

import (
	_ "embed"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Text writes the entries for a terminal: each entry's name and summary, then a line per key with
// its default, its range and its doc.
func Text(w io.Writer, entries []Entry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\n", e.Name, e.Summary)
		searched := searches(e)
		if len(e.Params) > 0 && searched {
			fmt.Fprintf(tw, "  key\tdefault\trange\ttemple tune\tmeaning\n")
		} else if len(e.Params) > 0 {
			fmt.Fprintf(tw, "  key\tdefault\trange\tmeaning\n")
		}
		for _, p := range e.Params {
			if searched {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", p.Key, p.Default, orDash(p.Range), orDash(p.Search), orDash(p.Doc))
			} else {
				fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", p.Key, p.Default, orDash(p.Range), orDash(p.Doc))
			}
		}
		if e.Note != "" {
			fmt.Fprintf(tw, "  %s\n", e.Note)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// Markdown writes the entries as Markdown: a heading per entry, its summary and a table of its
// keys.
func Markdown(w io.Writer, entries []Entry) error {
	for _, e := range entries {
		fmt.Fprintf(w, "### `%s`\n\n", e.Name)
		if e.Summary != "" {
			fmt.Fprintf(w, "%s.\n\n", upperFirst(e.Summary))
		}
		if len(e.Params) == 0 {
			fmt.Fprintf(w, "No keys.\n\n")
			continue
		}
		if searches(e) {
			fmt.Fprintf(w, "| key | default | range | temple tune | meaning |\n|---|---|---|---|---|\n")
			for _, p := range e.Params {
				fmt.Fprintf(w, "| `%s` | `%s` | %s | %s | %s |\n", p.Key, cell(p.Default), cell(orDash(p.Range)), cell(orDash(p.Search)), cell(orDash(p.Doc)))
			}
		} else {
			fmt.Fprintf(w, "| key | default | range | meaning |\n|---|---|---|---|\n")
			for _, p := range e.Params {
				fmt.Fprintf(w, "| `%s` | `%s` | %s | %s |\n", p.Key, cell(p.Default), cell(orDash(p.Range)), cell(orDash(p.Doc)))
			}
		}
		fmt.Fprintln(w)
		if e.Note != "" {
			fmt.Fprintf(w, "%s.\n\n", upperFirst(e.Note))
		}
	}
	return nil
}

// searches reports whether temple tune searches some key of the entry (agent types only).
func searches(e Entry) bool {
	for _, p := range e.Params {
		if p.Search != "" {
			return true
		}
	}
	return false
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// cell escapes the characters that would break a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// referenceTemplate is the hand-written part of docs/reference/configuration.md; the tables of
// the config's own keys, agent types and task families are generated into it, where it says
// {{.Config}}, {{.AgentTypes}} and {{.Families}}.
//
//go:embed configuration.md.tmpl
var referenceTemplate string

// Reference writes docs/reference/configuration.md: the page of referenceTemplate with the keys
// of the config, of every agent type and of every task family in it.
func Reference(w io.Writer) error {
	var config, types, families strings.Builder
	if err := Markdown(&config, Config()); err != nil {
		return err
	}
	if err := Markdown(&types, AgentTypes()); err != nil {
		return err
	}
	if err := Markdown(&families, TaskFamilies()); err != nil {
		return err
	}
	page := strings.NewReplacer("{{.Config}}\n", config.String(), "{{.AgentTypes}}\n", types.String(), "{{.Families}}\n", families.String()).Replace(referenceTemplate)
	_, err := io.WriteString(w, page)
	return err
}
