"""--host-clock on a board under QEMU -icount (the boards' default) is refused up front with what
to do instead: the guest's time there is its instruction count and its console runs ahead in
bursts, so host timing hung and was reported as a crash after 120 s."""

from boards import need_board
from conftest import one_error_line


def test_host_clock_on_an_icount_board_is_refused(real, cli):
    need_board("mps2-an500")
    rc, out, err = cli(
        "run", "--target", "qemu-system:mps2-an500", "--host-clock", "-q", "--rounds", "1", "trap.syscall"
    )
    one_error_line(rc, err, "--host-clock", "-icount", "?icount=0")
