"""Headless browsers for the benchmarks, Python stdlib only, one interface for both:
Chromium through chromedriver (W3C WebDriver over HTTP) and Firefox ESR through Marionette,
the remote protocol built into Firefox (Debian has no geckodriver; the tests speak it too,
Tests/TestSupport/Marionette.swift).

    browser = browsers.start("chromium" | "firefox")
    browser.open(url); handle = browser.new_window(); browser.switch(handle)
    browser.execute("return 1"); browser.current(); browser.quit()

Every wait is bounded (60 s a command).
"""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Chromium:
    """Headless Chromium through chromedriver; `args`: more Chromium switches. `command`
    sends any other WebDriver command of the session (a screenshot, DevTools)."""

    def __init__(self, args=()):
        self.port = free_port()
        self.driver = subprocess.Popen(["chromedriver", f"--port={self.port}", "--allowed-ips=127.0.0.1"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                self._call("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        self.session = self._call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": "/usr/bin/chromium",
                                   "args": ["--headless=new", "--no-sandbox", "--disable-gpu", *args]}}}})[
            "value"]["sessionId"]

    def _call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)

    def command(self, method, path, body=None):
        return self._call(method, f"/session/{self.session}/{path}", body)["value"]

    def open(self, url):
        self.command("POST", "url", {"url": url})

    def current(self):
        return self.command("GET", "window")

    def new_window(self):
        return self.command("POST", "window/new", {"type": "window"})["handle"]

    def switch(self, handle):
        self.command("POST", "window", {"handle": handle})

    def execute(self, script):
        return self.command("POST", "execute/sync", {"script": script, "args": []})

    def quit(self):
        try:
            self._call("DELETE", f"/session/{self.session}")
        finally:
            self.driver.terminate()
            self.driver.wait(timeout=10)


class Firefox:
    """Headless Firefox ESR through Marionette: `LENGTH:JSON` messages over TCP; a command is
    `[0, id, name, parameters]`, its answer `[1, id, error, result]`."""

    def __init__(self):
        self.profile = tempfile.mkdtemp(prefix="feedweb-firefox.")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            f.write('user_pref("marionette.port", 0);\n')
            # performance.now() to the microsecond, not rounded to 1 ms (a measuring
            # instrument's setting; the page script does not depend on it).
            f.write('user_pref("privacy.reduceTimerPrecision", false);\n')
        self.process = subprocess.Popen(
            ["firefox-esr", "--headless", "--marionette", "--no-remote", "--profile", self.profile],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            env=dict(os.environ, HOME=self.profile, MOZ_CRASHREPORTER_DISABLE="1"))
        port_file = os.path.join(self.profile, "MarionetteActivePort")
        deadline = time.time() + 30
        while not (os.path.exists(port_file) and open(port_file).read().strip()):
            if time.time() > deadline or self.process.poll() is not None:
                self._end()
                raise RuntimeError("Firefox did not start Marionette within 30 s")
            time.sleep(0.1)
        self.sock = socket.create_connection(("127.0.0.1", int(open(port_file).read())), timeout=60)
        self.unread = b""
        self.last = 0
        greeting = self._read()
        if greeting.get("applicationType") != "gecko":
            raise RuntimeError("not Marionette: %r" % greeting)
        self.command("WebDriver:NewSession", {"capabilities": {"alwaysMatch": {}}})

    def _read(self):
        while True:
            if b":" in self.unread:
                length, rest = self.unread.split(b":", 1)
                n = int(length)
                if len(rest) >= n:
                    self.unread = rest[n:]
                    return json.loads(rest[:n])
            self._fill()

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise RuntimeError("Marionette closed the connection")
        self.unread += chunk

    def command(self, name, parameters=None):
        self.last += 1
        body = json.dumps([0, self.last, name, parameters or {}]).encode()
        self.sock.sendall(str(len(body)).encode() + b":" + body)
        while True:
            message = self._read()
            if isinstance(message, list) and len(message) == 4 and message[0] == 1 and message[1] == self.last:
                if message[2]:
                    raise RuntimeError("%s: %s" % (name, message[2].get("message", message[2])))
                return message[3]

    def open(self, url):
        self.command("WebDriver:Navigate", {"url": url})

    def current(self):
        return self.command("WebDriver:GetWindowHandle")["value"]

    def new_window(self):
        return self.command("WebDriver:NewWindow", {"type": "window"})["handle"]

    def switch(self, handle):
        self.command("WebDriver:SwitchToWindow", {"handle": handle, "focus": True})

    def execute(self, script):
        return self.command("WebDriver:ExecuteScript", {"script": script, "args": []}).get("value")

    def quit(self):
        try:
            self.command("Marionette:Quit", {"flags": ["eForceQuit"]})
            self.process.wait(timeout=10)
        except Exception:
            pass
        self._end()

    def _end(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, 9)
            self.process.wait(timeout=10)
        shutil.rmtree(self.profile, ignore_errors=True)


def start(name):
    """A new headless browser: "chromium" or "firefox"."""
    if name == "firefox":
        return Firefox()
    if name == "chromium":
        return Chromium()
    raise SystemExit("browsers: unknown browser %r (chromium or firefox)" % name)
