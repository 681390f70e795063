#!/usr/bin/env python3
"""WebSocket servers (websockets) for the websocket source's tests, on free loopback ports.

Makes the certificates of tls_servers.py in FOLDER (the first argument), prints one JSON line
{"ca": path of the test CA's PEM, "ports": {name: port}}, then serves until its standard input
closes (the test ended, or died):
  plain     ws://: answers the text "ping" with "pong", "slow" with "pong" after 2 seconds,
            "bye" by closing the WebSocket (1001), and says nothing to "silent"; any other text
            comes back as "echo: TEXT". The path /forbidden is refused with 403, /missing with
            404, /broken with 500, /maintenance with 503.
  tls       the same over wss://, with a certificate the CA signed for localhost
  wrongkey  answers every upgrade with 101 and a Sec-WebSocket-Accept that is not the right one
  http      an HTTP/1.1 server answering 200 "ok" to everything: no upgrade
  ssh       answers every request with an SSH banner: not HTTP
  silent    accepts connections and never answers
"""

import asyncio
import http
import json
import ssl
import sys

from websockets.asyncio.server import serve

from tls_servers import make_certificates

REFUSALS = {"/forbidden": http.HTTPStatus.FORBIDDEN, "/missing": http.HTTPStatus.NOT_FOUND,
            "/broken": http.HTTPStatus.INTERNAL_SERVER_ERROR, "/maintenance": http.HTTPStatus.SERVICE_UNAVAILABLE}


async def answer(connection):
    async for message in connection:
        if message == "ping":
            await connection.send("pong")
        elif message == "bye":
            await connection.close(1001)
        elif message == "slow":
            await asyncio.sleep(2)
            await connection.send("pong")
        elif message != "silent":
            await connection.send("echo: " + str(message))


def refuse(connection, request):
    status = REFUSALS.get(request.path)
    if status:
        return connection.respond(status, status.phrase + "\n")
    return None


async def raw_server(response):
    async def handle(reader, writer):
        await reader.readuntil(b"\r\n\r\n")
        if response:
            writer.write(response)
            await writer.drain()
        await reader.read()
        writer.close()
    return await asyncio.start_server(handle, "127.0.0.1", 0)


async def main():
    path = make_certificates(sys.argv[1])
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(path("trusted.pem"), path("trusted.key"))
    servers = {
        "plain": await serve(answer, "127.0.0.1", 0, process_request=refuse),
        "tls": await serve(answer, "127.0.0.1", 0, process_request=refuse, ssl=context),
        "wrongkey": await raw_server(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                                     b"Connection: Upgrade\r\nSec-WebSocket-Accept: bm90IHRoZSByaWdodCBrZXk=\r\n\r\n"),
        "http": await raw_server(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"),
        "ssh": await raw_server(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n\r\n"),
        "silent": await raw_server(None),
    }
    ports = {name: server.sockets[0].getsockname()[1] for name, server in servers.items()}
    print(json.dumps({"ca": path("ca.pem"), "ports": ports}), flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)


if __name__ == "__main__":
    asyncio.run(main())
