"""Headless Chromium driven over the DevTools protocol (a websocket): load a page, record every
request, console message and exception, evaluate expressions, take a screenshot.

    with Browser() as b:
        page = b.load("file:///tmp/r.html")     # -> Page(requests, console, exceptions, dialogs)
        b.evaluate("document.querySelectorAll('svg').length")
        png = b.screenshot()
"""

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def find_chromium():
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class Page:
    url: str
    requests: list = field(default_factory=list)  # every URL the page asked for
    console: list = field(default_factory=list)  # (level, text)
    exceptions: list = field(default_factory=list)
    dialogs: list = field(default_factory=list)  # alert()/confirm() texts
    failed: list = field(default_factory=list)  # (url, error) of failed loads


class Browser:
    def __init__(self, width=1200, height=900, timeout=60):
        self.width, self.height, self.timeout = width, height, timeout
        self.proc = None
        self.ws = None
        self._id = 0
        self.events = []

    def __enter__(self):
        import websocket

        exe = find_chromium()
        if exe is None:
            raise RuntimeError("chromium not found")
        self.profile = tempfile.mkdtemp(prefix="tickmark-chromium-")
        args = [
            exe,
            "--headless=new",
            "--remote-debugging-port=0",
            f"--user-data-dir={self.profile}",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            f"--window-size={self.width},{self.height}",
            "about:blank",
        ]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        t = time.time()
        while not os.path.exists(port_file) or os.path.getsize(port_file) == 0:
            if self.proc.poll() is not None or time.time() - t > self.timeout:
                self.close()
                raise RuntimeError("chromium did not open its DevTools port")
            time.sleep(0.05)
        time.sleep(0.1)
        port = open(port_file).read().split()[0]
        # the page target: ask the browser endpoint for the list over HTTP
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as f:
            targets = json.load(f)
        page = next(t for t in targets if t.get("type") == "page")
        self.ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=self.timeout, suppress_origin=True)
        for domain in ("Page", "Network", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        self.call(
            "Emulation.setDeviceMetricsOverride",
            width=self.width,
            height=self.height,
            deviceScaleFactor=1,
            mobile=False,
        )
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.ws is not None:
            try:
                self.ws.close()
            except Exception:
                pass
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if getattr(self, "profile", None):
            shutil.rmtree(self.profile, ignore_errors=True)

    def call(self, method, **params):
        self._id += 1
        my = self._id
        self.ws.settimeout(self.timeout)
        self.ws.send(json.dumps({"id": my, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == my:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def _pump(self, until, timeout):
        t = time.time()
        while time.time() - t < timeout:
            if any(until(e) for e in self.events):
                return True
            self.ws.settimeout(max(0.1, timeout - (time.time() - t)))
            try:
                msg = json.loads(self.ws.recv())
            except Exception:
                break
            if "method" in msg:
                self.events.append(msg)
        return any(until(e) for e in self.events)

    def load(self, url):
        self.events = []
        self.call("Page.navigate", url=url)
        if not self._pump(lambda e: e["method"] == "Page.loadEventFired", self.timeout):
            raise RuntimeError(f"{url} did not finish loading")
        self._pump(lambda e: False, 0.5)  # late console messages and requests
        page = Page(url)
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Network.requestWillBeSent":
                page.requests.append(p["request"]["url"])
            elif m == "Network.loadingFailed":
                page.failed.append((p.get("requestId"), p.get("errorText")))
            elif m == "Runtime.consoleAPICalled":
                page.console.append(
                    (p.get("type"), " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", [])))
                )
            elif m == "Log.entryAdded":
                entry = p.get("entry", {})
                page.console.append((entry.get("level"), entry.get("text", "")))
            elif m == "Runtime.exceptionThrown":
                page.exceptions.append(p.get("exceptionDetails", {}).get("text", "exception"))
            elif m == "Page.javascriptDialogOpening":
                page.dialogs.append(p.get("message"))
                self.call("Page.handleJavaScriptDialog", accept=True)
        return page

    def evaluate(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails'].get('text')}")
        return r["result"].get("value")

    def screenshot(self, full_page=True):
        """PNG bytes of the page (the whole page when full_page)."""
        params = {"format": "png"}
        if full_page:
            size = self.call("Page.getLayoutMetrics")["cssContentSize"]
            params.update(
                captureBeyondViewport=True,
                clip={"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 16000), "scale": 1},
            )
        return base64.b64decode(self.call("Page.captureScreenshot", **params)["data"])
