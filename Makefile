# The Python package (python/temple) on temple's C ABI (capi/), and its wheel. Go and a C compiler
# (cgo) build the library and the command; the tests need only Python's standard library, and Go
# to produce the runner's trajectories they replay (or TEMPLE_TRAJECTORIES).
PYTHON ?= python3
PACKAGE := python/temple
# The version is the Go constant results.Version, the one place it is written, as the command
# reports it (temple --version: "temple version X").
VERSION = $$($(PACKAGE)/bin/temple --version | cut -d' ' -f3)

.PHONY: python python-test wheel wheel-test

# Builds into the package what the wheel ships beside the Python code: the C ABI
# (python/temple/libtemple.so and its header libtemple.h), the temple command
# (python/temple/bin/temple, static) and python/temple/_version.py.
python:
	CGO_ENABLED=1 go build -buildmode=c-shared -o $(PACKAGE)/libtemple.so ./capi
	CGO_ENABLED=0 go build -trimpath -o $(PACKAGE)/bin/temple ./cmd/temple
	printf '__version__ = "%s"  # written by make python from results.Version\n' "$(VERSION)" > $(PACKAGE)/_version.py

# Runs the Python package's tests from the source tree with $(PYTHON) (CI: /usr/bin/python3).
python-test: python
	cd python && $(PYTHON) -m unittest discover -s tests -v

# Builds dist/temple-VERSION-py3-none-linux_<machine>.whl: the package, the library and the
# command (python/build_wheel.py, standard library only).
wheel: python
	$(PYTHON) python/build_wheel.py --out dist

# Installs the wheel into fresh virtual environments without Go on PATH and without PYTHONPATH,
# and runs the tests, the guide's examples and `temple run` there (python/test_wheel.sh).
wheel-test: wheel
	PYTHON=$(PYTHON) python/test_wheel.sh dist/temple-$(VERSION)-py3-none-linux_$$(uname -m).whl
