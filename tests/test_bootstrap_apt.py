"""./bootstrap's Debian step when apt's mirrors misbehave: an index file that fails to download
for a moment (apt-get update exits 100) is tried again, then apt goes on with the lists it has;
an install fails only on a package that is really missing, and says which. Stand-in apt-get,
apt-cache and dpkg-query record their calls (tests/test_bootstrap.py's copy of ./bootstrap)."""

from test_bootstrap import boot  # noqa: F401  (the fixture)

APT_GET = """#!/bin/bash
echo "apt-get $*" >> "$BOOT_LOG"
if [ "$1" = update ]; then
  n=$(cat "$APT_STATE" 2>/dev/null || echo 0); echo $((n + 1)) > "$APT_STATE"
  [ "$n" -ge "${UPDATE_FAILS:-0}" ] || { echo "E: Failed to fetch .../binary-arm64/Packages" >&2; exit 100; }
  exit 0
fi
for p in "$@"; do [ "$p" = "${LACKING-}" ] && { echo "E: Unable to locate package $p" >&2; exit 100; }; done
exit 0
"""
APT_CACHE = """#!/bin/bash
[ "$2" = "${LACKING-}" ] && exit 100
exit 0
"""
DPKG_QUERY = """#!/bin/bash
exit 1
"""
ID = """#!/bin/bash
echo 0
"""


def _apt(tmp_path):
    for name, text in (("apt-get", APT_GET), ("apt-cache", APT_CACHE), ("dpkg-query", DPKG_QUERY), ("id", ID)):
        path = tmp_path / "bin" / name
        if path.is_symlink():
            path.unlink()
        path.write_text(text)
        path.chmod(0o755)
    return {"APT_STATE": str(tmp_path / "apt.state"), "BOOTSTRAP_APT_WAIT": "0", "PATH": f"{tmp_path / 'bin'}:/bin"}


def test_an_index_that_fails_for_a_moment_is_tried_again(boot, tmp_path):  # noqa: F811
    env = _apt(tmp_path)
    rc, err, calls = boot("setup", UPDATE_FAILS="1", **env)
    assert rc == 0, err
    assert [c for c in calls if c.startswith("apt-get")][:3] == [
        "apt-get update -qq",
        "apt-get update -qq",
        "apt-get install -y -qq --no-install-recommends make gcc libc6-dev binutils linux-perf python3 python3-venv "
        "python3-pip",
    ]
    assert "apt-get update failed (try 1 of 3)" in err


def test_an_index_that_never_comes_leaves_apt_with_its_lists(boot, tmp_path):  # noqa: F811
    env = _apt(tmp_path)
    rc, err, calls = boot("setup", UPDATE_FAILS="9", **env)
    assert rc == 0, err
    assert "going on with the package lists apt has" in err
    assert any(c.startswith("apt-get install") for c in calls)


def test_a_package_that_is_really_missing_is_named(boot, tmp_path):  # noqa: F811
    env = _apt(tmp_path)
    rc, err, calls = boot("setup", LACKING="linux-perf", **env)
    assert rc == 1
    assert "apt has no package linux-perf" in err
