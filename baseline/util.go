package baseline

import "math"

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// exactTolerance is the max-norm tolerance of the exact solver used on true models (V_max of
// MaxQInit, Q* of Abs-RL's abstractions).
const exactTolerance = 1e-10
