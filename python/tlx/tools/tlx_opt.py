"""`tlx-opt` entry point: runs the tlx-opt binary shipped inside the package."""

import os
import sys
from pathlib import Path


def binary_path() -> Path:
    """Path of the packaged tlx-opt (a link into build/cmake for editable installs)."""
    return Path(__file__).resolve().parent.parent / "bin" / "tlx-opt"


def main() -> None:
    path = binary_path()
    if not path.exists():
        sys.exit(f"tlx-opt: {path} is missing; rebuild TLX (pip install -e .)")
    os.execv(path, [str(path), *sys.argv[1:]])


if __name__ == "__main__":
    main()
