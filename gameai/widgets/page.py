"""Show an anywidget in a plain browser page, without Jupyter: a tiny local HTTP server
serves the widget's ES module and CSS, and a page whose small ``model`` object (the part
of the anywidget front-end API a widget uses: get, set, save_changes, on, off, send)
talks to the Python widget over HTTP. Used by the browser test and handy on machines
without JupyterLab. Listens on 127.0.0.1 only."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>gameai board</title><style>{css}</style></head>
<body><div id="root"></div>
<script type="module">
import * as mod from "/widget.js";
const listeners = {{}};
let state = await (await fetch("/state")).json();
let pending = {{}};
function apply(next) {{
  for (const [k, v] of Object.entries(next)) {{
    if (JSON.stringify(state[k]) !== JSON.stringify(v)) {{
      state[k] = v;
      for (const cb of listeners["change:" + k] || []) cb();
    }}
  }}
}}
async function post(msg) {{
  const r = await fetch("/msg", {{ method: "POST", body: JSON.stringify(msg) }});
  apply(await r.json());
}}
const model = {{
  get: (k) => state[k],
  set: (k, v) => {{ state[k] = v; pending[k] = v; }},
  save_changes: () => {{ const p = pending; pending = {{}}; post({{ type: "update", state: p }}); }},
  on: (ev, cb) => {{ (listeners[ev] ||= []).push(cb); }},
  off: (ev, cb) => {{ listeners[ev] = (listeners[ev] || []).filter((f) => f !== cb); }},
  send: (content) => post({{ type: "custom", content }}),
}};
setInterval(async () => apply(await (await fetch("/state")).json()), 150);
const widget = mod.default ?? mod;
widget.render({{ model, el: document.getElementById("root") }});
document.body.dataset.ready = "1";
</script></body></html>
"""


def _synced_state(widget) -> dict:
    keys = [k for k in widget.keys if not k.startswith("_")]
    return {k: getattr(widget, k) for k in keys}


def serve(widget, port: int = 0):
    """Serve ``widget`` at ``http://127.0.0.1:PORT/``; returns ``(url, server)`` (call
    ``server.shutdown()`` to stop). Messages run in the server's threads one at a time."""
    esm = widget._esm if isinstance(widget._esm, str) else Path(widget._esm).read_text()
    css = getattr(widget, "_css", "") or ""
    css = css if isinstance(css, str) and "{" in css else Path(css).read_text() if css else ""
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def _send(self, body: bytes, ctype: str) -> None:
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
            if self.path == "/widget.js":
                self._send(esm.encode(), "text/javascript")
            elif self.path == "/state":
                with lock:
                    self._send(json.dumps(_synced_state(widget), default=str).encode(), "application/json")
            elif self.path == "/favicon.ico":
                self.send_response(204)
                self.end_headers()
            elif self.path in ("/", "/index.html"):
                self._send(PAGE.format(css=css).encode(), "text/html; charset=utf-8")
            else:
                self.send_error(404)

        def do_POST(self) -> None:  # noqa: N802
            msg = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            with lock:
                if msg.get("type") == "custom":
                    widget._handle_custom_msg(msg.get("content", {}), [])
                elif msg.get("type") == "update":
                    widget.set_state(msg.get("state", {}))
                body = json.dumps(_synced_state(widget), default=str).encode()
            self._send(body, "application/json")

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server
