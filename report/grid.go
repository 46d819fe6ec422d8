package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Grid is a picture of one or more panels of W×H cells, each cell filled with the colour of its
// class and optionally labelled — a maze's landforms, or which cells share a transition template
// under each action. Row 1 is drawn at the bottom, as the maze's y axis goes up.
type Grid struct {
	Title  string
	W, H   int
	Panels []GridPanel
	// Legend names the classes, by class number; a class without a name is left out.
	Legend []string
}

// GridPanel is one panel of a Grid: Class[(y−1)·W + (x−1)] is the class of cell (x, y), −1 for a
// cell drawn blank (a wall); Label, when set, is written in the cell.
type GridPanel struct {
	Title string
	Class []int
	Label []string
}

const (
	gridCell   = vg.Length(26) // side of a cell
	gridGap    = vg.Length(18) // between panels
	gridTitleH = vg.Length(22) // panel title
)

// classPalette are 20 colours told apart at a glance (Tableau 20, dark and light in turn);
// classes beyond it repeat them.
var classPalette = [20]uint32{
	0x4E79A7, 0xA0CBE8, 0xF28E2B, 0xFFBE7D, 0x59A14F, 0x8CD17D, 0xB6992D, 0xF1CE63, 0x499894, 0x86BCB6,
	0xE15759, 0xFF9D9A, 0x79706E, 0xBAB0AC, 0xD37295, 0xFABFD2, 0xB07AA1, 0xD4A6C8, 0x9D7660, 0xD7B5A6,
}

// classColor is the colour of class k.
func classColor(k int) color.NRGBA {
	c := classPalette[k%len(classPalette)]
	return color.NRGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xFF}
}

// Save renders the picture to pathWithoutExt + ".png" (200 dpi) and ".svg".
func (g Grid) Save(pathWithoutExt string) error {
	for i, p := range g.Panels {
		if len(p.Class) != g.W*g.H || p.Label != nil && len(p.Label) != g.W*g.H {
			return fmt.Errorf("report: saving grid %s: panel %d has %d classes and %d labels for %d cells",
				pathWithoutExt, i, len(p.Class), len(p.Label), g.W*g.H)
		}
	}
	cols := min(len(g.Panels), 4)
	rows := (len(g.Panels) + cols - 1) / cols
	w := vg.Length(cols)*(vg.Length(g.W)*gridCell+gridGap) - gridGap
	w = max(w, textStyle(titleSize).Width(g.Title))
	entryW := legendSwatch
	for _, name := range g.Legend {
		entryW = max(entryW, legendSwatch+textStyle(legendSize).Width(name)+legendGap)
	}
	perRow := max(int(w/entryW), 1)
	legendRows := (len(g.Legend) + perRow - 1) / perRow
	w += 2 * margin
	h := vg.Length(rows)*(vg.Length(g.H)*gridCell+gridTitleH+gridGap) + gridTitleH + vg.Length(legendRows)*gridTitleH + 2*margin
	png := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(figDPI))}
	g.draw(draw.New(png), cols, perRow, entryW)
	if err := writeFile(pathWithoutExt+".png", png); err != nil {
		return err
	}
	svg := vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(true))
	g.draw(draw.New(svg), cols, perRow, entryW)
	return writeFile(pathWithoutExt+".svg", svg)
}

// legendSwatch is the width of a legend entry's colour sample and the space after it.
const legendSwatch = vg.Length(20)

func (g Grid) draw(c draw.Canvas, cols, perRow int, entryW vg.Length) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, margin, -margin, margin, -margin)
	title := textStyle(titleSize)
	title.XAlign, title.YAlign = draw.XCenter, draw.YTop
	c.FillText(title, vg.Point{X: c.Center().X, Y: c.Max.Y}, g.Title)
	top := c.Max.Y - gridTitleH
	label := textStyle(tickSize)
	label.XAlign, label.YAlign = draw.XCenter, draw.YCenter
	panelTitle := textStyle(labelSize)
	panelTitle.XAlign, panelTitle.YAlign = draw.XCenter, draw.YTop
	panelW, panelH := vg.Length(g.W)*gridCell, vg.Length(g.H)*gridCell
	for i, p := range g.Panels {
		x0 := c.Min.X + vg.Length(i%cols)*(panelW+gridGap)
		y0 := top - vg.Length(i/cols)*(panelH+gridTitleH+gridGap) - gridTitleH - panelH
		c.FillText(panelTitle, vg.Point{X: x0 + panelW/2, Y: y0 + panelH + gridTitleH - 4}, p.Title)
		for k, class := range p.Class {
			x, y := x0+vg.Length(k%g.W)*gridCell, y0+vg.Length(k/g.W)*gridCell
			rect := vg.Rectangle{Min: vg.Point{X: x, Y: y}, Max: vg.Point{X: x + gridCell, Y: y + gridCell}}
			if class >= 0 {
				c.SetColor(withAlpha(classColor(class), 0.75))
				c.Fill(rect.Path())
			}
			c.SetColor(refColor())
			c.SetLineWidth(0.6)
			c.Stroke(rect.Path())
			if p.Label != nil && p.Label[k] != "" {
				c.FillText(label, vg.Point{X: x + gridCell/2, Y: y + gridCell/2}, p.Label[k])
			}
		}
	}
	// Legend: as many entries a row as fit, under the panels.
	legendTop := top - vg.Length((len(g.Panels)+cols-1)/cols)*(panelH+gridTitleH+gridGap)
	entry := textStyle(legendSize)
	entry.YAlign = draw.YCenter
	n := 0
	for k, name := range g.Legend {
		if name == "" {
			continue
		}
		x := c.Min.X + vg.Length(n%perRow)*entryW
		y := legendTop - vg.Length(n/perRow)*gridTitleH - gridTitleH/2
		sw := vg.Rectangle{Min: vg.Point{X: x, Y: y - 5}, Max: vg.Point{X: x + 14, Y: y + 5}}
		c.SetColor(withAlpha(classColor(k), 0.75))
		c.Fill(sw.Path())
		c.FillText(entry, vg.Point{X: x + legendSwatch, Y: y}, name)
		n++
	}
}
