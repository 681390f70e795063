#!/usr/bin/env python3
"""A Jepsen-style chaos run of a StateDeck cluster on PostgreSQL (checked by checker.py beside it).

    python3 Tests/chaos/chaos.py --bin .build/release/statedeck [--seed S] [--minutes M] [--out DIR]

It starts one PostgreSQL (scripts/temporary-postgres), a TCP proxy per StateDeck process in front
of it (the nemesis freezes or drops one process's connections there: a partition), three
`statedeck` processes on one deck of PANELS command panels, nginx in front of them, and a webhook
receiver. A schedule decided by the seed flips the panels down and up (a file each, touched and
removed here), a nemesis injects faults at times decided by the seed (kill -9, SIGTERM, SIGSTOP
past the lock's 6 s, PostgreSQL restarted, a proxy frozen or dropping, a fourth process added and
one removed), and clients send actions to every member in turn and follow every member's
/events. Everything observed goes, one JSON object a line, to OUT/history.jsonl; at the end the
faults stop, every panel is up, and the uptime of every panel is read from every member, and the
audit once.

What the seed decides: the panels' schedule, the faults' kinds, times and lengths, the actions'
panels. What it cannot: which process leads when a fault strikes (the nemesis picks the leader of
the moment), so two runs of one seed inject the same faults on possibly other processes.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TEMPORARY_POSTGRES = REPO / "scripts" / "temporary-postgres"
NGINX_CONF = REPO / "examples" / "cluster" / "nginx.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

REFRESH_S = 1            # every panel is checked every second
MIN_DOWN_S, MAX_DOWN_S = 12, 50
MIN_UP_S, MAX_UP_S = 15, 110
SETTLE_S = 30            # at the end: no fault, every panel up, this long before the last reads
FAULT_KINDS = ["kill9", "sigterm", "sigstop", "pg_restart", "freeze", "drop", "add_remove"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class History:
    """The history file: one JSON object a line, each with `t` (seconds since 1970, this machine's
    clock) and `kind`."""

    def __init__(self, path: Path):
        self.file = path.open("w", buffering=1)
        self.lock = threading.Lock()

    def add(self, kind: str, **fields) -> None:
        record = {"t": round(time.time(), 4), "kind": kind, **fields}
        line = json.dumps(record, separators=(",", ":"))
        with self.lock:
            self.file.write(line + "\n")

    def close(self) -> None:
        with self.lock:
            self.file.close()


# ---- the partition: a TCP proxy per process ---------------------------------------------------


class Proxy:
    """Forwards 127.0.0.1:port to PostgreSQL. `freeze()`: bytes are no longer forwarded either
    way (connections stay open, new ones are accepted and held): to the process, the store went
    silent. `drop()`: every connection is closed, and new ones closed at once, until `heal()`."""

    def __init__(self, name: str, target_port: int):
        self.name = name
        self.target_port = target_port
        self.flowing = threading.Event()
        self.flowing.set()
        self.dropping = False
        self.lock = threading.Lock()
        self.sockets: set[socket.socket] = set()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(64)
        self.port = self.listener.getsockname()[1]
        self.closed = False
        threading.Thread(target=self.accept, daemon=True, name=f"proxy-{name}").start()

    def accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.connect, args=(client,), daemon=True).start()

    def connect(self, client: socket.socket) -> None:
        self.flowing.wait()
        if self.dropping or self.closed:
            client.close()
            return
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
            upstream.settimeout(None)
        except OSError:
            client.close()
            return
        with self.lock:
            self.sockets |= {client, upstream}
        threading.Thread(target=self.pump, args=(client, upstream), daemon=True).start()
        threading.Thread(target=self.pump, args=(upstream, client), daemon=True).start()

    def pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                self.flowing.wait()
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                s.close()
            with self.lock:
                self.sockets -= {source, sink}

    def freeze(self) -> None:
        self.flowing.clear()

    def drop(self) -> None:
        self.dropping = True
        with self.lock:
            victims = list(self.sockets)
        for s in victims:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def heal(self) -> None:
        self.dropping = False
        self.flowing.set()

    def close(self) -> None:
        self.closed = True
        self.heal()
        self.drop()
        self.listener.close()


# ---- the webhook receiver ----------------------------------------------------------------------


class Receiver:
    """Keeps every POST (headers and body) in the history, answering 200 to each."""

    def __init__(self, history: History):
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"null")
                except ValueError:
                    body = raw.decode(errors="replace")
                history.add("hook", path=self.path, headers=dict(self.headers.items()), body=body)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()


# ---- the StateDeck processes -------------------------------------------------------------------


class Member:
    def __init__(self, name: str, run: "Run"):
        self.name = name
        self.run = run
        self.proxy = Proxy(name, run.pg_port)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.leading = False
        self.stopped = False          # SIGSTOPped now
        self.log = (run.out / f"{name}.log").open("a", buffering=1)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = 20) -> None:
        store = f"postgres://statedeck@127.0.0.1:{self.proxy.port}/postgres"
        command = [str(self.run.bin), "--config", str(self.run.deck), "--store", store, "--port", str(self.port),
                   "--public-url", f"http://127.0.0.1:{self.run.nginx_port}"]
        deadline = time.monotonic() + timeout
        while True:
            self.leading = False
            self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                         bufsize=1, start_new_session=True)
            ready = threading.Event()
            threading.Thread(target=self.pump, args=(self.proc, ready), daemon=True).start()
            while not ready.wait(0.05):
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    break
            if ready.is_set():
                self.run.history.add("member_start", member=self.name, pid=self.proc.pid, port=self.port)
                return
            self.kill()
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not start (see {self.log.name})")
            time.sleep(0.5)   # the port lingers, or the store is down just now: again

    def pump(self, proc: subprocess.Popen, ready: threading.Event) -> None:
        for line in proc.stdout:
            self.log.write(f"{time.time():.3f} {line}")
            if "StateDeck serving on" in line:
                ready.set()
            if "no longer leading the cluster" in line:
                self.leading = False
                self.run.history.add("lead", member=self.name, leading=False, line=line.strip()[-200:])
            elif "leading the cluster" in line:
                self.leading = True
                self.run.history.add("lead", member=self.name, leading=True, line=line.strip()[-200:])
        code = proc.wait()
        if proc is self.proc:
            self.leading = False
        self.run.history.add("member_exit", member=self.name, pid=proc.pid, code=code)

    def signal(self, sig: int) -> None:
        if self.alive():
            self.proc.send_signal(sig)

    def kill(self) -> None:
        if self.alive():
            self.proc.kill()
            self.proc.wait(10)

    def terminate(self, timeout: float = 10) -> None:
        if self.alive():
            if self.stopped:
                self.proc.send_signal(signal.SIGCONT)
                self.stopped = False
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.run.history.add("note", member=self.name, text="did not end within 10 s of SIGTERM: killed")
                self.kill()


# ---- clients -----------------------------------------------------------------------------------


class Follower:
    """One client of one member's /events, as a browser's EventSource: it reconnects whenever its
    stream ends, with Last-Event-ID. Each event is recorded as (member, connection, id, name,
    digest of its data)."""

    def __init__(self, run: "Run", name: str, url_of):
        self.run, self.name, self.url_of = run, name, url_of
        self.last_id: str | None = None
        self.connections = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.follow, daemon=True, name=f"sse-{name}")
        self.thread.start()

    def follow(self) -> None:
        while not self.done.is_set():
            self.connections += 1
            connection = self.connections
            headers = {"Last-Event-ID": self.last_id} if self.last_id else {}
            try:
                request = urllib.request.Request(self.url_of() + "/events", headers=headers)
                with urllib.request.urlopen(request, timeout=20) as stream:
                    self.run.history.add("sse_connect", member=self.name, conn=connection, last_id=self.last_id)
                    self.read(stream, connection)
                reason = "ended"
            except Exception as error:  # noqa: BLE001: any failure is a reconnect
                reason = f"{type(error).__name__}: {error}"[:200]
            self.run.history.add("sse_end", member=self.name, conn=connection, reason=reason)
            self.done.wait(0.3)

    def read(self, stream, connection: int) -> None:
        name, event_id, data = "message", None, []
        for raw in stream:
            if self.done.is_set():
                return
            line = raw.decode(errors="replace").rstrip("\n").rstrip("\r")
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("id:"):
                event_id = line[3:].strip()
            elif line.startswith("data:"):
                data.append(line[5:][1:] if line[5:].startswith(" ") else line[5:])
            elif line == "":
                if data or event_id is not None:
                    text = "\n".join(data)
                    digest = hashlib.sha256(f"{name}\n{text}".encode()).hexdigest()[:24]
                    fields = {"member": self.name, "conn": connection, "event": name, "digest": digest,
                              "size": len(text)}
                    if name == "snapshot":   # rare, and worth reading when two differ
                        fields["data"] = text
                    if event_id is not None:
                        self.run.history.add("sse", id=int(event_id), **fields)
                        self.last_id = event_id
                    else:
                        self.run.history.add("sse_noid", **fields)
                name, event_id, data = "message", None, []

    def stop(self) -> None:
        self.done.set()


def http(method: str, url: str, body: object | None = None, timeout: float = 15) -> tuple[int | None, object]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            text = answer.read().decode()
            return answer.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        text = error.read().decode(errors="replace")
        try:
            return error.code, json.loads(text)
        except ValueError:
            return error.code, text[:300]
    except Exception as error:  # noqa: BLE001: no answer (timeout, refused, reset) is recorded as such
        return None, f"{type(error).__name__}: {error}"[:300]


# ---- the run -----------------------------------------------------------------------------------


class Run:
    def __init__(self, args):
        self.bin = Path(args.bin).resolve()
        self.seed = args.seed
        self.minutes = args.minutes
        self.panels = args.panels
        self.rng = random.Random(self.seed)
        self.out = Path(args.out).resolve()
        self.out.mkdir(parents=True, exist_ok=True)
        self.history = History(self.out / "history.jsonl")
        self.work = Path(tempfile.mkdtemp(prefix="statedeck-chaos-", dir="/tmp"))
        os.chmod(self.work, 0o755)   # the throwaway PostgreSQL runs as nobody under root
        self.members: list[Member] = []
        self.members_lock = threading.Lock()
        self.counter = 0
        self.stop_clients = threading.Event()
        self.followers: dict[str, Follower] = {}
        self.nginx: subprocess.Popen | None = None
        self.action_number = 0
        self.open_incidents: list[tuple[str, str]] = []

    # -- parts --

    def start_postgres(self) -> None:
        started = subprocess.run([str(TEMPORARY_POSTGRES), "start", str(self.work / "postgres")],
                                 capture_output=True, text=True)
        if started.returncode != 0:
            raise RuntimeError(f"temporary-postgres: {started.stderr}")
        self.pg_url = started.stdout.strip()
        self.pg_port = int(self.pg_url.rsplit(":", 1)[1].split("/")[0])

    def write_deck(self) -> None:
        self.flags = self.work / "flags"
        self.flags.mkdir()
        self.receiver = Receiver(self.history)
        hook = f"http://127.0.0.1:{self.receiver.port}/hook"
        lines = ["title: Chaos",
                 # Flapping would hold notifications (PROTOCOL.md, Keeping quiet): off, so every
                 # scripted outage is told.
                 "flapping: off",
                 f"defaults: {{ refresh: {REFRESH_S}s, retry: none, minimumLoading: 0ms, timeout: 5s }}",
                 "panels:"]
        for n in range(self.panels):
            flag = self.flags / f"p{n:02d}"
            lines += [f"  - id: p{n:02d}",
                      f'    command: {{ run: ["sh", "-c", "test ! -f {flag}"] }}',
                      f'    notify: [{{ webhook: {{ url: "{hook}" }}, after: {{ failures: 2 }}, gather: off }}]']
        self.deck = self.work / "deck.yaml"
        self.deck.write_text("\n".join(lines) + "\n")
        shutil.copy(self.deck, self.out / "deck.yaml")

    def write_upstream(self) -> None:
        with self.members_lock:
            servers = "".join(f"server 127.0.0.1:{m.port};\n" for m in self.members)
        (self.work / "nginx" / "statedeck-upstream.conf").write_text(servers)

    def start_nginx(self) -> None:
        folder = self.work / "nginx"
        (folder / "tmp").mkdir(parents=True)
        os.chmod(folder / "tmp", 0o1777)
        conf = NGINX_CONF.read_text().replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{self.nginx_port};")
        (folder / "nginx.conf").write_text(conf)
        self.write_upstream()
        self.nginx = subprocess.Popen([NGINX, "-p", str(folder), "-c", "nginx.conf", "-g", "daemon off;"],
                                      stdout=subprocess.DEVNULL, stderr=(self.out / "nginx.log").open("w"),
                                      start_new_session=True)

    def reload_nginx(self) -> None:
        self.write_upstream()
        if self.nginx and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGHUP)

    def add_member(self) -> Member:
        self.counter += 1
        member = Member(f"m{self.counter}", self)
        member.start()
        with self.members_lock:
            self.members.append(member)
        self.followers[member.name] = Follower(self, member.name, lambda m=member: m.url)
        return member

    def remove_member(self, member: Member) -> None:
        with self.members_lock:
            self.members.remove(member)
        self.reload_nginx()
        member.terminate()
        self.followers[member.name].stop()
        member.proxy.close()
        self.history.add("member_removed", member=member.name)

    def leader(self, timeout: float = 15) -> Member | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.members_lock:
                leading = [m for m in self.members if m.leading and m.alive() and not m.stopped]
            if len(leading) == 1:
                return leading[0]
            time.sleep(0.1)
        return None

    # -- the schedule of the panels --

    def schedule(self, start: float, end: float) -> list[tuple[float, int, str]]:
        """(time, panel, "down"|"up") for every flip between start and end; every panel is up at
        `start` and again by `end`."""
        flips = []
        for n in range(self.panels):
            t = start + self.rng.uniform(5, MAX_UP_S)
            while True:
                down = self.rng.uniform(MIN_DOWN_S, MAX_DOWN_S)
                if t + down > end:
                    break
                flips += [(t, n, "down"), (t + down, n, "up")]
                t += down + self.rng.uniform(MIN_UP_S, MAX_UP_S)
        return sorted(flips)

    def flipper(self, flips, done: threading.Event) -> None:
        for at, n, state in flips:
            if done.wait(max(0.0, at - time.time())):
                return
            flag = self.flags / f"p{n:02d}"
            if state == "down":
                flag.touch()
            else:
                flag.unlink(missing_ok=True)
            self.history.add("flip", panel=f"p{n:02d}", state=state)

    # -- the nemesis --

    def nemesis(self, end: float, done: threading.Event) -> None:
        rng = random.Random(self.rng.random())
        # 15 to 35 s between faults; a run shorter than 3 minutes waits less, so that a run of a
        # minute still injects a few.
        scale = min(1.0, self.minutes / 3)
        while not done.wait(rng.uniform(15, 35) * scale):
            if time.time() > end - 20:
                return
            kind = rng.choice(FAULT_KINDS)
            try:
                self.fault(kind, rng)
            except Exception as error:  # noqa: BLE001: a fault that could not be injected is recorded
                self.history.add("fault_error", fault=kind, error=f"{type(error).__name__}: {error}"[:300])

    def fault(self, kind: str, rng: random.Random) -> None:
        if kind in ("kill9", "sigterm", "sigstop"):
            target = self.leader()
            if target is None:
                self.history.add("fault_skipped", fault=kind, why="no leader")
                return
        if kind in ("kill9", "sigterm"):
            pause = rng.uniform(0.5, 5)
            self.history.add("fault", fault=kind, phase="start", member=target.name, pause=pause)
            target.kill() if kind == "kill9" else target.terminate()
            time.sleep(pause)
            target.start()
        elif kind == "sigstop":
            length = rng.uniform(7, 12)
            self.history.add("fault", fault=kind, phase="start", member=target.name, length=length)
            target.stopped = True
            target.signal(signal.SIGSTOP)
            time.sleep(length)
            target.signal(signal.SIGCONT)
            target.stopped = False
        elif kind == "pg_restart":
            pause = rng.uniform(0.5, 5)
            self.history.add("fault", fault=kind, phase="start", pause=pause)
            subprocess.run([str(TEMPORARY_POSTGRES), "stop", str(self.work / "postgres")], check=False)
            time.sleep(pause)
            subprocess.run([str(TEMPORARY_POSTGRES), "start", str(self.work / "postgres")], check=True,
                           capture_output=True)
        elif kind in ("freeze", "drop"):
            with self.members_lock:
                members = list(self.members)
            leading = self.leader(5)
            target = leading if leading is not None and rng.random() < 0.6 else rng.choice(members)
            length = rng.uniform(4, 14) if kind == "freeze" else rng.uniform(1, 10)
            self.history.add("fault", fault=kind, phase="start", member=target.name, length=length,
                             was_leader=target is leading)
            target.proxy.freeze() if kind == "freeze" else target.proxy.drop()
            time.sleep(length)
            target.proxy.heal()
        elif kind == "add_remove":
            self.history.add("fault", fault=kind, phase="start")
            added = self.add_member()
            self.reload_nginx()
            time.sleep(rng.uniform(8, 20))
            with self.members_lock:   # one of those there before: the members change over the run
                removed = rng.choice([m for m in self.members if m is not added])
            self.history.add("fault_step", fault=kind, added=added.name, removed=removed.name,
                             removed_was_leader=removed.leading)
            self.remove_member(removed)
        self.history.add("fault", fault=kind, phase="end")

    # -- the clients' actions --

    def actor(self, done: threading.Event) -> None:
        """Sends an action every ~0.7 s to each member in turn (and to nginx), recording each
        answer: mostly a retry of a random panel, sometimes an incident opened with a unique title
        or one of those resolved."""
        rng = random.Random(self.rng.random())
        turn = 0
        while not done.wait(rng.uniform(0.3, 1.0)):
            with self.members_lock:
                targets = [(m.name, m.url) for m in self.members]
            targets.append(("nginx", f"http://127.0.0.1:{self.nginx_port}"))
            name, url = targets[turn % len(targets)]
            turn += 1
            self.action_number += 1
            aid = f"chaos-{self.seed}-{self.action_number}"
            roll = rng.random()
            if roll < 0.1:
                request = {"action": "incident_opened", "title": aid}
                method, path, body = "POST", "/api/incidents", {"title": aid, "message": "chaos"}
            elif roll < 0.2 and self.open_incidents:
                incident_id, title = self.open_incidents.pop(0)
                request = {"action": "incident_updated", "title": title, "incident": incident_id}
                method, path, body = "POST", f"/api/incidents/{incident_id}/updates", \
                    {"status": "resolved", "message": f"resolved {aid}"}
            else:
                panel = f"p{rng.randrange(self.panels):02d}"
                request = {"action": "retry", "panel": panel}
                method, path, body = "POST", f"/api/panels/{panel}/retry", None
            sent = time.time()
            status, answer = http(method, url + path, body, timeout=15)
            if request["action"] == "incident_opened" and status == 201 and isinstance(answer, dict):
                self.open_incidents.append((answer.get("id"), aid))
            self.history.add("action", aid=aid, member=name, sent=round(sent, 4), status=status,
                             answer=answer if not isinstance(answer, dict) or len(json.dumps(answer)) < 400
                             else {"truncated": True, "id": answer.get("id")}, **request)

    # -- the end --

    def read_uptimes(self) -> None:
        """Every panel's uptime from every member, each member read in a thread of its own so that
        all reads fall within about 2 s."""
        with self.members_lock:
            members = list(self.members)

        def read(member: Member) -> None:
            for n in range(self.panels):
                panel = f"p{n:02d}"
                status, answer = http("GET", f"{member.url}/api/panels/{panel}/uptime?span=24h&slots=24", timeout=10)
                keep = answer
                if isinstance(answer, dict) and status == 200:
                    keep = {k: answer.get(k) for k in ("24h", "current", "unwatched")}
                self.history.add("uptime", member=member.name, panel=panel, status=status, answer=keep)

        threads = [threading.Thread(target=read, args=(m,)) for m in members]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def read_audit(self) -> None:
        leader = self.leader(20)
        with self.members_lock:
            member = leader or self.members[0]
        entries: dict[str, dict] = {}
        until = None
        while True:
            query = "limit=1000" + (f"&until={until}" if until else "")
            status, answer = http("GET", f"{member.url}/api/audit?{query}", timeout=30)
            if status != 200:
                self.history.add("audit_error", member=member.name, status=status, answer=answer)
                return
            page = answer["entries"]
            fresh = [e for e in page if e["id"] not in entries]
            for e in page:
                entries[e["id"]] = e
            if len(page) < 1000 or not fresh:
                break
            until = page[-1]["at"]
        self.history.add("audit", member=member.name, entries=sorted(entries.values(), key=lambda e: e["at"]))

    def read_incidents(self) -> None:
        """Every member's incidents, open and resolved: what the actions on them left."""
        with self.members_lock:
            members = list(self.members)
        for member in members:
            status, answer = http("GET", f"{member.url}/api/incidents?limit=500", timeout=30)
            if isinstance(answer, dict):
                answer = [{k: i.get(k) for k in ("id", "title", "status", "resolvedAt")}
                          for i in answer.get("incidents", [])]
            self.history.add("incidents", member=member.name, status=status, incidents=answer)

    def go(self) -> None:
        self.history.add("run", seed=self.seed, minutes=self.minutes, panels=self.panels, refresh_s=REFRESH_S,
                         bin=str(self.bin), settle_s=SETTLE_S)
        self.start_postgres()
        self.write_deck()
        self.nginx_port = free_port()
        for _ in range(3):
            self.add_member()
        self.start_nginx()
        self.followers["nginx"] = Follower(self, "nginx", lambda: f"http://127.0.0.1:{self.nginx_port}")
        if self.leader(30) is None:
            raise RuntimeError("no member leads 30 s after the start")
        time.sleep(3)   # every panel's first load
        start = time.time()
        end = start + self.minutes * 60
        self.history.add("chaos_start", end=end)
        done = threading.Event()
        threads = [threading.Thread(target=self.flipper, args=(self.schedule(start, end), done), daemon=True),
                   threading.Thread(target=self.nemesis, args=(end, done), daemon=True),
                   threading.Thread(target=self.actor, args=(done,), daemon=True)]
        for t in threads:
            t.start()
        while time.time() < end:
            time.sleep(1)
            print(f"\rchaos: {max(0, end - time.time()):5.0f} s left", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        done.set()
        for t in threads:
            t.join()
        for n in range(self.panels):   # every panel up (the schedule ends so; this is belt and braces)
            (self.flags / f"p{n:02d}").unlink(missing_ok=True)
        self.history.add("chaos_end")
        time.sleep(SETTLE_S)
        if self.leader(30) is None:
            self.history.add("note", text="no leader after the settling time")
        self.history.add("final_reads", phase="start")
        self.read_uptimes()
        self.history.add("final_reads", phase="end")
        self.read_audit()
        self.read_incidents()
        time.sleep(2)

    def shut(self) -> None:
        for f in self.followers.values():
            f.stop()
        with self.members_lock:
            members = list(self.members)
        for m in members:
            m.terminate()
            m.proxy.close()
        if self.nginx and self.nginx.poll() is None:
            self.nginx.terminate()
            self.nginx.wait(10)
        subprocess.run([str(TEMPORARY_POSTGRES), "stop", str(self.work / "postgres")], check=False)
        for kept, name in ((self.work / "nginx" / "nginx-error.log", "nginx-error.log"),
                           (self.work / "postgres" / "server.log", "postgres.log")):
            if kept.exists():
                shutil.copy(kept, self.out / name)
        self.history.add("shut")
        self.history.close()
        shutil.rmtree(self.work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=str(REPO / ".build" / "release" / "statedeck"))
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--panels", type=int, default=20)
    parser.add_argument("--out", default=None, help="the output folder (default: .build/chaos/SEED)")
    args = parser.parse_args()
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 1_000_000)
    if args.out is None:
        args.out = str(REPO / ".build" / "chaos" / str(args.seed))
    print(f"chaos: seed {args.seed}, {args.minutes:g} min, history in {args.out}/history.jsonl", file=sys.stderr)
    if not Path(args.bin).exists():
        print(f"chaos: no statedeck at {args.bin}", file=sys.stderr)
        return 2
    run = Run(args)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        run.go()
    finally:
        run.shut()
    print(f"chaos: done; check with: python3 Tests/chaos/checker.py {args.out}/history.jsonl", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
