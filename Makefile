# The Python package (python/temple) on temple's C ABI (capi/). Go and a C compiler (cgo) build
# the library; the tests need only Python's standard library, and Go to produce the runner's
# trajectories they replay.
PYTHON ?= python3
LIBRARY := python/temple/libtemple.so

.PHONY: python python-test

# Builds the C ABI into the package: python/temple/libtemple.so (and its header libtemple.h).
python:
	CGO_ENABLED=1 go build -buildmode=c-shared -o $(LIBRARY) ./capi

# Runs the Python package's tests with $(PYTHON) (python3 on PATH; CI: /usr/bin/python3).
python-test: python
	cd python && $(PYTHON) -m unittest discover -s tests -v
