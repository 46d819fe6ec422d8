package cli

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/temple-rl/temple/experiment"
	"github.com/temple-rl/temple/presets"
)

// repoRoot is the repository's root, seen from this package's directory (where go test runs).
const repoRoot = ".."

// illustrativeMarker, on the line just before a code fence, says that the block is not run as
// written, and why: <!-- illustrative: a picture of the packages, not a command -->. Use it
// sparingly; every other block runs.
const illustrativeMarker = "<!-- illustrative:"

// codeBlock is one fenced code block of a Markdown page.
type codeBlock struct {
	page         string   // relative to the repository's root
	line         int      // of the opening fence
	lang         string   // sh, yaml, python, text
	lines        []string // the block's lines, as written
	illustrative bool     // marked with illustrativeMarker
}

// docPages are README.md and every Markdown page under docs/, relative to the repository's root.
func docPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md", "EXPERIMENTS.md"}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(repoRoot, path)
			pages = append(pages, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// codeBlocks are the fenced code blocks of the page.
func codeBlocks(t *testing.T, page string) []codeBlock {
	t.Helper()
	f, err := os.Open(filepath.Join(repoRoot, page))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []codeBlock
	var cur *codeBlock
	prev := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &codeBlock{page: page, line: n, lang: strings.TrimPrefix(trimmed, "```"),
				illustrative: strings.HasPrefix(prev, illustrativeMarker)}
		case cur != nil && trimmed == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, text)
		}
		prev = trimmed
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Errorf("%s:%d: code block never closed", page, cur.line)
	}
	return blocks
}

// readmeShLines are the command lines of the sh blocks of the pages, without their comments.
func readmeShLines(t *testing.T, pages ...string) []string {
	t.Helper()
	var lines []string
	for _, page := range pages {
		for _, b := range codeBlocks(t, page) {
			if b.lang != "sh" || b.illustrative {
				continue
			}
			for _, line := range b.lines {
				line = strings.TrimSpace(line)
				if k := strings.Index(line, " #"); k >= 0 {
					line = strings.TrimSpace(line[:k])
				}
				if line != "" {
					lines = append(lines, line)
				}
			}
		}
	}
	return lines
}

// pythonPages are the pages whose python blocks python/tests/test_docs.py runs (its PAGES), and
// the pages of a learner of one's own, whose blocks python/tests/test_own_learner.py runs.
var pythonPages = map[string]bool{"README.md": true, "docs/guides/python.md": true, "docs/guides/own-learner.md": true,
	"docs/reference/external-agents.md": true}

// checkedElsewhere are pages whose go and yaml blocks another package's test checks, and which.
var checkedElsewhere = map[string]string{
	"docs/guides/new-family.md": "families.TestGuideIsTheTestFamily: its go blocks are the test family corridor, word for word, and its yaml reads with corridor registered",
	// Their configs name a Python learner, which runs with temple's Python package.
	"docs/guides/own-learner.md":        "python/tests/test_own_learner.py (TestGuides): its yaml blocks are examples/own-learner's files, and its commands run there",
	"docs/reference/external-agents.md": "python/tests/test_own_learner.py (TestGuides): its learner runs under its config",
	"docs/guides/benchmark.md":          "benchmark.TestGuideAddFile: its yaml block is examples/own-learner/benchmark-add.yaml (a Python learner's), which it reads as --add does",
}

// TestDocBlocksKnown checks that every code block of the README and docs/ is of a kind some test
// runs: sh (TestReadmeCommands), yaml (TestDocConfigs), python on pythonPages
// (python/tests/test_docs.py, through make python-test), go on the pages of checkedElsewhere, or
// marked illustrative.
func TestDocBlocksKnown(t *testing.T) {
	for _, page := range docPages(t) {
		for _, b := range codeBlocks(t, page) {
			switch {
			case b.illustrative:
			case b.lang == "sh", b.lang == "yaml":
			case b.lang == "python" && pythonPages[b.page]:
			case b.lang == "go" && checkedElsewhere[b.page] != "":
			default:
				t.Errorf("%s:%d: a code block of kind %q that no test runs: make it sh, yaml or python, or mark it %s ...-->",
					b.page, b.line, b.lang, illustrativeMarker)
			}
		}
	}
}

// TestDocConfigs loads every yaml block of the README and docs/ as an experiment config and
// builds its first run's tasks and agents, as temple run would: each must be a config that runs as
// written (a simulator's block that left the oracle on fails here). The config is written beside
// a link to the repository's examples/, as a user's config in the repository's root would be.
func TestDocConfigs(t *testing.T) {
	dir := t.TempDir()
	examples, err := filepath.Abs(filepath.Join(repoRoot, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(examples, filepath.Join(dir, "examples")); err != nil {
		t.Fatal(err)
	}
	for _, page := range docPages(t) {
		for _, b := range codeBlocks(t, page) {
			if b.lang != "yaml" || b.illustrative {
				continue
			}
			if why, ok := checkedElsewhere[b.page]; ok {
				t.Logf("%s:%d: checked by %s", b.page, b.line, why)
				continue
			}
			path := filepath.Join(dir, "config.yaml")
			if err := os.WriteFile(path, []byte(strings.Join(b.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := experiment.Load(path)
			if err != nil {
				t.Errorf("%s:%d: the yaml block is not a valid config: %v", b.page, b.line, err)
				continue
			}
			if testing.Short() {
				continue
			}
			s.Runs = 1 // the first run's tasks and agents say whether it runs
			if _, err := experiment.Build(s); err != nil {
				t.Errorf("%s:%d: the yaml block does not run as a config: %v", b.page, b.line, err)
			}
		}
	}
}

// readmeSkipped are the lines of sh blocks this test does not run, and why.
var readmeSkipped = map[string]string{
	"temple benchmark --tier full --estimate":                                            "reads benchmarks/ of the repository's root; cli's TestBenchmarkEstimate runs --estimate",
	"temple benchmark --tier small --out runs/bench-small":                               "takes minutes and reads benchmarks/ of the repository's root; benchmark's TestTinyBenchmark runs the same at a tiny size",
	"temple benchmark --tier small --seed 54 --add examples/hybrid-prior/ablations.yaml": "takes minutes and reads benchmarks/ of the repository's root; benchmark's TestTinyBenchmark runs a benchmark at a tiny size, and TestAddFilesOfTheRepositoryLoad loads the --add file",
	"go test ./...":                            "the test suite itself, of which this test is part",
	"go build ./...":                           "the test suite builds every package before it runs",
	"go install ./cmd/temple":                  "installs into the user's GOPATH; this test builds the same command",
	"go test ./families/":                      "the families' own tests, part of go test ./...",
	"go generate ./cli/describe":               "rewrites docs/reference/configuration.md; cli/describe's TestReferenceIsCurrent fails while it is stale",
	"go build -tags box2d,mujoco ./cmd/temple": "needs Debian's Box2D and MuJoCo (cgo); .ci/run builds and tests them",
	"temple deep --envs Hopper-v5 --seeds 10 --sizes 250,1000,4000 --out runs/hopper": "Hopper-v5 exists only in a build with -tags mujoco",
	"make python": "needs a C compiler (cgo) and make; .ci/run installs them and runs it (through make python-test)",
	"make wheel":  "needs a C compiler and Python; .ci/run builds the wheel (make wheel-test runs the Python guide's install block)",
	"python3 -m venv v && v/bin/pip install --no-index dist/temple-*.whl": "needs the wheel of make wheel; make wheel-test runs it in .ci/run",
	`v/bin/python -c "import temple; print(temple.__version__)"`:          "needs the wheel of make wheel; make wheel-test runs it in .ci/run",
	"v/bin/temple run --out /tmp/temple-default":                          "needs the wheel of make wheel; make wheel-test runs it in .ci/run",
	"sbatch --cpus-per-task=4 slurm.sbatch --runs 20":                     "needs a Slurm cluster; examples/cluster/test-slurm.sh runs the script on one in .ci/run",
	"squeue": "needs a Slurm cluster; examples/cluster/test-slurm.sh runs the script on one in .ci/run",
	"temple merge runs/tau-cluster runs/tau-cluster-shard-*":           "merges the shards of the Slurm job above; examples/cluster/test-slurm.sh does it in .ci/run",
	"sbatch --array=1 --cpus-per-task=4 slurm.sbatch --runs 20":        "needs a Slurm cluster; examples/cluster/test-slurm.sh runs the script on one in .ci/run",
	"bash examples/cluster/test-slurm.sh":                              "starts Slurm's daemons as root; .ci/run runs it",
	"make python-test":                                                 "needs a C compiler, make and python3; .ci/run runs it",
	"PYTHONPATH=python python3 examples/python/frozenlake_sequence.py": "needs the library make python builds; .ci/run runs it after make python-test",
	"PYTHONPATH=python python3 -m temple.bench":                        "needs the library make python builds; .ci/run runs it after make python-test",
	// A learner of one's own: in Python (the package and its library), in a Go module of its own.
	"temple run examples/own-learner/judge.yaml --out runs/own-learner":                            ownLearner,
	"temple compare runs/own-learner --pair OptQ:MBIE-EB --pair OptQ:PSRL":                         ownLearner,
	"temple tune examples/own-learner/tune.yaml --budget 8 --runs 1 --out runs/own-learner-tuning": ownLearner,
	"temple run runs/own-learner-tuning/tuned.yaml --out runs/own-learner-judged":                  ownLearner,
	"cd examples/own-learner-go":                                        ".ci/run builds and runs the module examples/own-learner-go",
	"go run . run config.yaml --runs 2 --out ../../runs/own-learner-go": ".ci/run builds and runs the module examples/own-learner-go",
}

// ownLearner is why TestReadmeCommands skips the commands of a Python learner of one's own.
const ownLearner = "runs a Python learner, with temple's Python package and library: python/tests/test_own_learner.py runs the guide's commands after make python"

// experimentPages are the pages of the experiments: their commands run the full experiments
// (minutes to hours), so TestReadmeCommands checks each temple run and temple reproduce line with
// --print (the config, preset and flags resolve to a valid spec) instead of running it.
const experimentPages = "docs/experiments/"

// readmeSmall are the flags appended to a line so that it runs in seconds: the same command on
// fewer runs, or a deep study on a few small models. A line not listed runs as shown.
var readmeSmall = map[string][]string{
	"temple reproduce online-maze": {"--runs", "2"},
	"temple reproduce online-maze --tasks published:online-maze-4x4 --out runs/online-maze-published": {"--runs", "2"},
	"temple deep": {"--seeds", "2", "--sizes", "50,100", "--test", "200", "--steps", "40", "--kmax", "2"},
}

// TestReadmeCommands runs every line of the sh blocks of README.md and docs/, page by page and in
// order, each page in an empty directory of its own standing for a fresh clone's working
// directory (with the repository's examples/ beside it): "temple" and "go run ./cmd/temple" lines run the built
// binary, with the flags of readmeSmall, through sh (so a redirection works as written); "go run
// ./examples/..." lines run in the repository. The files a line expects to exist — the config
// experiment.yaml of the cluster example, the results directories runs/a and runs/b that
// "temple compare" pairs — are made first, by the same binary.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds temple and runs every command of the README and docs/")
	}
	binDir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "temple"), "../cmd/temple").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	examples, err := filepath.Abs(filepath.Join(repoRoot, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	path := binDir + string(os.PathListSeparator) + os.Getenv("PATH")
	shell := func(dir, line string) {
		t.Helper()
		cmd := exec.Command("sh", "-c", line)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+path)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", line, err, out)
		}
	}
	// fresh is a new working directory for a page, as a fresh clone's root would be: its commands
	// run in it in order, so a page whose commands refuse one another fails here.
	fresh := func() string {
		work := t.TempDir()
		if err := os.Symlink(examples, filepath.Join(work, "examples")); err != nil {
			t.Fatal(err)
		}
		config := "name: x\nruns: 3\nepisodes: 100\ntasks:\n  count: 5\n"
		if err := os.WriteFile(filepath.Join(work, "experiment.yaml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		return work
	}
	ran := 0
	for _, page := range docPages(t) {
		work := fresh()
		for _, line := range readmeShLines(t, page) {
			if why, ok := readmeSkipped[line]; ok {
				t.Logf("%s: skipped %q: %s", page, line, why)
				continue
			}
			switch {
			case strings.HasPrefix(line, "go run ./cmd/temple "):
				line = "temple " + strings.TrimPrefix(line, "go run ./cmd/temple ")
			case strings.HasPrefix(line, "go run ./examples/"):
				shell(repoRoot, line)
				ran++
				continue
			case !strings.HasPrefix(line, "temple "):
				t.Errorf("%s: line %q: neither a temple command nor listed in readmeSkipped", page, line)
				continue
			}
			if strings.HasPrefix(page, experimentPages) && !strings.HasPrefix(line, "temple deep") {
				// A full experiment: its config, preset and flags are checked, the experiment is not run.
				args := strings.Fields(line)
				if len(args) < 2 || args[1] != "run" && args[1] != "reproduce" {
					t.Logf("%s: skipped %q: it reads the results of the page's experiment, which this test does not run", page, line)
					continue
				}
				shell(work, line+" --print > /dev/null")
				ran++
				continue
			}
			if line == "temple compare runs/a runs/b" {
				shell(work, "temple run --runs 2 --out runs/a")
				shell(work, "temple run --runs 2 --out runs/b")
			}
			shell(work, strings.Join(append([]string{line}, readmeSmall[line]...), " "))
			// The cluster example runs share 0/3 on one machine and 1/3, 2/3 on two others.
			if line == "temple run experiment.yaml --shard 0/3 --out runs/x-0" {
				shell(work, "temple run experiment.yaml --shard 1/3 --out runs/x-1")
				shell(work, "temple run experiment.yaml --shard 2/3 --out runs/x-2")
			}
			ran++
		}
	}
	if ran < 15 {
		t.Errorf("ran %d commands of the README and docs/, want the twenty or so of their sh blocks", ran)
	}
}

// The README's table of presets names every preset.
func TestReadmeListsEveryPreset(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"deep"}
	for _, p := range presets.All() {
		names = append(names, p.Name)
	}
	for _, name := range names {
		if !strings.Contains(string(readme), "`"+name+"`") {
			t.Errorf("README.md's table of presets lacks %s", name)
		}
	}
}

var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocLinks checks that every relative link of README.md, EXPERIMENTS.md and docs/ leads to a
// file of the repository and, with a #fragment into a Markdown page, to one of its headings.
func TestDocLinks(t *testing.T) {
	anchors := map[string]map[string]bool{}
	headings := func(page string) map[string]bool {
		if a, ok := anchors[page]; ok {
			return a
		}
		a := map[string]bool{}
		data, err := os.ReadFile(filepath.Join(repoRoot, page))
		if err == nil {
			inCode := false
			for _, line := range strings.Split(string(data), "\n") {
				if strings.HasPrefix(strings.TrimSpace(line), "```") {
					inCode = !inCode
				}
				if !inCode && strings.HasPrefix(line, "#") {
					a[slug(strings.TrimLeft(line, "# "))] = true
				}
			}
		}
		anchors[page] = a
		return a
	}
	for _, page := range docPages(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			dest := page
			if file != "" {
				dest = filepath.ToSlash(filepath.Join(filepath.Dir(page), file))
			}
			if _, err := os.Stat(filepath.Join(repoRoot, dest)); err != nil {
				t.Errorf("%s: link %q: no file %s", page, target, dest)
				continue
			}
			if frag != "" && strings.HasSuffix(dest, ".md") && !headings(dest)[frag] {
				t.Errorf("%s: link %q: %s has no heading #%s", page, target, dest, frag)
			}
		}
	}
}

// slug is the anchor a repository browser gives a Markdown heading: lower case, spaces to
// hyphens, punctuation other than hyphens and underscores dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
