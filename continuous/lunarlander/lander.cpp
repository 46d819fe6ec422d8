//go:build box2d

// The LunarLander world of Gymnasium's lunar_lander.py on Box2D 2.4, behind a C interface.
#include <box2d/box2d.h>
#include <cmath>
#include "lander.h"

namespace {

const double FPS = 50;
const double SCALE = 30.0;
const double MAIN_ENGINE_POWER = 13.0;
const double SIDE_ENGINE_POWER = 0.6;
const double MAIN_ENGINE_Y_LOCATION = 4;
const double LANDER_POLY[6][2] = {{-14, +17}, {-17, 0}, {-17, -10}, {+17, -10}, {+17, 0}, {+14, +17}};
const double LEG_AWAY = 20, LEG_DOWN = 18, LEG_W = 2, LEG_H = 8, LEG_SPRING_TORQUE = 40;
const double SIDE_ENGINE_HEIGHT = 14.0, SIDE_ENGINE_AWAY = 12.0;
const double VIEWPORT_W = 600, VIEWPORT_H = 400;
const double W = VIEWPORT_W / SCALE, H = VIEWPORT_H / SCALE;
const int CHUNKS = 11;

struct Listener : b2ContactListener {
	b2Body* lander = nullptr;
	b2Body* legs[2] = {nullptr, nullptr};
	bool game_over = false;
	bool contact[2] = {false, false};

	void BeginContact(b2Contact* c) override {
		b2Body* a = c->GetFixtureA()->GetBody();
		b2Body* b = c->GetFixtureB()->GetBody();
		if (a == lander || b == lander) game_over = true;
		for (int i = 0; i < 2; i++)
			if (a == legs[i] || b == legs[i]) contact[i] = true;
	}
	void EndContact(b2Contact* c) override {
		b2Body* a = c->GetFixtureA()->GetBody();
		b2Body* b = c->GetFixtureB()->GetBody();
		for (int i = 0; i < 2; i++)
			if (a == legs[i] || b == legs[i]) contact[i] = false;
	}
};

}  // namespace

struct ll_world {
	b2World world{b2Vec2(0.0f, -10.0f)};
	Listener listener;
	b2Body* moon = nullptr;
	b2Body* lander = nullptr;
	b2Body* legs[2] = {nullptr, nullptr};
};

extern "C" {

ll_world* ll_new(void) {
	ll_world* w = new ll_world;
	w->world.SetContactListener(&w->listener);
	return w;
}

void ll_free(ll_world* w) { delete w; }

double ll_helipad_y(void) { return H / 4; }

static void destroy(ll_world* w) {
	if (w->moon == nullptr) return;
	w->world.DestroyBody(w->moon);
	w->world.DestroyBody(w->lander);
	w->world.DestroyBody(w->legs[0]);
	w->world.DestroyBody(w->legs[1]);
	w->moon = w->lander = w->legs[0] = w->legs[1] = nullptr;
}

void ll_reset(ll_world* w, const double* heights, double fx, double fy) {
	destroy(w);
	w->listener = Listener();

	// Terrain: chunk heights with a flat helipad in the middle, smoothed over neighbours.
	double height[CHUNKS + 1], chunk_x[CHUNKS], smooth_y[CHUNKS];
	for (int i = 0; i <= CHUNKS; i++) height[i] = heights[i];
	for (int i = 0; i < CHUNKS; i++) chunk_x[i] = W / (CHUNKS - 1) * i;
	const double helipad_y = H / 4;
	for (int k = -2; k <= 2; k++) height[CHUNKS / 2 + k] = helipad_y;
	for (int i = 0; i < CHUNKS; i++) {
		// height[i-1] at i = 0 is Python's height[-1], the last element.
		double prev = i == 0 ? height[CHUNKS] : height[i - 1];
		smooth_y[i] = 0.33 * (prev + height[i] + height[i + 1]);
	}
	b2BodyDef moonDef;
	w->moon = w->world.CreateBody(&moonDef);
	{
		b2EdgeShape bottom;
		bottom.SetTwoSided(b2Vec2(0, 0), b2Vec2(W, 0));
		b2FixtureDef fd;
		fd.shape = &bottom;
		w->moon->CreateFixture(&fd);
	}
	for (int i = 0; i < CHUNKS - 1; i++) {
		b2EdgeShape edge;
		edge.SetTwoSided(b2Vec2(chunk_x[i], smooth_y[i]), b2Vec2(chunk_x[i + 1], smooth_y[i + 1]));
		b2FixtureDef fd;
		fd.shape = &edge;
		fd.density = 0;
		fd.friction = 0.1f;
		w->moon->CreateFixture(&fd);
	}

	// Lander body.
	const double initial_x = W / 2, initial_y = H;
	b2BodyDef ld;
	ld.type = b2_dynamicBody;
	ld.position.Set(initial_x, initial_y);
	ld.angle = 0;
	w->lander = w->world.CreateBody(&ld);
	{
		b2Vec2 pts[6];
		for (int i = 0; i < 6; i++) pts[i].Set(LANDER_POLY[i][0] / SCALE, LANDER_POLY[i][1] / SCALE);
		b2PolygonShape poly;
		poly.Set(pts, 6);
		b2FixtureDef fd;
		fd.shape = &poly;
		fd.density = 5.0f;
		fd.friction = 0.1f;
		fd.filter.categoryBits = 0x0010;
		fd.filter.maskBits = 0x001;  // collide only with ground
		fd.restitution = 0.0f;
		w->lander->CreateFixture(&fd);
	}
	w->lander->ApplyForceToCenter(b2Vec2(fx, fy), true);

	// Legs on spring-loaded revolute joints.
	for (int k = 0; k < 2; k++) {
		const int i = k == 0 ? -1 : +1;
		b2BodyDef bd;
		bd.type = b2_dynamicBody;
		bd.position.Set(initial_x - i * LEG_AWAY / SCALE, initial_y);
		bd.angle = i * 0.05;
		b2Body* leg = w->world.CreateBody(&bd);
		b2PolygonShape box;
		box.SetAsBox(LEG_W / SCALE, LEG_H / SCALE);
		b2FixtureDef fd;
		fd.shape = &box;
		fd.density = 1.0f;
		fd.restitution = 0.0f;
		fd.filter.categoryBits = 0x0020;
		fd.filter.maskBits = 0x001;
		leg->CreateFixture(&fd);

		b2RevoluteJointDef rjd;
		rjd.bodyA = w->lander;
		rjd.bodyB = leg;
		rjd.localAnchorA.Set(0, 0);
		rjd.localAnchorB.Set(i * LEG_AWAY / SCALE, LEG_DOWN / SCALE);
		rjd.enableMotor = true;
		rjd.enableLimit = true;
		rjd.maxMotorTorque = LEG_SPRING_TORQUE;
		rjd.motorSpeed = +0.3 * i;  // low enough not to jump back into the sky
		if (i == -1) {
			rjd.lowerAngle = +0.9 - 0.5;
			rjd.upperAngle = +0.9;
		} else {
			rjd.lowerAngle = -0.9;
			rjd.upperAngle = -0.9 + 0.5;
		}
		w->world.CreateJoint(&rjd);
		w->legs[k] = leg;
	}
	w->listener.lander = w->lander;
	w->listener.legs[0] = w->legs[0];
	w->listener.legs[1] = w->legs[1];
}

int ll_step(ll_world* w, int action, double d0, double d1, double* state) {
	b2Body* L = w->lander;
	const double angle = L->GetAngle();
	const double tip[2] = {std::sin(angle), std::cos(angle)};
	const double side[2] = {-tip[1], tip[0]};

	if (action == 2) {  // main engine, m_power = 1
		const double ox = tip[0] * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d0) + side[0] * d1;
		const double oy = -tip[1] * (MAIN_ENGINE_Y_LOCATION / SCALE + 2 * d0) - side[1] * d1;
		const b2Vec2 pos = L->GetPosition();
		L->ApplyLinearImpulse(b2Vec2(-ox * MAIN_ENGINE_POWER, -oy * MAIN_ENGINE_POWER),
		                      b2Vec2(pos.x + ox, pos.y + oy), true);
	}
	if (action == 1 || action == 3) {  // side engines, s_power = 1
		const double direction = action - 2;
		const double ox = tip[0] * d0 + side[0] * (3 * d1 + direction * SIDE_ENGINE_AWAY / SCALE);
		const double oy = -tip[1] * d0 - side[1] * (3 * d1 + direction * SIDE_ENGINE_AWAY / SCALE);
		const b2Vec2 pos = L->GetPosition();
		// Gymnasium's 17 (not SIDE_ENGINE_HEIGHT) in x is kept as it is.
		L->ApplyLinearImpulse(b2Vec2(-ox * SIDE_ENGINE_POWER, -oy * SIDE_ENGINE_POWER),
		                      b2Vec2(pos.x + ox - tip[0] * 17 / SCALE, pos.y + oy + tip[1] * SIDE_ENGINE_HEIGHT / SCALE), true);
	}

	w->world.Step(1.0f / FPS, 6 * 30, 2 * 30);

	const b2Vec2 pos = L->GetPosition();
	const b2Vec2 vel = L->GetLinearVelocity();
	state[0] = (pos.x - VIEWPORT_W / SCALE / 2) / (VIEWPORT_W / SCALE / 2);
	state[1] = (pos.y - (H / 4 + LEG_DOWN / SCALE)) / (VIEWPORT_H / SCALE / 2);
	state[2] = vel.x * (VIEWPORT_W / SCALE / 2) / FPS;
	state[3] = vel.y * (VIEWPORT_H / SCALE / 2) / FPS;
	state[4] = L->GetAngle();
	state[5] = 20.0 * L->GetAngularVelocity() / FPS;
	state[6] = w->listener.contact[0] ? 1.0 : 0.0;
	state[7] = w->listener.contact[1] ? 1.0 : 0.0;
	return (w->listener.game_over ? 1 : 0) | (L->IsAwake() ? 2 : 0);
}

}  // extern "C"
