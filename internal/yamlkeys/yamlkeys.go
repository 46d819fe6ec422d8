// Package yamlkeys lists the YAML keys of a parameter struct, for the strict config readers of
// task families (families), agent types (agents) and a simulator's physics (env): a key the
// struct does not have is an error that names the keys it has.
package yamlkeys

import (
	"reflect"
	"strings"
)

// Of lists the yaml keys of struct type t in field order, descending into inline fields.
func Of(t reflect.Type) []string {
	var keys []string
	for _, f := range Fields(t) {
		keys = append(keys, Key(f))
	}
	return keys
}

// Fields lists the fields of struct type t that have a yaml key, in field order, descending into
// inline fields: their other tags (doc, range) document the keys.
func Fields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		_, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case strings.Contains(opts, "inline"):
			out = append(out, Fields(f.Type)...)
		case Key(f) != "" && Key(f) != "-":
			out = append(out, f)
		}
	}
	return out
}

// Key is the yaml key of field f: its yaml tag's name ("" when untagged).
func Key(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	return name
}
