package mdp

import (
	"math"
	"testing"
)

func TestFiniteHorizonHandSolved(t *testing.T) {
	// The chain: staying in 0 pays 1 a step, moving to 1 pays 0 and then 2 a step.
	// V_1 = (1, 2); V_2(0) = max(1+1, 0+2) = 2; V_3(0) = max(1+2, 0+4) = 4; V_h(1) = 2h.
	h, err := FiniteHorizon(chain(t), 3)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{0, 0}, {1, 2}, {2, 4}, {4, 6}}
	for k, w := range want {
		for s := range w {
			if got := h.Values(k)[s]; math.Abs(got-w[s]) > 1e-12 {
				t.Errorf("V_%d(%d) = %v, want %v", k, s, got, w[s])
			}
		}
	}
	// Q_3(0, stay) = 1 + V_2(0) = 3 through Backup with γ = 1.
	if q := chain(t).Backup(0, h.Values(2), 1); q != 3 {
		t.Errorf("Q_3(0,0) = %v, want 3", q)
	}
}

func TestFiniteHorizonStopsAtTerminalStates(t *testing.T) {
	// From 0: pay 1 and end, or pay 0, then 5 and end. V_1(0) = 1, V_h(0) = 5 for h >= 2, and the
	// terminal state is worth 0 at every horizon.
	h, err := FiniteHorizon(episodicChain(t), 4)
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range [][]float64{{0, 0, 0}, {1, 5, 0}, {5, 5, 0}, {5, 5, 0}, {5, 5, 0}} {
		for s := range w {
			if got := h.Values(k)[s]; got != w[s] {
				t.Errorf("V_%d(%d) = %v, want %v", k, s, got, w[s])
			}
		}
	}
	if _, err := FiniteHorizon(chain(t), -1); err == nil {
		t.Error("a negative horizon was accepted")
	}
}
