package plots

import (
	"image/color"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// A grid of up to 55 cells a side is drawn cell by cell; a larger one as an image.
func TestGridCellByCell(t *testing.T) {
	for _, c := range []struct {
		w, h int
		want bool
	}{{4, 4, true}, {55, 55, true}, {55, 3, true}, {56, 56, false}, {3, 56, false}, {2000, 2000, false}} {
		if got := GridCellByCell(c.w, c.h); got != c.want {
			t.Errorf("GridCellByCell(%d, %d) = %v, want %v", c.w, c.h, got, c.want)
		}
	}
}

// A grid too large to draw cell by cell is drawn as an image the right way up, with every
// cell's colour, in a picture whose size does not grow with the grid: a 1200×600 grid whose
// top half is class 1, bottom half class 0 and left column blank.
func TestLargeGridDrawnAsImage(t *testing.T) {
	const w, h = 1200, 600
	g := Grid{Title: "large", W: w, H: h, Legend: []string{"bottom", "top"}}
	for range 2 {
		p := GridPanel{Title: "panel", Class: make([]int, w*h), Label: make([]string, w*h)}
		for i := range p.Class {
			switch x, y := i%w, i/w; {
			case x == 0:
				p.Class[i] = -1
			case y >= h/2: // row 1 is the bottom row
				p.Class[i] = 1
			}
			p.Label[i] = "ignored"
		}
		g.Panels = append(g.Panels, p)
	}
	pw, ph := g.panelSize()
	img := g.classImage(g.Panels[0], pw, ph)
	b := img.Bounds()
	if b.Dx() != 4000 || b.Dy() != 2000 {
		t.Fatalf("panel image %v, want 4000×2000 pixels (1440 pt at %d dpi on the longer side)", b, figDPI)
	}
	bottom, top := overWhite(withAlpha(classColor(0), 0.75)), overWhite(withAlpha(classColor(1), 0.75))
	white := color.NRGBA{0xFF, 0xFF, 0xFF, 0xFF}
	for _, c := range []struct {
		x, y int
		want color.NRGBA
	}{{100, 10, top}, {3999, 999, top}, {100, 1000, bottom}, {3999, 1999, bottom}, {0, 10, white}, {3, 1999, white}, {4, 1999, bottom}} {
		if got := img.At(c.x, c.y).(color.NRGBA); got != c.want {
			t.Errorf("pixel (%d, %d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}

	path := filepath.Join(t.TempDir(), "large")
	if err := g.Save(path); err != nil {
		t.Fatal(err)
	}
	pic := readPNG(t, path+".png")
	pb := pic.Bounds()
	if pb.Dx() > 8200 || pb.Dy() > 2400 {
		t.Errorf("picture of two panels is %v, want at most 8200×2400 pixels", pb)
	}
	// The picture shows the panel the right way up: its upper part in the top colour.
	near := func(c color.Color, want color.NRGBA) bool {
		r, g, b, _ := c.RGBA()
		d := func(x uint32, y uint8) bool { return int(x>>8)-int(y) <= 2 && int(y)-int(x>>8) <= 2 }
		return d(r, want.R) && d(g, want.G) && d(b, want.B)
	}
	if c := pic.At(pb.Dx()/4, pb.Dy()*3/10); !near(c, top) {
		t.Errorf("picture at 30%% of its height: %v, want the top rows' %v", c, top)
	}
	if c := pic.At(pb.Dx()/4, pb.Dy()*3/4); !near(c, bottom) {
		t.Errorf("picture at 75%% of its height: %v, want the bottom rows' %v", c, bottom)
	}
	if info, err := os.Stat(path + ".svg"); err != nil || info.Size() > 10<<20 {
		t.Errorf("svg: %v, %v (want under 10 MB)", info, err)
	}
}

// BenchmarkGridSave draws a maze's template map — four panels of n×n cells in 13 classes — to
// PNG and SVG: cell by cell up to 55 cells a side, as images above (temple inspect --draw).
func BenchmarkGridSave(b *testing.B) {
	for _, n := range []int{50, 250, 2000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			g := Grid{Title: "template map", W: n, H: n}
			for range 4 {
				p := GridPanel{Title: "action", Class: make([]int, n*n), Label: make([]string, n*n)}
				for i := range p.Class {
					p.Class[i] = i * 7 / 3 % 13
					p.Label[i] = strconv.Itoa(p.Class[i] + 1)
				}
				g.Panels = append(g.Panels, p)
			}
			dir := b.TempDir()
			b.ReportAllocs()
			for b.Loop() {
				if err := g.Save(filepath.Join(dir, "grid")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
