#!/usr/bin/env python3
"""HTTPS servers for the certificate tests, one per certificate, on free loopback ports.

Makes a test CA and the certificates with openssl in FOLDER (the first argument), prints one
JSON line {"ca": path of the CA's PEM, "ports": {name: port}}, then serves until its standard
input closes (the test ended, or died):
  trusted   signed by the CA, for localhost and 127.0.0.1, valid 60 days and a half
  expiring  signed by the CA, for localhost, expires in 5 days and a half
  expired   signed by the CA, for localhost, expired on 1 February 2020
  other     signed by the CA, for other.example.test only
  self      self-signed, for localhost, valid 30 days
  plain     no TLS at all: a handshake is refused
Each answers GET / with 200 "ok".
"""

import datetime
import http.server
import json
import os
import ssl
import subprocess
import sys
import threading

CA_CONFIG = """[ca]
default_ca = test
[test]
database = {folder}/index.txt
new_certs_dir = {folder}
serial = {folder}/serial
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[any]
commonName = supplied
"""


def openssl(*arguments):
    subprocess.run(["openssl", *arguments], check=True, capture_output=True)


def make_certificates(folder):
    path = lambda name: os.path.join(folder, name)
    with open(path("ca.cnf"), "w") as config:
        config.write(CA_CONFIG.format(folder=folder))
    open(path("index.txt"), "w").close()
    with open(path("serial"), "w") as serial:
        serial.write("01\n")
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("ca.key"), "-out", path("ca.pem"),
            "-days", "90", "-subj", "/CN=StateDeck Test CA")
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", path("self.key"), "-out", path("self.pem"),
            "-days", "30", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1")
    stamp = lambda when: when.strftime("%Y%m%d%H%M%SZ")
    now = datetime.datetime.now(datetime.timezone.utc)
    signed = {
        "trusted": ("DNS:localhost,IP:127.0.0.1", now - datetime.timedelta(days=1), now + datetime.timedelta(days=60, hours=12)),
        "expiring": ("DNS:localhost", now - datetime.timedelta(days=1), now + datetime.timedelta(days=5, hours=12)),
        "expired": ("DNS:localhost", datetime.datetime(2020, 1, 1), datetime.datetime(2020, 2, 1)),
        "other": ("DNS:other.example.test", now - datetime.timedelta(days=1), now + datetime.timedelta(days=60)),
    }
    for name, (names, start, end) in signed.items():
        common = names.split(",")[0].split(":")[1]
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", path(name + ".key"), "-out", path(name + ".csr"),
                "-subj", "/CN=" + common, "-addext", "subjectAltName=" + names)
        openssl("ca", "-batch", "-config", path("ca.cnf"), "-cert", path("ca.pem"), "-keyfile", path("ca.key"),
                "-in", path(name + ".csr"), "-out", path(name + ".pem"), "-notext",
                "-startdate", stamp(start), "-enddate", stamp(end))
    return path


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *arguments):
        pass


def serve(path, name):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    if name != "plain":
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(path(name + ".pem"), path(name + ".key"))
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def main():
    path = make_certificates(sys.argv[1])
    ports = {name: serve(path, name) for name in ["trusted", "expiring", "expired", "other", "self", "plain"]}
    print(json.dumps({"ca": path("ca.pem"), "ports": ports}), flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
