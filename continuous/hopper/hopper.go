//go:build mujoco

package hopper

/*
#cgo LDFLAGS: -lmujoco
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mujoco/mujoco.h>

// load_xml compiles the MJCF text xml (n bytes) through MuJoCo's virtual file system.
static mjModel* load_xml(const char* xml, int n, char* err, int errsz) {
	mjVFS* vfs = (mjVFS*)malloc(sizeof(mjVFS));
	if (vfs == NULL) {
		snprintf(err, errsz, "out of memory");
		return NULL;
	}
	mj_defaultVFS(vfs);
	if (mj_makeEmptyFileVFS(vfs, "hopper.xml", n) != 0) {
		free(vfs);
		snprintf(err, errsz, "cannot make a virtual file");
		return NULL;
	}
	memcpy(vfs->filedata[mj_findFileVFS(vfs, "hopper.xml")], xml, n);
	mjModel* m = mj_loadXML("hopper.xml", vfs, err, errsz);
	mj_deleteVFS(vfs);
	free(vfs);
	return m;
}

static void step_n(const mjModel* m, mjData* d, int n) {
	for (int i = 0; i < n; i++) mj_step(m, d);
}
*/
import "C"

import (
	_ "embed"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"unsafe"
)

//go:embed model.xml
var modelXML string

// Constants of Hopper-v5.
const (
	FrameSkip  = 4     // physics steps of 2 ms per action
	MaxSteps   = 1000  // time limit (truncation)
	ResetNoise = 5e-3  // U(±0.005) on every qpos and qvel at reset
	VelClip    = 10.0  // observed velocities are clipped to [-10, 10]
	CtrlCost   = 1e-3  // weight of ‖a‖² in the reward
	Healthy    = 1.0   // reward per healthy step
	MinZ       = 0.7   // healthy: z > 0.7
	MaxAngle   = 0.2   // healthy: |torso angle| < 0.2
	StateRange = 100.0 // healthy: every qpos[2:], qvel in (−100, 100)

	StateDim  = 11
	ActionDim = 3
	nq, nv    = 6, 6
)

var (
	loadOnce sync.Once
	model    *C.mjModel
	loadErr  error
)

// load compiles the model once per process; the compiled model is only read afterwards.
func load() (*C.mjModel, error) {
	loadOnce.Do(func() {
		xml := C.CString(modelXML)
		defer C.free(unsafe.Pointer(xml))
		var buf [1000]C.char
		model = C.load_xml(xml, C.int(len(modelXML)), &buf[0], C.int(len(buf)))
		if model == nil {
			loadErr = fmt.Errorf("hopper: MuJoCo cannot load the model: %s", C.GoString(&buf[0]))
			return
		}
		if model.nq != nq || model.nv != nv || model.nu != ActionDim {
			loadErr = fmt.Errorf("hopper: model has nq=%d nv=%d nu=%d, want 6, 6, 3", model.nq, model.nv, model.nu)
		}
	})
	return model, loadErr
}

// Version is the MuJoCo library's version, e.g. 222 for 2.2.2.
func Version() int { return int(C.mj_version()) }

// Env is one Hopper-v5 episode at a time, with its own MuJoCo data.
type Env struct {
	m     *C.mjModel
	d     *C.mjData
	steps int
	live  bool
}

// New returns a Hopper environment; call Reset before Step.
func New() (*Env, error) {
	m, err := load()
	if err != nil {
		return nil, err
	}
	d := C.mj_makeData(m)
	if d == nil {
		return nil, fmt.Errorf("hopper: MuJoCo cannot allocate its data")
	}
	e := &Env{m: m, d: d}
	runtime.AddCleanup(e, func(d *C.mjData) { C.mj_deleteData(d) }, d)
	return e, nil
}

func (e *Env) qpos() []float64 { return unsafe.Slice((*float64)(unsafe.Pointer(e.d.qpos)), nq) }
func (e *Env) qvel() []float64 { return unsafe.Slice((*float64)(unsafe.Pointer(e.d.qvel)), nv) }
func (e *Env) ctrl() []float64 { return unsafe.Slice((*float64)(unsafe.Pointer(e.d.ctrl)), ActionDim) }

// Name is "Hopper-v5".
func (e *Env) Name() string { return "Hopper-v5" }

// StateDim is 11: z, torso angle, thigh, leg and foot angles, then the 6 velocities.
func (e *Env) StateDim() int { return StateDim }

// ActionDim is 3: the thigh, leg and foot torques, each in [-1, 1] (times gear 200).
func (e *Env) ActionDim() int { return ActionDim }

// RandomAction draws every torque uniformly from [-1, 1).
func (e *Env) RandomAction(rng *rand.Rand, a []float64) {
	for i := range a[:ActionDim] {
		a[i] = 2*rng.Float64() - 1
	}
}

// Reset puts the hopper at qpos0 (standing, torso at z = 1.25) plus U(±0.005) noise on every
// position and velocity, and writes the observation into obs.
func (e *Env) Reset(rng *rand.Rand, obs []float64) {
	C.mj_resetData(e.m, e.d)
	qp, qv := e.qpos(), e.qvel()
	for i := range qp {
		qp[i] += -ResetNoise + 2*ResetNoise*rng.Float64()
	}
	for i := range qv {
		qv[i] += -ResetNoise + 2*ResetNoise*rng.Float64()
	}
	C.mj_forward(e.m, e.d)
	e.steps, e.live = 0, true
	e.observe(obs)
}

func (e *Env) observe(obs []float64) {
	copy(obs, e.qpos()[1:])
	for i, v := range e.qvel() {
		obs[nq-1+i] = math.Max(-VelClip, math.Min(VelClip, v))
	}
}

// X is the torso's x position, which the observation leaves out.
func (e *Env) X() float64 { return e.qpos()[0] }

// healthy is hopper_v5's is_healthy.
func (e *Env) healthy() bool {
	qp, qv := e.qpos(), e.qvel()
	for _, v := range append(append([]float64(nil), qp[2:]...), qv...) {
		if !(-StateRange < v && v < StateRange) {
			return false
		}
	}
	return qp[1] > MinZ && -MaxAngle < qp[2] && qp[2] < MaxAngle
}

// Step applies the torques a (each in [-1, 1]) for FrameSkip physics steps and writes the next
// observation into obs. The reward is 1 (when healthy) + Δx/dt − 10⁻³‖a‖².
func (e *Env) Step(a, obs []float64) (reward float64, terminated, truncated bool, err error) {
	if !e.live {
		return 0, false, false, fmt.Errorf("hopper: step outside an episode (call Reset first)")
	}
	if len(a) != ActionDim {
		return 0, false, false, fmt.Errorf("hopper: action %v has %d numbers, want %d", a, len(a), ActionDim)
	}
	cost := 0.0
	for i, v := range a {
		if !(v >= -1 && v <= 1) {
			return 0, false, false, fmt.Errorf("hopper: action[%d] = %v, want a torque in [-1, 1]", i, v)
		}
		cost += v * v
	}
	x0 := e.X()
	copy(e.ctrl(), a)
	C.step_n(e.m, e.d, FrameSkip)
	e.steps++
	e.observe(obs)
	dt := FrameSkip * float64(e.m.opt.timestep)
	h := e.healthy()
	reward = (e.X()-x0)/dt - CtrlCost*cost
	if h {
		reward += Healthy
	}
	terminated = !h
	truncated = !terminated && e.steps >= MaxSteps
	e.live = !terminated && !truncated
	return reward, terminated, truncated, nil
}

// ptrAdd returns &p[i] for a C array of doubles (for tests).
func ptrAdd(p *C.mjtNum, i int) unsafe.Pointer {
	return unsafe.Add(unsafe.Pointer(p), i*int(unsafe.Sizeof(*p)))
}
