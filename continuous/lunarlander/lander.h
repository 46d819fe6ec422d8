//go:build box2d

// C interface to the LunarLander world in lander.cpp.
#ifndef TEMPLE_LANDER_H
#define TEMPLE_LANDER_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ll_world ll_world;

// ll_new creates an empty world; ll_free destroys it.
ll_world* ll_new(void);
void ll_free(ll_world* w);

// ll_reset builds a new episode: terrain from the 12 chunk heights (drawn U(0, H/2) by the
// caller), the lander and its legs, and the initial force (fx, fy) on the lander.
void ll_reset(ll_world* w, const double* heights, double fx, double fy);

// ll_step fires the engine of action (0..3) with dispersions d0, d1 (each U(-1, 1)/SCALE),
// advances the world by one frame and writes the 8 observations into state. It returns
// bit 0: the lander body touched the ground (game over); bit 1: the lander is awake.
int ll_step(ll_world* w, int action, double d0, double d1, double* state);

// ll_helipad_y is the helipad's height (H/4), for tests.
double ll_helipad_y(void);

#ifdef __cplusplus
}
#endif
#endif
