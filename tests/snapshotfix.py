"""What the tests of bootstrap's RTOS fetches share (NuttX, Zephyr): a vendored snapshot made for
the test (tarballs of a file or two and their SHA256SUMS), and one fetch function of bootstrap run
alone, its lines sourced, into a cache of the test's own."""

import hashlib
import os
import shutil
import subprocess
import tarfile
from pathlib import Path


def make_snapshot(tmp_path, tarballs):
    """A folder tmp_path/vendor with one tarball per (name, top, inner) of TARBALLS, holding the
    file top/inner, and their SHA256SUMS -> (the folder, the text of the sums)."""
    vendor = tmp_path / "vendor"
    vendor.mkdir()
    for name, top, inner in tarballs:
        src = tmp_path / "src" / top / inner
        src.parent.mkdir(parents=True)
        src.write_text("x\n")
        with tarfile.open(vendor / name, "w:xz") as tar:
            tar.add(tmp_path / "src" / top, arcname=top)
    sums = "".join(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}\n" for p in sorted(vendor.glob("*.xz")))
    (vendor / "SHA256SUMS").write_text(sums)
    return vendor, sums


def fetch(tmp_path, system, vendor, path=None):
    """bootstrap's fetch_SYSTEM alone (its lines, sourced), into a cache under tmp_path, with
    TICKMARK_SYSTEM_VENDOR=vendor (and PATH=path when given) -> (the cache's SYSTEM folder,
    what it wrote to stderr)."""
    root = Path(__file__).resolve().parents[1]
    text = (root / "bootstrap").read_text()
    body = text[text.index(f"{system}_commit=") : text.index("# clone_at URL COMMIT DIR")]
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env[f"TICKMARK_{system.upper()}_VENDOR"] = str(vendor)
    if path is not None:
        env["PATH"] = path
    r = subprocess.run(
        [shutil.which("bash"), "-c", body + f"\nfetch_{system}"], capture_output=True, text=True, env=env, cwd=root
    )
    assert r.returncode == 0, r.stderr
    return tmp_path / "cache" / "tickmark" / system, r.stderr
