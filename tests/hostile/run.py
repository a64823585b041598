#!/usr/bin/env python3
"""Run the hostile-input cases against a citekit executable.

Usage: run.py CITEKIT_EXE [--only SUBSTRING ...] [--keep] [-v]

Each case in cases/NN-name/ is applied to a fresh copy of a base project (built once by
make_base.sh with the same executable), with a "victim" folder beside the project that no
command may touch. Prints one line per case and a final "N passed, M failed".

Only the Python standard library and PyYAML are used.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import http.server
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
DEFAULT_TIMEOUT = 120
DEFAULT_MEM_MB = 4096
TRACEBACK_MARKERS = ("Traceback (most recent call last)",)
CRASH_MARKERS = ("MemoryError", "RecursionError", "UnicodeEncodeError", "UnicodeDecodeError")
SERVICE_VARS = {
    "CITEKIT_OPENREVIEW_URL": "openreview",
    "CITEKIT_CROSSREF_URL": "crossref",
    "CITEKIT_DBLP_URL": "dblp",
    "CITEKIT_ARXIV_URL": "arxiv",
    "CITEKIT_ICML_URL": "icml",
    "CITEKIT_NEURIPS_URL": "neurips",
    "CITEKIT_ICLR_URL": "iclr",
    "CITEKIT_MLSYS_URL": "mlsys",
}
# a loopback port nobody listens on: any request a case did not plan for is refused at once
DEAD_URL = "http://127.0.0.1:9"


# ---------------------------------------------------------------- fake service

class FakeService:
    """A loopback HTTP server whose answer each case chooses (the docs' CITEKIT_*_URL vars)."""

    def __init__(self) -> None:
        self.mode: dict = {}
        self.requests: list[str] = []
        self.lock = threading.Lock()
        handler = self._handler()
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def set_mode(self, mode: dict, case_dir: Path) -> None:
        with self.lock:
            self.mode = dict(mode or {})
            self.mode["_dir"] = case_dir
            self.requests = []

    def count(self) -> int:
        with self.lock:
            return len(self.requests)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _handler(self):
        svc = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                if n:
                    self.rfile.read(n)
                self.do_GET()

            def do_GET(self):
                with svc.lock:
                    svc.requests.append(self.path)
                    mode = dict(svc.mode)
                try:
                    svc.answer(self, mode)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        return Handler

    def answer(self, h, mode: dict) -> None:
        kind = mode.get("kind", "json")
        service = h.path.strip("/").split("/", 1)[0]
        if kind == "stream":
            # an endless-looking JSON answer: a valid prefix, then megabytes of one string
            total = int(mode.get("stream_mb", 1024)) * 1024 * 1024
            h.send_response(200)
            h.send_header("Content-Type", "application/json")
            if mode.get("declare_length"):
                h.send_header("Content-Length", str(total + 40))
            h.send_header("Connection", "close")
            h.end_headers()
            h.wfile.write(b'{"status": "ok", "message": {"title": ["')
            chunk = b"A" * (1024 * 1024)
            sent = 0
            while sent < total:
                h.wfile.write(chunk)
                sent += len(chunk)
            h.wfile.write(b'"]}}')
            return
        if kind == "gzip_bomb":
            body = gzip_bomb(int(mode.get("inflated_mb", 1024)))
            h.send_response(200)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Encoding", "gzip")
            h.send_header("Content-Length", str(len(body)))
            h.send_header("Connection", "close")
            h.end_headers()
            h.wfile.write(body)
            return
        bodies = mode.get("bodies", {})
        name = None
        for pattern, fname in mode.get("routes", []):
            if re.search(pattern, h.path):
                name = fname
                break
        name = name or bodies.get(service) or bodies.get("default")
        if not name:
            h.send_response(404)
            h.send_header("Content-Length", "0")
            h.end_headers()
            return
        body = (mode["_dir"] / name).read_bytes()
        ctype = "application/json"
        if name.endswith(".xml"):
            ctype = "application/atom+xml"
        elif name.endswith(".bib"):
            ctype = "text/plain"
        h.send_response(200)
        h.send_header("Content-Type", ctype)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)


_BOMBS: dict[int, bytes] = {}


def gzip_bomb(inflated_mb: int) -> bytes:
    """A small gzip body that inflates to inflated_mb MB of valid-looking JSON."""
    if inflated_mb not in _BOMBS:
        co = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip container
        out = [co.compress(b'{"status": "ok", "message": {"title": ["')]
        chunk = b"A" * (1024 * 1024)
        for _ in range(inflated_mb):
            out.append(co.compress(chunk))
        out.append(co.compress(b'"]}}'))
        out.append(co.flush())
        _BOMBS[inflated_mb] = b"".join(out)
    return _BOMBS[inflated_mb]


# ---------------------------------------------------------------- project set-up

def build_base(exe: str, workdir: Path) -> Path:
    base = workdir / "base"
    r = subprocess.run(["sh", str(HERE / "make_base.sh"), exe, str(base)],
                       capture_output=True, text=True, timeout=600, env=child_env({}, None))
    if r.returncode != 0:
        sys.exit(f"make_base.sh failed ({r.returncode}):\n{r.stdout}\n{r.stderr}")
    return base


def child_env(extra: dict, service: FakeService | None, home: Path | None = None) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CITEKIT_", "OPENREVIEW_")) and k.lower() not in
           ("http_proxy", "https_proxy", "all_proxy")}
    env["CITEKIT_RATE_LIMITS"] = "off"
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["LC_ALL"] = env.get("LC_ALL") or "C.UTF-8"
    # the cases' setup.sh run `python3`: the interpreter running this file, first on PATH
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    for var, name in SERVICE_VARS.items():
        env[var] = f"{service.root}/{name}" if service else f"{DEAD_URL}/{name}"
    if home is not None:
        env["HOME"] = str(home)
    env.update({k: str(v) for k, v in (extra or {}).items()})
    return env


def snapshot(root: Path, skip: set[Path]) -> dict[str, bytes | str]:
    """Every path under root (not under skip) -> its bytes, or 'dir'/'link:target'."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        d = Path(dirpath)
        dirnames[:] = [n for n in dirnames if d / n not in skip]
        for n in dirnames:
            p = d / n
            out[str(p)] = f"link:{os.readlink(p)}" if p.is_symlink() else "dir"
        for n in filenames:
            p = d / n
            if p.is_symlink():
                out[str(p)] = f"link:{os.readlink(p)}"
            else:
                try:
                    out[str(p)] = p.read_bytes()
                except OSError as exc:
                    out[str(p)] = f"unreadable:{exc}"
    return out


def make_victim(tmp: Path) -> Path:
    victim = tmp / "victim"
    (victim / "dir").mkdir(parents=True)
    (victim / "bashrc").write_bytes(b"# victim's shell settings\nexport KEEP=1\n")
    (victim / "notes.md").write_text(
        "# Private reading list\n\n"
        "- **Victim Private Paper About Secret Gradients** — Victor Hidden, Vera Secret\n",
        encoding="utf-8")
    (victim / "dir" / "paper.md").write_text(
        "- **Another Victim Paper On Hidden Momentum** — Victor Hidden, Olga Outside\n",
        encoding="utf-8")
    (victim / "sha-source.txt").write_bytes(b"attacker-chosen bytes\n")
    return victim


def substitute(proj: Path, tmp: Path, victim: Path) -> None:
    """Replace @PROJECT@, @VICTIM@, @TMP@ and @SHA256:rel/path@ in overlay text files."""
    for p in sorted(proj.rglob("*")):
        if p.is_symlink() or not p.is_file():
            continue
        try:
            data = p.read_bytes()
        except OSError:
            continue
        if b"@PROJECT@" not in data and b"@VICTIM@" not in data and b"@TMP@" not in data \
                and b"@SHA256:" not in data:
            continue
        data = (data.replace(b"@PROJECT@", str(proj).encode())
                .replace(b"@VICTIM@", str(victim).encode())
                .replace(b"@TMP@", str(tmp).encode()))

        def sha(m: re.Match) -> bytes:
            target = tmp / m.group(1).decode()
            try:
                return hashlib.sha256(target.read_bytes()).hexdigest().encode()
            except OSError:
                return b"0" * 64
        data = re.sub(rb"@SHA256:([^@]+)@", sha, data)
        p.write_bytes(data)


def overlay(case_dir: Path, proj: Path) -> None:
    for src in sorted(case_dir.rglob("*")):
        rel = src.relative_to(case_dir)
        if rel.parts[0] in ("case.yaml", "setup.sh", "service"):
            continue
        dst = proj / rel
        if src.is_dir():
            dst.mkdir(parents=True, exist_ok=True)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            if dst.is_symlink() or dst.exists():
                dst.unlink()
            shutil.copyfile(src, dst)


# ---------------------------------------------------------------- running

def limit(mem_mb: int):
    def preexec() -> None:
        os.setsid()
        b = mem_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (b, b))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return preexec


def run_cmd(exe: str, args: list[str], proj: Path, env: dict, timeout: int, mem_mb: int):
    t0 = time.monotonic()
    proc = subprocess.Popen([exe, *args], cwd=proj, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=limit(mem_mb))
    try:
        out, err = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, err = proc.communicate()
        rc = None
    return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - t0


def check_cmd(exp: dict, rc, out: str, err: str, secs: float, label: str) -> list[str]:
    why: list[str] = []
    both = out + err
    if rc is None:
        return [f"{label}: killed after timeout ({secs:.0f} s)"]
    if rc < 0:
        why.append(f"{label}: killed by signal {-rc}")
    if "exit_in" in exp and rc not in exp["exit_in"]:
        why.append(f"{label}: exit {rc}, expected one of {exp['exit_in']}")
    if exp.get("no_traceback", True):
        if any(m in both for m in TRACEBACK_MARKERS):
            last = [ln for ln in err.strip().splitlines() if ln.strip()][-1:] or [""]
            why.append(f"{label}: traceback ({last[0][:120]})")
        elif any(m in both for m in CRASH_MARKERS):
            m = next(m for m in CRASH_MARKERS if m in both)
            why.append(f"{label}: {m} in output")
    lim = exp.get("finishes_within_s")
    if lim and secs > lim:
        why.append(f"{label}: took {secs:.1f} s (limit {lim} s)")
    for w in exp.get("stderr_mentions", []):
        if w.lower() not in both.lower():
            why.append(f"{label}: message does not mention {w!r}")
    anys = exp.get("stderr_mentions_any")
    if anys and not any(w.lower() in both.lower() for w in anys):
        why.append(f"{label}: message mentions none of {anys}")
    for w in exp.get("stderr_not_contains", []):
        if w in err:
            why.append(f"{label}: stderr contains {w!r}")
    for w in exp.get("stdout_not_contains", []):
        if w in out:
            why.append(f"{label}: stdout contains {w!r}")
    for w in exp.get("stdout_contains", []):
        if w not in out:
            why.append(f"{label}: stdout lacks {w!r}")
    rx = exp.get("stdout_not_matches")
    if rx and re.search(rx, out):
        why.append(f"{label}: stdout matches /{rx}/")
    return why


PER_COMMAND = {"exit_in", "no_traceback", "finishes_within_s", "stderr_mentions",
               "stderr_mentions_any", "stderr_not_contains", "stdout_not_contains",
               "stdout_contains", "stdout_not_matches", "service_requests_min"}


def run_case(exe: str, base: Path, case_dir: Path, service: FakeService, keep: bool,
             verbose: bool) -> tuple[bool, str]:
    spec = yaml.safe_load((case_dir / "case.yaml").read_text(encoding="utf-8"))
    expect = spec.get("expect", {}) or {}
    cmd_expect = {k: v for k, v in expect.items() if k in PER_COMMAND}
    steps = spec.get("commands") or [spec["command"]]
    timeout = int(spec.get("timeout_s", DEFAULT_TIMEOUT))
    mem_mb = int(spec.get("memory_mb", DEFAULT_MEM_MB))
    tmp = Path(tempfile.mkdtemp(prefix="ck-hostile-"))
    why: list[str] = []
    try:
        proj = tmp / "proj"
        shutil.copytree(base, proj, symlinks=True)
        victim = make_victim(tmp)
        home = tmp / "home"
        home.mkdir()
        overlay(case_dir, proj)
        env_extra = dict(spec.get("env", {}) or {})
        env_extra.update({"VICTIM": victim, "PROJECT": proj, "TMPROOT": tmp, "CASE_TOOLS": HERE})
        if (case_dir / "setup.sh").exists():
            r = subprocess.run(["sh", str(case_dir / "setup.sh")], cwd=proj, capture_output=True,
                               env=child_env(env_extra, None, home), timeout=300)
            if r.returncode != 0:
                return False, f"setup.sh failed: {r.stderr.decode(errors='replace')[-300:]}"
        substitute(proj, tmp, victim)
        svc = service if spec.get("service") else None
        if svc:
            svc.set_mode(spec["service"], case_dir)
        env = child_env(env_extra, svc, home)
        outside_before = snapshot(tmp, {proj, home})
        proj_before = snapshot(proj, set())
        for i, step in enumerate(steps, 1):
            if isinstance(step, dict) and "rm" in step:
                shutil.rmtree(proj / step["rm"], ignore_errors=True)
                continue
            if isinstance(step, dict) and "service" in step:
                service.set_mode(step["service"], case_dir)
                continue
            args = step["args"] if isinstance(step, dict) else step
            exp = dict(cmd_expect)
            if isinstance(step, dict):
                exp.update(step.get("expect", {}) or {})
            args = [str(a).replace("@VICTIM@", str(victim)).replace("@PROJECT@", str(proj))
                    for a in args]
            n_before = svc.count() if svc else 0
            rc, out, err, secs = run_cmd(exe, args, proj, env, timeout, mem_mb)
            label = f"step {i} `citekit {' '.join(args)[:60]}`"
            if verbose:
                print(f"    [{label}] rc={rc} {secs:.1f}s\n      stdout: {out[-400:]!r}\n"
                      f"      stderr: {err[-600:]!r}")
            why += check_cmd(exp, rc, out, err, secs, label)
            if svc and "service_requests_min" in exp:
                got = svc.count() - n_before
                if got < exp["service_requests_min"]:
                    why.append(f"{label}: {got} request(s) to the service, expected "
                               f"at least {exp['service_requests_min']}")
        why += check_final(expect, tmp, proj, home, victim, outside_before, proj_before)
    finally:
        if keep:
            print(f"    kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return (not why), "; ".join(why)


def check_final(expect: dict, tmp: Path, proj: Path, home: Path, victim: Path,
                outside_before: dict, proj_before: dict) -> list[str]:
    why: list[str] = []
    if expect.get("outside_untouched", True):
        after = snapshot(tmp, {proj, home})
        for path, data in outside_before.items():
            if path not in after:
                why.append(f"outside file deleted: {Path(path).relative_to(tmp)}")
            elif after[path] != data:
                why.append(f"outside file changed: {Path(path).relative_to(tmp)}")
        for path in after:
            if path not in outside_before:
                why.append(f"new file outside the project: {Path(path).relative_to(tmp)}")
    for rel in expect.get("unchanged", []):
        p = str(proj / rel)
        now = snapshot(proj, set()).get(p)
        if now != proj_before.get(p):
            why.append(f"{rel} changed (must keep its bytes)")
    for rel in expect.get("absent", []):
        if os.path.lexists(proj / rel):
            why.append(f"{rel} still there")
    bib = proj / "refs" / "library.bib"
    sidecar = proj / "refs" / "library.yaml"
    bib_bytes = bib.read_bytes() if bib.exists() else b""
    yaml_bytes = sidecar.read_bytes() if sidecar.exists() else b""
    for s in expect.get("bib_contains", []):
        if s.encode("utf-8") not in bib_bytes:
            why.append(f"library.bib lost {s[:60]!r}")
    for s in expect.get("bib_not_contains", []):
        if s.encode("utf-8") in bib_bytes:
            why.append(f"library.bib contains {s[:60]!r}")
    rx = expect.get("bib_not_matches")
    if rx and re.search(rx.encode("utf-8"), bib_bytes):
        why.append(f"library.bib matches /{rx}/")
    for s in expect.get("yaml_not_contains", []):
        s = s.replace("@VICTIM@", str(victim)).replace("@TMP@", str(tmp))
        if s.encode("utf-8") in yaml_bytes:
            why.append(f"library.yaml contains {s[:60]!r}")
    for rel in expect.get("utf8_files", []):
        p = proj / rel
        if p.exists():
            try:
                p.read_bytes().decode("utf-8", "strict")
            except UnicodeDecodeError as exc:
                why.append(f"{rel} is not UTF-8 ({exc.reason})")
    return why


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("--only", nargs="*", default=[])
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--cases", type=Path, default=CASES, help="the folder gen_cases.py wrote (default: cases/)")
    a = ap.parse_args()
    exe = str(Path(a.exe).resolve()) if os.sep in a.exe else (shutil.which(a.exe) or a.exe)
    work = Path(tempfile.mkdtemp(prefix="ck-hostile-base-"))
    service = FakeService()
    passed = failed = 0
    try:
        base = build_base(exe, work)
        for case_dir in sorted(p for p in a.cases.iterdir() if (p / "case.yaml").exists()):
            if a.only and not any(s in case_dir.name for s in a.only):
                continue
            t0 = time.monotonic()
            try:
                ok, why = run_case(exe, base, case_dir, service, a.keep, a.verbose)
            except Exception as exc:  # a runner problem is a failed case, not a stop
                ok, why = False, f"runner error: {exc!r}"
            secs = time.monotonic() - t0
            if ok:
                passed += 1
                print(f"PASS {case_dir.name} ({secs:.1f} s)", flush=True)
            else:
                failed += 1
                print(f"FAIL {case_dir.name}: {why} ({secs:.1f} s)", flush=True)
    finally:
        service.close()
        shutil.rmtree(work, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
