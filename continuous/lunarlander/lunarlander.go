//go:build box2d

package lunarlander

/*
#cgo CXXFLAGS: -std=c++17 -O2
#cgo LDFLAGS: -lbox2d -lstdc++
#include "lander.h"
*/
import "C"

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
)

// Constants of LunarLander-v3 that the Go side needs.
const (
	Scale         = 30.0   // pixels per metre
	InitialRandom = 1000.0 // the initial force on the lander is U(±1000) in x and y
	MaxSteps      = 1000   // time limit (truncation)
	StateDim      = 8
	NumActions    = 4
	chunks        = 11
	h             = 400 / Scale // viewport height in metres
)

// Env is one LunarLander-v3 episode at a time, in its own Box2D world.
type Env struct {
	w          *C.ll_world
	shaping    float64
	hasShaping bool
	steps      int
	live       bool
	rng        *rand.Rand
}

// New returns a LunarLander environment; call Reset before Step.
func New() *Env {
	e := &Env{w: C.ll_new()}
	runtime.AddCleanup(e, func(w *C.ll_world) { C.ll_free(w) }, e.w)
	return e
}

// Name is "LunarLander-v3".
func (e *Env) Name() string { return "LunarLander-v3" }

// StateDim is 8: x, y, ẋ, ẏ, angle, angular velocity (all scaled as in Gymnasium), and the two
// leg contacts (0 or 1).
func (e *Env) StateDim() int { return StateDim }

// ActionDim is 1: the action's index, 0 nothing, 1 left engine, 2 main engine, 3 right engine.
func (e *Env) ActionDim() int { return 1 }

// RandomAction draws one of the 4 actions uniformly.
func (e *Env) RandomAction(rng *rand.Rand, a []float64) { a[0] = float64(rng.IntN(NumActions)) }

// Reset builds a new terrain (12 chunk heights U(0, H/2)) and lander, pushes the lander with a
// force U(±1000)², and takes one step doing nothing, as Gymnasium's reset does; the engines'
// dispersion in later steps is drawn from the same rng.
func (e *Env) Reset(rng *rand.Rand, obs []float64) {
	var heights [chunks + 1]C.double
	for i := range heights {
		heights[i] = C.double(h / 2 * rng.Float64())
	}
	fx := -InitialRandom + 2*InitialRandom*rng.Float64()
	fy := -InitialRandom + 2*InitialRandom*rng.Float64()
	C.ll_reset(e.w, &heights[0], C.double(fx), C.double(fy))
	e.rng, e.hasShaping, e.steps, e.live = rng, false, 0, true
	e.step(0, obs) // its reward and termination are dropped, as Gymnasium's reset drops them
}

// physics advances the world by one frame under action a and returns whether the lander body
// touched the ground and whether it is awake.
func (e *Env) physics(a int, obs []float64) (gameOver, awake bool) {
	d0 := (2*e.rng.Float64() - 1) / Scale
	d1 := (2*e.rng.Float64() - 1) / Scale
	var st [StateDim]C.double
	flags := C.ll_step(e.w, C.int(a), C.double(d0), C.double(d1), &st[0])
	for i := range st {
		obs[i] = float64(st[i])
	}
	return flags&1 != 0, flags&2 != 0
}

// Step fires the engine of action a[0] for one frame (1/50 s) and writes the next observation
// into obs. The reward is Gymnasium's: the change of the shaping
// −100‖(x, y)‖ − 100‖(ẋ, ẏ)‖ − 100|θ| + 10 (legs in contact), minus 0.3 for the main engine or
// 0.03 for a side engine; −100 on a crash or leaving the viewport, +100 on coming to rest.
func (e *Env) Step(a, obs []float64) (reward float64, terminated, truncated bool, err error) {
	if !e.live {
		return 0, false, false, fmt.Errorf("lunarlander: step outside an episode (call Reset first)")
	}
	if len(a) != 1 || a[0] != math.Trunc(a[0]) || a[0] < 0 || a[0] >= NumActions {
		return 0, false, false, fmt.Errorf("lunarlander: action = %v, want [0], [1], [2] or [3]", a)
	}
	reward, terminated = e.step(int(a[0]), obs)
	e.steps++
	truncated = !terminated && e.steps >= MaxSteps
	e.live = !terminated && !truncated
	return reward, terminated, truncated, nil
}

func (e *Env) step(act int, obs []float64) (reward float64, terminated bool) {
	gameOver, awake := e.physics(act, obs)
	shaping := -100*math.Hypot(obs[0], obs[1]) - 100*math.Hypot(obs[2], obs[3]) - 100*math.Abs(obs[4]) +
		10*obs[6] + 10*obs[7]
	if e.hasShaping {
		reward = shaping - e.shaping
	}
	e.shaping, e.hasShaping = shaping, true
	switch act {
	case 2:
		reward -= 0.30
	case 1, 3:
		reward -= 0.03
	}
	if gameOver || math.Abs(obs[0]) >= 1 {
		terminated, reward = true, -100
	}
	if !awake {
		terminated, reward = true, +100
	}
	return reward, terminated
}

// HelipadY is the helipad's height in metres (H/4).
func HelipadY() float64 { return float64(C.ll_helipad_y()) }
