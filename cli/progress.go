package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/temple-rl/temple/experiment"
)

// progress shows finished tasks and the estimated time left (at the average pace so far): a live
// bar on a terminal, and otherwise a plain line at every tenth of the work, so that logs carry no
// escape codes. It writes to standard error, with the notes, so that standard output holds the
// results alone.
type progress struct {
	out      io.Writer
	name     string
	total    atomic.Int64
	finished atomic.Int64
	began    time.Time

	mu       sync.Mutex
	lastTent int64
	bars     *mpb.Progress
	bar      *mpb.Bar
}

func newProgress(out io.Writer, s experiment.Spec) *progress {
	return &progress{out: out, name: s.Name, began: time.Now()}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Start begins a new count; a sweep runs several experiments, each with its own.
func (p *progress) Start(total int) {
	p.done()
	p.total.Store(int64(total))
	p.finished.Store(0)
	p.mu.Lock()
	p.lastTent, p.began = 0, time.Now()
	p.mu.Unlock()
	if !isTerminal(p.out) {
		return
	}
	p.bars = mpb.New(mpb.WithOutput(p.out), mpb.WithWidth(48))
	p.bar = p.bars.AddBar(int64(total),
		mpb.PrependDecorators(decor.Name(p.name+" "), decor.CountersNoUnit("%d/%d tasks")),
		mpb.AppendDecorators(decor.Percentage(), decor.Name(" "), decor.Elapsed(decor.ET_STYLE_GO),
			decor.Name(", left "), decor.AverageETA(decor.ET_STYLE_GO)),
	)
}

func (p *progress) TaskDone(int, string, int) {
	n := p.finished.Add(1)
	if p.bar != nil {
		p.bar.Increment()
		return
	}
	total := p.total.Load()
	tenth := n * 10 / max(total, 1)
	p.mu.Lock()
	defer p.mu.Unlock()
	if tenth > p.lastTent {
		p.lastTent = tenth
		elapsed := time.Since(p.began)
		left := time.Duration(float64(elapsed) * float64(total-n) / float64(n))
		fmt.Fprintf(p.out, "progress: %d/%d tasks (%d%%), %s, about %s left\n", n, total, tenth*10,
			elapsed.Round(time.Second), left.Round(time.Second))
	}
}

// Note prints a note for the user on its own line (experiment.Noter).
func (p *progress) Note(text string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "note: %s\n", text)
}

// done stops the live bar, if any.
func (p *progress) done() {
	if p.bars != nil {
		if !p.bar.Completed() {
			p.bar.Abort(false)
		}
		p.bars.Wait()
		p.bars, p.bar = nil, nil
	}
}
