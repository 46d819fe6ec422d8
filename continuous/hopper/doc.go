// Package hopper is Gymnasium's Hopper-v5 on the MuJoCo physics engine (C library, through cgo):
// a planar one-legged robot of four capsules (torso, thigh, leg, foot) with three hinge motors.
//
// It needs libmujoco (Debian: libmujoco-dev, MuJoCo 2.2.2) and is built only with the build tag
// mujoco: go test -tags mujoco ./continuous/hopper. Without the tag this package is empty.
//
// The model (model.xml, our own MJCF) is written from the published facts of Gymnasium's
// assets/hopper.xml: body placements and capsule sizes, joint axes, ranges, armature and
// damping, contact parameters, friction, gear 200 motors, the RK4 integrator and the 2 ms time
// step. The episode follows hopper_v5.py: 4 physics steps per action (dt = 8 ms), observation
// (qpos[1:], clip(qvel, −10, 10)) of 11 numbers, reset noise U(±0.005) on every qpos and qvel,
// termination when unhealthy (z ≤ 0.7, |torso angle| ≥ 0.2, or any of qpos[2:], qvel outside
// (−100, 100)), truncation at 1000 steps; reward healthy 1 + forward velocity − 10⁻³‖a‖².
package hopper
