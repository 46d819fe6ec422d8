#!/usr/bin/env bash
# Installs temple's wheel into fresh virtual environments, on a PATH without Go and without
# PYTHONPATH, from a directory outside the source tree, and runs there: `import temple`, the
# Python tests (against the installed package: TEMPLE_EXPECT_WHEEL=1 checks that they import it
# from the venv), the example of examples/python, `temple run` and python -m temple.bench.
# Twice: in a plain venv (NumPy absent: its tests are skipped) and in one that sees Debian's
# python3-numpy (--system-site-packages). Go is used once, before, to write the runner's
# trajectories that the tests replay (TEMPLE_TRAJECTORIES).
#
#   python/test_wheel.sh dist/temple-VERSION-py3-none-linux_x86_64.whl
#
# PYTHON (default /usr/bin/python3) makes the venvs; VENVS keeps them in that directory.
set -euo pipefail
wheel=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-/usr/bin/python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
venvs=${VENVS:-$tmp/venvs}

(cd "$root" && go run ./capi/trajectory python/tests/trajectory.yaml) > "$tmp/trajectories.jsonl"
(cd "$root" && go run ./capi/trajectory python/tests/trajectory_sim.yaml) > "$tmp/trajectories_sim.jsonl"

# The environment of a user without Go: no GOPATH, GOROOT, PYTHONPATH, TEMPLE_LIBRARY, ...
clean=(env -i PATH=/usr/bin:/bin HOME="$tmp" LANG=C.UTF-8 TEMPLE_TRAJECTORIES="$tmp/trajectories.jsonl"
	TEMPLE_SIM_TRAJECTORIES="$tmp/trajectories_sim.jsonl")
if "${clean[@]}" sh -c 'command -v go' >/dev/null; then
	echo "test_wheel: go is on the clean PATH (/usr/bin:/bin): the test would not show that the wheel needs no Go" >&2
	exit 1
fi

# The guide's install block (docs/guides/python.md, its second sh block), as written, from a
# directory holding dist/, then the guide's example with that venv: timed.
guide=$root/docs/guides/python.md
mkdir -p "$tmp/guide/dist" && cp "$wheel" "$tmp/guide/dist/"
"$python" - "$guide" > "$tmp/install.sh" <<'PY'
import re, sys
print(re.findall(r"^```sh\n(.*?)^```", open(sys.argv[1]).read(), re.S | re.M)[1], end="")
PY
"$python" - "$guide" > "$tmp/example.py" <<'PY'
import re, sys
print(re.findall(r"^```python\n(.*?)^```", open(sys.argv[1]).read(), re.S | re.M)[0], end="")
PY
echo "== the guide's install block, as written, without Go:"
cat "$tmp/install.sh"
SECONDS=0
(cd "$tmp/guide" && "${clean[@]}" bash -euo pipefail "$tmp/install.sh" | tail -3)
(cd "$tmp/guide" && "${clean[@]}" v/bin/python "$tmp/example.py")
echo "== fresh venv, install, temple run and the guide's example took ${SECONDS} s"

for kind in plain numpy; do
	v=$venvs/$kind
	rm -rf "$v"
	if [ $kind = plain ]; then "$python" -m venv "$v"; else "$python" -m venv --system-site-packages "$v"; fi
	echo "== $kind venv: pip install --no-index $(basename "$wheel")"
	SECONDS=0
	"${clean[@]}" "$v/bin/pip" install --quiet --no-index "$wheel"
	cd "$tmp"
	"${clean[@]}" "$v/bin/python" -c 'import temple, sys; print("temple", temple.__version__, "from", temple.__file__)'
	"${clean[@]}" "$v/bin/temple" --version
	echo "== $kind venv: the Python tests against the installed wheel"
	"${clean[@]}" TEMPLE_EXPECT_WHEEL=1 "$v/bin/python" -m unittest discover -s "$root/python/tests" -t "$root/python/tests"
	echo "== $kind venv: examples/python/frozenlake_sequence.py"
	"${clean[@]}" "$v/bin/python" "$root/examples/python/frozenlake_sequence.py" --episodes 50
	echo "== $kind venv: temple run (the default experiment)"
	"${clean[@]}" "$v/bin/temple" run --out "$tmp/run-$kind" | tail -4
	echo "== $kind venv: install, tests, example and temple run took ${SECONDS} s"
	cd "$root"
done
