#!/usr/bin/env python3
"""A DNS server for the dns source's tests: fixed records of example.test on a free loopback UDP
port, the same port on 127.0.0.1 and, when the machine has it, ::1.

It prints the port, then answers until its standard input closes (the test ended, or died):
  example.test          A, AAAA, MX, TXT, NS
  www.example.test      CNAME example.test (and example.test's records after it, as a resolver would)
  empty.example.test    no records of any type (NOERROR)
  servfail.example.test SERVFAIL
  refused.example.test  REFUSED
  silent.example.test   no answer at all
  truncated.example.test  the TC bit and no records: the answer does not fit in UDP
  oversized.example.test  60 A records in one UDP message of over 512 bytes, without the TC bit
  any other name        NXDOMAIN
It listens on UDP alone, as a server whose TCP is blocked: a resolver asking the last two again
over TCP, as it must, finds nothing there.
"""

import ipaddress
import select
import socket
import struct
import sys
import threading

TTL = 300
ZONE = {
    "example.test": {
        1: [ipaddress.IPv4Address("203.0.113.7").packed, ipaddress.IPv4Address("203.0.113.8").packed],
        28: [ipaddress.IPv6Address("2001:db8::7").packed],
        15: [(20, "backup.example.test"), (10, "mail.example.test")],
        16: [[b"v=spf1 ", b"mx -all"], [b"hello"]],
        2: ["ns1.example.test", "ns2.example.test"],
    },
    "empty.example.test": {},
    "truncated.example.test": {},
    "oversized.example.test": {1: [bytes([198, 51, 100, index]) for index in range(1, 61)]},
}
TRUNCATED = 0x0200
ALIASES = {"www.example.test": "example.test"}
CNAME, NOERROR, SERVFAIL, NXDOMAIN, REFUSED = 5, 0, 2, 3, 5


def encode_name(name):
    return b"".join(bytes([len(label)]) + label.encode() for label in name.split(".")) + b"\0"


def record(owner, rtype, data, ttl=TTL):
    """A resource record of class IN; `owner` is the wire form of its name."""
    if rtype == 15:
        preference, host = data
        data = struct.pack("!H", preference) + encode_name(host)
    elif rtype == 16:
        data = b"".join(bytes([len(text)]) + text for text in data)
    elif rtype in (2, CNAME):
        data = encode_name(data)
    return owner + struct.pack("!HHIH", rtype, 1, ttl, len(data)) + data


def answer(query):
    """The reply to `query`, or None to stay silent."""
    if len(query) < 12:
        return None
    (ident,) = struct.unpack("!H", query[:2])
    labels, offset = [], 12
    while offset < len(query) and query[offset] != 0:
        length = query[offset]
        labels.append(query[offset + 1:offset + 1 + length].decode().lower())
        offset += 1 + length
    end = offset + 5
    question = query[12:end]
    (qtype,) = struct.unpack("!H", query[offset + 1:offset + 3])
    name = ".".join(labels)
    if name == "silent.example.test":
        return None
    code, records = NOERROR, []
    question_name = b"\xc0\x0c"  # a pointer to the question's name
    if name in ALIASES:
        target = ALIASES[name]
        records.append(record(question_name, CNAME, target, ttl=60))
        if qtype != CNAME:
            records += [record(encode_name(target), qtype, data) for data in ZONE[target].get(qtype, [])]
    elif name in ZONE:
        records = [record(question_name, qtype, data) for data in ZONE[name].get(qtype, [])]
    else:
        code = {"servfail.example.test": SERVFAIL, "refused.example.test": REFUSED}.get(name, NXDOMAIN)
    # QR, authoritative, recursion desired and available.
    flags = 0x8000 | 0x0400 | 0x0100 | 0x0080 | code
    if name == "truncated.example.test":
        flags |= TRUNCATED
    header = struct.pack("!HHHHHH", ident, flags, 1, len(records), 0, 0)
    return header + question + b"".join(records)


def main():
    ipv4 = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    ipv4.bind(("127.0.0.1", 0))
    port = ipv4.getsockname()[1]
    sockets = [ipv4]
    try:
        ipv6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        ipv6.bind(("::1", port))
        sockets.append(ipv6)
    except OSError:
        pass
    print(port, "ipv6" if len(sockets) == 2 else "ipv4", flush=True)
    watcher = threading.Thread(target=sys.stdin.read, daemon=True)
    watcher.start()
    while watcher.is_alive():
        ready, _, _ = select.select(sockets, [], [], 0.2)
        for sock in ready:
            query, sender = sock.recvfrom(4096)
            reply = answer(query)
            if reply is not None:
                sock.sendto(reply, sender)


if __name__ == "__main__":
    main()
