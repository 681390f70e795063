#!/usr/bin/env python3
"""The release binary, copied alone into an empty folder, serves the whole page: every file of
`Public/` byte for byte, `/` as its index.html, from the copy built in. With `--public DIR` it serves
that folder instead, and says so as it starts.

    Tests/release/alone.py .build/release/statedeck

Standard library only; every process it starts is stopped. Exits 0 when every check holds, 1 with
what failed otherwise.
"""
from __future__ import annotations

import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path

from smoke import kill, report, start

PUBLIC = Path(__file__).resolve().parents[2] / "Public"
TEST = "release binary alone"


def get(base: str, path: str) -> bytes:
    with urllib.request.urlopen(f"{base}{path}", timeout=5) as answer:
        return answer.read()


def page_files() -> list[Path]:
    """The files the page serves: regular files, none hidden or below a hidden folder."""
    return sorted(path for path in PUBLIC.rglob("*")
                  if path.is_file() and not path.is_symlink()
                  and not any(part.startswith(".") for part in path.relative_to(PUBLIC).parts))


def main(binary: str) -> int:
    failures: list[str] = []
    server = None
    with tempfile.TemporaryDirectory(prefix="statedeck-alone-") as folder:
        try:
            alone = Path(folder) / "bin" / "statedeck"
            alone.parent.mkdir()
            shutil.copy2(binary, alone)
            # Nothing beside it, and nothing in the working directory: an empty folder.
            work = Path(folder) / "work"
            work.mkdir()
            server, base, printed = start([str(alone), "--port", "0", "--data", "none"], cwd=work)
            if not base:
                return report([f"no start-up line; it printed: {printed!r}"], TEST)
            files = page_files()
            if len(files) < 10:
                failures.append(f"only {len(files)} files found in {PUBLIC}")
            for path in files:
                name = path.relative_to(PUBLIC).as_posix()
                if get(base, f"/{name}") != path.read_bytes():
                    failures.append(f"/{name} is not the file in Public/")
            if get(base, "/") != (PUBLIC / "index.html").read_bytes():
                failures.append("/ is not Public/index.html")
            if "serving the page from" in printed:
                failures.append(f"it says it serves a folder: {printed!r}")
            kill(server)

            mine = Path(folder) / "mine"
            mine.mkdir()
            (mine / "index.html").write_text("<!doctype html><p>a page of my own</p>")
            server, base, printed = start([str(alone), "--port", "0", "--data", "none", "--public", str(mine)], cwd=work)
            if not base:
                return report([f"no start-up line with --public; it printed: {printed!r}"], TEST)
            if b"a page of my own" not in get(base, "/"):
                failures.append("--public DIR: / is not DIR/index.html")
            if f"serving the page from {mine}" not in printed:
                failures.append(f"--public DIR: it does not say it serves DIR: {printed!r}")
        except Exception as error:  # what went wrong is the finding
            failures.append(f"{type(error).__name__}: {error}")
        finally:
            kill(server)
    return report(failures, TEST, f"every one of the page's {len(page_files())} files served from the binary alone; "
                                  "--public DIR serves DIR and says so")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
