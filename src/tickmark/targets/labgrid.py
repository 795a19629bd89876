"""labgrid:PLACE[?power-cycle=1&via=ssh|serial&wait=S&boot-wait=S&queue=S&coordinator=HOST:PORT]: a
board of a shared lab, reached through a labgrid coordinator.

The place is acquired when the target opens (so nobody else gets the board while tickmark uses
it) and released when it closes: at the end, after an error and after Ctrl-C or SIGTERM. A place
that someone else holds is waited for in labgrid's reservation queue: tickmark reserves it (a
reservation whose filter is the place's name tag), polls the reservation (which keeps it alive)
until the coordinator allocates the place to it, then acquires it; after `queue` seconds (default
3600) it gives up and says who holds the place. The reservation is cancelled when the target
closes. The
place's resources are resolved with labgrid's client API; a NetworkService becomes the SSH target
(ssh://USER@ADDRESS:PORT, through the system OpenSSH client and the user's known_hosts), a serial
port (RawSerialPort, USBSerialPort, NetworkSerialPort over RFC 2217) the serial target. With
power-cycle (or --power-cycle) the board is switched off and on through the place's power
resource with labgrid's power driver, and tickmark waits for the service to answer.

Before every round the place is checked again: when its exporter has gone (the lab lost the
board) the round is refused with a clear message instead of running on an unmanaged board.

The coordinator: `coordinator=` in the URI, else LG_COORDINATOR, else 127.0.0.1:20408 (labgrid's
own default). Resources that are not available yet are waited for (`wait`, default 30 s).
"""

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import socket
import threading
import time

from ..base.errors import TickmarkError
from ..base.waiting import Again, retry
from . import uri as uri_options
from .base import Variant, WrappingCore, WrappingTarget, register, shown
from .uri import Option

_SERIAL = ("RawSerialPort", "USBSerialPort", "NetworkSerialPort")
# power resource class -> labgrid driver class (as labgrid-client power picks them)
_POWER = {
    "NetworkPowerPort": "NetworkPowerDriver",
    "NetworkUSBPowerPort": "USBPowerDriver",
    "PDUDaemonPort": "PDUDaemonDriver",
    "TasmotaPowerPort": "TasmotaPowerDriver",
    "NetworkSiSPMPowerPort": "SiSPMPowerDriver",
    "NetworkYKUSHPowerPort": "YKUSHPowerDriver",
}


OPTIONS = (
    Option("power-cycle", "flag", False),
    Option("via", "choice", "auto", choices=("auto", "ssh", "serial")),
    Option("wait", "int", 30, 0, 86400, "seconds"),
    Option("boot-wait", "int", 180, 0, 86400, "seconds"),
    Option("queue", "int", 3600, 0, 86400, "seconds"),
    Option("coordinator", "text"),
)


def parse_uri(uri, power_cycle=False):
    place, q = uri_options.parse(uri, OPTIONS, "labgrid:PLACE[?power-cycle=1&via=ssh|serial&wait=S]")
    if not place or any(c in place for c in "/ ?&"):
        raise TickmarkError(
            f"bad --target '{shown(uri)}' (expected labgrid:PLACE[?power-cycle=1&via=ssh|serial&wait=S])"
        )
    opts = {k.replace("-", "_"): v for k, v in q.items()}
    opts["place"] = place
    opts["power_cycle"] = power_cycle or opts["power_cycle"]
    return f"labgrid:{place}", opts


def _client():
    try:
        from labgrid.remote import client
    except ImportError:
        raise TickmarkError("labgrid targets need labgrid (pip install labgrid)")
    return client


class _Loop:
    """One asyncio loop in one thread, and one labgrid client session per coordinator, for every
    labgrid target of this process. gRPC gives the channels of one process one connection, and
    the coordinator tells its clients apart by that connection: two sessions would mix up
    which of them acquired a place (a campaign opens several places at once). A loop that always
    runs also keeps the session's view of the places current."""

    _inst = None
    _lock = threading.Lock()

    @classmethod
    def get(cls):
        with cls._lock:
            if cls._inst is None:
                cls._inst = cls()
            return cls._inst

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.sessions = {}  # address -> [task starting the session, number of users]
        threading.Thread(target=self.loop.run_forever, name="labgrid", daemon=True).start()

    def call(self, coro_fn, timeout):
        fut = asyncio.run_coroutine_threadsafe(coro_fn(), self.loop)
        try:
            return fut.result(timeout)
        except concurrent.futures.TimeoutError:  # not the builtin TimeoutError before Python 3.11
            fut.cancel()
            raise TimeoutError(f"no answer within {timeout} s")

    async def session(self, address):
        """The session with the coordinator at address (started once, shared)."""
        entry = self.sessions.get(address)
        if entry is None or (entry[0].done() and (entry[0].exception() or entry[0].result().stopping.is_set())):
            entry = self.sessions[address] = [self.loop.create_task(self._start(address)), 0]
        s = await asyncio.shield(entry[0])
        entry[1] += 1
        return s

    async def _start(self, address):
        client = _client()
        s = client.ClientSession(address, asyncio.get_running_loop())
        try:
            await s.start()
        except BaseException:
            await self._stop(s)
            raise
        return s

    async def leave(self, address):
        """One user fewer; the last one ends the session."""
        entry = self.sessions.get(address)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] <= 0:
            del self.sessions[address]
            await self._stop(entry[0].result())

    @staticmethod
    async def _stop(s):
        with contextlib.suppress(Exception):
            await s.stop()
        with contextlib.suppress(Exception):
            await s.close()


def _avail(entry):
    """Whether a resource of the place is there and available (an exporter that went away
    leaves entries without data)."""
    try:
        return bool(entry.avail)
    except (KeyError, AttributeError):
        return False


def _quiet_root_logger():
    """labgrid reports a lost coordinator with logging.error(); without a handler on the root
    logger that would print a second, unformatted line under tickmark's own error."""
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(logging.NullHandler())


class LabgridCore(WrappingCore):
    """The inner target's core (whatever it can do is forwarded: WrappingCore); every start first
    checks that the place still has its board."""

    def start(self, args):
        self.target.check()
        return self.inner.start(args)


@register("labgrid")
class LabgridTarget(WrappingTarget):
    """The place's board through its SSH or serial target (`inner`): every capability of that
    target (profiles, reruns, reconnects, connect, run_remote, ...) is forwarded (WrappingTarget)."""

    scheme = "labgrid"
    usage = "labgrid:PLACE"
    profile_usage = "labgrid:PLACE (a board with SSH)"  # its SSH target's sampler
    power_cycles = True  # --power-cycle applies
    options = OPTIONS

    @classmethod
    def from_uri(cls, uri, power_cycle=False, **options):
        canon, opts = parse_uri(uri, power_cycle)
        return cls(canon, opts, **options)

    @classmethod
    def check_uri(cls, uri):
        return parse_uri(uri)[0]  # the place: made, this target would acquire it

    @classmethod
    def source_identity_of(cls, uri):
        """Nothing beyond the core and the variant: the place's board runs a core built for it (SSH)
        or the one it was flashed with (serial). Made, this target would acquire the place."""
        parse_uri(uri)
        return {}

    def __init__(self, uri, opts, **options):
        super().__init__(uri, **options)
        self.opts = opts
        self.place = opts["place"]
        self.address = opts["coordinator"] or os.environ.get("LG_COORDINATOR") or "127.0.0.1:20408"
        self.session = None
        self.acquired = False
        self.token = None  # our reservation in labgrid's queue
        self.inner = None
        self.resolved = {}  # what the place's resources said: class -> args
        self.powered = None
        try:
            self._open()
        except BaseException:
            self.close()
            raise

    # ---- the coordinator ----
    def _call(self, what, coro_fn, timeout=60):
        """Run `await coro_fn()` on the labgrid loop -> its result; labgrid's and gRPC's errors
        become one TickmarkError line."""
        client = _client()
        import grpc

        try:
            return _Loop.get().call(coro_fn, timeout)
        except client.Error as e:
            msg = " ".join(str(e).replace("Error: ", "", 1).split())
        except grpc.aio.AioRpcError as e:
            msg = e.details() or str(e.code())
        except TimeoutError:
            msg = f"the coordinator {self.address} did not answer within {timeout} s"
        raise TickmarkError(f"labgrid place {self.place}: {what}: {msg}")

    def _open(self):
        client = _client()
        _quiet_root_logger()
        from labgrid.util.proxy import proxymanager

        self.grpc_address = proxymanager.get_grpc_address(self.address, default_port=20408)
        try:
            self.session = _Loop.get().call(lambda: _Loop.get().session(self.grpc_address), 60)
        except (client.Error, TimeoutError):
            raise TickmarkError(
                f"labgrid coordinator {self.address} is unreachable (set LG_COORDINATOR=HOST:PORT or ?coordinator=)"
            )
        self._queue()

        def acquire():  # an exporter that just came back needs a moment before its place can be had
            try:
                self._call("acquire", self._acquire)
            except TickmarkError as e:
                if any(w in str(e) for w in ("no matching", "Failed to acquire", "orphaned")):
                    raise Again(e)
                raise

        retry(self.opts["wait"], acquire, interval=1)
        self.acquired = True
        res = self._resolve(self.opts["wait"])
        if self.opts["power_cycle"]:
            self._power_cycle(res)
        self.inner = self._inner(res)

    # ---- the reservation queue ----
    def _queue(self):
        """Reserve the place and wait until the coordinator allocates it to us."""
        from labgrid.remote.common import ReservationState

        self._call("place", self._place)  # an unknown place is an error now, not a reservation that never ends
        self.token = self._call("reserve", self._reserve)
        told = []

        def allocated():
            res = self._call("reservation", self._poll)
            if res.state in (ReservationState.allocated, ReservationState.acquired):
                if self.place not in [p for group in res.allocations.values() for p in group]:
                    raise TickmarkError(f"labgrid place {self.place}: the reservation got another place")
                return
            if res.state is not ReservationState.waiting:
                raise TickmarkError(f"labgrid place {self.place}: the reservation became {res.state.name}")
            if not told:
                import sys

                told.append(True)
                print(
                    f"tickmark: labgrid place {self.place} is taken ({self._holders()}); waiting in labgrid's "
                    f"reservation queue (up to {self.opts['queue']} s)",
                    file=sys.stderr,
                )
            raise Again(
                lambda: TickmarkError(
                    f"labgrid place {self.place}: still taken after {self.opts['queue']} s in labgrid's "
                    f"reservation queue: {self._holders()}"
                )
            )

        retry(self.opts["queue"], allocated, interval=1)

    async def _place(self):
        await self.session.sync_with_coordinator()
        return self.session.get_place(self.place)

    async def _reserve(self):
        from labgrid.remote.generated import labgrid_coordinator_pb2 as pb

        req = pb.CreateReservationRequest(
            filters={"main": pb.Reservation.Filter(filter={"name": self.place})}, prio=0.0
        )
        resp = await self.session.stub.CreateReservation(req)
        return resp.reservation.token

    async def _poll(self):
        from labgrid.remote.common import Reservation
        from labgrid.remote.generated import labgrid_coordinator_pb2 as pb

        resp = await self.session.stub.PollReservation(pb.PollReservationRequest(token=self.token))
        return Reservation.from_pb2(resp.reservation)

    async def _cancel(self):
        from labgrid.remote.generated import labgrid_coordinator_pb2 as pb

        await self.session.stub.CancelReservation(pb.CancelReservationRequest(token=self.token))

    async def _reservations(self):
        from labgrid.remote.common import Reservation
        from labgrid.remote.generated import labgrid_coordinator_pb2 as pb

        resp = await self.session.stub.GetReservations(pb.GetReservationsRequest())
        return [Reservation.from_pb2(x) for x in resp.reservations]

    def _holders(self):
        """Who holds the place, and who else waits for it, in words."""
        try:
            place = self._call("place", self._place, timeout=15)
            others = self._call("reservations", self._reservations, timeout=15)
        except TickmarkError as e:
            return f"cannot tell who holds it ({e})"
        words = [f"acquired by {place.acquired}" if place.acquired else "not acquired"]
        for r in sorted(others, key=lambda r: (-r.prio, r.created)):
            if r.token == self.token:
                continue
            got = [p for group in r.allocations.values() for p in group]
            if self.place in got:
                words.append(f"reserved for {r.owner} ({r.state.name}, reservation {r.token})")
            elif r.state.name == "waiting" and r.filters.get("main", {}).get("name") == self.place:
                words.append(f"{r.owner} waits before us (reservation {r.token})")
        return ", ".join(words)

    async def _acquire(self):
        from labgrid.remote.generated import labgrid_coordinator_pb2 as pb

        s = self.session
        await s.sync_with_coordinator()
        place = s.get_place(self.place)
        if place.acquired:
            raise _client().UserError(
                f"already acquired by {place.acquired} (when that is a tickmark that was killed: "
                f"labgrid-client -p {self.place} release)"
            )
        s.check_matches(place)
        await s.stub.AcquirePlace(pb.AcquirePlaceRequest(placename=place.name))
        await s.sync_with_coordinator()

    async def _release(self):
        from labgrid.remote.generated import labgrid_coordinator_pb2 as pb

        s = self.session
        await s.stub.ReleasePlace(pb.ReleasePlaceRequest(placename=self.place))
        await s.sync_with_coordinator()

    def _resources(self):
        """{(name, class): entry} of the acquired place, fresh from the coordinator."""
        s = self.session

        async def get():
            await s.sync_with_coordinator()
            return s.get_target_resources(s.get_place(self.place))

        return self._call("resources", get)

    def _resolve(self, wait):
        """The place's resources once the one we reach the board through is available."""

        def available():
            try:
                res = self._resources()
                if any(_avail(e) for (_, cls), e in res.items() if cls == "NetworkService" or cls in _SERIAL):
                    self.resolved = {cls: dict(e.args) for (_, cls), e in res.items() if _avail(e)}
                    return res
                why = "no available NetworkService or serial port in the place" if res else "no resources"
            except TickmarkError as e:
                why = str(e).split(": ", 1)[-1]
            raise Again(TickmarkError(f"labgrid place {self.place}: unavailable: {why}"))

        return retry(wait, available)

    def check(self):
        """Before a round: the place must still hold an available resource of the board."""
        try:
            res = self._resources()
        except TickmarkError as e:
            raise TickmarkError(f"labgrid place {self.place} became unavailable: {str(e).split(': ', 1)[-1]}")
        if not any(_avail(e) for (_, cls), e in res.items() if cls == "NetworkService" or cls in _SERIAL):
            raise TickmarkError(f"labgrid place {self.place} became unavailable: its resources are gone")

    # ---- power ----
    def _power_cycle(self, res):
        from labgrid import Target as LgTarget
        from labgrid.factory import target_factory

        power = [(name, cls, e) for (name, cls), e in res.items() if cls in _POWER]
        if not power:
            raise TickmarkError(
                f"labgrid place {self.place} has no power control to cycle "
                f"(its resources: {', '.join(sorted(c for _, c in res)) or 'none'})"
            )
        name, cls, entry = power[0]
        lt = LgTarget(self.place)
        try:
            target_factory.make_resource(lt, cls, name, dict(entry.args))
            drv = target_factory.class_from_string(_POWER[cls])(lt, name=None)
            lt.activate(drv)
            drv.cycle()
        except Exception as e:  # labgrid and the power switch speak many kinds of errors
            raise TickmarkError(f"labgrid place {self.place}: power cycle through {cls} failed: {e}")
        finally:
            with contextlib.suppress(Exception):
                lt.cleanup()
        self.powered = {"resource": cls, "cycled_at": time.time()}
        ns = next((e for (_, c), e in res.items() if c == "NetworkService"), None)
        if ns is not None:
            self._wait_port(ns.args["address"], int(ns.args.get("port", 22)), self.opts["boot_wait"])

    def _wait_port(self, host, port, wait):
        def answers():
            try:
                socket.create_connection((host, port), 2).close()
            except OSError as e:
                raise Again(
                    TickmarkError(
                        f"labgrid place {self.place}: {host}:{port} did not answer within "
                        f"{wait} s of the power cycle ({e.strerror or e})"
                    )
                )

        retry(wait, answers)

    # ---- the board ----
    def _inner(self, res):
        from . import open_target

        via = self.opts["via"]
        ns = next((e for (_, c), e in res.items() if c == "NetworkService" and _avail(e)), None)
        ser = next((e for (_, c), e in res.items() if c in _SERIAL and _avail(e)), None)
        if via in ("auto", "ssh") and ns is not None:
            a = ns.args
            host = a["address"]
            host = f"[{host}]" if ":" in host else host
            user = f"{a['username']}@" if a.get("username") else ""
            uri = f"ssh://{user}{host}" + (f":{a['port']}" if a.get("port") else "")
        elif via in ("auto", "serial") and ser is not None:
            a = ser.args
            dev = a.get("port") if ser.cls != "NetworkSerialPort" else f"rfc2217://{a['host']}:{a['port']}"
            if not dev:
                raise TickmarkError(f"labgrid place {self.place}: the serial port has no device yet")
            uri = f"serial:{dev}?baud={a.get('speed', 115200)}"
        else:
            what = {"ssh": "NetworkService", "serial": "serial port"}.get(via, "NetworkService or serial port")
            raise TickmarkError(f"labgrid place {self.place}: no available {what}")
        self.via = uri
        return open_target(uri)

    def prepare(self, variant=None):
        return LabgridCore(self, self.inner.prepare(variant or Variant()))

    def fingerprint(self, core, hello=None):
        core.inner.build = core.build  # the variant name a campaign or matrix gave it
        fp = self.inner.fingerprint(core.inner, hello)
        fp = self.base_fingerprint(fp, core)
        fp["labgrid"] = {
            "place": self.place,
            "coordinator": self.address,
            "via": self.via,
            "resources": sorted(self.resolved),
            "power_cycled": self.powered is not None,
        }
        return fp

    def reconnect(self):
        self.check()
        if not self.inner.reconnects:
            raise TickmarkError(f"{self.via} cannot reconnect")
        self.inner.reconnect()

    # ---- the end ----
    def _undo(self, what, fn, by_hand):
        """One step of closing: a failure is told with the command that does it by hand, and does
        not hide the error that brought us here."""
        try:
            self._call(what, fn, timeout=30)
        except TickmarkError as e:
            import sys

            print(f"tickmark: warning: {e} ({by_hand})", file=sys.stderr)

    def close(self):
        """Close the board's target, release the place, leave the coordinator. Idempotent."""
        inner, self.inner = self.inner, None
        if inner is not None:
            with contextlib.suppress(Exception):
                inner.close()
        s = self.session
        if s is None:
            return
        # The reservation goes before the place: a place released while our reservation still
        # holds it stays out of the coordinator's next allocation (the cancel's), and whoever waits
        # in the queue would get it only at the coordinator's periodic pass, up to 15 s later.
        if self.token is not None:
            self._undo("cancel the reservation", self._cancel, f"labgrid-client cancel-reservation {self.token}")
            self.token = None
        if self.acquired:
            self.acquired = False
            self._undo("release", self._release, f"labgrid-client -p {self.place} release")
        self.session = None
        with contextlib.suppress(Exception):
            _Loop.get().call(lambda: _Loop.get().leave(self.grpc_address), 15)
