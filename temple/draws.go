package temple

import "github.com/temple-rl/temple/internal/buf"

// DrawSchedule is when a learner that draws its PSRL base's models itself (TemplatePrior,
// LatentPrior) draws a model; each is PSRL's schedule of that name (learners.PSRLSchedule),
// counting own samples only: pseudo-counts placed beside them end no epoch.
type DrawSchedule int

const (
	// DrawPerEpisode draws at the end of every runner episode.
	DrawPerEpisode DrawSchedule = iota
	// DrawTSDE draws when the epoch has run longer than the last one or a pair's own count has
	// more than doubled since it began (Ouyang et al. 2017, as learners.TSDE).
	DrawTSDE
	// DrawDoubling draws when a pair's own samples in the epoch reach max(1, its own count when
	// the epoch began): UCRL2's doubling rule, as learners.Doubling.
	DrawDoubling
)

// drawClock keeps a DrawSchedule's epochs: own samples when the epoch began, the last epoch's
// length, and each pair's own count when it began.
type drawClock struct {
	schedule            DrawSchedule
	epochStart, lastLen int64
	nk                  []int64
}

// reset begins a task of n pairs.
func (d *drawClock) reset(n int) {
	d.epochStart, d.lastLen = 0, 1 // T_0 = 1, as learners.PSRL
	d.nk = buf.Zeroed(d.nk, n)
}

// ends reports whether the epoch ends after own sample total of the task, pair i's n-th, and if
// so begins counting the next epoch's length.
func (d *drawClock) ends(total int64, i int, n int64) bool {
	switch {
	case d.schedule == DrawTSDE && (total-d.epochStart > d.lastLen || n > 2*d.nk[i]):
		d.lastLen = total - d.epochStart
		return true
	case d.schedule == DrawDoubling && n-d.nk[i] >= max(1, d.nk[i]):
		return true
	}
	return false
}

// atEpisodeEnd reports whether the schedule draws at the end of every runner episode.
func (d *drawClock) atEpisodeEnd() bool { return d.schedule == DrawPerEpisode }
