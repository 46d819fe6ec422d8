package experiment

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/temple-rl/temple/env"
	"github.com/temple-rl/temple/template"
)

// gridText writes a template map top row first, as the maze is drawn.
func gridText(m []int, w int) string {
	var b strings.Builder
	for y := len(m)/w - 1; y >= 0; y-- {
		for x := range w {
			fmt.Fprintf(&b, "%d", m[y*w+x]+1)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// The template map of a 3×3 maze with slip 0.4 everywhere (paper Appendix A's setting): moving
// into a corner's two walls keeps 0.8 on the spot — template 2, (0.8, 0.2) — every other move has
// template 1, (0.6, 0.2, 0.2).
func TestTemplateMapGolden(t *testing.T) {
	slip := []float64{0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4, 0.4}
	mz := env.Maze{Width: 3, Height: 3, Slip: slip, Actions: 4}
	m, err := mz.Model()
	if err != nil {
		t.Fatal(err)
	}
	tr := template.OfModel(m)
	golden := map[int]string{
		env.Up:    "212\n111\n111\n",
		env.Down:  "111\n111\n212\n",
		env.Left:  "211\n111\n211\n",
		env.Right: "112\n111\n112\n",
	}
	for a, want := range golden {
		if got := gridText(TemplateMap(tr, a), 3); got != want {
			t.Errorf("%s:\n%swant\n%s", env.ActionNames[a], got, want)
		}
	}
	if g := tr.Templates[1].P; len(g) != 2 || g[0] < 0.79 || g[0] > 0.81 {
		t.Errorf("template 2 = %v, want (0.8, 0.2)", g)
	}
	land, tmpl, ok := MazePictures(Task{Def: mz, Model: m})
	if !ok || len(land.Panels) != 1 || len(tmpl.Panels) != 4 || len(tmpl.Legend) != 2 {
		t.Fatalf("pictures: %v, %d and %d panels, legend %v", ok, len(land.Panels), len(tmpl.Panels), tmpl.Legend)
	}
	dir := t.TempDir()
	for name, g := range map[string]interface{ Save(string) error }{"landforms": land, "templates": tmpl} {
		if err := g.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		for _, ext := range []string{".png", ".svg"} {
			if fi, err := os.Stat(filepath.Join(dir, name+ext)); err != nil || fi.Size() == 0 {
				t.Errorf("%s%s: %v", name, ext, err)
			}
		}
	}
}
