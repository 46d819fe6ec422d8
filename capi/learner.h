// A Python learner behind C function pointers, for temple_cell_run (cell.go): the Python worker
// (python/temple/_cell.py) fills one with ctypes callbacks. Every call returns -1 when the
// learner failed (error then writes why); act and observe_act return the action.
#include <stdint.h>

typedef struct {
	int64_t (*new_learner)(uint64_t seed);
	int64_t (*begin_task)(int64_t index, int64_t n_states, int64_t n_actions, double gamma,
	                      int64_t *terminal, int64_t n_terminal, uint64_t seed);
	int64_t (*act)(int64_t s);
	int64_t (*observe_act)(int64_t s, int64_t a, double r, int64_t s2, int64_t terminated);
	int64_t (*observe)(int64_t s, int64_t a, double r, int64_t s2, int64_t terminated);
	int64_t (*end_episode)(void);
	int64_t (*end_task)(char *buf, int64_t cap); // the task's metrics as a JSON object; its length
	int64_t (*error)(char *buf, int64_t cap);    // the last failure's text; its length
	int64_t (*close)(void);
} temple_learner;
