#!/usr/bin/env python3
"""A minimal OAuth 2.0 token endpoint for Benchmarks/shared-store-bench (127.0.0.1 only).

POST /token   refresh_token grant with rotation: the current refresh token gets a new token
              set (expires_in 3600); any other refresh token gets 400 invalid_grant.
POST /reset   forget everything; "rt-0" becomes the current refresh token.
GET  /stats   {"refreshes": N, "rejected": M}
Prints the chosen port on stdout, then serves until killed.
"""
import json
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
state = {"current": "rt-0", "serial": 0, "refreshes": 0, "rejected": 0}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/stats":
            with lock:
                self.reply(200, {"refreshes": state["refreshes"], "rejected": state["rejected"]})
        else:
            self.reply(404, {"error": "not_found"})

    def do_POST(self):
        length = min(int(self.headers.get("Content-Length", "0") or 0), 65536)
        form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
        with lock:
            if self.path == "/reset":
                state.update(current="rt-0", serial=0, refreshes=0, rejected=0)
                return self.reply(200, {})
            if form.get("grant_type") != "refresh_token" or form.get("refresh_token") != state["current"]:
                state["rejected"] += 1
                return self.reply(400, {"error": "invalid_grant"})
            state["serial"] += 1
            state["refreshes"] += 1
            serial = state["serial"]
            state["current"] = "rt-%d" % serial
        self.reply(200, {"access_token": "at-%d" % serial, "refresh_token": "rt-%d" % serial,
                         "token_type": "Bearer", "expires_in": 3600})


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
