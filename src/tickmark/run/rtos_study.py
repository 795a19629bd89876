"""The RTOS study in one command: the rtos-study suite on one board under FreeRTOS, NuttX, Linux
and bare metal, three rounds each (three boots), as a campaign.

The campaign (campaign.py) runs the three systems side by side, one worker each, stores one run
per system (named STUDY:freertos:default:rtos-study and so on) and resumes a study that was cut
short. Which systems a board has comes from its description: FREERTOS_PORT for FreeRTOS,
NUTTX_BOARD for NuttX, LINUX_CONSOLE for Linux (the Debian kernel from the cache, or the one
given). The table is built from the stored runs by analysis/rtos_table.py. The campaign files in
campaigns/ say the same for the two boards, with FreeRTOS's settings chosen in the open.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..analysis.rtos_table import Side, side_label
from ..base.errors import TickmarkError
from ..targets import baremetal
from . import campaign_file

if TYPE_CHECKING:
    from ..store import Store
    from ..targets.baremetal import Board

WORKLOAD = "rtos-study"


def systems(board: Board) -> list[tuple[str, str]]:
    """(target name, URI) of each system the board can run, in the table's order."""
    out = []
    if board.vars.get("FREERTOS_PORT"):
        out.append(("freertos", f"qemu-system:{board.name}?os=freertos"))
    if board.vars.get("NUTTX_BOARD"):
        out.append(("nuttx", f"qemu-system:{board.name}?os=nuttx"))
    if board.vars.get("LINUX_CONSOLE"):
        out.append(("linux", f"qemu-system:{board.name}?os=linux"))
    out.append(("baremetal", f"qemu-system:{board.name}"))
    return out


def spec(
    board_name: str, rounds: int = 3, kernel: str | None = None, name: str | None = None, **run_options: Any
) -> campaign_file.Spec:
    """The campaign of the study on BOARD_NAME -> campaign.Spec (targets in the table's order).
    run_options: more of a campaign's run settings (seed, samples, sample_ms, timeout)."""
    board = baremetal.load_board(board_name)
    targets = dict(systems(board))
    if "linux" not in targets and kernel:
        raise TickmarkError(f"board {board_name} does not describe a Linux boot: --kernel cannot be used")
    if kernel:
        targets["linux"] += "&kernel=" + quote(kernel, safe="/")
    if len(targets) < 2:
        raise TickmarkError(f"board {board_name} runs neither FreeRTOS, NuttX nor Linux: there is nothing to compare")
    doc = {"name": name or f"rtos-study-{board_name}", "rounds": rounds, "targets": targets}
    doc["workloads"] = {WORKLOAD: WORKLOAD}
    doc.update({k: v for k, v in run_options.items() if v is not None})
    return campaign_file.parse(doc, path=f"the rtos study of {board_name}")


def sides(store: Store, study: campaign_file.Spec) -> list[Side]:
    """The stored run of each system of the study, in the table's order -> [Side] (systems
    without a stored run are left out)."""
    out = []
    for target in study.targets:
        name = f"{study.name}:{target}:default:{WORKLOAD}"
        if store.name_taken(name):
            run = store.run(name)
            out.append(Side(side_label(run), run, store.results(run["id"])))
    return out
