package plots

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Grid is a picture of one or more panels of W×H cells, each cell filled with the colour of its
// class and optionally labelled — a maze's landforms, or which cells share a transition template
// under each action. Row 1 is drawn at the bottom, as the maze's y axis goes up. A grid too large
// to draw cell by cell (GridCellByCell) is drawn as an image of its classes per panel, without
// labels.
type Grid struct {
	Title  string
	W, H   int
	Panels []GridPanel
	// Legend names the classes, by class number; a class without a name is left out.
	Legend []string
}

// GridPanel is one panel of a Grid: Class[(y−1)·W + (x−1)] is the class of cell (x, y), −1 for a
// cell drawn blank (a wall); Label, when set, is written in the cell when the grid is drawn cell
// by cell.
type GridPanel struct {
	Title string
	Class []int
	Label []string
}

const (
	gridCell   = vg.Length(26) // side of a cell
	gridGap    = vg.Length(18) // between panels
	gridTitleH = vg.Length(22) // panel title
	// gridPanelMax is the longest side of a panel, 4 000 pixels at figDPI: grids of up to 55 cells
	// a side are drawn cell by cell at gridCell; a larger one is drawn as an image at this size, so
	// that a picture of four panels stays near 64 M pixels however large the maze (a 2000×2000
	// maze at gridCell would take 83 G).
	gridPanelMax = vg.Length(1440)
)

// GridCellByCell reports whether a grid of w×h cells is drawn cell by cell, each cell outlined
// and labelled; a larger grid is drawn as an image of its classes, one pixel block per cell,
// without outlines or labels.
func GridCellByCell(w, h int) bool { return vg.Length(max(w, h))*gridCell <= gridPanelMax }

// panelSize is the size of one panel of g.
func (g Grid) panelSize() (w, h vg.Length) {
	cell := gridCell
	if !GridCellByCell(g.W, g.H) {
		cell = gridPanelMax / vg.Length(max(g.W, g.H))
	}
	return vg.Length(g.W) * cell, vg.Length(g.H) * cell
}

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
	panelW, panelH := g.panelSize()
	w := vg.Length(cols)*(panelW+gridGap) - gridGap
	w = max(w, textStyle(titleSize).Width(g.Title))
	entryW := legendSwatch
	for _, name := range g.Legend {
		entryW = max(entryW, legendSwatch+textStyle(legendSize).Width(name)+legendGap)
	}
	perRow := max(int(w/entryW), 1)
	legendRows := (len(g.Legend) + perRow - 1) / perRow
	w += 2 * margin
	h := vg.Length(rows)*(panelH+gridTitleH+gridGap) + gridTitleH + vg.Length(legendRows)*gridTitleH + 2*margin
	var images []image.Image // the panels of a grid too large to draw cell by cell
	if !GridCellByCell(g.W, g.H) {
		for _, p := range g.Panels {
			images = append(images, g.classImage(p, panelW, panelH))
		}
	}
	png := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(figDPI))}
	g.draw(draw.New(png), cols, perRow, entryW, images)
	if err := writeFile(pathWithoutExt+".png", png); err != nil {
		return err
	}
	svg := vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(true))
	g.draw(draw.New(svg), cols, perRow, entryW, images)
	return writeFile(pathWithoutExt+".svg", svg)
}

// classImage is panel p as an image of pw×ph points at figDPI: each pixel has the colour of the
// cell it falls in, as the cell-by-cell drawing fills it over white (blank for class −1). Its
// first row is the grid's top row.
func (g Grid) classImage(p GridPanel, pw, ph vg.Length) image.Image {
	w, h := int(math.Round(pw.Dots(figDPI))), int(math.Round(ph.Dots(figDPI)))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	column := make([]int, w) // the cell column of each pixel column
	for px := range column {
		column[px] = px * g.W / w
	}
	for py := range h {
		row := p.Class[(g.H-1-py*g.H/h)*g.W:] // the cells of this pixel row, row 1 at the bottom
		for px, x := range column {
			c := color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}
			if class := row[x]; class >= 0 {
				c = overWhite(withAlpha(classColor(class), 0.75))
			}
			img.SetNRGBA(px, py, c)
		}
	}
	return img
}

// overWhite is c drawn over white, opaque.
func overWhite(c color.NRGBA) color.NRGBA {
	blend := func(v uint8) uint8 {
		return uint8(math.Round((float64(v)*float64(c.A) + 255*float64(255-c.A)) / 255))
	}
	return color.NRGBA{blend(c.R), blend(c.G), blend(c.B), 0xFF}
}

// legendSwatch is the width of a legend entry's colour sample and the space after it.
const legendSwatch = vg.Length(20)

// draw draws g on c: its panels cell by cell, or as images when they are given.
func (g Grid) draw(c draw.Canvas, cols, perRow int, entryW vg.Length, images []image.Image) {
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
	panelW, panelH := g.panelSize()
	for i, p := range g.Panels {
		x0 := c.Min.X + vg.Length(i%cols)*(panelW+gridGap)
		y0 := top - vg.Length(i/cols)*(panelH+gridTitleH+gridGap) - gridTitleH - panelH
		c.FillText(panelTitle, vg.Point{X: x0 + panelW/2, Y: y0 + panelH + gridTitleH - 4}, p.Title)
		if images != nil {
			panel := vg.Rectangle{Min: vg.Point{X: x0, Y: y0}, Max: vg.Point{X: x0 + panelW, Y: y0 + panelH}}
			c.DrawImage(panel, images[i])
			c.SetColor(refColor())
			c.SetLineWidth(0.6)
			c.Stroke(panel.Path())
			continue
		}
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
