#!/usr/bin/env python3
"""A fake API server for the Networking integration tests.

Standard library only. Binds 127.0.0.1 on a free port, prints
"PORT <port> CLOSED <port>" (the second is a port with nothing listening,
for connection-refused tests) and serves until stdin closes or it is killed.

Routes (GET unless noted):
  /fixture/<name>            200, the JSON file Tests/Fixtures/<name>.json
  /status/<code>             that status; 403 and 429 carry Weatherbit's bodies,
                             429 also "Retry-After: 120"
  /malformed                 200, truncated JSON
  /empty                     200, no body
  /slow?ms=N                 waits N ms, then 200 {"slow": true}
  /truncated                 promises 1000 bytes, sends 10, closes the connection
  /echo (GET or POST)        200, the method, path, query, headers and body as JSON
  /hold/<id>                 holds the request until the client closes the
                             connection (or HOLD_LIMIT s pass, then 200 {"held": true})
  /wait-arrived/<id>         returns once /hold/<id> has arrived (HOLD_LIMIT s at most):
                             200 {"arrived": bool}
  /wait-closed/<id>          returns once the client has closed /hold/<id>'s
                             connection (HOLD_LIMIT s at most): 200 {"closed": bool}

HOLD_LIMIT (300 s) only keeps a stuck handler thread from living forever: the
tests wait on these events, not on a window of wall-clock time, so a loaded
machine makes them slower, never wrong.
"""
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

HOLD_LIMIT = 300

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures")

# /hold/<id> bookkeeping: id -> (arrived, closed) events, shared by handler threads.
HOLDS = {}
HOLDS_LOCK = threading.Lock()


def hold_events(name):
    with HOLDS_LOCK:
        return HOLDS.setdefault(name, (threading.Event(), threading.Event()))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, payload, extra_headers=()):
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra_headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def fixture(self, name):
        with open(os.path.join(FIXTURES, name + ".json"), "rb") as f:
            return f.read()

    def handle_any(self, body=b""):
        url = urlparse(self.path)
        parts = [p for p in url.path.split("/") if p]
        if parts[:1] == ["fixture"] and len(parts) == 2:
            try:
                self.send_json(200, self.fixture(parts[1]))
            except OSError:
                self.send_json(404, {"error": "no such fixture"})
        elif parts[:1] == ["status"] and len(parts) == 2:
            code = int(parts[1])
            if code == 403:
                self.send_json(403, self.fixture("weatherbit-error-403"))
            elif code == 429:
                self.send_json(429, self.fixture("weatherbit-error-429"), [("Retry-After", "120")])
            else:
                self.send_json(code, {"error": "status %d" % code, "token": "s3cr3t-token"})
        elif parts == ["malformed"]:
            self.send_json(200, b'{"count": 1, "data": [{"temp": 71.6,')
        elif parts == ["empty"]:
            self.send_json(200, b"")
        elif parts == ["slow"]:
            time.sleep(int(parse_qs(url.query).get("ms", ["1000"])[0]) / 1000)
            self.send_json(200, {"slow": True})
        elif parts == ["truncated"]:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"count": 1')
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
        elif parts[:1] == ["hold"] and len(parts) == 2:
            arrived, closed = hold_events(parts[1])
            arrived.set()
            # The request has been read whole; the next read ends only when
            # the client closes the connection (b"") or the timeout passes.
            self.connection.settimeout(HOLD_LIMIT)
            try:
                gone = self.connection.recv(1) == b""
            except (socket.timeout, OSError):
                gone = False
            if gone:
                closed.set()
                self.close_connection = True
            else:
                self.connection.settimeout(None)
                self.send_json(200, {"held": True})
        elif parts[:1] in (["wait-arrived"], ["wait-closed"]) and len(parts) == 2:
            arrived, closed = hold_events(parts[1])
            event = arrived if parts[0] == "wait-arrived" else closed
            key = "arrived" if parts[0] == "wait-arrived" else "closed"
            self.send_json(200, {key: event.wait(HOLD_LIMIT)})
        elif parts == ["echo"]:
            self.send_json(200, {
                "method": self.command,
                "path": url.path,
                "query": {k: v[0] for k, v in parse_qs(url.query).items()},
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "body": body.decode("utf-8", "replace"),
            })
        else:
            self.send_json(404, {"error": "not found"})

    def do_GET(self):
        self.handle_any()

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        self.handle_any(self.rfile.read(length))


def closed_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d CLOSED %d" % (server.server_address[1], closed_port()), flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # Stop when the test closes our stdin (or exits).
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
