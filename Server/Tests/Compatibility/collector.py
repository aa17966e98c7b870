"""A `tally serve` process for the SDK compatibility tests, with one app.

The app is created with `tally app create` on a database in a temporary folder, then the
server starts on a free port of that database; `start()` returns once `/healthz` answers.
On a failed start the server's output is printed, so it explains itself.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
from datetime import datetime, timezone

START_TIMEOUT = 60  # seconds


def free_port():
    """A port nothing listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Collector:
    """One `tally serve`: `start()`, then `url`, `ingest_key`, `read_token`, `metrics()`;
    `stop()` ends it."""

    def __init__(self, binary=None):
        self.binary = binary or os.environ.get("TALLY_BIN", ".build/debug/tally")
        self.url = self.ingest_key = self.read_token = None
        self._folder = self._process = self._log = None

    def start(self):
        if not os.access(self.binary, os.X_OK):
            raise RuntimeError(f"no tally binary at {self.binary} (set TALLY_BIN or run swift build)")
        self._folder = tempfile.TemporaryDirectory(prefix="tally-sdk-")
        database = os.path.join(self._folder.name, "tally.sqlite")
        keys = json.loads(subprocess.run(
            [self.binary, "app", "create", "SDK", "--db", database], check=True, capture_output=True, text=True
        ).stdout)
        self.ingest_key, self.read_token = keys["ingest_key"], keys["read_token"]
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        self._log = open(os.path.join(self._folder.name, "serve.log"), "w+")
        self._process = subprocess.Popen(
            [self.binary, "serve", "--port", str(port), "--db", database], stdout=self._log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2):
                    return self
            except (urllib.error.URLError, ConnectionError):
                if self._process.poll() is not None or time.monotonic() > deadline:
                    self._log.seek(0)
                    print(self._log.read(), file=sys.stderr)
                    self.stop()
                    raise RuntimeError("tally serve did not answer /healthz")
                time.sleep(0.2)

    def stop(self):
        if self._process and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(15)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._log:
            self._log.close()
        if self._folder:
            self._folder.cleanup()
            self._folder = None

    def metrics(self):
        """Today's metrics (UTC) of the app, from `GET /v1/metrics`."""
        day = datetime.now(timezone.utc).strftime("%Y-%m-%d")
        request = urllib.request.Request(
            f"{self.url}/v1/metrics?date={day}", headers={"Authorization": f"Bearer {self.read_token}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)


class CollectorTestCase(unittest.TestCase):
    """Each test gets a collector, and so an app, of its own (`self.collector`), and the SDK's
    uploads as (status, Content-Encoding) in `self.uploads`. A subclass names the `requests`
    session its SDK uploads through in `sdk_session()`."""

    @staticmethod
    def sdk_session():
        raise NotImplementedError

    @classmethod
    def setUpClass(cls):
        cls.uploads = []
        cls.sdk_session().hooks["response"].append(
            lambda response, *args, **kwargs: cls.uploads.append(
                (response.status_code, response.request.headers.get("Content-Encoding"))
            )
        )

    def setUp(self):
        self.collector = Collector().start()
        self.addCleanup(self.collector.stop)
        self.uploads.clear()
