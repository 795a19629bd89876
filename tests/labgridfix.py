"""A real labgrid lab for tests: labgrid's own coordinator and exporter (from the labgrid package
on PyPI) on 127.0.0.1, an exporter that exports a NetworkService per place (all pointing at the
test's sshd), and optionally a NetworkPowerPort of model `simplerest` served by a small HTTP
switch in the test that records every off and on."""

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

BIN = Path(sys.executable).parent


def have_labgrid():
    try:
        import labgrid  # noqa: F401
    except ImportError:
        return False
    return all((BIN / f"labgrid-{x}").exists() or shutil.which(f"labgrid-{x}") for x in ("coordinator", "exporter"))


def _tool(name):
    p = BIN / name
    return str(p) if p.exists() else shutil.which(name)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PowerSwitch:
    """GET /relay/INDEX/VALUE switches (VALUE 0 or 1), GET /relay/INDEX reads: labgrid's simplerest."""

    def __init__(self):
        self.log = []
        self.state = {}
        sw = self

        class H(BaseHTTPRequestHandler):
            def do_GET(self):
                parts = self.path.strip("/").split("/")
                if len(parts) == 3:
                    sw.state[parts[1]] = parts[2]
                    sw.log.append(("set", parts[1], parts[2]))
                    body = b"ok"
                else:
                    body = sw.state.get(parts[1], "1").encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *a):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


class Lab:
    def __init__(self, root, sshd, places, power=None):
        """places: {place name: group name}; power: {group name: PowerSwitch}."""
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.sshd, self.places, self.power = sshd, places, power or {}
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.coordinator = self.exporter = None
        self.env = dict(os.environ, LG_COORDINATOR=self.address)

    def exporter_yaml(self):
        out = []
        for group in self.places.values():
            out.append(
                f"{group}:\n  NetworkService:\n    address: 127.0.0.1\n    port: {self.sshd.port}\n"
                f"    username: {self.sshd.user}\n"
            )
            sw = self.power.get(group)
            if sw:
                out.append(
                    f"  NetworkPowerPort:\n    model: simplerest\n"
                    f"    host: 'http://127.0.0.1:{sw.port}/relay/{{index}}/{{value}}'\n    index: 0\n"
                )
        p = self.root / "exporter.yaml"
        p.write_text("".join(out))
        return p

    def start(self):
        coord = self.root / "coordinator"
        coord.mkdir(exist_ok=True)
        self.coordinator = subprocess.Popen(
            [_tool("labgrid-coordinator"), "-l", self.address],
            cwd=coord,
            stdout=open(self.root / "coordinator.log", "ab"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.time() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                break
            except OSError:
                if time.time() > deadline or self.coordinator.poll() is not None:
                    raise RuntimeError("labgrid-coordinator did not start: " + self.log("coordinator"))
                time.sleep(0.1)
        self.start_exporter()
        for place, group in self.places.items():
            self.client("-p", place, "create")
            self.client("-p", place, "add-match", f"exp/{group}/*")
        return self

    def start_exporter(self):
        self.exporter = subprocess.Popen(
            [
                _tool("labgrid-exporter"),
                "-c",
                self.address,
                "-n",
                "exp",
                "--hostname",
                "127.0.0.1",
                str(self.exporter_yaml()),
            ],
            cwd=self.root,
            stdout=open(self.root / "exporter.log", "ab"),
            stderr=subprocess.STDOUT,
        )
        self.wait_resources()

    def wait_resources(self, timeout=60):
        """Until every group of the exporter is listed and available."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            out = self.client("resources", check=False).stdout
            if all(f"exp/{g}/NetworkService" in out for g in self.places.values()):
                return
            time.sleep(0.3)
        raise RuntimeError("the exporter's resources did not appear: " + self.log("exporter"))

    def kill_exporter(self):
        self.exporter.kill()
        self.exporter.wait()

    def client(self, *args, check=True):
        r = subprocess.run([_tool("labgrid-client"), *args], env=self.env, capture_output=True, text=True, timeout=60)
        if check and r.returncode != 0:
            raise RuntimeError(f"labgrid-client {' '.join(args)}: {r.stderr.strip()}")
        return r

    def acquired(self):
        """{place: 'host/user'} of the places acquired now: one labgrid-client call for all places
        (each call costs most of a second of CPU: Python starting and importing labgrid)."""
        out, place = {}, None
        for ln in self.client("-v", "places").stdout.splitlines():
            if ln.startswith("Place '"):
                place = ln.split("'")[1]
            elif ln.strip().startswith("acquired:") and place in self.places:
                who = ln.split(":", 1)[1].strip()
                if who and who != "None":
                    out[place] = who
        return out

    def log(self, what):
        p = self.root / f"{what}.log"
        return p.read_text(errors="replace")[-1500:] if p.exists() else ""

    def stop(self):
        for p in (self.exporter, self.coordinator):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
