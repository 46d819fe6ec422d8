package yamlkeys

import (
	"reflect"
	"slices"
	"testing"
)

func TestOf(t *testing.T) {
	type inner struct {
		B int `yaml:"b"`
		C int `yaml:"c,omitempty"`
	}
	type outer struct {
		A      int `yaml:"a"`
		inner  `yaml:",inline"`
		Hidden int `yaml:"-"`
		NoTag  int
		D      []int `yaml:"d"`
	}
	if got, want := Of(reflect.TypeOf(outer{})), []string{"a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("Of = %v, want %v (inline fields descended, - and untagged fields left out)", got, want)
	}
}

func TestFieldsCarryTheirTags(t *testing.T) {
	type inner struct {
		B int `yaml:"b" doc:"the b"`
	}
	type outer struct {
		A     int `yaml:"a,omitempty" doc:"the a"`
		inner `yaml:",inline"`
	}
	var docs []string
	for _, f := range Fields(reflect.TypeOf(outer{})) {
		docs = append(docs, Key(f)+": "+f.Tag.Get("doc"))
	}
	if want := []string{"a: the a", "b: the b"}; !slices.Equal(docs, want) {
		t.Errorf("Fields = %v, want %v", docs, want)
	}
}
