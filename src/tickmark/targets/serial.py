"""serial:DEVICE[?baud=N&core=PATH&silence=S]: a board's console read with pyserial.

For a board without network (an RTOS, a bare-metal image, a Linux board on its UART). The
core on the board was built and flashed by the user; tickmark reads its records out of the
console, noise, CR/LF and terminal escapes around them tolerated, until the run's final record
(`bye`) or until the console stays silent for `silence` seconds (default 60): no complete line in
that time (a console that writes without newlines is silent too; such a line is dropped once it
is longer than any record).

* Without `core=`, the board runs by itself (its built-in arguments, see port/README.md):
  tickmark waits for one run per start (reset the board after starting tickmark). Such a
  target cannot take new arguments, so a run has one round.
* With `core=PATH` the console has a shell: tickmark types `PATH run ARGS; echo "@@tickmark-rc $?"`
  for every round (the echo tells it the command ended and how), and rounds, `list` and `info`
  work as on any other target.
"""

import queue
import re
import shlex
import threading
import time

from ..base.errors import TickmarkError
from ..base.tm1 import Reader, clean_line
from ..facts import probe
from . import uri as uri_options
from .base import Core, Session, Target, Variant, register, shown
from .uri import Option

_RC = re.compile(r"@@tickmark-rc ([0-9]{1,3})\s*$")
MAX_LINE = 8 << 20  # longer than any record (a hello lists every instance key: 700 KB at most)
_BAUDS = (
    300,
    1200,
    2400,
    4800,
    9600,
    19200,
    38400,
    57600,
    115200,
    230400,
    460800,
    500000,
    576000,
    921600,
    1000000,
    1500000,
    2000000,
    3000000,
    4000000,
)


OPTIONS = (
    Option("baud", "choice", 115200, choices=_BAUDS),
    Option("core", "path"),
    Option("silence", "int", 60, 1, 86400, "seconds"),
)


def parse_uri(uri):
    """'serial:/dev/ttyUSB0?baud=115200&core=/usr/bin/tickmark-core' -> (canonical, device, options)."""
    dev, opts = uri_options.parse(uri, OPTIONS, "serial:DEVICE[?baud=N&core=PATH&silence=SECONDS]")
    if not dev:
        raise TickmarkError(f"bad --target '{shown(uri)}' (expected serial:DEVICE[?baud=N])")
    opts["core"] = opts["core"] or None
    canon = f"serial:{dev}?baud={opts['baud']}" + (f"&core={opts['core']}" if opts["core"] else "")
    return canon, dev, opts


class SerialSession(Session):
    """One round read off the console: lines until `bye` or silence. A thread reads the port as
    bytes come and timestamps each line when its newline arrives (arrival_ns()), so that a time
    the host takes from the console (the marks of --host-clock) never waits for the harness."""

    def __init__(self, target, args):
        self.target = target
        self.transport_lost = None
        self._done = False
        self._bye = False
        self._rc = None
        self._why = ""
        self._arrival = None
        port = target.port()
        port.reset_input_buffer()
        if target.core_path:
            line = " ".join([target.core_path, *(shlex.quote(a) for a in args)]) + '; echo "@@tickmark-rc $?"'
            port.write(line.encode() + b"\r")
            port.flush()
        self._queue = queue.Queue()
        self._halt = threading.Event()
        self._reader = threading.Thread(target=self._read, args=(port,), daemon=True)
        self._reader.start()

    def _read(self, port):
        """The reading thread: (raw line, arrival time) into the queue, or ("lost", why)."""
        buf, skipping = bytearray(), False
        while not self._halt.is_set():
            try:
                chunk = port.read(port.in_waiting or 1)  # what is there, else wait for a byte
            except Exception as e:  # serial.SerialException, OSError: the device went away
                self._queue.put(("lost", str(e)))
                return
            now = time.monotonic_ns()
            start = len(buf)
            buf += chunk
            while True:
                nl = buf.find(b"\n", start)
                if nl < 0:
                    break
                raw, start = bytes(buf[:nl]), 0
                del buf[: nl + 1]
                if skipping:  # the end of a line too long to be a record
                    skipping = False
                    continue
                self._queue.put((raw, now))
            if len(buf) > MAX_LINE:  # a console writing without newlines: drop it, bounded
                del buf[:]
                skipping = True

    def lines(self):
        reader = Reader()  # only a real bye record ends the round, never noise that looks like one
        last = time.monotonic()  # the last complete line: bytes without a newline are no sign of life
        silence = self.target.silence
        while not self._done:
            try:
                raw, at = self._queue.get(timeout=0.2)
            except queue.Empty:
                if time.monotonic() - last > silence:
                    self._why = (
                        f"the console was silent for {silence} s (no complete line) before the run's final record (bye)"
                    )
                    return
                continue
            if raw == "lost":
                self.transport_lost = f"{self.target.device}: {at}"
                self._why = f"the console stopped: {at}"
                return
            text = clean_line(raw)
            m = _RC.search(text)
            if m and self.target.core_path:  # the shell's answer: the command ended
                self._rc = int(m.group(1))
                self._done = True
                return
            last = time.monotonic()
            recs = reader.feed_line(text) if "TM1 " in text else []
            if any(r.get("t") == "bye" for r in recs):
                self._bye = True
                self._done = not self.target.core_path  # with a shell: wait for its answer
            self._arrival = at
            yield text + "\n"

    def arrival_ns(self):
        return self._arrival

    def _halt_reader(self):
        self._halt.set()
        self._reader.join(2)  # a read returns within the port's timeout (0.2 s)

    def finish(self):
        self._done = True
        self._halt_reader()
        if self._rc is not None:
            return self._rc, ""
        if self._bye and not self.target.core_path:
            return 0, ""
        return 1, self._why or "stopped before the run's final record (bye)"

    def stop(self):
        if not self._done and not self._bye and self.target.core_path:
            try:
                self.target.port().write(b"\x03")  # Ctrl-C for the shell on the board
            except Exception:
                pass
        self._done = True
        self._halt_reader()


class SerialCore(Core):
    def start(self, args):
        if not self.target.core_path and args and args[0] != "run":
            raise TickmarkError(
                f"{self.target.uri} has no shell (no core=PATH): it cannot run "
                f"'{args[0]}'; it only reports the runs the board makes by itself"
            )
        return SerialSession(self.target, args)


@register("serial")
class SerialTarget(Target):
    scheme = "serial"
    usage = "serial:DEVICE[?baud=N]"
    reconnects = True
    options = OPTIONS

    @classmethod
    def from_uri(cls, uri, **options):
        canon, dev, opts = parse_uri(uri)
        t = cls(canon, **options)
        t.device, t.baud, t.core_path, t.silence = dev, opts["baud"], opts["core"], opts["silence"]
        t.reruns = bool(t.core_path)
        return t

    def __init__(self, uri, **options):
        super().__init__(uri, **options)
        self._port = None

    @property
    def char_ns(self):
        """One character on the line: a start bit, 8 data bits and a stop bit at the baud rate."""
        return 10 * 10**9 // self.baud

    def port(self):
        if self._port is None:
            try:
                import serial
            except ImportError:
                raise TickmarkError("pyserial is missing; reinstall tickmark (pip install pyserial)")
            try:
                self._port = serial.Serial(self.device, baudrate=self.baud, timeout=0.2)
            except (serial.SerialException, OSError, ValueError) as e:
                raise TickmarkError(f"cannot open {self.device}: {e}")
        return self._port

    def prepare(self, variant=None):
        variant = variant or Variant()
        if variant.cc or variant.cflags or variant.memfn:
            raise TickmarkError(
                f"{self.uri}: the board runs the core it was flashed with; "
                "--cc/--cflags/--memfn do not apply (build it with make, see port/README.md)"
            )
        self.port()
        return SerialCore(self, None)

    def fingerprint(self, core, hello=None):
        if hello is not None and not hello and not self.core_path:  # asked for it, and none can come
            raise TickmarkError(
                f"{self.uri} has no shell (no core=PATH): the board cannot be asked what it is; "
                "its fingerprint comes with the hello record of a run (tickmark run, then tickmark show), "
                "or give core=PATH"
            )
        fp = probe.from_texts({}, None, hello)
        fp = self.base_fingerprint(fp, core)
        fp["baud"] = self.baud
        return fp

    def reconnect(self):
        self.close()
        self.port()

    def close(self):
        if self._port is not None:
            try:
                self._port.close()
            except Exception:
                pass
            self._port = None
