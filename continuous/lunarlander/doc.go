// Package lunarlander is Gymnasium's LunarLander-v3 (discrete actions, no wind) on the Box2D
// physics engine (C++ library, through cgo and a small extern "C" wrapper, lander.cpp).
//
// It needs libbox2d (Debian: libbox2d-dev, Box2D 2.4.1) and is built only with the build tag
// box2d: go test -tags box2d ./continuous/lunarlander. Without the tag this package is empty.
//
// The world follows gymnasium/envs/box2d/lunar_lander.py: SCALE 30, 50 frames per second,
// gravity −10, a random terrain of 11 chunks with a flat helipad, the six-sided lander (density
// 5) with two spring-loaded legs on revolute joints, a random initial force U(±1000)² on the
// lander, main engine power 13 and side engines 0.6 with random dispersion, world steps with
// 180 velocity and 60 position iterations. Actions: 0 nothing, 1 left engine, 2 main engine,
// 3 right engine. The observation is Gymnasium's 8 numbers (position and velocity scaled to
// the viewport, angle, angular velocity, two leg contacts). An episode terminates when the
// lander body touches the ground, leaves the viewport (|x| ≥ 1) or comes to rest (Box2D puts
// it to sleep), and is truncated at 1000 steps.
//
// Two differences from Gymnasium, neither a change of the task: the observation is float64,
// not rounded to float32; and Gymnasium runs Box2D 2.3 (through pybox2d) while Debian ships
// 2.4.1, whose solver differs in details, so trajectories are not bit-identical to Gymnasium's.
// The exhaust particles of Gymnasium are drawn only when rendering and never touch the lander,
// so they are left out.
package lunarlander
