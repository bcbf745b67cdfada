"""What the image weighs, layer by layer, measured where no Docker engine runs.

Run: .venv/bin/python bench/image_size.py [--venv PATH]

- the build context: what the Docker client would send, computed from .dockerignore with the
  Docker SDK's matcher (tests/angryagents/test_image.py);
- the runtime packages: requirements.txt installed with pip into a fresh virtualenv (made in a
  temporary folder unless ``--venv`` names one already made that way), without pip and setuptools,
  which the base image already has; the compiled bytecode is counted apart;
- espeak-ng: the installed sizes apt-cache gives for it and the libraries it brings that a slim
  Debian does not have;
- the base image: python:3.11-slim's published unpacked size (no registry is reachable here, so it
  is a stated figure, not a measurement).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.angryagents.test_image import build_context  # noqa: E402

BASE_IMAGE_MIB = 125.0  # python:3.11-slim, unpacked, as published
ESPEAK = (
    "espeak-ng espeak-ng-data libespeak-ng1 libpcaudio0 libsonic0 libpulse0 libasound2 libasound2-data "
    "libasyncns0 libsndfile1 libvorbis0a libvorbisenc2 libogg0 libopus0 libmp3lame0 libmpg123-0 libflac12 "
    "libdbus-1-3 libx11-6 libx11-data libx11-xcb1 libxcb1 libxau6 libxdmcp6 libbsd0"
).split()
IN_BASE = {"pip", "setuptools", "_distutils_hack"}
MIB = 1024 * 1024


def _bytes(paths: list[Path]) -> int:
    return sum(p.stat().st_size for p in paths if p.is_file() and not p.is_symlink())


def context_figures() -> tuple[int, float]:
    files = [ROOT / p for p in build_context(ROOT) if (ROOT / p).is_file()]
    return len(files), _bytes(files) / MIB


def runtime_figures(venv: Path | None) -> tuple[float, float, list[tuple[str, float]]]:
    if venv is None:
        venv = Path(tempfile.mkdtemp(prefix="angry-image-")) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        pip = [str(venv / "bin" / "pip"), "install", "-q", "--no-cache-dir", "-r", str(ROOT / "requirements.txt")]
        subprocess.run(pip, check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    tops: list[tuple[str, float]] = []
    total = pyc = 0
    for entry in site.iterdir():
        name = entry.name.split("-")[0]
        if name in IN_BASE or entry.name.startswith(tuple(f"{n}-" for n in IN_BASE)):
            continue
        files = list(entry.rglob("*")) if entry.is_dir() else [entry]
        size = _bytes(files)
        total += size
        pyc += _bytes([f for f in files if f.suffix == ".pyc"])
        tops.append((entry.name, size / MIB))
    return total / MIB, pyc / MIB, sorted(tops, key=lambda pair: -pair[1])[:8]


def espeak_mib() -> float:
    total = 0
    for package in ESPEAK:
        shown = subprocess.run(["apt-cache", "show", package], capture_output=True, text=True).stdout
        sizes = [int(line.split()[1]) for line in shown.splitlines() if line.startswith("Installed-Size:")]
        total += sizes[0] if sizes else 0
    return total / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--venv", type=Path, default=None, help="a virtualenv with requirements.txt already installed")
    args = parser.parse_args()
    files, context = context_figures()
    runtime, pyc, tops = runtime_figures(args.venv)
    espeak = espeak_mib()
    print(f"build context: {files} files, {context:.1f} MiB")
    print(f"runtime packages: {runtime:.0f} MiB ({pyc:.0f} MiB of it compiled bytecode)")
    print("largest: " + ", ".join(f"{name} {size:.0f}" for name, size in tops))
    print(f"espeak-ng and its libraries: {espeak:.0f} MiB")
    print(f"base image python:3.11-slim: {BASE_IMAGE_MIB:.0f} MiB (published, not measured)")
    estimate = BASE_IMAGE_MIB + espeak + runtime + 2 * context  # the app, and its collected static files at most
    print(f"image, unpacked: about {estimate:.0f} MiB")


if __name__ == "__main__":
    main()
