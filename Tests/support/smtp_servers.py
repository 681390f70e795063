#!/usr/bin/env python3
"""SMTP servers (aiosmtpd) for the smtp source's tests, on free loopback ports.

Makes the certificates of tls_servers.py in FOLDER (the first argument), prints one JSON line
{"ca": path of the test CA's PEM, "ports": {name: port}}, then serves until its standard input
closes (the test ended, or died):
  trusted   STARTTLS with a certificate the CA signed for localhost, valid 60 days and a half
  expiring  STARTTLS, the certificate expires in 5 days and a half
  expired   STARTTLS, the certificate expired on 1 February 2020
  other     STARTTLS, the certificate is for other.example.test only
  self      STARTTLS, a self-signed certificate
  plain     no STARTTLS offered
  denying   offers STARTTLS, then answers it with 454
  busy      greets with 421 (a server refusing sessions for now)
  refusing  greets with 554 (a server refusing sessions)
  ssh       greets with an SSH banner: not an SMTP server
  silent    accepts connections and says nothing
Each SMTP server greets as "mail.test StateDeck Test SMTP", offers SIZE 33554432 and, after
STARTTLS, AUTH PLAIN LOGIN.
"""

import asyncio
import json
import ssl
import sys

from aiosmtpd.smtp import SMTP

from tls_servers import make_certificates

GREETINGS = {
    "busy": b"421 mail.test Too many connections, try again later\r\n",
    "refusing": b"554 mail.test No SMTP service here\r\n",
    "ssh": b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n",
}


class Handler:
    """Accepts any login: the tests only read which mechanisms are offered."""

    async def handle_DATA(self, server, session, envelope):
        return "250 OK"


class DenyingSMTP(SMTP):
    """Offers STARTTLS (it has a TLS context) but refuses to start it."""

    async def smtp_STARTTLS(self, arg):
        await self.push("454 4.7.0 TLS not available due to temporary reason")


def authenticate(server, session, envelope, mechanism, auth_data):
    from aiosmtpd.smtp import AuthResult
    return AuthResult(success=True)


def smtp_factory(context, protocol=SMTP):
    def make():
        return protocol(Handler(), hostname="mail.test", ident="StateDeck Test SMTP", data_size_limit=33554432,
                    tls_context=context, require_starttls=False, auth_require_tls=True,
                    authenticator=authenticate, auth_exclude_mechanism=["CRAM-MD5"])
    return make


async def greet_only(greeting, reader, writer):
    if greeting:
        writer.write(greeting)
        await writer.drain()
    await reader.read()
    writer.close()


async def main():
    path = make_certificates(sys.argv[1])
    ports = {}
    servers = []
    for name in ["trusted", "expiring", "expired", "other", "self", "plain"]:
        context = None
        if name != "plain":
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(path(name + ".pem"), path(name + ".key"))
        server = await asyncio.get_running_loop().create_server(smtp_factory(context), "127.0.0.1", 0)
        servers.append(server)
        ports[name] = server.sockets[0].getsockname()[1]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(path("trusted.pem"), path("trusted.key"))
    server = await asyncio.get_running_loop().create_server(smtp_factory(context, DenyingSMTP), "127.0.0.1", 0)
    servers.append(server)
    ports["denying"] = server.sockets[0].getsockname()[1]
    for name in ["busy", "refusing", "ssh", "silent"]:
        greeting = GREETINGS.get(name)
        server = await asyncio.start_server(lambda r, w, g=greeting: greet_only(g, r, w), "127.0.0.1", 0)
        servers.append(server)
        ports[name] = server.sockets[0].getsockname()[1]
    print(json.dumps({"ca": path("ca.pem"), "ports": ports}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())
