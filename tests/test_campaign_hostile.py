"""Hostile campaign files: a fuzz over their TOML text and over parsed documents of any shape."""

import json
import time

import pytest

from conftest import row_counts
from hostilefix import HOSTILE_VALUES  # noqa: F401

# hostile input or surroundings of the component: `pytest -m hostile` runs every such test
pytestmark = pytest.mark.hostile


CAMPAIGN_SEED = """name = "lab-nov"
rounds = 2
max_rounds = 3
samples = 5
sample_ms = 10
seed = 7
timeout = 60
lease = 30
params = ["size=4K,64K"]
baseline = "a"

[labels]
build = "1234"

[targets]
a = "local"
b = "qemu-user:aarch64"

[variants]
O2 = { cflags = "-O2" }
Os = { cc = "gcc", cflags = "-Os" }

[workloads]
os = "os"
mine = ["sys.*", "ipc.pipe_lat"]
"""


CAMPAIGN_VALUES = [
    *HOSTILE_VALUES,
    float("nan"),
    float("inf"),
    -0.0,
    2**63,
    "a" * 300,
    "a\u202eb",
    "x\u200b",
    "a\ud800",
    "a\x00b",
    "1",
    "latest",
    "-O2 $(touch PWNED)",
    {"a": 1},
    ["here"],
    {"cflags": ["-O2"]},
    {"x": {"y": {}}},
]


TOML_PIECES = [
    '"',
    "'",
    "[",
    "]",
    "{",
    "}",
    "=",
    "\n",
    "\\",
    "\\u0000",
    "\\ud800",
    "#",
    ",",
    ".",
    "[[t]]",
    "\x00",
    "\x1b",
]


TOML_PIECES += [
    "1979-05-27T07:32:00Z",
    "nan",
    "inf",
    "0x7fffffffffffffff",
    "9" * 400,
    "\u202e",
    "\ufeff",
    "true",
    '"""',
]


def _mutate_campaign_doc(rng, doc):
    """A random key of the document (any depth) replaced, deleted or added."""
    import copy

    node = doc
    while isinstance(node, dict) and node and rng.random() < 0.6:
        k = rng.choice(sorted(node))
        if not isinstance(node[k], dict):
            break
        node = node[k]
    if not isinstance(node, dict):
        return
    how = rng.randrange(4)
    if how == 0 and node:
        del node[rng.choice(sorted(node))]
    elif how == 1:
        node[rng.choice(["extra", "a" * 200, "a\u202e", "1", "x.y", "", "baseline", "name"])] = copy.deepcopy(
            rng.choice(CAMPAIGN_VALUES)
        )
    elif node:
        node[rng.choice(sorted(node))] = copy.deepcopy(rng.choice(CAMPAIGN_VALUES))


def _mutate_campaign_text(rng, text):
    for _ in range(rng.randrange(1, 4)):
        i = rng.randrange(len(text) + 1)
        how = rng.randrange(3)
        if how == 0:
            text = text[:i] + rng.choice(TOML_PIECES) + text[i:]
        elif how == 1:
            text = text[:i] + rng.choice(TOML_PIECES) + text[i + rng.randrange(1, 8) :]
        else:
            text = text[:i] + text[i + rng.randrange(1, 40) :]
    return text


def _campaign_case(load):
    """load() -> a Spec whose every cell has a run name tickmark accepts, or one line of error."""
    from tickmark.base.errors import TickmarkError
    from tickmark.base.names import check_name
    from tickmark.run import campaign as cp
    from tickmark.run import campaign_file

    try:
        spec = load()
        cp.check_cell_names(spec)
    except TickmarkError as e:
        assert "\n" not in str(e), str(e)
        return False
    cells = campaign_file.cells(spec)
    assert len(cells) == len(spec.targets) * len(spec.variants) * len(spec.workloads) > 0
    assert spec.baseline in spec.targets
    for c in cells:
        check_name(c.run_name)
    assert all(isinstance(u, str) and u for u in spec.targets.values())
    return True


def test_fuzz_campaign_files(env, cli, tmp_path):
    """Mutated campaign files: each is a campaign whose cells have valid run names, or one line
    of error; never an exception. A sample of them also goes through `tickmark campaign --status`."""
    import random

    from tickmark.run import campaign_file

    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib

    rng = random.Random(1125)
    seed_doc = tomllib.loads(CAMPAIGN_SEED)
    accepted = refused = 0
    t0 = time.monotonic()
    f = tmp_path / "c.toml"
    for n in range(6000):
        if n % 2:
            text = _mutate_campaign_text(rng, CAMPAIGN_SEED)
            f.write_text(text, encoding="utf-8", errors="surrogatepass")
            ok = _campaign_case(lambda: campaign_file.load(str(f)))
        else:
            doc = json.loads(json.dumps(seed_doc))
            for _ in range(rng.randrange(1, 4)):
                _mutate_campaign_doc(rng, doc)
            ok = _campaign_case(lambda d=doc: campaign_file.parse(d, "c.toml"))
        accepted += ok
        refused += not ok
        if n % 2 and n % 60 == 1:  # the command line reads the same file: --status runs nothing
            rc, out, err = cli("campaign", str(f), "--status")
            assert rc in (0, 2) and "Traceback" not in err, err
            assert rc == 0 or err.count("\n") == 1, err
    assert accepted > 300 and refused > 2000, (accepted, refused)
    assert row_counts(env)["runs"] == 0 if env.exists() else True
    print(f"campaign file fuzz: {accepted + refused} cases, {accepted} accepted, {time.monotonic() - t0:.1f} s")
