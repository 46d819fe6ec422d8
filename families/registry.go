package families

import (
	"fmt"

	"github.com/temple-rl/temple/internal/registry"
)

// table is the table of task families, filled by the families' own files: a family is its file
// of this package, whose init registers it (register) with a one-line summary that names the
// experiment of the paper using the family, or says that none does.
var table = registry.New("family = %q", func(f Family) string { return f.Name })

// register adds family f to the table; it panics on a name taken, a mistake of the program found
// when it starts.
func register(f Family) {
	if f.Name == "" || f.Defaults == nil {
		panic(fmt.Sprintf("families: family %q needs a Name and Defaults", f.Name))
	}
	if !table.Add(f) {
		panic(fmt.Sprintf("families: family %q is registered already", f.Name))
	}
}
