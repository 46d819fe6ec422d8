package discretize

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/temple-rl/temple/continuous"
	"github.com/temple-rl/temple/continuous/cartpole"
	"github.com/temple-rl/temple/continuous/mountaincar"
	"github.com/temple-rl/temple/continuous/pendulum"
)

func mcUniform(t testing.TB, bins ...int) *Sim {
	t.Helper()
	d, err := New(mountaincar.New(), Config{Bins: bins, Low: []float64{-1.2, -0.07}, High: []float64{0.6, 0.07}})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestUniformCells: bins of width (high − low)/n, cells numbered row-major, values outside
// the bounds in the outer bins, and one terminal state after the cells.
func TestUniformCells(t *testing.T) {
	d := mcUniform(t, 6, 4) // x bins of 0.3 from −1.2; v bins of 0.035 from −0.07
	if S, A := d.Size(); S != 6*4+1 || A != 3 {
		t.Fatalf("Size = %d, %d; want 25, 3", S, A)
	}
	for _, c := range []struct {
		obs  []float64
		want int
	}{
		{[]float64{-1.2, -0.07}, 0},
		{[]float64{-0.5, 0}, 2*4 + 2},      // x bin ⌊0.7/0.3⌋ = 2, v bin ⌊0.07/0.035⌋ = 2
		{[]float64{-0.5, -0.001}, 2*4 + 1}, // just below 0: v bin 1
		{[]float64{0.6, 0.07}, 5*4 + 3},    // the upper bounds fall into the last bins
		{[]float64{-9, 9}, 0*4 + 3},        // outside: clamped
	} {
		if got, err := d.Cell(c.obs); err != nil || got != c.want {
			t.Errorf("Cell(%v) = %d, %v; want %d", c.obs, got, err, c.want)
		}
	}
	if d.TerminalState() != 24 || !d.Terminates() {
		t.Errorf("terminal state %d, want 24", d.TerminalState())
	}
	e := d.Edges(0)
	for k, want := range []float64{-0.9, -0.6, -0.3, 0, 0.3} {
		if math.Abs(e[k]-want) > 1e-12 {
			t.Errorf("edge %d of x = %v, want %v", k, e[k], want)
		}
	}
}

// TestStepFollowsTheEnvironment: the simulator's cells are the cells of a twin environment's
// observations, its rewards the twin's, and the goal leads to the terminal state.
func TestStepFollowsTheEnvironment(t *testing.T) {
	d := mcUniform(t, 10)
	twin := mountaincar.New()
	obs := make([]float64, 2)
	s, err := d.Reset(rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	twin.Reset(rand.New(rand.NewPCG(1, 2)), obs)
	if want, _ := d.Cell(obs); s != want {
		t.Fatalf("reset cell %d, want %d", s, want)
	}
	for step := 1; ; step++ {
		a := 0
		if obs[1] >= 0 {
			a = 2 // energy pumping reaches the goal
		}
		next, r, term, trunc, err := d.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		tr, tterm, ttrunc, _ := twin.Step([]float64{float64(a)}, obs)
		if r != tr || term != tterm || trunc != ttrunc {
			t.Fatalf("step %d: (r, term, trunc) = (%v, %v, %v), twin (%v, %v, %v)", step, r, term, trunc, tr, tterm, ttrunc)
		}
		if term {
			if next != d.TerminalState() {
				t.Fatalf("terminating step into %d, want the terminal state %d", next, d.TerminalState())
			}
			break
		}
		if want, _ := d.Cell(obs); next != want {
			t.Fatalf("step %d into %d, want %d", step, next, want)
		}
		if trunc {
			t.Fatal("energy pumping was truncated")
		}
	}
	if _, _, _, _, err := d.Step(1); err == nil {
		t.Error("step after termination: no error")
	}
	if got := d.Visits()[d.TerminalState()]; got != 1 {
		t.Errorf("terminal state visited %d times, want 1", got)
	}
	if u := d.Unvisited(); u <= 0 || u >= 100 {
		t.Errorf("Unvisited = %d after one episode, want some of the 100 cells", u)
	}
}

// TestQuantileBins: fitted edges split the random-policy observations into bins of (nearly)
// equal mass, and the same seed gives the same edges.
func TestQuantileBins(t *testing.T) {
	cfg := Config{Bins: []int{4}, FitSteps: 4000, FitSeed: 9}
	d, err := New(cartpole.New(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	d2, _ := New(cartpole.New(), cfg)
	tr, _ := continuous.CollectRandom(cartpole.New(), rand.New(rand.NewPCG(9, 0)), 4000)
	for i := range 4 {
		e := d.Edges(i)
		if len(e) != 3 {
			t.Fatalf("dimension %d has %d edges, want 3", i, len(e))
		}
		for k := range e {
			if e[k] != d2.Edges(i)[k] {
				t.Fatalf("same seed, different edges")
			}
			if k > 0 && e[k] < e[k-1] {
				t.Fatalf("edges %v not increasing", e)
			}
		}
		// Each bin holds a quarter of the 8000 observations (states and successors).
		var counts [4]int
		for r := range tr.Len() {
			s, _, next := tr.Row(r)
			for _, x := range []float64{s[i], next[i]} {
				b := 0
				for b < 3 && e[b] <= x {
					b++
				}
				counts[b]++
			}
		}
		for b, c := range counts {
			if c < 1990 || c > 2010 {
				t.Errorf("dimension %d, bin %d holds %d of 8000 fitting observations, want 2000", i, b, c)
			}
		}
	}
}

func TestGrid(t *testing.T) {
	g, err := Grid(-2, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range []float64{-2, -1, 0, 1, 2} {
		if g[k][0] != want {
			t.Errorf("grid[%d] = %v, want %v", k, g[k], want)
		}
	}
	d, err := New(pendulum.New(), Config{Bins: []int{5}, Low: []float64{-1, -1, -8}, High: []float64{1, 1, 8}, Actions: g})
	if err != nil {
		t.Fatal(err)
	}
	if S, A := d.Size(); S != 125 || A != 5 || d.Terminates() {
		t.Errorf("pendulum: %d states, %d actions, terminates %v; want 125, 5, false", S, A, d.Terminates())
	}
}

// nanEnv is a one-dimensional environment whose second step returns NaN.
type nanEnv struct{ steps int }

func (e *nanEnv) Name() string                           { return "nan" }
func (e *nanEnv) StateDim() int                          { return 1 }
func (e *nanEnv) ActionDim() int                         { return 1 }
func (e *nanEnv) NumActions() int                        { return 1 }
func (e *nanEnv) RandomAction(_ *rand.Rand, a []float64) { a[0] = 0 }
func (e *nanEnv) Reset(_ *rand.Rand, obs []float64)      { e.steps, obs[0] = 0, 0.5 }
func (e *nanEnv) Step(_, obs []float64) (float64, bool, bool, error) {
	e.steps++
	obs[0] = 0.5
	if e.steps == 2 {
		obs[0] = math.NaN()
	}
	return 0, false, false, nil
}

func TestNaNStateIsAnError(t *testing.T) {
	d, err := New(&nanEnv{}, Config{Bins: []int{3}, Low: []float64{0}, High: []float64{1}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Reset(rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, err := d.Step(0); err != nil {
		t.Fatal(err)
	}
	if _, _, _, _, err := d.Step(0); !errors.Is(err, ErrNaNState) {
		t.Fatalf("NaN observation: error %v, want ErrNaNState", err)
	}
	if _, _, _, _, err := d.Step(0); err == nil {
		t.Error("step after a NaN state: no error")
	}
	if _, err := New(&nanEnv{}, Config{Bins: []int{3}, FitSteps: 10}); !errors.Is(err, ErrNaNState) {
		t.Errorf("quantile fit on NaN data: error %v, want ErrNaNState", err)
	}
}

func TestConfigErrors(t *testing.T) {
	mc := func() continuous.Env { return mountaincar.New() }
	lo, hi := []float64{-1.2, -0.07}, []float64{0.6, 0.07}
	for _, c := range []struct {
		env  continuous.Env
		cfg  Config
		want string
	}{
		{mc(), Config{Bins: []int{0}, Low: lo, High: hi}, "bins[0] = 0"},
		{mc(), Config{Bins: []int{5, -1}, Low: lo, High: hi}, "bins[1] = -1"},
		{mc(), Config{Bins: []int{5, 5, 5}, Low: lo, High: hi}, "bins = [5 5 5]"},
		{mc(), Config{Bins: []int{5}, Low: []float64{0.6, -0.07}, High: []float64{-1.2, 0.07}}, "high[0] = -1.2"},
		{mc(), Config{Bins: []int{5}, Low: []float64{math.NaN(), -0.07}, High: hi}, "low[0] = NaN"},
		{mc(), Config{Bins: []int{5}, Low: lo, High: []float64{0.6, math.NaN()}}, "high[1] = NaN"},
		{mc(), Config{Bins: []int{5}, Low: lo}, "low has 2 and high 0 values"},
		{mc(), Config{Bins: []int{5}, Low: lo, High: hi, FitSteps: 10}, "fit_steps = 10 with low/high"},
		{mc(), Config{Bins: []int{5}, FitSteps: -1}, "fit_steps = -1"},
		{mc(), Config{Bins: []int{5}, FitSteps: MaxFitSteps + 1}, "fit_steps = 1000001, want 0 <= fit_steps <= 1000000"},
		{mc(), Config{Bins: []int{5}, Low: lo, High: hi, Actions: [][]float64{{0, 1}}}, "actions[0] = [0 1]"},
		{pendulum.New(), Config{Bins: []int{5}, Low: []float64{-1, -1, -8}, High: []float64{1, 1, 8}}, "no discrete actions"},
	} {
		if _, err := New(c.env, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one with %q", c.cfg, err, c.want)
		}
	}
	if _, err := Grid(-2, 2, 0); err == nil || !strings.Contains(err.Error(), "n = 0") {
		t.Errorf("empty action grid: error %v", err)
	}
	if _, err := Grid(2, -2, 3); err == nil || !strings.Contains(err.Error(), "low = 2") {
		t.Errorf("inverted action grid: error %v", err)
	}
	d := mcUniform(t, 4)
	if _, _, _, _, err := d.Step(3); err == nil || !strings.Contains(err.Error(), "action 3") {
		t.Errorf("action out of range: error %v", err)
	}
}

// BenchmarkStep steps discretized MountainCar under a random policy.
func BenchmarkStep(b *testing.B) {
	d := mcUniform(b, 20)
	rng := rand.New(rand.NewPCG(1, 1))
	if _, err := d.Reset(rng); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_, _, term, trunc, err := d.Step(rng.IntN(3))
		if err != nil {
			b.Fatal(err)
		}
		if term || trunc {
			d.Reset(rng)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// TestLargeGridsCostNothingUntilRun: a simulator of two billion cells is made (and a spec holding
// it validated) without allocating per cell; the visit counts come with the first episode.
func TestLargeGridsCostNothingUntilRun(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d, err := New(mountaincar.New(), Config{Bins: []int{46340, 46340}, Low: []float64{-1.2, -0.07}, High: []float64{0.6, 0.07}})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("making a 46340×46340 simulator allocated %d bytes", grew)
	}
	if d.Visits() != nil || d.Unvisited() != 46340*46340 {
		t.Errorf("before any episode: visits %v, unvisited %d; want none, every cell", d.Visits() != nil, d.Unvisited())
	}
	small := mcUniform(t, 4)
	if _, err := small.Reset(rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Fatal(err)
	}
	if S, _ := small.Size(); len(small.Visits()) != S || small.Unvisited() != 16-1 {
		t.Errorf("after a reset: %d visit counts, %d unvisited; want %d, 15", len(small.Visits()), small.Unvisited(), S)
	}
}
