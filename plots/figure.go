// Package plots draws the figures of an experiment (curves with confidence bands, PNG at 200 dpi
// and SVG) and the pictures of grids. It draws what it is given: the statistics behind a band
// come from package stats. It imports no other package of temple but stats and the atomic file
// writer (internal/atomicfile: a figure is never seen half-written).
package plots

import (
	"bufio"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/temple-rl/temple/internal/atomicfile"
	"github.com/temple-rl/temple/stats"
)

// Series is one curve of a figure: its mean and 95% band at the points X.
// len(X) must equal len(Band.Mean); Band.Lo and Band.Hi are either nil (no
// band) or of the same length.
type Series struct {
	Label string
	X     []float64
	Band  stats.Band
}

// Figure describes a line chart of one or more series with confidence
// bands. Its zero value is an empty chart; Save renders it.
type Figure struct {
	Title, XLabel, YLabel string
	Series                []Series

	// ZeroLine draws a thin dashed horizontal line at y = 0 and keeps 0 in
	// the y range, for "advantage over baseline" plots.
	ZeroLine bool
	// VLine, if set, draws a dashed vertical line at that x (e.g. a true
	// parameter value in a sweep).
	VLine *float64
	// Points draws a marker at every point, for sweeps with few points.
	Points bool
	// Reference, if set, is a curve to measure the series against (for instance the optimal
	// per-task reward): drawn as a dark grey dashed line with its band, under the series, with its
	// own legend entry after theirs.
	Reference *Series
}

// Geometry and typography. The figure is laid out in points, so the PNG at
// figDPI and the SVG have identical proportions.
const (
	figWidth  = 6 * vg.Inch
	figHeight = 4 * vg.Inch
	figDPI    = 200

	margin      = vg.Length(8) // around the whole figure
	lineWidth   = vg.Length(1.75)
	markerSize  = vg.Length(2.8) // glyph radius
	bandAlpha   = 0.2
	legendThumb = vg.Length(22) // width of a legend sample
	legendGap   = vg.Length(16) // between legend entries
	legendTop   = vg.Length(6)  // between x label and legend

	titleSize  = 12
	labelSize  = 11
	tickSize   = 9.5
	legendSize = 9.5

	xPadFrac = 0.02 // axis range padding, as a fraction of the data span
	yPadFrac = 0.05
)

// Typography and neutral colours are functions rather than package variables
// so that the package holds no mutable state.

// sans is the typeface of every text in a figure: a Helvetica/Arial
// metric-compatible face, as is customary for ML paper figures.
func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

func inkColor() color.NRGBA  { return color.NRGBA{0x22, 0x22, 0x22, 0xFF} } // text, axes
func gridColor() color.NRGBA { return color.NRGBA{0xE3, 0xE3, 0xE3, 0xFF} }
func refColor() color.NRGBA  { return color.NRGBA{0x70, 0x70, 0x70, 0xFF} } // zero line, VLine

// seriesColor returns the colour of series i: Paul Tol's "bright" scheme,
// which stays distinguishable under the common colour-vision deficiencies and
// in greyscale print. Its grey is left out (it reads as "disabled"), so the
// palette cycles every six series; seriesDashes tells the cycles apart.
func seriesColor(i int) color.NRGBA {
	bright := [...]color.NRGBA{
		{0x44, 0x77, 0xAA, 0xFF}, // blue
		{0xEE, 0x66, 0x77, 0xFF}, // red
		{0x22, 0x88, 0x33, 0xFF}, // green
		{0xCC, 0xBB, 0x44, 0xFF}, // yellow
		{0x66, 0xCC, 0xEE, 0xFF}, // cyan
		{0xAA, 0x33, 0x77, 0xFF}, // purple
	}
	return bright[i%len(bright)]
}

func seriesDashes(i int) []vg.Length {
	if (i/6)%2 == 1 {
		return []vg.Length{5, 2.5}
	}
	return nil
}

// seriesGlyph varies the marker shape too, so sweeps survive greyscale.
func seriesGlyph(i int) draw.GlyphDrawer {
	switch i % 3 {
	case 1:
		return draw.BoxGlyph{}
	case 2:
		return draw.PyramidGlyph{}
	}
	return draw.CircleGlyph{}
}

func withAlpha(c color.NRGBA, a float64) color.NRGBA {
	c.A = uint8(math.Round(a * 255))
	return c
}

// Save renders the figure to pathWithoutExt+".png" (6×4 in at 200 dpi) and
// pathWithoutExt+".svg" (same layout, fonts embedded so it renders
// identically everywhere).
func (f Figure) Save(pathWithoutExt string) error {
	if err := f.validate(); err != nil {
		return fmt.Errorf("report: saving figure %s: %w", pathWithoutExt, err)
	}

	png := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(figWidth, figHeight), vgimg.UseDPI(figDPI))}
	f.draw(draw.New(png))
	if err := writeFile(pathWithoutExt+".png", png); err != nil {
		return err
	}

	svg := vgsvg.NewWith(vgsvg.UseWH(figWidth, figHeight), vgsvg.EmbedFonts(true))
	f.draw(draw.New(svg))
	return writeFile(pathWithoutExt+".svg", svg)
}

// writeFile writes the figure's file atomically: a figure is never seen half-written.
func writeFile(name string, w io.WriterTo) error {
	err := atomicfile.WriteWith(name, func(f *bufio.Writer) error {
		_, err := w.WriteTo(f)
		return err
	})
	if err != nil {
		return fmt.Errorf("report: saving figure %s: %w", name, err)
	}
	return nil
}

func (f Figure) validate() error {
	for i, s := range f.all() {
		n := len(s.Band.Mean)
		if len(s.X) != n {
			return fmt.Errorf("series %d (%q): %d x values but %d means", i, s.Label, len(s.X), n)
		}
		if s.Band.Lo != nil && len(s.Band.Lo) != n || s.Band.Hi != nil && len(s.Band.Hi) != n {
			return fmt.Errorf("series %d (%q): band bounds have %d/%d values but there are %d means",
				i, s.Label, len(s.Band.Lo), len(s.Band.Hi), n)
		}
	}
	return nil
}

// all is the series followed by the reference curve, if any.
func (f Figure) all() []Series {
	if f.Reference == nil {
		return f.Series
	}
	return append(f.Series[:len(f.Series):len(f.Series)], *f.Reference)
}

// draw lays out the figure on c: the plot on top, the legend in its own row
// beneath the x label so that it can never hide data.
func (f Figure) draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, margin, -margin, margin, -margin)

	leg := f.legend()
	rows := leg.layout(c.Size().X)
	legendH := vg.Length(0)
	if len(rows) > 0 {
		legendH = vg.Length(len(rows))*leg.rowHeight() + legendTop
	}
	plotArea := draw.Crop(c, 0, 0, legendH, 0)

	p := f.plot()
	p.Draw(plotArea)

	if len(rows) > 0 {
		// Centre the legend under the data area, not the whole canvas, as
		// the y axis labels would otherwise push it visibly off-centre.
		data := p.DataCanvas(plotArea)
		leg.draw(c, rows, data.Center().X, c.Min.Y+legendH-legendTop)
	}
}

func textStyle(size float64) text.Style {
	return text.Style{
		Color:   inkColor(),
		Font:    sans(vg.Length(size)),
		Handler: plot.DefaultTextHandler,
	}
}

// plot builds the gonum plot (axes, grid, reference lines, series) without
// the legend.
func (f Figure) plot() *plot.Plot {
	p := plot.New()
	p.Legend.Top = true // unused (no entries), but keep it out of the way

	p.Title.Text = f.Title
	p.Title.TextStyle = textStyle(titleSize)
	p.Title.TextStyle.XAlign = draw.XCenter
	p.Title.TextStyle.YAlign = draw.YTop
	p.Title.Padding = 8

	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Color = inkColor()
		ax.Label.TextStyle.Font = sans(labelSize)
		ax.Label.Padding = 3
		ax.Tick.Label.Color = inkColor()
		ax.Tick.Label.Font = sans(tickSize)
		ax.LineStyle = draw.LineStyle{Color: inkColor(), Width: 0.8}
		ax.Tick.LineStyle = draw.LineStyle{Color: inkColor(), Width: 0.8}
		ax.Tick.Length = 4
		ax.Padding = 0 // ranges are padded in data units instead
		ax.Tick.Marker = niceTicks{}
	}
	p.X.Label.Text = f.XLabel
	p.Y.Label.Text = f.YLabel

	p.Add(&plotter.Grid{
		Vertical:   draw.LineStyle{Color: gridColor(), Width: 0.6},
		Horizontal: draw.LineStyle{Color: gridColor(), Width: 0.6},
	})
	ref := draw.LineStyle{Color: refColor(), Width: 0.9, Dashes: []vg.Length{4, 3}}
	if f.ZeroLine {
		p.Add(plotFunc(func(c draw.Canvas, p *plot.Plot) {
			_, trY := p.Transforms(&c)
			c.StrokeLine2(ref, c.Min.X, trY(0), c.Max.X, trY(0))
		}))
	}
	if f.VLine != nil && isFinite(*f.VLine) {
		x0 := *f.VLine
		ref := ref
		ref.Width = 1.1
		p.Add(plotFunc(func(c draw.Canvas, p *plot.Plot) {
			trX, _ := p.Transforms(&c)
			c.StrokeLine2(ref, trX(x0), c.Min.Y, trX(x0), c.Max.Y)
		}))
	}

	// All bands first, then all lines, then markers: a translucent band
	// must never veil another series' line.
	var lines, marks []plot.Plotter
	if r := f.Reference; r != nil {
		for _, seg := range segments(r.X, r.Band.Lo, r.Band.Hi) {
			if band := bandPolygon(*r, seg, withAlpha(refColor(), bandAlpha)); band != nil {
				p.Add(band)
			}
		}
		for _, seg := range segments(r.X, r.Band.Mean) {
			if seg.len() >= 2 {
				line := seriesLine(*r, seg, 0)
				line.LineStyle = referenceStyle()
				lines = append(lines, line)
			}
		}
	}
	for i, s := range f.Series {
		col := seriesColor(i)
		for _, seg := range segments(s.X, s.Band.Lo, s.Band.Hi) {
			if band := bandPolygon(s, seg, withAlpha(col, bandAlpha)); band != nil {
				p.Add(band)
			}
		}
		for _, seg := range segments(s.X, s.Band.Mean) {
			if seg.len() >= 2 {
				lines = append(lines, seriesLine(s, seg, i))
			} else {
				// A lone point (single-point series, or NaNs on both
				// sides) has neither line nor band: show its CI as an
				// error bar, and always mark it.
				marks = append(marks, errorBar(s, seg.from, col))
			}
			if f.Points || seg.len() < 2 {
				marks = append(marks, seriesMarks(s, seg, i))
			}
		}
	}
	p.Add(lines...)
	p.Add(marks...)

	xmin, xmax, ymin, ymax := f.dataRange()
	p.X.Min, p.X.Max = pad(xmin, xmax, xPadFrac)
	p.Y.Min, p.Y.Max = pad(ymin, ymax, yPadFrac)
	return p
}

// plotFunc adapts a function to plot.Plotter, for reference lines and error
// bars that need the data-to-canvas transforms.
type plotFunc func(draw.Canvas, *plot.Plot)

func (fn plotFunc) Plot(c draw.Canvas, p *plot.Plot) { fn(c, p) }

// segment is a half-open index range [from, to) of consecutive finite points.
type segment struct{ from, to int }

func (s segment) len() int { return s.to - s.from }

// segments splits the indices of x into maximal runs where x and every ys[j]
// are finite, so NaN points leave gaps instead of breaking the figure.
// A nil or empty ys[j] yields no segments (nothing to draw).
func segments(x []float64, ys ...[]float64) []segment {
	for _, y := range ys {
		if len(y) != len(x) {
			return nil
		}
	}
	var segs []segment
	start := -1
	for k := range x {
		ok := isFinite(x[k])
		for _, y := range ys {
			ok = ok && isFinite(y[k])
		}
		switch {
		case ok && start < 0:
			start = k
		case !ok && start >= 0:
			segs = append(segs, segment{start, k})
			start = -1
		}
	}
	if start >= 0 {
		segs = append(segs, segment{start, len(x)})
	}
	return segs
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// bandPolygon is the filled CI region of one segment: along Hi forwards and
// back along Lo. It returns nil where there is no area to fill.
func bandPolygon(s Series, seg segment, fill color.Color) *plotter.Polygon {
	if seg.len() < 2 {
		return nil
	}
	ring := make(plotter.XYs, 0, 2*seg.len())
	for k := seg.from; k < seg.to; k++ {
		ring = append(ring, plotter.XY{X: s.X[k], Y: s.Band.Hi[k]})
	}
	for k := seg.to - 1; k >= seg.from; k-- {
		ring = append(ring, plotter.XY{X: s.X[k], Y: s.Band.Lo[k]})
	}
	// No outline: a stroked edge would make the band look like two
	// extra curves.
	return &plotter.Polygon{XYs: []plotter.XYs{ring}, Color: fill}
}

func seriesLine(s Series, seg segment, i int) *plotter.Line {
	xys := make(plotter.XYs, seg.len())
	for k := range xys {
		xys[k] = plotter.XY{X: s.X[seg.from+k], Y: s.Band.Mean[seg.from+k]}
	}
	return &plotter.Line{XYs: xys, LineStyle: lineStyle(i)}
}

// referenceStyle is the line of Figure.Reference.
func referenceStyle() draw.LineStyle {
	return draw.LineStyle{Color: refColor(), Width: lineWidth, Dashes: []vg.Length{6, 3}}
}

func lineStyle(i int) draw.LineStyle {
	return draw.LineStyle{Color: seriesColor(i), Width: lineWidth, Dashes: seriesDashes(i)}
}

func glyphStyle(i int) draw.GlyphStyle {
	return draw.GlyphStyle{Color: seriesColor(i), Radius: markerSize, Shape: seriesGlyph(i)}
}

func seriesMarks(s Series, seg segment, i int) *plotter.Scatter {
	xys := make(plotter.XYs, seg.len())
	for k := range xys {
		xys[k] = plotter.XY{X: s.X[seg.from+k], Y: s.Band.Mean[seg.from+k]}
	}
	return &plotter.Scatter{XYs: xys, GlyphStyle: glyphStyle(i)}
}

// errorBar draws Lo..Hi at point k as a capped vertical bar, or nothing if
// the bounds are missing or coincide.
func errorBar(s Series, k int, col color.Color) plot.Plotter {
	return plotFunc(func(c draw.Canvas, p *plot.Plot) {
		b := s.Band
		if b.Lo == nil || b.Hi == nil || !isFinite(b.Lo[k]) || !isFinite(b.Hi[k]) || b.Lo[k] == b.Hi[k] {
			return
		}
		trX, trY := p.Transforms(&c)
		x, lo, hi := trX(s.X[k]), trY(b.Lo[k]), trY(b.Hi[k])
		sty := draw.LineStyle{Color: col, Width: 1.2}
		const capHalf = 3
		c.StrokeLine2(sty, x, lo, x, hi)
		c.StrokeLine2(sty, x-capHalf, lo, x+capHalf, lo)
		c.StrokeLine2(sty, x-capHalf, hi, x+capHalf, hi)
	})
}

// dataRange is the extent of all finite drawn values, including the
// reference lines. With no finite data at all it returns NaNs.
func (f Figure) dataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	addX := func(v float64) { xmin, xmax = math.Min(xmin, v), math.Max(xmax, v) }
	addY := func(v float64) { ymin, ymax = math.Min(ymin, v), math.Max(ymax, v) }
	for _, s := range f.all() {
		for _, ys := range [][]float64{s.Band.Mean, s.Band.Lo, s.Band.Hi} {
			for _, seg := range segments(s.X, ys) {
				for k := seg.from; k < seg.to; k++ {
					addX(s.X[k])
					addY(ys[k])
				}
			}
		}
	}
	if f.VLine != nil && isFinite(*f.VLine) {
		addX(*f.VLine)
	}
	if f.ZeroLine {
		addY(0)
	}
	return xmin, xmax, ymin, ymax
}

// pad widens [lo, hi] by frac of its span on each side so that curves do
// not run into the axes. A degenerate range — one value, or values that differ
// only by rounding (−20 and −20.000000000000004) — gets a unit-ish width, and
// an empty one (no finite data) becomes [0, 1].
func pad(lo, hi, frac float64) (float64, float64) {
	switch {
	case lo > hi:
		return 0, 1
	case hi-lo <= 1e-9*math.Max(math.Abs(lo), math.Abs(hi)):
		mid := lo + (hi-lo)/2
		d := math.Max(0.5, 0.1*math.Abs(mid))
		return mid - d, mid + d
	}
	d := frac * (hi - lo)
	return lo - d, hi + d
}

// legend holds the entries of the legend row(s) drawn under the plot.
type legend struct {
	style   text.Style
	entries []legendEntry
}

type legendEntry struct {
	label  string
	series int
	band   bool // the series has a visible band
	points bool
	ref    bool // the entry is Figure.Reference
}

func (f Figure) legend() legend {
	l := legend{style: textStyle(legendSize)}
	for i, s := range f.all() {
		if s.Label == "" {
			continue
		}
		if i == len(f.Series) { // the reference: a dashed line and its band
			l.entries = append(l.entries, legendEntry{label: s.Label, ref: true, band: s.Band.Lo != nil})
			continue
		}
		band := false
		for _, seg := range segments(s.X, s.Band.Lo, s.Band.Hi) {
			for k := seg.from; k < seg.to; k++ {
				band = band || s.Band.Lo[k] != s.Band.Hi[k]
			}
		}
		single := len(segments(s.X, s.Band.Mean)) > 0
		for _, seg := range segments(s.X, s.Band.Mean) {
			single = single && seg.len() < 2
		}
		l.entries = append(l.entries, legendEntry{label: s.Label, series: i, band: band, points: f.Points || single})
	}
	return l
}

func (l legend) rowHeight() vg.Length {
	e := l.style.FontExtents()
	return 1.35 * (e.Ascent + e.Descent)
}

func (l legend) entryWidth(e legendEntry) vg.Length {
	return legendThumb + l.style.Width(" ") + l.style.Width(e.label)
}

// layout breaks the entries into rows no wider than width, greedily, so that
// a long legend wraps instead of running off the figure.
func (l legend) layout(width vg.Length) [][]legendEntry {
	var rows [][]legendEntry
	var row []legendEntry
	var w vg.Length
	for _, e := range l.entries {
		ew := l.entryWidth(e)
		if len(row) > 0 && w+legendGap+ew > width {
			rows = append(rows, row)
			row, w = nil, 0
		}
		if len(row) > 0 {
			w += legendGap
		}
		row = append(row, e)
		w += ew
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return rows
}

// draw renders the rows centred on centreX, the first row's top at top,
// clamped to stay inside c.
func (l legend) draw(c draw.Canvas, rows [][]legendEntry, centreX, top vg.Length) {
	rh := l.rowHeight()
	ext := l.style.FontExtents()
	sty := l.style
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	for r, row := range rows {
		var w vg.Length
		for j, e := range row {
			if j > 0 {
				w += legendGap
			}
			w += l.entryWidth(e)
		}
		x := centreX - w/2
		x = max(c.Min.X, min(x, c.Max.X-w))

		mid := top - (vg.Length(r)+0.5)*rh
		for _, e := range row {
			half := 0.4 * ext.Ascent
			thumb := vg.Rectangle{
				Min: vg.Point{X: x, Y: mid - half},
				Max: vg.Point{X: x + legendThumb, Y: mid + half},
			}
			col, line := seriesColor(e.series), lineStyle(e.series)
			if e.ref {
				col, line = refColor(), referenceStyle()
			}
			if e.band {
				c.SetColor(withAlpha(col, bandAlpha))
				c.Fill(thumb.Path())
			}
			c.StrokeLine2(line, thumb.Min.X, mid, thumb.Max.X, mid)
			if e.points {
				c.DrawGlyph(glyphStyle(e.series), vg.Point{X: x + legendThumb/2, Y: mid})
			}
			c.FillText(sty, vg.Point{X: x + legendThumb + l.style.Width(" "), Y: mid}, e.label)
			x += l.entryWidth(e) + legendGap
		}
	}
}

// niceTicks places about five to eight labelled ticks at round values (steps
// of 1, 2, 2.5 or 5 times a power of ten) and no minor ticks: gonum's default
// ticker often labels only three values, which leaves the grid too sparse to
// read values off.
type niceTicks struct{}

func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !isFinite(lo) || !isFinite(hi) {
		return nil
	}
	step := niceStep((hi - lo) / 5)
	prec := decimals(step)
	first := math.Ceil(lo/step - 1e-9)
	if math.Abs(first)+10 >= 1<<52 {
		// Steps below the resolution of the values (a range that differs only by rounding, which
		// pad widens): i++ would not change i, and the loop would never end.
		return nil
	}
	var ticks []plot.Tick
	for i := first; i*step <= hi+1e-9*step; i++ {
		v := i * step
		if v == 0 {
			v = 0 // no "-0"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: tickLabel(v, step, prec)})
	}
	return ticks
}

// niceStep rounds raw to the nearest of 1, 2, 2.5, 5 × 10^k.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	switch f := raw / p; {
	case f < 1.5:
		return p
	case f < 2.25:
		return 2 * p
	case f < 3.5:
		return 2.5 * p
	case f < 7.5:
		return 5 * p
	}
	return 10 * p
}

// decimals is the number of decimals needed to print multiples of step.
func decimals(step float64) int {
	for p := 0; p < 12; p++ {
		s := step * math.Pow(10, float64(p))
		if math.Abs(s-math.Round(s)) < 1e-6*s {
			return p
		}
	}
	return 12
}

// tickLabel prints v with a typographic minus, switching to exponent
// notation for very large or small scales where fixed notation gets long.
func tickLabel(v, step float64, prec int) string {
	var s string
	if step >= 1e5 || step < 1e-4 {
		s = strconv.FormatFloat(v, 'g', 4, 64)
	} else {
		s = strconv.FormatFloat(v, 'f', prec, 64)
	}
	if rest, neg := strings.CutPrefix(s, "-"); neg {
		s = "\u2212" + rest
	}
	return s
}
