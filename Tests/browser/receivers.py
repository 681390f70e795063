"""Webhook targets on free loopback ports, for the tests of notifications: one that keeps what it
is sent, and one that never answers."""
from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from polling import wait_for


class Receiver:
    """An HTTP server on a free loopback port (or `port`: a target that answers again at the same
    address, which a notify entry is known by) keeping the JSON body of every POST it takes; while
    `status` is not 200 it answers with it and keeps nothing, counting the attempts."""

    def __init__(self, port: int = 0):
        bodies: list[dict] = []
        self.bodies = bodies
        self.status = 200
        self.refused = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"null")
                if receiver.status == 200:
                    bodies.append({"json": body, "authorization": self.headers.get("Authorization")})
                else:
                    receiver.refused += 1
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, count: int, timeout: float = 20.0) -> list[dict]:
        wait_for(lambda: len(self.bodies) >= count, timeout,
                 lambda: f"{len(self.bodies)} of {count} notifications came: {self.bodies}")
        return self.bodies

    def stop(self):
        self.server.shutdown()


class HangingReceiver:
    """A webhook target that hangs: it accepts every connection on a free loopback port, reads
    what comes and never answers."""

    def __init__(self):
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.connections: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            self.connections.append(connection)

    def stop(self):
        # Shut down first: a close alone leaves the socket listening under the thread blocked in
        # accept, and its port could not be taken by a target answering at the same address.
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        for connection in self.connections:
            connection.close()
