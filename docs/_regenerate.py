#!/usr/bin/env python3
"""Run every example of README.md and docs/**/*.md, and rewrite the outputs they show from real runs.

    .venv/bin/python docs/_regenerate.py            # rewrite the pages whose shown outputs changed
    .venv/bin/python docs/_regenerate.py --check    # change nothing; list the pages that differ (exit 1)

``tests/docs/test_pages.py`` renders every page the same way and fails when the page on disk differs,
so after a change to the engine's numbers this one command brings the documentation back in step.

What runs, page by page, in a fresh temporary folder (so files written by one example are there
for the next) and one Python namespace per page:

- ```` ```python ```` blocks with ``>>>`` prompts are doctests: each example runs and its shown
  output is replaced by the real one. A shown output that still matches (``...`` stands for any
  text, as in doctest's ELLIPSIS) is kept as written, so hand-shortened outputs stay short.
- ```` ```python ```` blocks without prompts run as code and must not raise.
- ```` ```console ```` blocks are shell sessions: each ``$ workbench ...`` line runs the command
  (``python -m workbench``) and the lines after it, up to the next ``$``, are its output (stdout
  and stderr); ``$ echo $?`` shows the previous exit code.
- ```` ```bash ```` blocks list commands without output: ``workbench ...`` must exit 0,
  ``python3 tasks.py NAME`` and ``make NAME`` must name a command of tasks.py / the Makefile.
- a ```` ```toml ```` (or json) block right after ``<!-- file: NAME -->`` must be the content of
  the file NAME that the examples above it wrote.
- the Markdown table between ``<!-- fields: SYSTEM.MODEL -->`` and ``<!-- end fields -->`` is
  ``workbench.fields.markdown`` of that model (its declared fields), e.g. ``annulus.Creature``.
- a number quoted in prose is written ``<!--= EXPRESSION -->VALUE<!--/-->``: the comment is hidden
  when the page is read, and VALUE is replaced by ``str(EXPRESSION)``, evaluated in the page's
  namespace as the examples above it left it (so a quoted figure cannot go stale: the docs test fails
  when the engine gives another number).

Any other fenced block is refused (``text`` blocks are for shown text that is not an output).
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import doctest
import io
import os
import re
import shlex
import subprocess
import sys
import tempfile
import traceback
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs/systems").glob("*.md"))]
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
FILE_MARK = re.compile(r"<!--\s*file:\s*(\S+)\s*-->\s*$")
VALUE_MARK = re.compile(r"<!--=\s*(.+?)\s*-->(.*?)<!--/-->", re.S)
FIELDS_MARK = re.compile(r"(<!--\s*fields:\s*(\w+)\.(\w+)\s*-->\n)(.*?)(<!--\s*end fields\s*-->)", re.S)
CHECKER = doctest.OutputChecker()
FLAGS = doctest.ELLIPSIS


class DocError(Exception):
    """An example that cannot run (a Python error, a failing command, an unknown block)."""


def _tasks_commands() -> set[str]:
    text = (ROOT / "tasks.py").read_text()
    match = re.search(r"^COMMANDS = \{(.*?)\}", text, re.M)
    return set(re.findall(r'"([\w-]+)":', match.group(1))) if match else set()


def _make_targets() -> set[str]:
    return set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M))


class Page:
    """One page being rendered: its folder, its Python namespace, the last exit code."""

    def __init__(self, path: Path, workdir: Path):
        self.path, self.workdir = path, workdir
        # a real module, as a user's script has one (dataclasses look their module up)
        module = types.ModuleType("__docs__")
        sys.modules["__docs__"] = module
        self.namespace: dict = module.__dict__
        self.last_code = 0

    # ------------------------------------------------------------------ python
    def _exec(self, source: str, mode: str, where: str) -> str:
        """Run ``source`` in the page namespace from the page folder; return what it printed."""
        out = io.StringIO()
        cwd = os.getcwd()
        os.chdir(self.workdir)
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(source, where, mode, dont_inherit=True), self.namespace)
        finally:
            os.chdir(cwd)
        return out.getvalue()

    def python(self, body: str, where: str) -> str:
        if ">>>" not in body:
            try:
                self._exec(body, "exec", where)
            except Exception as exc:  # noqa: BLE001 - reported with the page and line
                raise DocError(f"{where}: the code block raised:\n{traceback.format_exc(limit=-3)}") from exc
            return body
        parts = doctest.DocTestParser().parse(body, where)
        out: list[str] = []
        for part in parts:
            if isinstance(part, str):
                out.append(part)
                continue
            try:
                got = self._exec(part.source, "single", where)
            except Exception as exc:  # noqa: BLE001 - an example may show an exception, as in doctest
                from workbench.errors import RulesError

                if not isinstance(exc, RulesError):  # a page shows RulesErrors, never a broken example
                    raise DocError(f"{where}: `{part.source.strip()}` raised "
                                   f"{''.join(traceback.format_exception_only(type(exc), exc)).strip()}") from exc
                got = "Traceback (most recent call last):\n    ...\n" + "".join(
                    traceback.format_exception_only(type(exc), exc))
            want = part.want if CHECKER.check_output(part.want, got, FLAGS) else got
            lines = part.source.rstrip("\n").split("\n")
            pad = " " * part.indent
            out.append("".join(f"{pad}{'>>> ' if i == 0 else '... '}{line}\n" for i, line in enumerate(lines)))
            out.append("".join(f"{pad}{line}\n" if line else "\n" for line in want.rstrip("\n").split("\n"))
                       if want.strip() else "")
        return "".join(out)

    # ------------------------------------------------------------------ prose
    def prose(self, text: str, where: str) -> str:
        """Return ``text`` with the VALUE of every ``<!--= EXPRESSION -->VALUE<!--/-->`` recomputed."""

        def value(m: re.Match) -> str:
            cwd = os.getcwd()
            os.chdir(self.workdir)
            try:
                got = eval(compile(m.group(1), where, "eval", dont_inherit=True), self.namespace)
            except Exception as exc:  # noqa: BLE001 - reported with the page and line
                raise DocError(f"{where}: the quoted value `{m.group(1)}` raised {exc!r}") from exc
            finally:
                os.chdir(cwd)
            return m.group(0)[: m.start(2) - m.start(0)] + str(got) + "<!--/-->"

        return VALUE_MARK.sub(value, text)

    # ------------------------------------------------------------------ shell
    def _run(self, command: str, where: str) -> tuple[int, str]:
        argv = shlex.split(command, comments=True)
        if argv == ["echo", "$?"]:
            return 0, f"{self.last_code}\n"
        if not argv or argv[0] != "workbench":
            raise DocError(f"{where}: only `workbench ...` and `echo $?` run in a console block, not {command!r}")
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
        proc = subprocess.run([sys.executable, "-m", "workbench", *argv[1:]], cwd=self.workdir, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600,
                              stdin=subprocess.DEVNULL)
        self.last_code = proc.returncode
        return proc.returncode, proc.stdout

    def console(self, body: str, where: str) -> str:
        out: list[str] = []
        for line in body.split("\n"):
            if line.startswith("$ "):
                out.append(line + "\n")
                _, text = self._run(line[2:], where)
                out.append(text if text.endswith("\n") or not text else text + "\n")
            elif not out and line.strip():
                raise DocError(f"{where}: a console block starts with a `$ ` command")
        return "".join(out)

    def bash(self, body: str, where: str) -> str:
        for line in body.split("\n"):
            argv = shlex.split(line, comments=True)
            if not argv:
                continue
            if argv[0] == "workbench":
                code, text = self._run(line, where)
                if code:
                    raise DocError(f"{where}: `{line.strip()}` exited {code}:\n{text}")
            elif argv[:2] == ["python3", "tasks.py"]:
                if len(argv) < 3 or argv[2] not in _tasks_commands():
                    raise DocError(f"{where}: tasks.py has no command {argv[2:3]}")
            elif argv[0] == "make":
                if len(argv) < 2 or argv[1] not in _make_targets():
                    raise DocError(f"{where}: the Makefile has no target {argv[1:2]}")
            else:
                raise DocError(f"{where}: a bash block may hold workbench, python3 tasks.py and make lines, "
                               f"not {line.strip()!r}")
        return body

    def file(self, name: str, body: str, where: str) -> str:
        path = self.workdir / name
        if not path.exists():
            raise DocError(f"{where}: the examples above did not write {name}")
        return path.read_text()


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def fields_table(system: str, model: str, where: str) -> str:
    """Return the Markdown table of the declared fields of ``system``'s model class ``model``."""
    from workbench import fields
    from workbench.systems import models_of

    try:
        cls = models_of(system)[model]
    except Exception as exc:  # noqa: BLE001 - reported with the page and line
        raise DocError(f"{where}: no model {system}.{model}: {exc!r}") from exc
    return fields.markdown(cls)


def _fill_fields(text: str, rel: str) -> str:
    def fill(m: re.Match) -> str:
        where = f"{rel}:{text.count(chr(10), 0, m.start()) + 1}"
        return m.group(1) + fields_table(m.group(2), m.group(3), where) + m.group(5)

    return FIELDS_MARK.sub(fill, text)


def render(path: Path) -> str:
    """Return the page at ``path`` with every shown output replaced by the output of a real run."""
    rel = _rel(path)
    text = _fill_fields(path.read_text(), rel)
    with tempfile.TemporaryDirectory(prefix="wb-docs-") as tmp:
        page = Page(path, Path(tmp))
        out, pos = [], 0
        for m in FENCE.finditer(text):
            lang, body = m.group(1).lower(), m.group(2)
            where = f"{rel}:{text.count(chr(10), 0, m.start()) + 1}"
            before = text[pos:m.start()]
            marker = FILE_MARK.search(before.rstrip("\n").split("\n")[-1]) if before.strip() else None
            if marker:
                new = page.file(marker.group(1), body, where)
            elif lang == "python":
                new = page.python(body, where)
            elif lang == "console":
                new = page.console(body, where)
            elif lang in ("bash", "sh"):
                new = page.bash(body, where)
            elif lang == "text":
                new = body
            else:
                raise DocError(f"{where}: a ```{lang} block is neither run nor checked; use python, console, "
                               "bash, text, or a <!-- file: NAME --> marker")
            out.append(page.prose(text[pos:m.start()], where) + text[m.start():m.start(2)] + new)
            pos = m.end(2)
        out.append(page.prose(text[pos:], f"{rel}:end"))
    return "".join(out)


def diff(path: Path, new: str) -> str:
    rel = _rel(path)
    return "".join(difflib.unified_diff(path.read_text().splitlines(True), new.splitlines(True),
                                        f"{rel} (on disk)", f"{rel} (a fresh run)"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a page differs")
    parser.add_argument("pages", nargs="*", type=Path, help="pages to render (default: README.md and docs/)")
    args = parser.parse_args(argv)
    stale = 0
    for path in [p.resolve() for p in args.pages] or PAGES:
        new = render(path)
        if new != path.read_text():
            stale += 1
            if args.check:
                print(diff(path, new))
            else:
                path.write_text(new)
                print(f"rewrote {_rel(path)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
