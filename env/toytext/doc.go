// Package toytext holds exact tabular models of two of Gymnasium's toy-text environments, for use
// as tasks: FrozenLake (FrozenLake-v1: the 4x4 and 8x8 maps or a map of one's own, slippery or
// not) and Taxi (Taxi-v3: Dietterich's 5x5 taxi domain, 500 states, 6 actions).
//
// Each builder returns an mdp.Model whose states, actions, transitions, rewards, start
// distribution and terminal states are those of Gymnasium's P table, initial state distribution
// and "terminated" flag. States and actions are numbered as in Gymnasium, so a policy learned here
// runs unchanged there. The step limit of Gymnasium's TimeLimit wrapper (100 or 200 steps) is not
// part of the model: truncation belongs to the experiment runner.
//
// Source followed: Farama-Foundation/Gymnasium at tag v1.2.3, the last release that registers
// Taxi-v3, files gymnasium/envs/toy_text/frozen_lake.py and gymnasium/envs/toy_text/taxi.py, with
// their default arguments (FrozenLake: success_rate 1/3, reward_schedule (1, 0, 0); Taxi:
// is_rainy and fickle_passenger off). Gymnasium 1.3 renamed Taxi-v3 to Taxi-v4 after fixing the
// rainy and fickle variants; its default, deterministic dynamics are unchanged.
package toytext
