// Package baseline holds the multi-task baselines the paper compares with (decisions 16, 24
// and 25 in docs/decisions.md), each an agent.Agent:
//
//   - DelayedQ: Delayed Q-learning (Strehl, Li, Wiewiora, Langford & Littman, ICML 2006), a
//     single-task, model-free PAC-MDP learner; also a base learner of Abs-RL and MaxQInit.
//   - MaxQInit: value transfer (Abel, Jinnai, Guo, Konidaris & Littman, ICML 2018, "Policy and
//     value transfer in lifelong reinforcement learning"): after a sampling phase, every task
//     starts from the element-wise maximum of the Q tables learned so far. Base learners:
//     Q-learning, Delayed-Q or RMax.
//   - AbsRL: state abstraction (Abel, Arumugam, Lehnert & Littman, ICML 2018, "State abstractions
//     for lifelong reinforcement learning"): Q-learning or Delayed-Q run on the abstract states of
//     φ_{Q*ε}, φ_{Q*d} or φ_{Q*}, computed from the true models of the task sequence and
//     intersected across its tasks (Abstraction).
//   - FMRL: finite-model RL (Brunskill & Li, UAI 2013): RMax for the first T1 tasks, whose
//     models are then clustered with the model gap Γ; on later tasks the candidate models are
//     eliminated pairwise on observed transitions and the survivor's counts are handed to RMax.
//   - LRMax: Lipschitz RMax (Lecarpentier, Abel, Asadi, Jinnai, Rachelson & Littman, AAAI-21,
//     "Lipschitz lifelong reinforcement learning"): RMax whose unknown pairs are planned at an
//     upper bound on Q* from the tasks in memory, by the Lipschitz continuity of Q* in a
//     pseudo-metric between MDPs and a prior bound D_max on the local model distances.
//
// Every agent validates its parameters in its constructor, draws randomness only from
// agent.Task.Rand and allocates nothing per step once its tables have grown.
//
// Each baseline's file registers its agent type (agenttypes.Register, from an init function);
// MaxQInit registers once on each of its base learners (MaxQInitQParams, …).
//
// It imports agent, mdp, the registry (agenttypes) and the single-task learners (learners); it
// must not import the template learners (temple), the runner (experiment) or the results
// directory (results).
package baseline
