"""Builds temple's wheel with Python's standard library alone (no setuptools, no pip, no network):
the package python/temple, the C ABI's shared library (libtemple.so, libtemple.h) and the temple
command (bin/temple, run by the console script `temple`), as

    dist/temple-VERSION-py3-none-linux_<machine>.whl

A wheel is a zip archive (PEP 427): the package's files, then a dist-info directory with METADATA,
WHEEL, entry_points.txt and RECORD (every file's sha256 and size). The version is the one the
bundled command reports (`temple --version`, the Go constant results.Version); the package's
_version.py (written by make python) must agree. The tag is py3-none-linux_<machine>: any
Python 3 (the library is loaded with ctypes, nothing is compiled against CPython), this
machine's architecture. The archive is reproducible:
its entries are sorted and dated SOURCE_DATE_EPOCH (default 1980-01-01).

    python3 python/build_wheel.py --out dist   # after make python (make wheel does both)
"""

import argparse
import base64
import hashlib
import os
import platform
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "temple")

SUMMARY = "Sample-efficient multi-task RL with transition templates (TempLe, AAAI-21): learners, task families and experiments"


def files_of_package():
    """(path in the wheel, path on disk) of every file the package ships, sorted."""
    out = []
    for root, dirs, files in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            if f.endswith((".pyc", ".pyo")):
                continue
            disk = os.path.join(root, f)
            out.append((os.path.relpath(disk, HERE).replace(os.sep, "/"), disk))
    return sorted(out)


def command_version(binary):
    """The version the bundled command reports (`temple --version`: "temple version X")."""
    out = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.split()
    if len(out) != 3 or out[:2] != ["temple", "version"]:
        raise SystemExit("build_wheel: %s --version printed %r, want \"temple version X\"" % (binary, " ".join(out)))
    return out[2]


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "sha256=" + digest


def metadata(version):
    readme = open(os.path.join(HERE, "README.md"), encoding="utf-8").read()
    return "\n".join([
        "Metadata-Version: 2.1",
        "Name: temple",
        "Version: " + version,
        "Summary: " + SUMMARY,
        "License: see the temple repository",
        "Requires-Python: >=3.8",
        "Provides-Extra: numpy",
        "Requires-Dist: numpy; extra == \"numpy\"",
        "Provides-Extra: pandas",
        "Requires-Dist: pandas; extra == \"pandas\"",
        "Description-Content-Type: text/markdown",
        "",
        readme,
    ])


def build(out_dir):
    binary = os.path.join(PACKAGE, "bin", "temple")
    for need, how in [(os.path.join(PACKAGE, "libtemple.so"), "make python"), (binary, "make python")]:
        if not os.path.exists(need):
            raise SystemExit("build_wheel: %s is missing: run `%s` first (or make wheel)" % (need, how))
    version = command_version(binary)
    with open(os.path.join(PACKAGE, "_version.py")) as f:
        if '"%s"' % version not in f.read():
            raise SystemExit("build_wheel: temple/_version.py is not version %s, the command's: run make python" % version)
    tag = "py3-none-linux_" + platform.machine()
    dist_info = "temple-%s.dist-info" % version
    entries = []  # (name, bytes, executable)
    for name, disk in files_of_package():
        with open(disk, "rb") as f:
            entries.append((name, f.read(), os.access(disk, os.X_OK) and name.endswith("bin/temple")))
    entries.append((dist_info + "/METADATA", metadata(version).encode(), False))
    entries.append((dist_info + "/WHEEL", ("Wheel-Version: 1.0\nGenerator: temple build_wheel.py\n"
                                          "Root-Is-Purelib: false\nTag: %s\n" % tag).encode(), False))
    entries.append((dist_info + "/entry_points.txt",
                    b"[console_scripts]\ntemple = temple._command:main\n", False))
    record = "".join("%s,%s,%d\n" % (name, record_hash(data), len(data)) for name, data, _ in entries)
    record += dist_info + "/RECORD,,\n"
    entries.append((dist_info + "/RECORD", record.encode(), False))

    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "temple-%s-%s.whl" % (version, tag))
    date = time.gmtime(max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800))[:6]
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, executable in entries:
            info = zipfile.ZipInfo(name, date_time=date)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o100755 if executable else 0o100644) << 16  # pip keeps the x bit
            z.writestr(info, data)
    os.replace(tmp, path)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="dist", help="directory for the .whl (default dist)")
    args = ap.parse_args()
    print(build(args.out))


if __name__ == "__main__":
    sys.exit(main())
