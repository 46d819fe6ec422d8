package stats

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// DefaultMargin is temple compare's equivalence margin: 5% of the larger of the two agents'
// references (their mean regrets with the oracle, else their mean per-task rewards).
const DefaultMargin = "5%"

// Margin is the equivalence margin δ of a comparison's TOST, in the units of the values compared:
// Absolute when given as a number, else Fraction of a reference that depends on the two agents
// compared (Of).
type Margin struct {
	Fraction, Absolute float64
}

// ParseMargin reads a margin: "5%" is 5% of the reference, "0.3" an absolute 0.3. Either must be a
// finite number above 0.
func ParseMargin(s string) (Margin, error) {
	text, relative := strings.CutSuffix(strings.TrimSpace(s), "%")
	x, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil || !(x > 0) || math.IsInf(x, 0) {
		return Margin{}, fmt.Errorf("margin %q: want a number above 0 (an absolute margin in reward units, e.g. 0.5) "+
			"or a percentage (e.g. 5%%, of the larger mean regret, or mean reward without the oracle)", s)
	}
	if relative {
		return Margin{Fraction: x / 100}, nil
	}
	return Margin{Absolute: x}, nil
}

// Of is the margin of a comparison whose two sides have references refA and refB: Absolute when
// set, else Fraction of the larger of |refA| and |refB| (0 when both are 0: no equivalence test).
func (m Margin) Of(refA, refB float64) float64 {
	if m.Absolute > 0 {
		return m.Absolute
	}
	return m.Fraction * math.Max(math.Abs(refA), math.Abs(refB))
}
