"""Render a report in headless Chromium and say what a reader's browser would see.

A minimal client of the Chrome DevTools protocol over ``--remote-debugging-pipe`` (JSON
messages separated by NUL bytes on file descriptors 3 and 4 of the browser process): no
websocket library and no browser download, just the system's ``chromium``. Used by the tests
(console errors, images decoded and not blank, the numbers of the page against its embedded
JSON) and by ``benchmarks/report.py`` for the README's screenshot.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["BrowserError", "chromium_path", "inspect_page"]

_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

# Runs in the page after load: every image decoded and not blank (pixels drawn on a canvas, more
# than one colour), every data-key cell equal to its path in the embedded JSON.
_CHECK_JS = r"""
(async () => {
  const out = {images: [], cells: 0, cell_mismatches: [], json_ok: false, title: document.title};
  for (const img of document.images) {
    const r = {alt: img.alt, decoded: false, width: 0, height: 0, colours: 0, ink: 0};
    try { await img.decode(); r.decoded = true; } catch (e) { r.error = String(e); }
    r.width = img.naturalWidth; r.height = img.naturalHeight;
    if (r.decoded && r.width > 0) {
      const c = document.createElement("canvas");
      c.width = r.width; c.height = r.height;
      const g = c.getContext("2d");
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, r.width, r.height).data;
      const seen = new Set();
      let ink = 0;
      for (let i = 0; i < d.length; i += 4 * 7) {
        seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
        if (d[i] + d[i + 1] + d[i + 2] < 600) ink++;
      }
      r.colours = seen.size; r.ink = ink;
    }
    out.images.push(r);
  }
  const el = document.getElementById("gpusim-report");
  if (el) {
    const rep = JSON.parse(el.textContent);
    out.json_ok = true;
    for (const td of document.querySelectorAll("[data-key]")) {
      let v = rep;
      for (const k of td.dataset.key.split(".")) v = (v === null || v === undefined) ? v : v[k];
      out.cells++;
      if (JSON.stringify(v) !== JSON.stringify(JSON.parse(td.dataset.value)))
        out.cell_mismatches.push(td.dataset.key);
    }
  }
  return out;
})()
"""


class BrowserError(RuntimeError):
    """Chromium could not be started or did not answer."""


def chromium_path() -> str | None:
    """The system's Chromium (or Chrome) executable, or None."""
    for name in _NAMES:
        p = shutil.which(name)
        if p:
            return p
    return None


def _high(fd: int) -> int:
    import fcntl

    new = fcntl.fcntl(fd, fcntl.F_DUPFD, 10)
    os.close(fd)
    return new


class _Pipe:
    def __init__(self, exe: str, profile: str):
        r_cmd, w_cmd = os.pipe()  # we write commands, the browser reads fd 3
        r_evt, w_evt = os.pipe()  # the browser writes fd 4, we read
        # the shell moves the pipe ends to fds 3 and 4 (a preexec_fn would fork a
        # multithreaded JAX process through Python, which can deadlock); above 9 first, so
        # neither end already is fd 3 or 4
        r_cmd, w_evt = _high(r_cmd), _high(w_evt)
        # bash: dash's redirections take single-digit descriptors only
        args = [shutil.which("bash") or "/bin/bash", "-c",
                f'exec "$0" "$@" 3<&{r_cmd} 4>&{w_evt}', exe,
                "--headless=new", "--remote-debugging-pipe", "--no-sandbox",
                "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--hide-scrollbars", "--mute-audio",
                f"--user-data-dir={profile}", "about:blank"]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, pass_fds=(r_cmd, w_evt))
        os.close(r_cmd)
        os.close(w_evt)
        self.w, self.r = w_cmd, r_evt
        self.buf = b""
        self.next_id = 0
        self.events: list[dict] = []

    def send(self, method: str, params: dict | None = None, session: str | None = None,
             timeout: float = 60.0) -> dict:
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read(timeout)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise BrowserError(f"{method}: {m['error'].get('message')}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method: str, timeout: float = 60.0) -> dict:
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                return self.events.pop(i)
        while True:
            m = self._read(timeout)
            if m.get("method") == method:
                return m
            self.events.append(m)

    def _read(self, timeout: float) -> dict:
        end = time.monotonic() + timeout
        while b"\0" not in self.buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.r], [], [], left)[0]:
                raise BrowserError(f"no answer from chromium within {timeout:.0f} s")
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise BrowserError("chromium closed the DevTools pipe")
            self.buf += chunk
        raw, _, self.buf = self.buf.partition(b"\0")
        return json.loads(raw)

    def close(self) -> None:
        try:
            os.write(self.w, json.dumps({"id": 0, "method": "Browser.close"}).encode() + b"\0")
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.w)
        os.close(self.r)


def inspect_page(path: str | Path, *, width: int = 1280, height: int = 900,
                 timeout: float = 120.0) -> dict:
    """Load the HTML file ``path`` in headless Chromium at ``width`` x ``height``.

    Returns {"console_errors": [text], "checks": {images: [{alt, decoded, width, height,
    colours, ink}], cells, cell_mismatches, json_ok, title}, "screenshot": PNG bytes of the
    first screen}. Raises BrowserError when Chromium is missing or does not answer.
    """
    exe = chromium_path()
    if exe is None:
        raise BrowserError("chromium not found (Debian: apt-get install chromium)")
    url = Path(path).resolve().as_uri()
    with tempfile.TemporaryDirectory(prefix="gpusim-chromium-") as profile:
        b = _Pipe(exe, profile)
        try:
            target = b.send("Target.createTarget", {"url": "about:blank"}, timeout=timeout)
            sess = b.send("Target.attachToTarget", {"targetId": target["targetId"],
                                                    "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Log"):
                b.send(f"{domain}.enable", session=sess)
            b.send("Emulation.setDeviceMetricsOverride",
                   {"width": width, "height": height, "deviceScaleFactor": 1,
                    "mobile": False}, session=sess)
            nav = b.send("Page.navigate", {"url": url}, session=sess)
            if nav.get("errorText"):
                raise BrowserError(f"cannot open {url}: {nav['errorText']}")
            b.wait_event("Page.loadEventFired", timeout)
            res = b.send("Runtime.evaluate", {"expression": _CHECK_JS, "awaitPromise": True,
                                              "returnByValue": True}, session=sess,
                         timeout=timeout)
            if "exceptionDetails" in res:
                raise BrowserError(f"page check failed: {res['exceptionDetails'].get('text')}")
            checks = res["result"]["value"]
            shot = b.send("Page.captureScreenshot", {"format": "png"}, session=sess,
                          timeout=timeout)
            errors = []
            for m in b.events:
                p = m.get("params", {})
                if m.get("method") == "Runtime.exceptionThrown":
                    errors.append(p["exceptionDetails"].get("text", "exception"))
                elif m.get("method") == "Runtime.consoleAPICalled" and p.get("type") == "error":
                    errors.append(" ".join(str(a.get("value", a.get("description", "")))
                                           for a in p.get("args", [])))
                elif m.get("method") == "Log.entryAdded" and \
                        p.get("entry", {}).get("level") == "error":
                    errors.append(p["entry"].get("text", ""))
        finally:
            b.close()
    return {"console_errors": errors, "checks": checks,
            "screenshot": base64.b64decode(shot["data"])}
