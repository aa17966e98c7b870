"""Starts `tally serve --demo` for the browser tests and the screenshots, and signs in.

The server runs on a free port with a database in a temporary folder. Its output is read
until the `dashboard:` line (printed once the demo app is filled) and the demo app's keys
line; on any failure the output is printed, so a broken start explains itself.
"""

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid
import urllib.request
from datetime import datetime, timezone

DASHBOARD_LINE = re.compile(r"dashboard: (\S+) \(user (\S+), password (\S+)\)")
DEMO_TIME_ZONE = "Asia/Shanghai"  # the demo app's zone (Sources/tally/Demo/DemoData.swift)
START_TIMEOUT = 300  # seconds; the demo fill takes 1-3 minutes in a debug build


def free_port():
    """A port nothing listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class TallyServer:
    """One `tally serve --demo` process: `start()`, then `url`, `user`, `password`,
    `keys`; `stop()` sends SIGTERM."""

    def __init__(self, binary=None, demo_users=40):
        self.binary = binary or os.environ.get("TALLY_BIN", ".build/debug/tally")
        self.demo_users = demo_users
        self.url = self.user = self.password = self.keys = None
        self.lines = []
        self._ready = threading.Event()
        self._process = None
        self._folder = None

    def start(self):
        if not os.access(self.binary, os.X_OK):
            raise RuntimeError(f"no tally binary at {self.binary} (set TALLY_BIN or run swift build)")
        self._folder = tempfile.TemporaryDirectory(prefix="tally-browser-")
        command = [
            self.binary, "serve", "--demo", "--demo-users", str(self.demo_users),
            "--port", str(free_port()), "--db", os.path.join(self._folder.name, "tally.sqlite"),
        ]
        self._process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
        )
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + START_TIMEOUT
        while not self._ready.wait(0.2):
            if self._process.poll() is not None:
                self._fail(f"tally exited with status {self._process.returncode} before the dashboard line")
            if time.monotonic() > deadline:
                self._fail(f"no dashboard line within {START_TIMEOUT} s")
        return self

    def _read(self):
        for line in self._process.stdout:
            line = line.rstrip("\n")
            self.lines.append(line)
            match = DASHBOARD_LINE.search(line)
            if match:
                self.url, self.user, self.password = match.groups()
            elif line.startswith("{") and "ingest_key" in line:
                try:
                    self.keys = json.loads(line)
                except ValueError:
                    pass
            if self.url and self.keys:
                self._ready.set()

    def _fail(self, reason):
        self.stop()
        self.dump_output()
        raise RuntimeError(reason)

    def dump_output(self):
        print("---- tally output ----", *self.lines, "---- end of tally output ----", sep="\n", file=sys.stderr)

    def stop(self):
        if self._process and self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(15)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._folder:
            self._folder.cleanup()
            self._folder = None

    def command(self, *arguments, input=None):
        """Runs `tally ARGUMENTS --db` the server's database (`user create`, `user grant`, …)
        and returns its output; fails with the output when it exits non-zero."""
        database = os.path.join(self._folder.name, "tally.sqlite")
        done = subprocess.run(
            [self.binary, *arguments, "--db", database], input=input, capture_output=True, text=True, timeout=60
        )
        if done.returncode != 0:
            raise RuntimeError(f"tally {' '.join(arguments)} exited {done.returncode}: {done.stdout}{done.stderr}")
        return done.stdout

    def page(self, path):
        """The absolute URL of `path` on the server."""
        return urllib.parse.urljoin(self.url, path)

    def ingest(self, name, user_id, properties=None, session_id=None):
        """Sends one event now over HTTP, as an SDK does, in the session `session_id` if
        given; returns the HTTP status."""
        now = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        event = {"id": str(uuid.uuid4()), "name": name, "timestamp": now, "user_id": user_id, "properties": properties or {}}
        if session_id is not None:
            event["session_id"] = session_id
        body = {"sent_at": now, "events": [event]}
        request = urllib.request.Request(
            self.page("/v1/events"), data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-App-Key": self.keys["ingest_key"]},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status

    def annotate(self, day, text):
        """Adds an annotation on `day` with the demo app's write token; returns the JSON answer."""
        request = urllib.request.Request(
            self.page("/v1/annotations"), data=json.dumps({"day": day, "text": text}).encode(), method="POST",
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.keys['write_token']}"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def read(self, path):
        """The JSON of the read API's `path` (`/v1/paths?…`), with the demo app's read token."""
        request = urllib.request.Request(self.page(path), headers={"Authorization": f"Bearer {self.keys['read_token']}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)



def new_driver(width, height):
    """Headless Chromium through Debian's chromium-driver (paths overridable by env), keeping
    the console: `driver.get_log("browser")` returns what was logged since the last call."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM_BIN") or shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(os.environ.get("CHROMEDRIVER") or shutil.which("chromedriver") or "/usr/bin/chromedriver"))
    driver.set_window_size(width, height)
    return driver


def sign_in(driver, server, password=None, timeout=20, user=None):
    """Signs in through the form as `user` with `password` (the server's demo user and its
    password when `None`); waits for the dashboard, the page of a user without apps or the
    form's error, and returns whether the dashboard showed."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(server.page("/login"))
    driver.find_element(By.ID, "user").send_keys(user or server.user)
    driver.find_element(By.ID, "password").send_keys(server.password if password is None else password)
    driver.find_element(By.CSS_SELECTOR, "form#login button[type=submit]").click()
    WebDriverWait(driver, timeout).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "[data-section], .error") or d.find_elements(By.XPATH, "//h1[.='No apps yet']")
    )
    return bool(driver.find_elements(By.CSS_SELECTOR, "[data-section]"))
