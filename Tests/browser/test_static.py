"""Static checks of Public/: shipped as written, strict-CSP friendly, typed modules (no browser; one
asks a server for the policy the page relies on)."""
from __future__ import annotations

import re
import shutil
import subprocess
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PUBLIC = HERE.parents[1] / "Public"
MODULES = sorted(PUBLIC.glob("*.js"))
EXPECTED_MODULES = {
    "app.js", "api.js", "config.js", "connection.js", "debug.js", "dom.js", "error-card.js", "info.js",
    "loading.js", "panel.js", "store.js", "stream.js", "tabs.js", "toast.js", "types.js",
}


def test_the_expected_modules_exist():
    assert EXPECTED_MODULES <= {m.name for m in MODULES}
    for name in ("index.html", "styles.css", "icons.svg"):
        assert (PUBLIC / name).is_file(), name


def test_index_html_has_no_inline_code_and_no_policy_of_its_own():
    html = (PUBLIC / "index.html").read_text()
    assert not re.search(r"<style", html, re.I), "inline <style>"
    assert not re.search(r"\sstyle\s*=", html, re.I), "style= attribute"
    assert not re.search(r"\son[a-z]+\s*=", html, re.I), "on*= handler attribute"
    for script in re.findall(r"<script\b[^>]*>(.*?)</script>", html, re.S | re.I):
        assert not script.strip(), "inline script"
    assert re.search(r'<script type="module" src="app.js"></script>', html)
    # The server's Content-Security-Policy header is the one policy (SecurityHeaders.swift): a
    # <meta> copy would be enforced beside it and could only drift from it.
    assert not re.search(r"http-equiv\s*=\s*[\"']?Content-Security-Policy", html, re.I), "a CSP <meta>"


def test_the_page_is_served_with_a_strict_csp(server):
    with urllib.request.urlopen(server.url + "/", timeout=10) as answer:
        policy = answer.headers["Content-Security-Policy"]
    assert policy, "no Content-Security-Policy header"
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'self'" and directives["script-src"] == "'self'"
    assert directives["form-action"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


@pytest.mark.parametrize("module", MODULES, ids=lambda p: p.name)
def test_module_is_typed_and_never_builds_markup_from_strings(module):
    src = module.read_text()
    assert src.startswith("// @ts-check"), f"{module.name} must start with // @ts-check"
    code = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    code = re.sub(r"^\s*//.*$", "", code, flags=re.M)
    for banned in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
                   "setAttribute(\"style\"", "cssText", "on" + "click="):
        assert banned not in code, f"{module.name} uses {banned}"
    for imp in re.findall(r"""(?:from|import\()\s*["']([^"']+)["']""", code):
        assert imp.startswith("./") and imp.endswith(".js"), f"{module.name}: import {imp!r} must be ./name.js"


def test_index_html_preloads_every_module_app_js_imports():
    """Every module app.js reaches by static imports is fetched at once beside it (modulepreload),
    not when the module importing it has been read: a round trip less per level."""
    html = (PUBLIC / "index.html").read_text()
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([a-z-]+\.js)">', html))
    imported, todo = set(), ["app.js"]
    while todo:
        code = (PUBLIC / todo.pop()).read_text()
        for name in re.findall(r'^import [^;]*? from "\./([a-z-]+\.js)";', code, re.M):
            if name not in imported:
                imported.add(name)
                todo.append(name)
    assert imported == preloaded, f"imported but not preloaded: {imported - preloaded}; preloaded, not imported: {preloaded - imported}"


def test_no_external_resources():
    for f in PUBLIC.iterdir():
        if f.suffix not in (".html", ".js", ".css", ".svg"):
            continue
        for url in re.findall(r"https?://[^\s\"')]+", f.read_text()):
            assert url.startswith("http://www.w3.org/"), f"{f.name} refers to {url}"


def test_the_pages_own_timings_live_in_config_js():
    config = (PUBLIC / "config.js").read_text()
    for needle in ("revealAfterMs: 300", "minimumShownMs: 500", "bannerDelayMs: 500", "deadStreamFactor: 2"):
        assert needle in config, needle
    for module in MODULES:
        if module.name == "config.js":
            continue
        numbers = re.findall(r"setTimeout\([^,]+,\s*(\d{3,})\)", module.read_text())
        assert not numbers, f"{module.name} hard-codes a delay: {numbers}"


def test_icons_sprite_has_every_configured_icon():
    sprite = (PUBLIC / "icons.svg").read_text()
    names = re.search(r"icons: Object.freeze\(\[(.*?)\]\)", (PUBLIC / "config.js").read_text(), re.S).group(1)
    for name in re.findall(r'"([a-z-]+)"', names):
        assert f'<symbol id="{name}"' in sprite, name


def test_modules_type_check():
    tsc = shutil.which("tsc")
    assert tsc, "tsc not installed: make test installs Debian's node-typescript"
    res = subprocess.run([tsc, "-p", str(HERE / "tsconfig.json")], capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_no_page_function_is_longer_than_a_screen():
    node = shutil.which("node")
    assert node, "node not installed: make test installs Debian's node-typescript, which brings it"
    res = subprocess.run([node, str(HERE.parent.parent / "scripts" / "function-lengths.js")],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_what_the_server_decides_has_no_copy_in_the_page():
    """Presentation defaults, error kinds, the ping interval and toast settings come in the state
    document's settings; a copy in Public/ could disagree with the server."""
    for module in MODULES:
        text = module.read_text()
        for copy in ("pingIntervalMs:", "presentationDefaults", "presentationOptions", "errorKinds: Object",
                     "defaultToastDurationMs", '"serverMaintenance"', "durationMs: 4"):
            assert copy not in text, f"{module.name} keeps a copy of a server setting: {copy}"
