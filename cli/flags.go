package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/temple-rl/temple/internal/suggest"

	"github.com/temple-rl/temple/cluster"
)

// flagMinimum is the least value of each numeric flag of every command, checked in one place
// (checkFlags) before a command starts: counts are at least 1, an index at least 0, a size or
// rate above 0.
var flagMinimum = map[string]struct {
	least     float64
	exclusive bool // the value must be above least, not equal to it
}{
	"runs": {1, false}, "jobs": {1, false}, "seeds": {1, false}, "test": {1, false}, "steps": {1, false},
	"batch": {1, false}, "kmax": {1, false}, "samples": {1, false}, "min-count": {1, false}, "run": {0, false},
	"tau": {0, true}, "lr": {0, true},
}

// flagForm checks the flags whose values have a form of their own.
var flagForm = map[string]func(value string) error{
	"shard": func(v string) error {
		if _, err := cluster.ParseShard(v); err != nil {
			return fmt.Errorf("--shard = %s, want i/n with 0 <= i < n (for instance 0/4)", v)
		}
		return nil
	},
}

// checkFlags checks every numeric flag the user set against flagMinimum, and the others of
// flagForm, in the words of the config's messages: "--runs = -1, want at least 1".
func checkFlags(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if check, ok := flagForm[f.Name]; ok && err == nil {
			err = check(f.Value.String())
		}
		limit, ok := flagMinimum[f.Name]
		if !ok || err != nil {
			return
		}
		var values []float64
		switch v := f.Value.(type) {
		case pflag.SliceValue:
			for _, s := range v.GetSlice() {
				var x float64
				fmt.Sscan(s, &x)
				values = append(values, x)
			}
		default:
			var x float64
			fmt.Sscan(v.String(), &x)
			values = []float64{x}
		}
		for _, x := range values {
			switch {
			case limit.exclusive && x <= limit.least:
				err = fmt.Errorf("--%s = %s, want a number above %g", f.Name, f.Value, limit.least)
			case !limit.exclusive && x < limit.least:
				err = fmt.Errorf("--%s = %s, want at least %g", f.Name, f.Value, limit.least)
			}
		}
	})
	return err
}

// flagError rewrites the flag library's message for a value that does not parse ("invalid
// argument "-1" for "--seed" flag: strconv.ParseUint: parsing "-1": invalid syntax") in the same
// words: "--seed = -1, want an integer >= 0".
//
// An unknown flag gets the command's closest flags as a suggestion ("--runz": did you mean
// "--runs"?).
func flagError(cmd *cobra.Command, err error) error {
	var invalid *pflag.InvalidValueError
	if errors.As(err, &invalid) {
		f := invalid.GetFlag()
		return fmt.Errorf("--%s = %s, want %s", f.Name, invalid.GetValue(), flagWant(f.Value.Type()))
	}
	if name, ok := strings.CutPrefix(err.Error(), "unknown flag: "); ok && strings.HasPrefix(name, "--") {
		var flags []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) { flags = append(flags, "--"+f.Name) })
		return fmt.Errorf("%w%s", err, suggest.DidYouMean(name, flags))
	}
	return err
}

// flagWant says what a flag of the library's type name takes.
func flagWant(typ string) string {
	switch {
	case strings.HasPrefix(typ, "uint"):
		return "an integer >= 0"
	case strings.HasPrefix(typ, "int") && strings.HasSuffix(typ, "Slice"):
		return "integers separated by commas (for instance 250,1000)"
	case strings.HasPrefix(typ, "int"):
		return "an integer"
	case strings.HasPrefix(typ, "float"):
		return "a number"
	case typ == "bool":
		return "true or false"
	}
	return "a " + typ
}
