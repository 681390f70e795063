#!/usr/bin/env python3
"""StateDeck's benchmarks, side by side with the peers a user could pick instead.

    python3 Benchmarks/run.py                     # everything, 3 interleaved rounds
    python3 Benchmarks/run.py --quick             # a short smoke run of everything
    python3 Benchmarks/run.py --only fanout --n 1000,10000
    python3 Benchmarks/run.py --only http --skip-statedeck   # the peers alone

Benchmarks (--only, comma separated): fanout (SSE fan-out vs nginx + nchan), http (wrk: StateDeck
vs bare libmicrohttpd vs nginx), browser (headless Chromium, 500 panels), startup (cold start,
idle RSS), churn and cycles (memory over many changes and clients), history (the history file
over a simulated year, start-up and queries with it, the CPU recording adds), many (1,000 to 10,000
http panels on a refresh schedule against nginx, vs a one-thread libcurl multi floor: CPU per check,
threads, RSS, lateness, bunching, SSE bytes per change), overview (the page at 10,000 panels in
headless Chromium: first screen, search, main thread, heap, timeline requests; the first screen also
with `--data none` as a control), cluster (1, 2 and 3
processes sharing a deck through PostgreSQL: streams held, one event to every stream, publish →
stream delay, failover time), outbox (20 panels flapping against a webhook that never answers for
10 minutes: RSS and the notifications kept to deliver, then what a restart sends), reads (timeline and
history queries' latency while the history's writer saves a 10,000-panel batch, against no changes),
heartbeats (10,000 heartbeat panels each pinged once a minute, 167 pings a second, against the same
deck unpinged: the CPU the pings cost), status (the public status page of a 1,000-panel deck over 90
days of history: the server's render time, and wrk's requests per second from its 5 s cache), moments
(`GET /api/state?at=` at 1,000 and 10,000 panels over a week of kept forms, and the forms' bytes a
panel-day), ping (1,000 ping panels every 10 s against `fping` sending the same requests: CPU per
request), scale (a deck of 100,000 heartbeat panels pinged 10,000 times a second over keep-alive
connections, against the same deck unpinged: CPU per ping, latency, every ping counted). Every
comparison runs its contenders interleaved, A B A B ..., and reports medians and ratios.
Results go to BENCHMARKS.md between markers and, raw, to bench-results/.

    python3 Benchmarks/run.py --only overview,browser,reads --baseline-bin ../other/.build-bench/release/statedeck

With `--baseline-bin` the reads, overview and browser benchmarks measure a second statedeck binary
(another checkout's release build) the same way in the same run, this build and it in turn round by
round (`in_turn`), and their tables show both and this build ÷ baseline. The baseline serves the page
of the checkout it was built in, the Public/ above the binary (or `--baseline-public DIR`).

Python 3 standard library only (the browser part runs Benchmarks/browser_bench.py in a Python
that has Playwright). Installs what it needs with apt-get, builds the C helpers and StateDeck,
talks to loopback only, bounds every wait, and stops every process it started, also on Ctrl-C.
"""

import argparse
import json
import os
import platform
import queue
import resource
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "Benchmarks"
TOOLS = ROOT / ".build-bench" / "bench-tools"
RESULTS_DIR = ROOT / "bench-results"
BENCHMARKS_MD = ROOT / "BENCHMARKS.md"
DEBS = ["wrk", "nginx", "libnginx-mod-nchan", "build-essential", "libmicrohttpd-dev", "libcurl4-openssl-dev",
        "libyaml-dev", "libsqlite3-dev", "libpq-dev", "postgresql", "pkg-config", "chromium", "fonts-dejavu-core",
        "fping"]
NCHAN_MODULE = "/usr/lib/nginx/modules/ngx_nchan_module.so"
CLK_TCK = os.sysconf("SC_CLK_TCK")
RATE_LADDER = [1, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 1500, 2000]
STATEDECK_PANEL = "bench"


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class BenchError(Exception):
    pass


# --------------------------------------------------------------------------- processes

class Processes:
    """Every process the harness starts, each in its own process group, stopped at the end."""

    def __init__(self):
        self.running = []

    def start(self, argv, **kwargs):
        log("start: " + " ".join(str(a) for a in argv))
        proc = subprocess.Popen([str(a) for a in argv], start_new_session=True, **kwargs)
        self.running.append(proc)
        return proc

    def stop(self, proc, grace=5.0):
        """SIGTERM to the process group, SIGKILL after `grace` s. Returns seconds to exit."""
        if proc not in self.running:
            return 0.0
        self.running.remove(proc)
        start = time.monotonic()
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                log(f"pid {proc.pid} still running {grace:.0f} s after SIGTERM: SIGKILL")
        try:  # the group may hold children (nginx workers) even when the leader is gone
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream:
                try:
                    stream.close()
                except OSError:
                    pass
        return time.monotonic() - start

    def stop_all(self):
        for proc in list(reversed(self.running)):
            self.stop(proc, grace=3.0)


PROCS = Processes()


class LineReader:
    """Reads a process's stdout lines on a thread, so that waits can have a timeout."""

    def __init__(self, stream):
        self.lines = queue.Queue()
        self.thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self.thread.start()

    def _pump(self, stream):
        for line in stream:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next(self, timeout, what):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise BenchError(f"no {what} within {timeout:.0f} s") from None
        if line is None:
            raise BenchError(f"process ended before {what}")
        return line

    def wait_for(self, pattern, timeout, what):
        deadline = time.monotonic() + timeout
        while True:
            line = self.next(max(0.01, deadline - time.monotonic()), what)
            match = re.search(pattern, line)
            if match:
                return match


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise BenchError(f"nothing listens on 127.0.0.1:{port} after {timeout:.0f} s")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """utime + stime of a process (all its threads), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def children_of(pid):
    kids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(entry.name))
    return kids


def http(method, url, body=None, timeout=10.0):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return response.status, response.read()


def answer_headers(url):
    """The header lines a server sends with its answer to GET `url`, but those that change per
    answer or that libmicrohttpd writes itself (Date, Content-Length, Content-Type)."""
    with urllib.request.urlopen(url, timeout=10) as response:
        own = {"date", "content-length", "content-type", "connection", "transfer-encoding"}
        return [f"{name}: {value}" for name, value in response.getheaders() if name.lower() not in own]


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


# --------------------------------------------------------------------------- setup

def ensure_packages(args):
    if args.no_install:
        return
    subprocess.run([str(ROOT / "scripts" / "ensure-packages.sh"), *DEBS], check=True)


def build_tools():
    TOOLS.mkdir(parents=True, exist_ok=True)
    flags = ["-O2", "-Wall", "-Wextra"]
    builds = {"sse-client": (["-pthread"], "sse-client.c"), "bare-mhd": (["-lmicrohttpd"], "bare-mhd.c"),
              "curl-multi-floor": (["-lcurl"], "curl-multi-floor.c"), "ping-load": ([], "ping-load.c")}
    for name, (libs, source) in builds.items():
        out, src = TOOLS / name, BENCH / source
        if not out.exists() or out.stat().st_mtime < src.stat().st_mtime:
            log(f"cc {source}")
            subprocess.run(["cc", *flags, "-o", str(out), str(src), *libs], check=True)


def build_release(product):
    """Builds `product` into .build-bench with the flags `make run` uses (`make release-flags`)."""
    flags = subprocess.run(["make", "-s", "release-flags"], cwd=ROOT, check=True, capture_output=True,
                           text=True).stdout.split()
    command = ["swift", "build", *flags, "--product", product, "--scratch-path", str(ROOT / ".build-bench")]
    log(" ".join(command))
    subprocess.run(command, cwd=ROOT, check=True)


def statedeck_binary(args):
    """The release binary to measure, built in .build-bench unless --statedeck names one."""
    if args.skip_statedeck:
        return None
    if args.statedeck:
        return args.statedeck.resolve()
    if not args.no_build:
        build_release("statedeck")
    path = ROOT / ".build-bench" / "release" / "statedeck"
    if not path.exists():
        raise BenchError(f"{path} is missing (build it, or pass --statedeck BIN or --skip-statedeck)")
    return path


def browser_python(args):
    candidates = [args.browser_python] if args.browser_python else []
    candidates += [str(ROOT / ".venv" / "bin" / "python"), "/tmp/pwvenv/bin/python"]
    for candidate in candidates:
        if candidate and Path(candidate).exists() and subprocess.run(
                [candidate, "-c", "import playwright"], capture_output=True).returncode == 0:
            return candidate
    requirements = ROOT / "Tests" / "browser" / "requirements.txt"
    if args.no_install or not requirements.exists():
        raise BenchError("no Python with Playwright: make test-deps, or --browser-python PATH")
    venv = ROOT / ".venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-r", str(requirements)], check=True)
    return str(venv / "bin" / "python")


def machine_info(args, statedeck, baselines=()):
    def command(argv):
        try:
            out = subprocess.run(argv, capture_output=True, text=True, timeout=20)
            return (out.stdout + out.stderr).strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "not found"

    def deb(name):
        return command(["dpkg-query", "-W", "-f=${Version}", name])

    def revision(checkout):
        return command(["git", "-C", str(checkout), "describe", "--always", "--dirty"])

    cpu = "unknown"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    memory = Path("/proc/meminfo").read_text().split("\n")[0].split()[1]
    return {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "cores": os.cpu_count(),
        "cpu": cpu,
        "memory": f"{int(memory) / 1024 / 1024:.0f} GiB",
        "kernel": platform.release(),
        "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "open files per process (soft / hard)": " / ".join(
            str(x) for x in resource.getrlimit(resource.RLIMIT_NOFILE)),
        "statedeck": f"{revision(ROOT)} ({statedeck})" if statedeck else "not measured",
        **{build.name: f"{revision(Path(build.public).parent)} ({build.binary}, its page {build.public})"
           for build in baselines},
        "swift": command(["swift", "--version"]),
        "libmicrohttpd": deb("libmicrohttpd12"),
        "nginx": deb("nginx"),
        "nchan": deb("libnginx-mod-nchan"),
        "wrk": deb("wrk"),
        "chromium": deb("chromium"),
        "python": platform.python_version(),
        "mode": "quick" if args.quick else f"{args.rounds} rounds",
    }


# --------------------------------------------------------------------------- servers

class Server:
    """A started server: its process, port, and the pid whose RSS and CPU count."""

    def __init__(self, name, proc, port, measured_pid, tempdir=None):
        self.name, self.proc, self.port, self.measured_pid = name, proc, port, measured_pid
        self.tempdir = tempdir

    @property
    def base(self):
        return f"http://127.0.0.1:{self.port}"

    def rss_kib(self):
        return rss_kib(self.measured_pid)

    def cpu_seconds(self):
        pids = [self.proc.pid] + children_of(self.proc.pid)
        return sum(cpu_seconds(pid) for pid in pids)

    def stop(self):
        seconds = PROCS.stop(self.proc)
        if self.tempdir:
            shutil.rmtree(self.tempdir, ignore_errors=True)
        return seconds


def start_statedeck(binary, config=None, public=None, extra=(), debug=True, preexec=None, default_history=False):
    """`preexec`: a function run in the child before exec (a resource limit, say). With
    `default_history` the server keeps its history where `make run` keeps it, no `--data` given:
    `.statedeck/` beside the deck file."""
    argv = [binary, "--host", "127.0.0.1", "--port", "0"] + (["--debug"] if debug else [])
    if config:
        argv += ["--config", config]
    if public:
        argv += ["--public", public]
    argv += list(extra)
    # The other benchmarks measure serving, not recording (which `history` measures).
    if not default_history and "--data" not in argv and "--cluster" not in argv:
        argv += ["--data", "none"]
    started = time.monotonic()
    proc = PROCS.start(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                       cwd=ROOT, preexec_fn=preexec)
    reader = LineReader(proc.stdout)
    match = reader.wait_for(r"StateDeck serving on http://[^:]+:(\d+)/", 30, "start-up line")
    server = Server("StateDeck", proc, int(match.group(1)), proc.pid)
    server.startup_seconds = time.monotonic() - started
    return server


# --------------------------------------------------------------------------- this build and a baseline

class Build:
    """A statedeck binary to measure and the page folder it serves: None for the one the binary
    finds itself (the `Public/` above it, as `make run` serves it)."""

    def __init__(self, name, binary, public=None):
        self.name, self.binary, self.public = name, Path(binary), public

    def start(self, **kwargs):
        return start_statedeck(self.binary, public=self.public, **kwargs)

    def describe(self):
        return f"{self.name}: `{self.binary}`" + (f", its page `{self.public}`" if self.public else "")


def builds(args, statedeck):
    """This build, and after it the baseline when --baseline-bin names one."""
    measured = [Build("this build", statedeck)]
    if args.baseline_bin:
        binary = args.baseline_bin
        if not binary.is_file():
            raise BenchError(f"--baseline-bin {binary}: no such file")
        public = args.baseline_public or page_folder(binary)
        if not (public / "index.html").is_file():
            raise BenchError(f"the baseline's page folder {public} holds no index.html")
        # Given explicitly: a binary built before the page was compiled in looks for a Public/
        # above it, and one copied out of its checkout would find the working directory's, this
        # build's page; one built since serves the folder given as it would its own.
        measured.append(Build("baseline", binary, str(public)))
    return measured


def page_folder(binary):
    """The `Public/` of the checkout a binary was built in: it lies under `<checkout>/.build*/…`
    (after links)."""
    for folder in binary.resolve().parents:
        if (folder / "Public" / "index.html").is_file():
            return folder / "Public"
    raise BenchError(f"no Public/index.html in a folder above {binary}: name the baseline's page "
                     "folder with --baseline-public DIR")


def in_turn(measured, rounds, measure, what):
    """`measure(build, round_index)` for every build, round by round, the builds taking turns
    (A B A B …) so that the host's drift and noise fall on each alike. Returns {build name: [each
    round's result]}."""
    results = {build.name: [] for build in measured}
    for index in range(rounds):
        for build in measured:
            if len(measured) > 1:
                log(f"{what} round {index + 1}/{rounds}: {build.name}")
            results[build.name].append(measure(build, index))
    return results


def builds_text(measured):
    """The sentence naming the binaries compared, empty for this build alone."""
    if len(measured) < 2:
        return ""
    return " Binaries, in turn: " + "; ".join(build.describe() for build in measured) + "."


def beside_baseline(header_tail, rows):
    """A table of this build beside the baseline and their ratio. `rows`: (label, template, this
    build's value, the baseline's, further cells); a value of None shows as n/a, a template of None
    leaves the three cells at —."""
    header = "| metric | this build | baseline | this build ÷ baseline |" + header_tail
    lines = [header, "| --- | ---: | ---: | ---: |" + " --- |" * header_tail.count("|")]
    for label, template, mine, theirs, *more in rows:
        cells = ([fmt(template, mine), fmt(template, theirs), ratio_text(mine, theirs)] if template
                 else ["—"] * 3) + list(more)
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


NGINX_COMMON = """
pid {dir}/nginx.pid;
daemon off;
worker_rlimit_nofile 20000;
"""
NGINX_TEMP_PATHS = """
    client_body_temp_path {dir}/body; proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi; uwsgi_temp_path {dir}/uwsgi; scgi_temp_path {dir}/scgi;
"""

NCHAN_CONF = "load_module " + NCHAN_MODULE + ";\n" + NGINX_COMMON + """
worker_processes 1;
events {{ worker_connections 20000; }}
http {{
    access_log off;
""" + NGINX_TEMP_PATHS + """
    server {{
        listen 127.0.0.1:{port} backlog=4096;
        location = /events {{
            nchan_subscriber eventsource;
            nchan_channel_id bench;
            nchan_subscriber_first_message newest;
        }}
        location = /pub {{
            nchan_publisher;
            nchan_channel_id bench;
        }}
    }}
}}
"""

# Debian's /etc/nginx/nginx.conf as shipped (workers auto, sendfile, tcp_nopush, access log,
# gzip on) with its paths moved into the temporary folder.
NGINX_DEFAULT_CONF = NGINX_COMMON + """
worker_processes auto;
events {{ worker_connections 768; }}
http {{
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {dir}/access.log;
    gzip on;
""" + NGINX_TEMP_PATHS + """
    server {{
        listen 127.0.0.1:{port};
        root {root};
    }}
}}
"""


def start_nginx(name, template, root=None):
    tempdir = tempfile.mkdtemp(prefix="statedeck-bench-nginx-")
    os.chmod(tempdir, 0o755)   # nginx's workers run as www-data
    port = free_port()
    conf = Path(tempdir) / "nginx.conf"
    conf.write_text(template.format(dir=tempdir, port=port, root=root or tempdir))
    proc = PROCS.start(["nginx", "-p", tempdir, "-c", conf, "-e", f"{tempdir}/error.log"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port)
    workers = []
    deadline = time.monotonic() + 5
    while not workers and time.monotonic() < deadline:
        workers = children_of(proc.pid)
        time.sleep(0.05)
    measured = workers[0] if len(workers) == 1 else proc.pid
    return Server(name, proc, port, measured, tempdir)


def start_bare_mhd(path, content_type, headers=()):
    """`headers`: further "Name: value" lines the one response carries."""
    proc = PROCS.start([TOOLS / "bare-mhd", 0, path, content_type, *headers], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    match = LineReader(proc.stdout).wait_for(r"serving on http://[^:]+:(\d+)/", 10, "start-up line")
    return Server("bare libmicrohttpd", proc, int(match.group(1)), proc.pid)


# --------------------------------------------------------------------------- fan-out

def write_deck(folder, panels, prefix):
    """A deck of `panels` panels whose source is a file nobody changes (refresh manual)."""
    folder = Path(folder)
    (folder / "status.json").write_text('{"ok": true}\n')
    ids = [prefix if panels == 1 else f"{prefix}{i:03d}" for i in range(panels)]
    deck = {"title": f"Benchmark deck ({panels} panels)",
            "panels": [{"id": i, "title": f"Panel {i}", "file": {"path": "./status.json"},
                        "refresh": "manual"} for i in ids]}
    path = folder / "deck.json"
    path.write_text(json.dumps(deck, indent=1))
    return str(path), ids


class FanoutContender:
    """How to start one server and publish to it with the same client."""

    def __init__(self, name, start, client_args, prepare=None):
        self.name, self.start, self.client_args, self.prepare = name, start, client_args, prepare


def statedeck_fanout(binary, deck, pad):
    def prepare(server):
        # Bring the panel's history to its 50-entry cap so that every event has the same size.
        for i in range(60):
            http("POST", f"{server.base}/api/debug/panels/{STATEDECK_PANEL}/state",
                 {"state": "loaded", "info": {"summary": f"warm-up {i:04d}" + "x" * pad}})

    body = '{"state":"loaded","info":{"summary":"{marker}{pad}"}}'
    return FanoutContender(
        "StateDeck", lambda: start_statedeck(binary, config=deck),
        ["--pub-path", f"/api/debug/panels/{STATEDECK_PANEL}/state", "--pub-body", body,
         "--pub-type", "application/json", "--pad", str(pad), "--live-marker", "event: snapshot"],
        prepare)


def nchan_fanout(event_bytes):
    marker = len("~SDB0123456789:1:1795320100000000000~")
    return FanoutContender(
        "nginx + nchan", lambda: start_nginx("nginx + nchan", NCHAN_CONF),
        ["--pub-path", "/pub", "--pub-body", "{marker}{pad}", "--pub-type", "text/plain",
         "--pad", str(max(0, event_bytes - marker))])


def calibrate_statedeck_event(binary, deck, pad):
    """The size of StateDeck's panel event data (the PanelState JSON) once history is full."""
    server = start_statedeck(binary, config=deck)
    try:
        size = 0
        for i in range(60):
            _, body = http("POST", f"{server.base}/api/debug/panels/{STATEDECK_PANEL}/state",
                           {"state": "loaded",
                            "info": {"summary": "~SDB0123456789:1:1795320100000000000~" + "x" * pad}})
            size = len(body)
        return size
    finally:
        server.stop()


class Client:
    """One sse-client run: N streams held open, commands on stdin, JSON lines back."""

    def __init__(self, server, n, extra, allow_partial=False):
        argv = [TOOLS / "sse-client", "--port", server.port, "--n", n, *extra,
                "--deliver-timeout", "5", "--live-timeout", "20" if allow_partial else "60"]
        if allow_partial:
            argv.append("--allow-partial")
        self.proc = PROCS.start(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.reader = LineReader(self.proc.stdout)
        match = self.reader.wait_for(r"live (\d+) failed (\d+) ms ([\d.]+)", 90, "live streams")
        self.live, self.failed = int(match.group(1)), int(match.group(2))
        self.connect_ms = float(match.group(3))

    def command(self, line, timeout):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return json.loads(self.reader.next(timeout, f"answer to '{line}'"))

    def close(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        PROCS.stop(self.proc)


def rate_passes(result, rate):
    """Every event to every stream, on schedule, and no backlog building up or left over."""
    first, last = result["all_first_quarter_ms"], result["all_last_quarter_ms"]
    return (result["complete"] and result["closed"] == 0 and result["incomplete"] == 0
            and result["publish_failed"] == 0 and result["achieved_rate"] >= 0.9 * rate
            and 0 <= result["drain_ms"] <= 1000 and last <= max(1.5 * first, first + 50))


def sustained_rate(client, start_index, step_seconds):
    """Highest rate of the ladder delivered to every stream with no drop and no backlog.

    Starts at `start_index` (the previous round's answer), climbs while steps pass, or steps
    down until one passes. Returns (rate, ladder index); rate 0 when even the lowest failed.
    """
    failed_above = None
    index, best = max(0, min(start_index, len(RATE_LADDER) - 1)), None
    while True:
        rate = RATE_LADDER[index]
        result = client.command(f"rate {rate} {step_seconds}", timeout=step_seconds * 4 + 30)
        ok = rate_passes(result, rate)
        log(f"  rate {rate}/s: {'pass' if ok else 'fail'} (achieved {result['achieved_rate']:.1f}/s, "
            f"p99 {result['p99_ms']:.0f} ms, all-N first → last quarter "
            f"{result['all_first_quarter_ms']:.0f} → {result['all_last_quarter_ms']:.0f} ms, "
            f"drain {result['drain_ms']:.0f} ms, incomplete {result['incomplete']})")
        if ok:
            best = index
            if index + 1 >= len(RATE_LADDER) or index + 1 == failed_above:
                break
            index += 1
        else:
            failed_above = index
            if best is not None or index == 0:
                break
            index -= 1
    return (RATE_LADDER[best], best) if best is not None else (0, 0)


def measure_fanout(contender, n, settings, rate_start):
    """Fresh server, N streams, idle RSS and CPU, repeated single events, sustained rate."""
    server = contender.start()
    client = None
    try:
        if contender.prepare:
            contender.prepare(server)
        time.sleep(0.5)
        rss_before = server.rss_kib()
        client = Client(server, n, contender.client_args)
        if client.live < n:
            raise BenchError(f"{contender.name}: only {client.live} of {n} streams went live")
        time.sleep(1.0)
        rss_with = server.rss_kib()
        cpu0, t0 = server.cpu_seconds(), time.monotonic()
        time.sleep(settings.idle_seconds)
        idle_cpu = 100 * (server.cpu_seconds() - cpu0) / (time.monotonic() - t0)
        events = []
        for _ in range(settings.fanouts):
            events.append(client.command("fanout", timeout=30))
            time.sleep(0.3)
        bad = [e for e in events if not e["complete"] or e["closed"] or e["incomplete"]]
        rate, rate_index = (None, rate_start)
        if settings.rates:
            rate, rate_index = sustained_rate(client, rate_start, settings.rate_seconds)
        return {
            "streams": client.live,
            "connect_ms": client.connect_ms,
            "p50_ms": median(e["p50_ms"] for e in events),
            "p99_ms": median(e["p99_ms"] for e in events),
            "max_ms": median(e["max_ms"] for e in events),
            "all_ms": median(e["all_max_ms"] for e in events if e["complete"]),
            "dropped_events": len(bad),
            "rss_kib_per_stream": (rss_with - rss_before) / n,
            "rss_before_kib": rss_before,
            "rss_with_kib": rss_with,
            "idle_cpu_pct": idle_cpu,
            "rate_per_s": rate,
            "rate_index": rate_index,
            "events": events,
        }
    finally:
        if client:
            client.close()
        server.stop()


def probe_ceiling(contender, limit):
    """How many streams a fresh server holds when the client asks for `limit`."""
    server = contender.start()
    client = None
    try:
        if contender.prepare:
            contender.prepare(server)
        client = Client(server, limit, contender.client_args, allow_partial=True)
        log(f"  {contender.name}: {client.live} of {limit} streams live")
        event = client.command("fanout", timeout=60)
        return {"live": client.live, "asked": limit, "delivered_to_all": event["complete"]}
    finally:
        if client:
            client.close()
        server.stop()


def bench_fanout(args, statedeck, report):
    settings = argparse.Namespace(
        quick=args.quick, idle_seconds=2 if args.quick else 15, fanouts=3 if args.quick else 5,
        rates=not args.no_rate, rate_seconds=2 if args.quick else 5)
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-deck-"))
    try:
        contenders = []
        event_bytes = args.event_bytes
        if statedeck:
            deck, _ = write_deck(workdir, 1, STATEDECK_PANEL)
            measured = calibrate_statedeck_event(statedeck, deck, 0)
            log(f"StateDeck panel event: {measured} bytes of data")
            event_bytes = measured
            contenders.append(statedeck_fanout(statedeck, deck, 0))
        contenders.append(nchan_fanout(event_bytes))
        report["fanout_event_bytes"] = event_bytes

        sizes = []
        for item in args.n.split(","):
            if item == "ceiling":
                if args.ceiling:
                    sizes.append(args.ceiling)
                    continue
                probes = {}
                for contender in contenders:
                    log(f"ceiling probe: {contender.name}, {args.ceiling_probe} streams asked")
                    probes[contender.name] = probe_ceiling(contender, args.ceiling_probe)
                report["ceiling_probe"] = probes
                common = min(p["live"] for p in probes.values())
                sizes.append(max(100, common // 100 * 100 - 100))
            else:
                sizes.append(int(item))

        rounds = 1 if args.quick else args.rounds
        results = {}   # (contender, n) -> [round results]
        rate_start = {}
        for round_index in range(rounds):
            for n in sizes:
                for contender in contenders:
                    log(f"fan-out round {round_index + 1}/{rounds}: {contender.name}, N={n}")
                    key = (contender.name, n)
                    try:
                        result = measure_fanout(contender, n, settings, rate_start.get(key, 5))
                    except BenchError as error:   # keep going: the table shows n/a
                        log(f"  failed: {error}")
                        results.setdefault(key, []).append({"error": str(error)})
                        continue
                    rate_start[key] = max(0, result["rate_index"])
                    log(f"  p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms, all "
                        f"{result['all_ms']} ms, {result['rss_kib_per_stream']:.1f} KiB/stream, "
                        f"idle CPU {result['idle_cpu_pct']:.2f} %, rate {result['rate_per_s']}/s")
                    results.setdefault(key, []).append(result)
        report["fanout"] = {f"{name}|{n}": rounds for (name, n), rounds in results.items()}
        return fanout_markdown(results, sizes, [c.name for c in contenders], report)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


FANOUT_ROWS = [
    ("p50 latency (ms)", "p50_ms", "{:.1f}"),
    ("p99 latency (ms)", "p99_ms", "{:.1f}"),
    ("max latency (ms)", "max_ms", "{:.1f}"),
    ("all N have it (ms)", "all_ms", "{:.1f}"),
    ("server RSS per stream (KiB)", "rss_kib_per_stream", "{:.1f}"),
    ("server CPU, idle with N streams (% of a core)", "idle_cpu_pct", "{:.2f}"),
    ("sustained rate, no drop (events/s)", "rate_per_s", "{:g}"),
    ("single events not delivered to all", "dropped_events", "{:g}"),
]


def separator(header):
    return "|" + " --- |" * (header.count("|") - 1)


def fmt(template, value):
    return "n/a" if value is None else template.format(value)


def ratio_text(a, b):
    if a is None or b is None or b == 0:
        return "n/a"
    return f"{a / b:.2f}×"


def fanout_markdown(results, sizes, names, report):
    lines = [f"Event data: {report['fanout_event_bytes']} bytes (StateDeck's PanelState JSON; "
             f"nchan is published a body of the same size). Medians over rounds; each round's "
             f"latencies are the median of its single events."]
    probes = report.get("ceiling_probe")
    if probes:
        lines.append("")
        lines.append("Ceiling probe (streams held when " + str(next(iter(probes.values()))["asked"])
                     + " were asked): " + ", ".join(f"{k} {v['live']}" for k, v in probes.items())
                     + ". The comparison at the ceiling uses the smaller, less 100.")
    for n in sizes:
        lines += ["", f"**N = {n:,} streams**", ""]
        header = "| metric | " + " | ".join(names)
        if len(names) == 2:
            header += f" | ratio {names[0]} / {names[1]}"
        header += " | rounds |"
        lines += [header, separator(header)]
        for label, key, template in FANOUT_ROWS:
            medians = [median(r.get(key) for r in results.get((name, n), [])) for name in names]
            row = f"| {label} | " + " | ".join(fmt(template, m) for m in medians)
            if len(names) == 2:
                row += " | " + ratio_text(medians[0], medians[1])
            rounds = " / ".join(
                ", ".join(fmt(template, r.get(key)) for r in results.get((name, n), []))
                for name in names)
            lines.append(row + f" | {rounds} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- HTTP throughput

def run_wrk(url, seconds, connections=64, threads=2):
    out = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency",
                          url], capture_output=True, text=True, timeout=seconds + 60).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = re.search(r"Socket errors: (.*)", out)
    p99 = re.search(r"\s99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    return {"rps": rps, "requests": requests, "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "socket_errors": errors.group(1) if errors else "",
            "p99_ms": float(p99.group(1)) * scale[p99.group(2)] if p99 else None}


def bench_http(args, statedeck, report):
    seconds = 3 if args.quick else args.wrk_seconds
    rounds = 1 if args.quick else max(args.rounds, args.http_rounds)
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-http-"))
    os.chmod(workdir, 0o755)   # nginx's workers run as www-data
    servers = []
    try:
        www = workdir / "www"
        public = workdir / "public"
        public_src = ROOT / "Public"
        shutil.copytree(public_src, public) if public_src.is_dir() else public.mkdir()
        www.mkdir()
        static = (b"StateDeck benchmark static file, 2,048 bytes. " * 50)[:2047] + b"\n"
        for folder in (www, public):
            (folder / "bench-2k.txt").write_bytes(static)

        targets = {"static 2 KB file": "bench-2k.txt"}
        contenders = []   # (name, server, {target: path})
        if statedeck:
            sd = start_statedeck(statedeck, public=str(public), extra=["--seed", "1"], debug=False)
            servers.append(sd)
            time.sleep(1.0)
            _, state = http("GET", f"{sd.base}/api/state")
            (www / "api-state.json").write_bytes(state)
            report["api_state_bytes"] = len(state)
            targets["GET /api/state (demo deck)"] = "api-state.json"
            contenders.append(("StateDeck", sd, {"bench-2k.txt": "/bench-2k.txt",
                                                 "api-state.json": "/api/state"}))
        # The bare program answers with StateDeck's bytes, headers included.
        same = (lambda path: answer_headers(f"{sd.base}{path}")) if statedeck else (lambda path: [])
        bare_static = start_bare_mhd(www / "bench-2k.txt", "text/plain; charset=utf-8",
                                     same("/bench-2k.txt"))
        servers.append(bare_static)
        bare = {"bench-2k.txt": (bare_static, "/bench-2k.txt")}
        if statedeck:
            bare_api = start_bare_mhd(www / "api-state.json", "application/json", same("/api/state"))
            servers.append(bare_api)
            bare["api-state.json"] = (bare_api, "/api/state")
        nginx = start_nginx("nginx", NGINX_DEFAULT_CONF, root=str(www))
        servers.append(nginx)

        results = {}
        for label, file in targets.items():
            entries = []
            if statedeck:
                entries.append(("StateDeck", contenders[0][1], contenders[0][2][file]))
            entries.append(("bare libmicrohttpd", bare[file][0], bare[file][1]))
            entries.append(("nginx (Debian default config)", nginx, f"/{file}"))
            entries = [(name, server, server.base + path) for name, server, path in entries]   # with URLs
            for name, server, url in entries:   # warm-up, and a check that each answers 200
                status, body = http("GET", url)
                if status != 200:
                    raise BenchError(f"{url} answered {status}")
                run_wrk(url, 1)
            for round_index in range(rounds):
                for name, server, url in entries:
                    cpu_before = server.cpu_seconds()
                    result = run_wrk(url, seconds)
                    # The server's own CPU (nginx: with its workers) per request answered.
                    result["cpu_us"] = (server.cpu_seconds() - cpu_before) / result["requests"] * 1e6
                    log(f"wrk {label}, {name}, round {round_index + 1}/{rounds}: "
                        f"{result['rps']:.0f} req/s, {result['cpu_us']:.2f} µs of server CPU per request")
                    if result["non2xx"] or result["socket_errors"]:
                        log(f"  non-2xx {result['non2xx']}, socket errors {result['socket_errors']}")
                    results.setdefault((label, name), []).append(result)
        report["http"] = {f"{k[0]}|{k[1]}": v for k, v in results.items()}
        return http_markdown(results, targets, seconds, report, bool(statedeck))
    finally:
        for server in servers:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def http_markdown(results, targets, seconds, report, with_statedeck):
    names = (["StateDeck"] if with_statedeck else []) + ["bare libmicrohttpd",
                                                          "nginx (Debian default config)"]
    rounds = len(next(iter(results.values()), []))
    lines = [f"`wrk -t2 -c64 -d{seconds}s`, requests per second, medians over {rounds} rounds "
             "(interleaved). The bare program and nginx serve StateDeck's bytes: the same 2 KB "
             f"file, and /api/state as StateDeck answered it ({report.get('api_state_bytes', 'n/a')}"
             " bytes); the bare program also sends StateDeck's response headers (security "
             "headers, ETag, Cache-Control), so both put the same bytes on the wire."]
    header = ("| target | " + " | ".join(names) + " | "
              + ("StateDeck / bare | StateDeck / nginx" if with_statedeck else "bare / nginx")
              + " | server CPU per request (µs) | p99 latency (ms) | rounds |")
    lines += ["", header, separator(header)]
    medians = {}
    for label in targets:
        values = [median(r["rps"] for r in results[(label, name)]) for name in names]
        medians[label] = dict(zip(names, values))
        cells = [fmt("{:,.0f}", v) for v in values]
        if with_statedeck:
            ratios = [ratio_text(values[0], values[1]), ratio_text(values[0], values[2])]
        else:
            ratios = [ratio_text(values[0], values[1])]
        cpu = " / ".join(fmt("{:.2f}", median(r["cpu_us"] for r in results[(label, name)]))
                         for name in names)
        p99 = " / ".join(fmt("{:.2f}", median(r["p99_ms"] for r in results[(label, name)]))
                         for name in names)
        rounds = " / ".join(", ".join(f"{r['rps']:.0f}" for r in results[(label, name)])
                            for name in names)
        lines.append(f"| {label} | " + " | ".join(cells + ratios) + f" | {cpu} | {p99} | {rounds} |")
    if with_statedeck:
        # The host's speed drifts between rounds; each StateDeck round against the bare round
        # right after it shows how far the ratio itself moves.
        paired = []
        for label in targets:
            ratios = sorted(a["rps"] / b["rps"] for a, b in zip(results[(label, "StateDeck")],
                                                                 results[(label, names[1])]))
            paired.append(f"{label} {median(ratios):.2f}× ({ratios[0]:.2f}–{ratios[-1]:.2f}×)")
        lines += ["", "StateDeck / bare round by round (each round against the bare program's "
                  "round right after it), median and range: " + "; ".join(paired) + "."]
    if with_statedeck and len(targets) == 2:
        static, api = list(targets)
        lines += ["", "StateDeck /api/state ÷ static: " +
                  ratio_text(medians[api]["StateDeck"], medians[static]["StateDeck"]) + "."]
    return "\n".join(lines)


# --------------------------------------------------------------------------- the page built in

def bench_page(args, statedeck, report):
    """The page as the binary carries it against the same files read from a folder (`--public`),
    one process of each, measured in turn: requests a second for two of the page's files, and the
    time from process start to the start-up line."""
    if not statedeck:
        return "StateDeck not measured."
    seconds = 3 if args.quick else args.wrk_seconds
    rounds = 1 if args.quick else max(args.rounds, args.http_rounds)
    starts = 3 if args.quick else 5
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-page-"))
    kinds = {"built in": [], "folder (--public)": ["--public", str(workdir / "public")]}
    paths = ["/", "/app.js"]
    results = {(kind, path): [] for kind in kinds for path in paths}
    startup = {kind: [] for kind in kinds}
    servers = {}
    try:
        shutil.copytree(ROOT / "Public", workdir / "public")
        for _ in range(starts):
            for kind, extra in kinds.items():
                server = start_statedeck(statedeck, extra=["--seed", "1", *extra], debug=False)
                startup[kind].append(server.startup_seconds * 1000)
                server.stop()
        servers = {kind: start_statedeck(statedeck, extra=["--seed", "1", *extra], debug=False)
                   for kind, extra in kinds.items()}
        for path in paths:
            bodies = {kind: http("GET", f"{server.base}{path}")[1] for kind, server in servers.items()}
            if len(set(bodies.values())) != 1:
                raise BenchError(f"{path}: the page built in and the folder's differ")
            for server in servers.values():
                run_wrk(f"{server.base}{path}", 1)
        for round_index in range(rounds):
            for path in paths:
                # Each first in every other round: the machine's drift falls on both alike.
                for kind, server in sorted(servers.items(), reverse=round_index % 2 == 1):
                    cpu_before = server.cpu_seconds()
                    result = run_wrk(f"{server.base}{path}", seconds)
                    result["cpu_us"] = (server.cpu_seconds() - cpu_before) / result["requests"] * 1e6
                    results[(kind, path)].append(result)
                    log(f"wrk {path}, {kind}, round {round_index + 1}/{rounds}: {result['rps']:.0f} req/s, "
                        f"{result['cpu_us']:.2f} µs of server CPU per request")
    finally:
        for server in servers.values():
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    report["page"] = {"startup_ms": startup, "wrk": {f"{kind}|{path}": rows for (kind, path), rows in results.items()}}
    built, folder = list(kinds)
    lines = [f"Two processes serving the demo deck with the history off (both would take the demo's one "
             f"history folder; what is measured is the page's files), one with the page built in and one with `--public` "
             f"on a copy of `Public/`; `wrk -t2 -c64 -d{seconds}s` on each in turn, {rounds} rounds; "
             f"{starts} cold starts of each, interleaved.", "",
             f"| measure | {built} | {folder} | built in / folder |", "| --- | --- | --- | --- |"]
    for path in paths:
        rps = [median(r["rps"] for r in results[(kind, path)]) for kind in kinds]
        cpu = [median(r["cpu_us"] for r in results[(kind, path)]) for kind in kinds]
        lines.append(f"| `GET {path}`, requests a second | {rps[0]:,.0f} | {rps[1]:,.0f} | {ratio_text(rps[0], rps[1])} |")
        lines.append(f"| `GET {path}`, server CPU per request (µs) | {cpu[0]:.2f} | {cpu[1]:.2f} | "
                     f"{ratio_text(cpu[0], cpu[1])} |")
        paired = sorted(a["rps"] / b["rps"] for a, b in zip(results[(built, path)], results[(folder, path)]))
        lines.append(f"| `GET {path}`, built in / folder round by round | | | {median(paired):.2f}× "
                     f"({paired[0]:.2f}–{paired[-1]:.2f}×) |")
    start_ms = [median(startup[kind]) for kind in kinds]
    lines.append(f"| process start → start-up line (ms) | {start_ms[0]:.1f} | {start_ms[1]:.1f} | "
                 f"{ratio_text(start_ms[0], start_ms[1])} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- start-up

def bench_startup(args, statedeck, report):
    if not statedeck:
        return "StateDeck not measured."
    runs = 3 if args.quick else 5
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-startup-"))
    try:
        # A deck file as well as the demo: a user's deck is read from one.
        files_deck, _ = write_deck(workdir, 10, "file")
        decks = {"demo": ["--seed", "1"], "files": ["--config", files_deck]}
        startup, rss = [], {name: [] for name in decks}
        for _ in range(runs):
            for name, extra in decks.items():
                server = start_statedeck(statedeck, extra=extra, debug=False)
                try:
                    if name == "demo":
                        startup.append(server.startup_seconds * 1000)
                    time.sleep(2.0)
                    rss[name].append(server.rss_kib() / 1024)
                finally:
                    stop_seconds = server.stop()
                log(f"{name} deck: start-up line after {server.startup_seconds * 1000:.1f} ms, "
                    f"idle RSS {rss[name][-1]:.1f} MiB, stopped in {stop_seconds:.2f} s")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report["startup"] = {"startup_ms": startup, "idle_rss_mib": rss["demo"], "idle_rss_files_mib": rss["files"]}

    def row(metric, values):
        return f"| {metric} | {median(values):.1f} | " + ", ".join(f"{v:.1f}" for v in values) + " |"

    return "\n".join([
        f"{runs} cold starts of each deck, interleaved; RSS read 2 s after the start-up line: the demo deck "
        "(`--seed 1`) and a deck file of 10 file panels.", "",
        "| metric | median | runs |", "| --- | --- | --- |",
        row("process start → start-up line, demo deck (ms)", startup),
        row("idle RSS, demo deck (MiB)", rss["demo"]),
        row("idle RSS, deck file of 10 file panels (MiB)", rss["files"]),
    ])


# --------------------------------------------------------------------------- churn

def bench_churn(args, statedeck, report):
    """Memory under churn: Benchmarks/DeckChurn pushes state changes through one panel of an
    in-process server (deck, state mirror, SSE history) and prints its RSS every tenth."""
    if not statedeck:
        return "StateDeck not measured."
    if not args.no_build:
        build_release("statedeck-churn")
    changes = 20_000 if args.quick else 100_000
    table = subprocess.run([str(ROOT / ".build-bench" / "release" / "statedeck-churn"), str(changes)],
                           check=True, capture_output=True, text=True, timeout=900).stdout
    report["churn"] = table
    return (f"One panel, {changes:,} state changes (loading, loaded, error in turn) pushed through the "
            "deck, the state mirror (one JSON encoding each) and the SSE history ring (4,096 events); "
            "RSS of the process every tenth of the way.\n\n" + table)


# --------------------------------------------------------------------------- cycles

def bench_cycles(args, statedeck, report):
    """Memory across many short clients: SSE streams opened and dropped, then API requests on
    keep-alive connections, against the demo deck; RSS every tenth of the way."""
    if not statedeck:
        return "StateDeck not measured."
    cycles = 20_000 if args.quick else 100_000
    server = start_statedeck(statedeck, extra=["--seed", "1"], debug=False)
    try:
        panel = json.loads(http("GET", server.base + "/api/state")[1])["panels"][0]["id"]
        time.sleep(1.0)
        rows = [("start", 0, server.rss_kib() / 1024)]
        head = f"Host: 127.0.0.1:{server.port}\r\n"
        stream_request = f"GET /events HTTP/1.1\r\n{head}Accept: text/event-stream\r\n\r\n".encode()
        for done in range(1, cycles + 1):
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as client:
                client.sendall(stream_request)
                received = b""
                while b"event: snapshot" not in received:
                    chunk = client.recv(65536)
                    if not chunk:
                        raise RuntimeError(f"stream {done} closed before its snapshot")
                    received += chunk
            if done % (cycles // 10) == 0:
                rows.append(("SSE connect/disconnect", done, server.rss_kib() / 1024))
        api_request = f"GET /api/panels/{panel} HTTP/1.1\r\n{head}\r\n".encode()
        client = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        reader = client.makefile("rb")
        for done in range(1, cycles + 1):
            client.sendall(api_request)
            status = reader.readline()
            length = 0
            while (line := reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            reader.read(length)
            if not status.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"API request {done}: {status!r}")
            if done % (cycles // 10) == 0:
                rows.append((f"GET /api/panels/{panel}", done, server.rss_kib() / 1024))
        client.close()
        log(f"cycles: RSS {rows[0][2]:.1f} → {rows[-1][2]:.1f} MiB")
    finally:
        server.stop()
    report["cycles"] = rows
    return "\n".join([
        f"Demo deck (`--seed 1`). {cycles:,} SSE clients, one after another, each opening `/events`, "
        "reading until its `snapshot` event and closing; then "
        f"{cycles:,} `GET /api/panels/{panel}` on one keep-alive connection. RSS after every tenth.", "",
        "| phase | done | RSS (MiB) |", "| --- | --- | --- |",
    ] + [f"| {phase} | {done:,} | {rss:.1f} |" for phase, done, rss in rows])


# --------------------------------------------------------------------------- browser

def run_browser_bench(argv, out, timeout, what):
    """Runs Benchmarks/browser_bench.py with `argv`, bounded by `timeout`, and returns the JSON it
    wrote to `out`."""
    proc = PROCS.start(argv, stdout=subprocess.DEVNULL)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise BenchError(f"{what} did not finish in time") from None
    finally:
        PROCS.stop(proc)
    if not out.exists():
        raise BenchError(f"{what} wrote no result")
    return json.loads(out.read_text())


def bench_browser(args, statedeck, report):
    if not statedeck:
        return "StateDeck not measured."
    python = browser_python(args)
    seconds = 10 if args.quick else args.browser_seconds
    runs = 1 if args.quick else args.rounds
    measured = builds(args, statedeck)
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-browser-"))
    try:
        deck, _ = write_deck(workdir, args.panels, "p")

        def measure(build, index):
            server = build.start(config=deck)
            try:
                out = workdir / f"browser-{build.name.replace(' ', '-')}-{index}.json"
                argv = [python, BENCH / "browser_bench.py", "--base-url", server.base,
                        "--panels", args.panels, "--prefix", "p", "--rate", args.browser_rate,
                        "--seconds", seconds, "--chromium", args.chromium, "--out", out]
                result = run_browser_bench(argv, out, timeout=seconds + 120, what="browser benchmark")
                result["server_rss_mib"] = server.rss_kib() / 1024
            finally:
                server.stop()
            log(f"browser run {index + 1}/{runs} ({result['mode']}): change→DOM p50 "
                f"{fmt('{:.1f}', result['dom_p50_ms'])} ms, p99 "
                f"{fmt('{:.1f}', result['dom_p99_ms'])} ms, frame p95 "
                f"{fmt('{:.1f}', result['frame_p95_ms'])} ms, keeps up: {result['keeps_up']}")
            return result

        results = in_turn(measured, runs, measure, "browser")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report["browser"] = results["this build"]
    if len(measured) == 1:
        return browser_markdown(results["this build"], args, seconds)
    report["browser_baseline"] = results["baseline"]
    return browser_comparison_markdown(results, measured, args, seconds)


def bench_overview(args, statedeck, report):
    """The overview at 10,000 panels in headless Chromium (Benchmarks/browser_bench.py --overview):
    the first screen, searches, the main thread and the JS heap while 1,000 changes a second
    arrive, and how many timelines the page asks for. The deck keeps its history as `make run`
    keeps it (`.statedeck/` beside the deck file), so panels on screen ask for their timelines as
    they would. Beside it, as a control, the first screen of the same deck with `--data none`:
    rounds of the two in turn, each on a fresh server (and a fresh data folder); the first round
    with history measures everything, the others the first screen alone. With a baseline the
    builds take turns round by round, and every round with history measures everything, so that
    each row compares medians."""
    if not statedeck:
        return "StateDeck not measured."
    python = browser_python(args)
    seconds = 10 if args.quick else 20
    rounds = 1 if args.quick else args.rounds
    measured = builds(args, statedeck)
    workdir = Path(tempfile.mkdtemp(prefix="statedeck-bench-overview-"))

    def measure(build, index):
        """One round of a build: {variant: its run's result}."""
        runs = {}
        for variant in OVERVIEW_VARIANTS:
            folder = workdir / f"{build.name.replace(' ', '-')}-{variant}-{index}"
            folder.mkdir()
            deck, _ = write_deck(folder, 10_000, "p")
            full = variant == "history" and (index == 0 or len(measured) > 1)
            server = build.start(config=deck, default_history=variant == "history")
            try:
                if variant == "history" and not default_history_file(deck).exists():
                    raise BenchError(f"no {default_history_file(deck)}: the server keeps no history "
                                     "where `make run` keeps it")
                wait_until_loaded(server.base)
                out = folder / "overview.json"
                argv = [python, BENCH / "browser_bench.py", "--overview", "--base-url", server.base,
                        "--panels", 10_000, "--prefix", "p", "--rate", 1_000, "--seconds", seconds,
                        "--publishers", 4, "--chromium", args.chromium, "--out", out]
                if not full:
                    argv.append("--first-screen-only")
                runs[variant] = run_browser_bench(argv, out, timeout=seconds + 180, what="overview benchmark")
            finally:
                server.stop()
            log(f"overview round {index + 1}/{rounds}, {OVERVIEW_VARIANTS[variant]}: first screen "
                f"{fmt('{:.0f}', runs[variant].get('first_screen_ms'))} ms")
        return runs

    try:
        results = in_turn(measured, rounds, measure, "overview")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    first = {name: {variant: [runs[variant] for runs in rounds_] for variant in OVERVIEW_VARIANTS}
             for name, rounds_ in results.items()}
    report["overview"] = dict(first["this build"]["history"][0], first_screen_runs=first["this build"])
    if len(measured) == 1:
        return overview_markdown(first["this build"])
    report["overview_baseline"] = dict(first["baseline"]["history"][0], first_screen_runs=first["baseline"])
    return overview_comparison_markdown(first, measured)


def default_history_file(deck):
    """Where a server started on `deck` without `--data` keeps its history, as `make run` does."""
    return Path(deck).parent / ".statedeck" / "history.sqlite3"


OVERVIEW_VARIANTS = {"history": "history on (`.statedeck/` beside the deck, as `make run`)",
                     "none": "`--data none` (control)"}


def overview_markdown(first):
    """The full run's rows; the first screen's rows as medians over the rounds of both variants,
    with their ratio."""
    rows = [f"| metric | 10,000 panels, {OVERVIEW_VARIANTS['history']} | {OVERVIEW_VARIANTS['none']} "
            "| history ÷ control | target |", "| --- | ---: | ---: | ---: | --- |"]
    for label, key, target in OVERVIEW_ROWS:
        on = overview_median(first["history"], key)
        if key.startswith("first_screen"):
            off = overview_median(first["none"], key)
            ratio = f"{on / off:.2f}×" if on is not None and off else "—"
            rows.append(f"| {label} | {fmt('{:.1f}', on)} | {fmt('{:.1f}', off)} | {ratio} | {target} |")
        else:
            rows.append(f"| {label} | {fmt('{:.1f}', on)} | — | — | {target} |")
    return "\n".join([
        f"First screen: the median of {len(first['history'])} round(s) of each, in turn on fresh servers "
        "(history on / control, ms, in order): " + first_screens(first) + ". The rows without a control are "
        "the first round with history, which measured everything.", "", *rows])


def overview_comparison_markdown(first, measured):
    """Every row a median over the build's rounds with history on, every one of which measured
    everything; then the control's first screen."""
    mine, theirs = first["this build"], first["baseline"]
    rows = [(label, "{:.1f}", overview_median(mine["history"], key), overview_median(theirs["history"], key), target)
            for label, key, target in OVERVIEW_ROWS]
    rows.append((f"first screen of cards, {OVERVIEW_VARIANTS['none']} (ms)", "{:.1f}",
                 overview_median(mine["none"], "first_screen_ms"),
                 overview_median(theirs["none"], "first_screen_ms"), "—"))
    return "\n".join([
        f"10,000 panels, {OVERVIEW_VARIANTS['history']}, and the first screen also with "
        f"{OVERVIEW_VARIANTS['none']}: {len(mine['history'])} round(s), the two builds in turn, each round "
        "on fresh servers with history on (measuring everything), then with the control (the first "
        "screen alone); medians over the rounds." + builds_text(measured) + " First screens (history "
        f"on / control, ms, in order): this build {first_screens(mine)}; baseline {first_screens(theirs)}.",
        "", *beside_baseline(" target |", rows)])


def overview_median(runs, key):
    return median([run.get(key) for run in runs])


def first_screens(first):
    """Each round's first screen with history on and with the control, in order."""
    return ", ".join(f"{fmt('{:.0f}', on.get('first_screen_ms'))} / {fmt('{:.0f}', off.get('first_screen_ms'))}"
                     for on, off in zip(first["history"], first["none"]))


def wait_until_loaded(base, timeout=120):
    """Waits until every panel of the server's deck shows a result: the page is opened on a
    dashboard that runs, as a tab opened in the morning is, not on a server still making its first
    10,000 loads on the same two cores."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _, body = http("GET", base + "/api/state")
        panels = json.loads(body)["panels"]
        if all("latestValidInfo" in panel for panel in panels):
            return
        time.sleep(0.5)
    raise BenchError(f"the deck's panels were not all loaded within {timeout} s")


OVERVIEW_ROWS = [
    ("first screen of cards after navigation (ms)", "first_screen_ms", "under 1,000"),
    ("… the modules loaded (ms after navigation)", "first_screen_modules_ms", "—"),
    ("… the state document asked for (ms after navigation)", "first_screen_state_requested_ms", "—"),
    ("… the state document received (ms after navigation)", "first_screen_state_received_ms", "—"),
    ("search answered and drawn, p50 (ms)", "search_p50_ms", "under 100"),
    ("search answered and drawn, slowest (ms)", "search_max_ms", "under 100"),
    ("main thread busy while changes arrive (%)", "busy_pct", "under 30"),
    ("changes published per second (achieved)", "achieved_rate", "1,000"),
    ("JS heap, peak (MB)", "heap_mb_peak", "under 100"),
    ("JS heap after the changes (MB)", "heap_mb_after_changes", "under 100"),
    ("timeline requests after loading", "uptime_requests_after_load", "the panels on screen"),
    ("timeline requests after scrolling top to bottom", "uptime_requests_after_scroll", "far below 10,000"),
]


BROWSER_ROWS = [
    ("state change in the server → DOM updated, p50 (ms)", "dom_p50_ms", "{:.1f}"),
    ("state change in the server → DOM updated, p99 (ms)", "dom_p99_ms", "{:.1f}"),
    ("state change → a plain SSE client (Python), p50 (ms)", "recv_p50_ms", "{:.1f}"),
    ("frame interval p95 (ms)", "frame_p95_ms", "{:.1f}"),
    ("main-thread work per frame, p95 (ms)", "work_p95_ms", "{:.1f}"),
    ("frames over 1.5 intervals (%)", "long_frames_pct", "{:.1f}"),
    ("main thread busy (%)", "busy_pct", "{:.1f}"),
    ("changes published per second (achieved)", "achieved_rate", "{:.1f}"),
    ("changes applied / published", "applied_fraction", "{:.4f}"),
    ("latency p50 first 5 s → last 5 s (ms)", "trend", "{}"),
]


def browser_markdown(results, args, seconds):
    lines = [browser_intro(args, seconds, ", ".join(sorted({r["mode"] for r in results}))) +
             f" Medians over {len(results)} run(s).", "",
             "| metric | median | runs |", "| --- | --- | --- |"]
    for label, key, template in BROWSER_ROWS:
        middle, runs = browser_runs(results, key, template)
        lines.append(f"| {label} | {'—' if key == 'trend' else fmt(template, middle)} | {runs} |")
    lines.append(f"| keeps up (no growing backlog) | — | {keeps_up(results)} |")
    return "\n".join(lines)


def browser_comparison_markdown(results, measured, args, seconds):
    mine, theirs = results["this build"], results["baseline"]
    each = {name: ", ".join(sorted({r["mode"] for r in runs})) for name, runs in results.items()}
    modes = each["this build"] if len(set(each.values())) == 1 else "; ".join(f"{n}: {m}" for n, m in each.items())
    rows = []
    for label, key, template in BROWSER_ROWS:
        (my_median, my_runs), (their_median, their_runs) = (browser_runs(mine, key, template),
                                                            browser_runs(theirs, key, template))
        rows.append((label, None if key == "trend" else template, my_median, their_median, my_runs, their_runs))
    rows.append(("keeps up (no growing backlog)", None, None, None, keeps_up(mine), keeps_up(theirs)))
    return "\n".join([
        browser_intro(args, seconds, modes) + f" Medians over {len(mine)} run(s) of each, the two in turn, "
        "each run on a fresh server." + builds_text(measured), "",
        *beside_baseline(" this build's runs | the baseline's runs |", rows)])


def browser_intro(args, seconds, modes):
    return (f"{args.panels} panels, {args.browser_rate} state changes per second for {seconds} s "
            f"(debug API, round robin over the panels), headless Chromium; measured by {modes}.")


def browser_runs(results, key, template):
    """A row's median over the runs (None for the trend) and its value in each run."""
    if key == "trend":
        return None, ", ".join(f"{r['first_window_p50_ms']:.1f} → {r['last_window_p50_ms']:.1f}" for r in results)
    values = [r.get(key) for r in results]
    return median(values), ", ".join(fmt(template, v) for v in values)


def keeps_up(results):
    return ", ".join("yes" if r["keeps_up"] else "no" for r in results)


# --------------------------------------------------------------------------- report

def replace_section(text, name, body):
    start, end = f"<!-- results:{name} -->", f"<!-- /results:{name} -->"
    block = f"{start}\n{body.strip()}\n{end}"
    if start in text and end in text:
        before, rest = text.split(start, 1)
        return before + block + rest.split(end, 1)[1]
    return text.rstrip() + "\n\n" + block + "\n"


def write_report(sections, info, report, args):
    RESULTS_DIR.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    raw = RESULTS_DIR / f"{stamp}.json"
    raw.write_text(json.dumps({"machine": info, **report}, indent=1, default=str))
    log(f"raw results: {raw}")
    if args.no_write:
        for name, body in sections.items():
            print(f"\n## {name}\n\n{body}")
        return
    text = BENCHMARKS_MD.read_text() if BENCHMARKS_MD.exists() else "# Benchmarks\n"
    machine = ["| | |", "| --- | --- |"] + [f"| {k} | {v} |" for k, v in info.items()]
    text = replace_section(text, "machine", "\n".join(machine))
    for name, body in sections.items():
        text = replace_section(text, name, f"_Run {info['date']}, {info['mode']}._\n\n{body}")
    BENCHMARKS_MD.write_text(text)
    log(f"results written to {BENCHMARKS_MD}")


# --------------------------------------------------------------------------- main

def bench_history(args, statedeck, report):
    import history_bench
    return history_bench.bench_history(args, statedeck, report, sys.modules[__name__])


def bench_many(args, statedeck, report):
    import many_bench
    return many_bench.bench_many(args, statedeck, report, sys.modules[__name__])


def bench_cluster(args, statedeck, report):
    import cluster_bench
    return cluster_bench.bench_cluster(args, statedeck, report, sys.modules[__name__])


def bench_outbox(args, statedeck, report):
    import outbox_bench
    return outbox_bench.bench_outbox(args, statedeck, report, sys.modules[__name__])


def bench_reads(args, statedeck, report):
    import reads_bench
    return reads_bench.bench_reads(args, statedeck, report, sys.modules[__name__])


def bench_heartbeats(args, statedeck, report):
    import heartbeats_bench
    return heartbeats_bench.bench_heartbeats(args, statedeck, report, sys.modules[__name__])


def bench_status(args, statedeck, report):
    import status_bench
    return status_bench.bench_status(args, statedeck, report, sys.modules[__name__])


def bench_ping(args, statedeck, report):
    import ping_bench
    return ping_bench.bench_ping(args, statedeck, report, sys.modules[__name__])


def bench_moments(args, statedeck, report):
    import moments_bench
    return moments_bench.bench_moments(args, statedeck, report, sys.modules[__name__])


def bench_scale(args, statedeck, report):
    """Decks of 100,000 panels; its parts write sections of their own."""
    import scale_bench
    import scale_pings_bench
    parts = {"http": ("scale-http", scale_bench.run_http), "pings": ("scale-pings", scale_pings_bench.run_pings)}
    return {parts[part][0]: parts[part][1](sys.modules[__name__], args, statedeck, report)
            for part in args.scale_parts.split(",")}


BENCHMARKS = {"startup": bench_startup, "page": bench_page, "fanout": bench_fanout, "http": bench_http,
              "browser": bench_browser, "churn": bench_churn, "cycles": bench_cycles,
              "history": bench_history, "many": bench_many, "overview": bench_overview,
              "cluster": bench_cluster, "outbox": bench_outbox, "reads": bench_reads,
              "heartbeats": bench_heartbeats, "status": bench_status, "moments": bench_moments, "ping": bench_ping,
              "scale": bench_scale}


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", default=",".join(BENCHMARKS),
                   help="comma-separated subset of: " + ", ".join(BENCHMARKS))
    p.add_argument("--quick", action="store_true",
                   help="smoke test: 1 round, short runs, fan-out at N=1000 only unless --n, many "
                        "panels at 1,000 and 10,000 only unless --many-n")
    p.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    p.add_argument("--n", default=None, help="fan-out stream counts, 'ceiling' allowed "
                   "(default 1000,10000,ceiling; quick: 1000)")
    p.add_argument("--ceiling", type=int, default=0, help="use this N as the ceiling, no probe")
    p.add_argument("--ceiling-probe", type=int, default=19900,
                   help="streams asked of each server to find its ceiling (default 19900)")
    p.add_argument("--event-bytes", type=int, default=1500,
                   help="nchan event size when StateDeck is not measured (default 1500)")
    p.add_argument("--no-rate", action="store_true", help="skip the sustained-rate search")
    p.add_argument("--wrk-seconds", type=int, default=6)
    p.add_argument("--http-rounds", type=int, default=7,
                   help="interleaved rounds of wrk, at least --rounds (default 7: the host's noise "
                        "comes in spikes of seconds, which more, shorter rounds outvote)")
    p.add_argument("--panels", type=int, default=500)
    p.add_argument("--browser-rate", type=int, default=200)
    p.add_argument("--browser-seconds", type=int, default=30)
    p.add_argument("--browser-python", help="a Python with Playwright (default: .venv)")
    p.add_argument("--chromium", default="/usr/bin/chromium")
    p.add_argument("--scale-panels", type=int, default=100_000,
                   help="http panels of the scale benchmark (default 100,000)")
    p.add_argument("--scale-parts", default="http,pings",
                   help="the parts of the scale benchmark: http (100,000 http panels), pings (10,000 a second)")
    p.add_argument("--many-n", default=None,
                   help="panels in the many-panels decks (default 1000,3000,10000; quick: 1000,10000)")
    p.add_argument("--many-refresh", default="15,5",
                   help="refresh intervals of the many-panels decks, in seconds (default 15,5)")
    p.add_argument("--many-seconds", type=float, default=None,
                   help="measured window of each many-panels run, after its first round of checks "
                        "(default 60; quick: 15)")
    p.add_argument("--statedeck", help="the statedeck binary (default: build in .build-bench)")
    p.add_argument("--skip-statedeck", action="store_true", help="measure the peers only")
    p.add_argument("--baseline-bin", metavar="PATH",
                   help="reads, overview, browser: a second statedeck binary (another checkout's release "
                        "build) measured the same way in the same run, this build and it in turn round by "
                        "round; the tables show both and this build ÷ baseline. It serves the page of the "
                        "checkout it was built in: the Public/ found walking up from PATH")
    p.add_argument("--baseline-public", metavar="DIR",
                   help="the page folder the baseline serves, when it lies under no checkout's Public/ "
                        "(a copied binary)")
    p.add_argument("--no-build", action="store_true", help="use .build-bench as it is")
    p.add_argument("--no-install", action="store_true", help="install no Debian package")
    p.add_argument("--no-write", action="store_true", help="print results, leave BENCHMARKS.md")
    p.add_argument("--max-minutes", type=float, default=120,
                   help="stop everything after this long (default 120: the full run takes about 90)")
    args = p.parse_args(argv)
    args.only = [b.strip() for b in args.only.split(",") if b.strip()]
    unknown = [b for b in args.only if b not in BENCHMARKS]
    if unknown:
        p.error(f"unknown benchmark(s): {', '.join(unknown)}")
    if args.n is None:
        args.n = "1000" if args.quick else "1000,10000,ceiling"
    if args.many_n is None:
        args.many_n = "1000,10000" if args.quick else "1000,3000,10000"
    if args.many_seconds is None:
        args.many_seconds = 15 if args.quick else 60
    # Relative to where run.py was started, not to the repository, which main() moves to; links
    # kept, so that the report names a binary as it was given.
    for name in ("statedeck", "baseline_bin", "baseline_public"):
        if getattr(args, name):
            setattr(args, name, Path(os.path.abspath(getattr(args, name))))
    return args


def main(argv):
    args = parse_args(argv)

    def on_signal(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")

    def on_timeout(_signum, _frame):
        raise BenchError(f"over --max-minutes {args.max_minutes:g}")

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)   # also when started in the background
    signal.signal(signal.SIGALRM, on_timeout)
    signal.alarm(int(args.max_minutes * 60))
    os.chdir(ROOT)
    sections, report = {}, {}
    try:
        ensure_packages(args)
        build_tools()
        statedeck = statedeck_binary(args)
        measured = builds(args, statedeck) if statedeck else []   # a wrong baseline fails here, not an hour in
        info = machine_info(args, statedeck, measured[1:])
        for name in [b for b in BENCHMARKS if b in args.only]:
            log(f"=== {name} ===")
            result = BENCHMARKS[name](args, statedeck, report)
            sections.update(result if isinstance(result, dict) else {name: result})
        write_report(sections, info, report, args)
        return 0
    except (BenchError, subprocess.CalledProcessError) as error:
        log(f"failed: {error}")
        return 1
    except KeyboardInterrupt:
        log("interrupted")
        return 130
    finally:
        signal.alarm(0)
        PROCS.stop_all()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
