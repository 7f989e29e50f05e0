"""``FilePanel``: save / load models to a file and copy / apply share codes, errors shown inline.

It wraps :func:`workbench.save` (atomic: a temporary file replaced in one step), :func:`workbench.load`,
:func:`workbench.share_code` and :func:`workbench.from_share_code`. What is saved is chosen by the
``what`` dropdown among named *slots*, each a ``(get, set)`` pair of functions: ``get()`` returns
the model (or list of models) to save, ``set(obj)`` puts a loaded one back (and may raise
RulesError, e.g. for a creature loaded into the attack slot).

Files stay inside one folder (``folder=``; by default ``$WORKBENCH_FILES``, else the per-user
folder :func:`user_files_folder`, never the repository or the current working directory): a path is
taken relative to it, and
a path that leaves it (``..``, an absolute path elsewhere, a symlink pointing out) or lands in the
installed package (its catalogs) is refused with a RulesError, so that in a Voilà or Binder
deployment a visitor can neither read nor overwrite anything else the server can reach.
"""

from __future__ import annotations

import html
import os
from collections.abc import Callable, Mapping
from pathlib import Path, PurePath
from typing import Any, cast
from urllib.parse import urlencode

import ipywidgets as W

from workbench.errors import RulesError

from .base import Panel, _children, error_html

__all__ = ["FilePanel", "files_folder", "user_files_folder", "resolve_in_folder", "FOLDER_ENV", "DEFAULT_FOLDER"]

Slot = tuple[Callable[[], Any], Callable[[Any], None]]

#: the environment variable naming the folder panels save to and load from
FOLDER_ENV = "WORKBENCH_FILES"
#: the files folder's name inside the per-user data folder when the variable is not set
DEFAULT_FOLDER = "workbench-files"
#: the application's name for the per-user data folder (platformdirs)
APP_NAME = "rules-workbench"
_RULE = "docs/panels.md: a panel saves and loads only inside its files folder"
_PACKAGES = (
    Path(cast(str, __import__("workbench").__file__)).resolve().parent,  # a package: __file__ is set
    Path(__file__).resolve().parent,  # this package, workbench.widgets (the folder widgets/ of a checkout)
)


def user_files_folder() -> Path:
    """Return the per-user folder saves go to by default: ``workbench-files`` in the user's data
    folder (platformdirs: ``~/.local/share/rules-workbench`` on Linux, ``~/Library/Application
    Support/rules-workbench`` on macOS, ``%LOCALAPPDATA%\\rules-workbench`` on Windows; without
    platformdirs, ``$XDG_DATA_HOME`` or ``~/.local/share``)."""
    try:
        from platformdirs import user_data_path

        base = user_data_path(APP_NAME, appauthor=False)
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / APP_NAME
    return base / DEFAULT_FOLDER


def files_folder(folder: str | os.PathLike | None = None) -> Path:
    """Return the absolute folder panels save to and load from: ``folder``, else ``$WORKBENCH_FILES``,
    else :func:`user_files_folder`. RulesError for a folder inside the installed package."""
    chosen = folder if folder is not None else (os.environ.get(FOLDER_ENV) or user_files_folder())
    root = Path(os.path.realpath(os.path.abspath(os.fspath(chosen))))
    for pkg in _PACKAGES:
        if root == pkg or pkg in root.parents or root in pkg.parents:
            raise RulesError(
                f"the files folder {root} would hold or sit inside the package {pkg}; choose another",
                field="folder",
                rule=_RULE,
            )
    return root


def resolve_in_folder(text: str, folder: Path) -> Path:
    """Return the file ``text`` names inside ``folder`` (relative to it, or absolute within it).

    RulesError (field ``path``) for an empty path, a ``..`` part, an absolute path elsewhere, a
    path whose real location (symlinks followed) is outside the folder, or one inside the package.
    """
    text = str(text).strip()
    if not text:
        raise RulesError("give a file name, e.g. setup.toml", field="path", rule=_RULE)
    if "\0" in text:
        raise RulesError("a file name cannot hold a NUL character", field="path", rule=_RULE)
    pure = PurePath(text)
    if ".." in pure.parts:
        raise RulesError(f"{text}: '..' is not allowed; files stay inside your files folder", field="path", rule=_RULE)
    candidate = Path(os.path.abspath(pure if pure.is_absolute() else folder / pure))
    real = Path(os.path.realpath(candidate))
    inside = lambda p: p == folder or folder in p.parents  # noqa: E731
    if not inside(candidate) or not inside(real):
        raise RulesError(f"{text}: outside your files folder; give a name inside it", field="path", rule=_RULE)
    if real == folder:
        raise RulesError(f"{text} is the files folder itself; give a file name", field="path", rule=_RULE)
    for pkg in _PACKAGES:
        if pkg in real.parents:
            raise RulesError(
                f"{text}: the package's own files cannot be written or read here", field="path", rule=_RULE
            )
    return candidate


#: the copy button's label: Font Awesome's link icon, as on the panels' other buttons (an emoji
#: clipboard drew as an empty box where the browser has no emoji font, e.g. Debian's chromium)
_COPY_LABEL = "<i class='fa fa-link'></i> Copy link"
#: the copy button's script: the link made absolute against the page (the clipboard API where the
#: page is secure, else a selected text area and the copy command), then "Copied" on the button;
#: window.URL, since an inline handler sees document.URL (a string) as URL
_COPY_JS = (
    "const b=this, url=new window.URL(b.dataset.href, window.location.href).href;"
    "const done=()=>{b.textContent='\\u2713 Copied';b.dataset.copied=url;"
    f'setTimeout(()=>{{b.innerHTML="{_COPY_LABEL}"}},2000)}};'
    "const fallback=()=>{const t=document.createElement('textarea');t.value=url;document.body.appendChild(t);"
    "t.select();document.execCommand('copy');t.remove();done()};"
    "if(navigator.clipboard&&window.isSecureContext){navigator.clipboard.writeText(url).then(done,fallback)}"
    "else{fallback()}"
)


class FilePanel(Panel):
    """Save / Load buttons over a path box and Get code / Apply code buttons over a share-code box.

    ``value`` is the last model (or list) saved, loaded or applied; ``status`` tells what happened.
    A RulesError (bad file, corrupt code, wrong kind of model) is shown beside the path or the code
    box and nothing changes.
    """

    def __init__(
        self,
        slots: Mapping[str, Slot],
        path: str = "workbench-setup.toml",
        folder: str | os.PathLike | None = None,
        link_slot: str | None = None,
        link_page: str = "",
        link_code: Callable[[], str] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.slots = dict(slots)
        self.link_slot = link_slot  # the slot whose share code also goes in a link (?setup=...)
        # the page the link opens, relative to this one ("": this page, as in Voila; JupyterLite's
        # notebook page is not the app's, so the site's app page: lite/build.py)
        self.link_page = link_page
        # the code a link carries (the app's short setup code with its pins); else the slot's share code
        self.link_code = link_code
        self.link = W.HTML()
        self.link.add_class("wb-share-link")
        self.folder = files_folder(folder)
        style, wide = {"description_width": "6em"}, W.Layout(width="30em")
        self.what = W.Dropdown(
            options=list(self.slots), description="save what", style=style, layout=W.Layout(width="20em")
        )
        self.path = W.Text(
            value=path,
            description="file",
            placeholder="setup.toml or setup.json",
            style=style,
            layout=wide,
            tooltip="a file in your files folder (docs/panels.md: Save, load, share)",
        )
        self.save_button = W.Button(description="Save", icon="save", tooltip="write the chosen models to the file")
        self.load_button = W.Button(description="Load", icon="folder-open", tooltip="read models from the file")
        self.code = W.Text(description="share code", placeholder="wb1:...", style=style, layout=wide)
        self.get_code_button = W.Button(description="Get code", icon="link", tooltip="a text code for these models")
        self.apply_code_button = W.Button(description="Apply code", icon="check", tooltip="recreate models from a code")
        # in the browser: a file from the visitor's own disk, and a link that downloads one, so that
        # nothing needs a path on the server (issue 17: "save and load take a path on the server")
        self.upload = W.FileUpload(accept=".toml,.json", multiple=False, description="Upload")
        self.download_button = W.Button(
            description="Download", icon="download", tooltip="make a link that downloads the chosen models"
        )
        self.download_link = W.HTML()
        self.status = W.HTML()
        for w, cls in (
            (self.what, "wb-io-what"),
            (self.path, "wb-save-path"),
            (self.save_button, "wb-save"),
            (self.load_button, "wb-load"),
            (self.code, "wb-share-code"),
            (self.get_code_button, "wb-get-code"),
            (self.apply_code_button, "wb-apply-code"),
            (self.status, "wb-io-status"),
            (self.upload, "wb-upload"),
            (self.download_button, "wb-download"),
            (self.download_link, "wb-download-link"),
        ):
            w.add_class(cls)
        self.save_button.on_click(self.guard(lambda _: self.save()))
        self.load_button.on_click(self.guard(lambda _: self.load()))
        self.get_code_button.on_click(self.guard(lambda _: self.get_code()))
        self.apply_code_button.on_click(self.guard(lambda _: self.apply_code()))
        self.download_button.on_click(self.guard(lambda _: self.download()))
        self.upload.observe(self.guard(lambda ch: self.uploaded(ch["new"])), names="value")
        self.children = _children(
            self.what,
            W.HBox([self.upload, self.download_button, self.download_link, self._error_slot("upload")]),
            W.HBox([self.path, self.save_button, self.load_button, self._error_slot("path")]),
            W.HBox([self.code, self.get_code_button, self.apply_code_button, self._error_slot("code")]),
            self.link,
            self.status,
            self.error_box,
        )
        self.add_class("wb-files")

    def shown(self, path: Path) -> str:
        """Return ``path`` as a visitor reads it: relative to the files folder ("setup.toml in your
        files folder"), never the server's absolute path."""
        try:
            rel = Path(os.path.abspath(path)).relative_to(self.folder)
        except ValueError:
            rel = Path(path.name)
        return f"{rel.as_posix()} in your files folder"

    def _slot(self) -> Slot:
        return self.slots[self.what.value]

    def _run(self, field: str, action: Callable[[], str]) -> bool:
        try:
            done = action()
        except (RulesError, OSError) as err:
            message = str(err) if isinstance(err, RulesError) else f"{self.path.value}: {err.strerror or err}"
            self.clear_error()
            self.error = message  # shown beside the path / code box whatever field it names
            self._slots[field].value = error_html(message)
            self.status.value = ""
            return False
        self.clear_error()
        self.status.value = f'<span style="color:#1a7f37">{html.escape(done)}</span>'
        return True

    def save(self) -> bool:
        """Save the chosen slot's models to the path (atomically); return True on success."""
        import workbench as wb

        def act() -> str:
            obj = self._slot()[0]()
            target = resolve_in_folder(self.path.value, self.folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            where = wb.save(obj, target)
            self.value = obj
            return f"saved {self.what.value} to {self.shown(where)}"

        return self._run("path", act)

    def load(self) -> bool:
        """Load the file at the path into the chosen slot; return True on success."""
        import workbench as wb

        def act() -> str:
            target = resolve_in_folder(self.path.value, self.folder)
            obj = wb.load(target)
            self._slot()[1](obj)
            self.value = obj
            return f"loaded {self.what.value} from {self.shown(target)}"

        return self._run("path", act)

    def download(self, suffix: str = ".toml") -> bool:
        """Make the link that downloads the chosen slot's models as a ``suffix`` file (the bytes
        :func:`workbench.save` writes, in a data URL: nothing is stored on the server)."""
        import base64

        from workbench.io import dumps

        def act() -> str:
            obj = self._slot()[0]()
            data = dumps(obj, suffix)
            stem = Path(self.path.value).stem or "workbench-setup"
            name = html.escape(f"{stem}{suffix}", quote=True)
            href = "data:application/octet-stream;base64," + base64.b64encode(data).decode("ascii")
            self.download_link.value = f'<a download="{name}" href="{href}">save {name} ({len(data):,} bytes)</a>'
            self.value = obj
            return f"{self.what.value}: click the link to download it"

        return self._run("upload", act)

    def uploaded(self, files: Any) -> bool:
        """Load an uploaded file (``FileUpload.value``: its name and bytes) into the chosen slot;
        return True on success. The file is read in memory with :func:`workbench.io.loads` (same
        bounds and errors as a file on disk)."""
        from workbench.io import loads

        if not files:
            return False

        def act() -> str:
            first = files[0]
            name, content = first.get("name", "upload.toml"), first.get("content", b"")
            obj = loads(bytes(content), str(name))
            self._slot()[1](obj)
            self.value = obj
            return f"loaded {self.what.value} from {name}"

        return self._run("upload", act)

    def get_code(self) -> bool:
        """Put the share code of the chosen slot's models in the code box; return True on success."""
        import workbench as wb

        def act() -> str:
            obj = self._slot()[0]()
            self.code.value = wb.share_code(obj)
            self.value = obj
            if self.link_slot is not None and self.what.value == self.link_slot:
                self.refresh_link(self.link_code() if self.link_code is not None else self.code.value)
                return f"share code of {self.what.value}: copy it from the box, or copy the link below"
            return f"share code of {self.what.value}: copy it from the box"

        return self._run("code", act)

    def refresh_link(self, code: str) -> str:
        """Show the link to the app opened on ``code`` (``?setup=...``, relative to the page) with a
        **Copy link** button that puts the whole address on the clipboard; return the link."""
        # relative to the page: the same app ("" in Voila) or the site's app page (JupyterLite)
        href = f"{self.link_page}?" + urlencode({"setup": code})
        attr = html.escape(href, quote=True)
        self.link.value = (
            "<span class='wb-share-link-row'>"
            f"<button class='wb-copy-link' type='button' data-href='{attr}' onclick=\"{html.escape(_COPY_JS, quote=True)}\" "
            f"style='margin-right:8px;cursor:pointer'>{_COPY_LABEL}</button>"
            f'<a class="wb-share-link-a" href="{attr}" target="_blank">a link to this setup and its pins</a> '
            f"<span class='wb-share-link-length' style='color:#57606a'>({len(href)} characters)</span></span>"
        )
        return href

    def apply_code(self) -> bool:
        """Recreate the models of the code in the box into the chosen slot; return True on success."""
        import workbench as wb

        def act() -> str:
            obj = wb.from_share_code(self.code.value)
            self._slot()[1](obj)
            self.value = obj
            return f"applied the share code to {self.what.value}"

        return self._run("code", act)
