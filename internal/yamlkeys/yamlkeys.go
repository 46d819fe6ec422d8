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
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("yaml")
		name, opts, _ := strings.Cut(tag, ",")
		switch {
		case strings.Contains(opts, "inline"):
			keys = append(keys, Of(f.Type)...)
		case name != "" && name != "-":
			keys = append(keys, name)
		}
	}
	return keys
}
