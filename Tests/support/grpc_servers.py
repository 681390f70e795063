#!/usr/bin/env python3
"""gRPC servers (grpcio) with the standard health service, for the grpc source's tests, on free
loopback ports.

Makes the certificates of tls_servers.py in FOLDER (the first argument), prints one JSON line
{"ca": path of the test CA's PEM, "ports": {name: port}}, then serves until its standard input
closes (the test ended, or died):
  plain     h2c (no TLS): the health service, whose services are
              ""                      SERVING (the server as a whole)
              "deck.Serving"          SERVING
              "deck.Down"             NOT_SERVING
              "deck.Unknown"          UNKNOWN
              "deck.ServiceUnknown"   SERVICE_UNKNOWN
            and any other name is NOT_FOUND (grpc-status 5)
  tls       the same over TLS, with a certificate the CA signed for localhost
  bare      h2c, a gRPC server without the health service (grpc-status 12, UNIMPLEMENTED)
  http      an HTTP/1.1 server answering 200 "ok": not gRPC
  silent    accepts connections and never answers
"""

import concurrent.futures
import http.server
import json
import socket
import sys
import threading

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from tls_servers import Handler, make_certificates

STATUSES = {
    "": health_pb2.HealthCheckResponse.SERVING,
    "deck.Serving": health_pb2.HealthCheckResponse.SERVING,
    "deck.Down": health_pb2.HealthCheckResponse.NOT_SERVING,
    "deck.Unknown": health_pb2.HealthCheckResponse.UNKNOWN,
    "deck.ServiceUnknown": health_pb2.HealthCheckResponse.SERVICE_UNKNOWN,
}


def grpc_server(with_health, credentials=None):
    server = grpc.server(concurrent.futures.ThreadPoolExecutor(max_workers=4))
    if with_health:
        servicer = health.HealthServicer()
        for name, status in STATUSES.items():
            servicer.set(name, status)
        health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    if credentials:
        port = server.add_secure_port("127.0.0.1:0", credentials)
    else:
        port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def main():
    path = make_certificates(sys.argv[1])
    with open(path("trusted.key"), "rb") as key, open(path("trusted.pem"), "rb") as certificate:
        credentials = grpc.ssl_server_credentials([(key.read(), certificate.read())])
    servers, ports = [], {}
    for name, with_health, creds in [("plain", True, None), ("tls", True, credentials), ("bare", False, None)]:
        server, ports[name] = grpc_server(with_health, creds)
        servers.append(server)
    plain_http = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=plain_http.serve_forever, daemon=True).start()
    ports["http"] = plain_http.server_address[1]
    silent = socket.create_server(("127.0.0.1", 0))
    ports["silent"] = silent.getsockname()[1]
    print(json.dumps({"ca": path("ca.pem"), "ports": ports}), flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
