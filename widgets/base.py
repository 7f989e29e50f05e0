"""The ``Panel`` base: a VBox that owns its controls, one JupyterChart and a ``value`` trait.

A panel shows a :class:`~workbench.errors.RulesError` beside the control named by the error's
``field`` (or in its own error line when no control has that name) and keeps its last valid
``value`` and chart. Panels are linked with ``traitlets.link`` / ``traitlets.dlink`` on ``value``.
"""

from __future__ import annotations

import concurrent.futures
import functools
import html
import logging
import re
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import altair as alt
import ipywidgets as W
import traitlets as T

from workbench.errors import RulesError, docs_page

from .offline import enable_offline
from .workers import Worker, in_inline_job

if TYPE_CHECKING:
    from workbench.charts import AnyChart

log = logging.getLogger(__name__)

__all__ = [
    "Panel",
    "Background",
    "guarded",
    "enable_offline",
    "error_html",
    "flag_tabs",
    "prevalidated",
    "INLINE_SECONDS",
    "same_numbers",
]

_PREVALIDATED: dict[type, type] = {}


def prevalidated(chart: AnyChart) -> AnyChart:
    """Return a shallow copy of ``chart`` whose ``to_dict()`` skips JSON-schema validation by default.

    For charts built by the tested functions of :mod:`workbench.charts` only; call
    ``chart.to_dict(validate=True)`` to validate one anyway.
    """
    base = type(chart)
    if base in _PREVALIDATED.values():
        return chart
    cls = _PREVALIDATED.get(base)
    if cls is None:

        def to_dict(self, validate: bool = False, **kwargs: Any) -> dict:
            return base.to_dict(self, validate=validate, **kwargs)

        cls = type(base.__name__, (base,), {"to_dict": to_dict, "__doc__": base.__doc__, "__module__": __name__})
        _PREVALIDATED[base] = cls
    copy = chart.copy(deep=False)
    object.__setattr__(copy, "__class__", cls)  # SchemaBase.__setattr__ would store it as a property
    return copy


def error_html(message: str) -> str:
    """Return ``message`` as the red inline HTML a panel shows beside a control."""
    if not message:
        return ""
    return f'<span class="wb-error" style="color:#b42318">&#9888; {html.escape(message)}</span>'


def guarded(method: Callable) -> Callable:
    """Decorate a panel's event handler so that no exception escapes into the widget's event loop: a
    RulesError is shown beside the control its field names, any other exception on the panel's
    "Unexpected error" line (:meth:`Panel.show_unexpected`); the last valid result stays."""

    @functools.wraps(method)
    def handler(self: Panel, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except RulesError as err:
            self.show_error(err)
        except Exception as exc:  # noqa: BLE001 - a bug must not escape into the event loop
            self.show_unexpected(exc)
        return None

    return handler


#: a panel's background work that finishes within this many seconds is applied at once, as if it
#: had run inline; longer work shows "working..." with a Cancel button and is applied when done
INLINE_SECONDS = 1.0
_WORKER_PREFIX = "workbench-panel"
# a second worker for work that follows a result and may take seconds (the Damage tab's fight), so
# that it never holds up the next redraw: each queue has one worker, and a newer request supersedes
# (where threads cannot start, Pyodide, a queue runs its jobs on the kernel's loop: workbench.widgets.workers)
FOLLOW_UP = Worker("workbench-follow-up")


class Cancelled(BaseException):
    """Raised inside a panel's superseded or cancelled work at its next progress check
    (``workbench.arguments.check_time``), so the worker stops instead of finishing work nobody
    will see; a BaseException, so no ``except Exception`` in the engine turns it into a result."""


#: the busy line's progress is redrawn at most this often (seconds)
PROGRESS_EVERY = 0.25


class Background:
    """Runs a panel's long work (a simulated duel, a big compare) in a worker thread, off the
    kernel's message loop, so that the app stays responsive and the last valid result stays on
    screen. Where threads cannot start (Pyodide) the work runs on the kernel's loop after the
    handler that asked returns, or at once with no loop running (:mod:`workbench.widgets.workers`): the
    progress line and superseding are the same, and Cancel drops a job that has not started.

    :meth:`run` submits ``work`` and waits at most ``inline`` seconds: work done by then is applied
    at once (the panel behaves as if it ran inline); otherwise the panel shows ``busy`` ("working...")
    and the ``cancel_button``, and ``apply`` runs when the work is done. A newer request supersedes
    an older one (the older result is dropped; one not yet started never runs); Cancel drops the
    running one and keeps the last result. Errors of the work or of ``apply`` go to the panel's
    error display (RulesError beside its field, anything else as "Unexpected error").
    """

    def __init__(
        self, panel: Panel, inline: float | None = None, executor: concurrent.futures.Executor | None = None
    ) -> None:
        self.panel = panel
        self.inline = INLINE_SECONDS if inline is None else inline
        # each panel its own worker, so that one panel's long work (a simulated duel) never holds
        # up another's (a Damage redraw); within a panel a newer request supersedes the older
        self._own = executor is None
        self.executor: concurrent.futures.Executor = Worker(_WORKER_PREFIX) if executor is None else executor
        self.generation = 0
        self.future: concurrent.futures.Future | None = None
        self._lock = threading.RLock()
        self._idle = threading.Event()
        self._idle.set()
        self._progress_shown = 0  # the generation whose progress the busy line shows, if any
        # called (with no argument) each time no request is awaited any more: finished, failed or
        # cancelled, so a panel can take down what said "still working" (a preview's badge)
        self.on_idle: list[Callable[[], Any]] = []
        self.busy = W.HTML("")
        self.busy.add_class("wb-busy")
        self.cancel_button = W.Button(
            description="Cancel",
            icon="stop",
            tooltip="stop waiting; keep the last result",
            layout=W.Layout(display="none"),
        )
        self.cancel_button.add_class("wb-cancel")
        self.cancel_button.on_click(lambda _: self.cancel())
        self.box = W.HBox([self.busy, self.cancel_button])

    @property
    def working(self) -> bool:
        """Return True while a request's result is still awaited."""
        return not self._idle.is_set()

    def run(
        self,
        work: Callable[[], Any],
        apply: Callable[[Any], Any],
        label: str = "working...",
        preview: tuple[Callable[[], Any], Callable[[Any], bool], Callable[[Any], Any]] | None = None,
    ) -> Any:
        """Run ``work()`` off the message loop and ``apply(result)`` when it is done; return what
        ``apply`` returned when the work finished within ``inline`` seconds, else None.

        ``preview`` = (quick, final, show): the same job first runs ``quick()`` (a cheaper form of
        the work, e.g. fewer simulated fights); when ``final(result)`` is true that is the result
        (``work`` never runs, e.g. the duel turned out exact), otherwise ``show(result)`` draws it at
        once as a preview (if the request is still the newest) and ``work()`` follows, with
        ``label`` in the busy line and Cancel offered."""
        if self._own and (threading.current_thread().name.startswith(_WORKER_PREFIX) or in_inline_job()):
            # Already on a panel's worker (a panel built or refreshed by a panel's result): the work
            # runs here, where it is off the loop anyway (its own worker may be the one running
            # this, and could not start it before this returns).
            done: concurrent.futures.Future = concurrent.futures.Future()
            try:
                done.set_result(work())
            except BaseException as exc:  # noqa: BLE001 - reported by _finish like a worker's error
                done.set_exception(exc)
            with self._lock:
                self.generation += 1
                gen = self.generation
                self._idle.clear()
            return self._finish(done, gen, apply)
        with self._lock:
            self.generation += 1
            gen = self.generation
            if self.future is not None:
                self.future.cancel()  # not started yet: it never runs
            self._idle.clear()
            # (on the worker already, above, the work runs whole: nothing would show a preview)
            job = work if preview is None else self._staged(gen, work, *preview)
            future = self.executor.submit(self._reported(gen, job, label))
            self.future = future
        if self.threaded:  # (thread-less, a job not done yet runs after this handler returns)
            try:
                concurrent.futures.wait([future], timeout=self.inline)
            except Exception:  # noqa: BLE001 - waiting itself cannot fail the panel
                pass
        if future.done():
            return self._finish(future, gen, apply)
        with self._lock:
            if self._progress_shown != gen:  # a progress line (which names the label) stays
                self.busy.value = f'<i class="wb-working" style="color:#9a6700">&#8987; {html.escape(label)}</i>'
        self.cancel_button.layout.display = None
        future.add_done_callback(lambda f: self._finish(f, gen, apply))
        return None

    def _reported(self, gen: int, job: Callable[[], Any], label: str) -> Callable[[], Any]:
        """Return ``job`` run under a progress listener (``workbench.arguments.reporting``): each
        progress check of the engine's long work shows "label 40% (40,000 of 100,000 fights
        decided)" in the busy line (at most every PROGRESS_EVERY s), and raises :class:`Cancelled`
        once this request is superseded or cancelled, so the work stops there."""
        from workbench.arguments import reporting

        shown = [0.0]

        def listen(done: int | None, total: int | None, unit: str) -> None:
            if gen != self.generation:
                raise Cancelled
            now = time.monotonic()
            if done is None or not total or now - shown[0] < PROGRESS_EVERY or self._idle.is_set():
                return
            shown[0] = now
            self._progress_shown = gen
            self.busy.value = (
                f'<i class="wb-working" style="color:#9a6700">&#8987; {html.escape(label)} '
                f"{done / total:.0%} ({done:,} of {total:,} {html.escape(unit)})</i>"
            )

        def reported() -> Any:
            with reporting(listen):
                return job()

        return reported

    def _staged(
        self,
        gen: int,
        work: Callable[[], Any],
        quick: Callable[[], Any],
        final: Callable[[Any], bool],
        show: Callable[[Any], Any],
    ) -> Callable[[], Any]:
        """Return the job of a previewed request (see :meth:`run`): quick, then, unless final, its
        preview shown and the full work."""

        def job() -> Any:
            first = quick()
            if final(first):
                return first
            with self._lock:
                if gen != self.generation:
                    return first  # superseded or cancelled while previewing: nothing more to do
                try:
                    show(first)
                except RulesError as err:
                    self.panel.show_error(err)
                except Exception as exc:  # noqa: BLE001 - a bug must not escape the worker silently
                    self.panel.show_unexpected(exc)
            return work()

        return job

    def _finish(self, future: concurrent.futures.Future, gen: int, apply: Callable[[Any], Any]) -> Any:
        with self._lock:
            if gen != self.generation or future.cancelled():
                return None  # superseded or cancelled: the newer request (or the last result) stands
            self.busy.value = ""
            self.cancel_button.layout.display = "none"
            try:
                exc = future.exception()
                if exc is not None:
                    raise exc
                return apply(future.result())
            except RulesError as err:
                self.panel.show_error(err)
            except Exception as exc:  # noqa: BLE001 - a bug must not escape the worker silently
                self.panel.show_unexpected(exc)
            finally:
                self._idle.set()
                self._idle_now()
            return None

    def _idle_now(self) -> None:
        for callback in list(self.on_idle):
            try:
                callback()
            except Exception as exc:  # noqa: BLE001 - a bug must not escape the worker silently
                self.panel.show_unexpected(exc)

    def cancel(self) -> None:
        """Drop the request running now (its result will not be applied); keep the last result."""
        with self._lock:
            if self.future is None or self._idle.is_set():
                return
            self.generation += 1
            self.future.cancel()
            self.busy.value = '<i class="wb-cancelled">cancelled: the last result is kept</i>'
            self.cancel_button.layout.display = "none"
            self._idle.set()
            self._idle_now()

    @property
    def threaded(self) -> bool:
        """Return True when the work runs on a thread (False: on the kernel's loop, workbench.widgets.workers)."""
        return bool(getattr(self.executor, "threaded", True))

    def wait(self, timeout: float | None = None) -> bool:
        """Block until no request is awaited (for scripts and tests); return False on a timeout.
        Thread-less, the awaited work runs now, here (a panel's constructor needs its first result;
        nothing else would run it while this blocks)."""
        if not self.threaded:
            run_now = getattr(self.executor, "run_now", None)
            if self.future is not None and run_now is not None:
                run_now(self.future)
            return self._idle.is_set()
        return self._idle.wait(timeout)


#: argument names that reach a panel's messages from the engine without a control of that name
KNOWN_NAMES = frozenset({"max_rounds", "damage_type", "max_seconds", "uses_per_turn", "hit_pools", "kill_within_K"})
#: a rules source named in a rule citation: a rules text, CLARIFICATIONS / DESIGN notes, a catalog file
_SOURCE = re.compile(
    r"(?:[\w./-]+\.(?:txt|toml|mdx)|CLARIFICATIONS\.md|DESIGN\.md|srd/[\w./-]+)(?:,\s*[A-Z][\w ]*?)?(?=[:;,)\]]|$)\s*:?\s*"
)


def rule_words(rule: str | None) -> str:
    """Return a rule citation without the rules files it names (the reader does not have them:
    "annulus-attacks.txt: one alteration per set" -> "one alteration per set"), "" when nothing
    but the file is left; docs pages (docs/...) are kept."""
    if not rule:
        return ""
    words = _SOURCE.sub("", rule).strip(" ;,:")
    return re.sub(r"docs/[\w/.-]+\.md\s*:?\s*", "", words).strip(" ;,:")


class Panel(W.VBox):
    """Base of every workbench panel.

    ``value`` is the panel's model (a Creature, an Attack, a Dist, ...); ``error`` is the text of
    the error shown right now ("" when the inputs are valid). Subclasses register the error slot
    of each control with :meth:`_error_slot` and child panels with :meth:`_adopt`.
    """

    value = T.Any(allow_none=True, help="the panel's current valid model")
    error = T.Unicode("", help="the message of the error shown now, or empty")
    problem = T.Unicode("", help="the error shown by this panel or any panel inside it (tab marks, banner)")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.error_box = W.HTML("", layout=W.Layout(display="none"))
        # over a result that is the last valid one while an input is wrong (placed by the panels
        # that show a result): an error on a hidden sub-tab must not leave the result looking live
        self.stale_banner = W.HTML("", layout=W.Layout(display="none"))
        self.stale_banner.add_class("wb-stale-banner")
        self._error_field: str | None = None
        self._problem_field: str | None = None
        self._slots: dict[str, W.HTML] = {}
        self._subpanels: list[Panel] = []
        self.chart: alt.JupyterChart | None = None
        self.observe(self._update_problem, names="error")
        self.observe(self.refresh_banner, names="problem")

    def guard(self, handler: Callable) -> Callable:
        """Return ``handler`` wrapped like a :func:`guarded` method (for lambdas and callbacks)."""

        @functools.wraps(handler)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            except RulesError as err:
                self.show_error(err)
            except Exception as exc:  # noqa: BLE001 - a bug must not escape into the event loop
                self.show_unexpected(exc)
            return None

        return wrapped

    # -- composition
    def _adopt(self, panel: Panel) -> Panel:
        self._subpanels.append(panel)
        panel.observe(self._update_problem, names="problem")
        return panel

    def _update_problem(self, _: Any = None) -> None:
        """Set ``problem``: this panel's own error, else the first child panel's problem."""
        message, field = self.error, self._error_field
        if not message:
            for p in self._subpanels:
                if p.problem:
                    message, field = p.problem, p._problem_field
                    break
        self._problem_field = field
        self.problem = message

    def _error_slot(self, field: str) -> W.HTML:
        slot = W.HTML("", layout=W.Layout(margin="0 0 0 8px"))
        self._slots[field] = slot
        return slot

    def _make_chart(self, chart: AnyChart) -> alt.JupyterChart:
        enable_offline()
        self.chart = alt.JupyterChart(chart)
        return self.chart

    def set_chart(self, chart: AnyChart) -> None:
        """Replace the chart's spec in place (the JupyterChart widget stays the same).

        The chart comes from :mod:`workbench.charts`, whose functions are tested against the
        Vega-Lite schema; it is marked :func:`prevalidated` so that the JupyterChart does not
        validate it again on every redraw (that second validation was ~40 % of a redraw).
        """
        chart = prevalidated(chart)
        if self.chart is None:
            self._make_chart(chart)
        else:
            self.chart.chart = chart

    # -- errors
    def fields(self) -> set[str]:
        """Return the field names this panel (and its child panels) has controls for."""
        names = set(self._slots)
        for p in self._subpanels:
            names |= p.fields()
        return names

    def show_unexpected(self, exc: BaseException) -> None:
        """Show an error that is not a RulesError (a bug) in the panel's error line; keep the last state.

        A panel never lets an exception escape into the widget's event loop, where it would vanish
        into the browser console and leave the panel looking frozen.
        """
        log.exception("unexpected error in %s", type(self).__name__, exc_info=exc)
        self.show_error(
            f"Unexpected error ({type(exc).__name__}: {exc}). The last valid result is kept; "
            "please report this with the inputs that caused it."
        )

    def _label(self, field: str) -> str | None:
        controls = getattr(self, "controls", None)
        if isinstance(controls, dict) and field in controls:
            label = getattr(controls[field], "description", "")
            if label:
                return str(label)
        for p in self._subpanels:
            got = p._label(field)
            if got:
                return got
        return None

    def label_of(self, field: str) -> str:
        """Return the words on screen for ``field``: its control's label (the "to" box of a field
        named ``high``), found in this panel or a child panel, else the name in words."""
        label, words = self._label(field), field.replace("_", " ")
        if not label or label.startswith((f"{field} (", f"{words} (")):  # a form's "hp (HP)": the name
            return words
        return label

    def on_screen(self, err: RulesError | str) -> str:
        """Return ``err`` in the words on screen (issue 36, item 4): the field as its control is
        labelled ("to: ...", not "high: ..."), field names in the message in words ("max rounds",
        not "max_rounds"), and the rule it cites by its words and the project's docs page that
        explains it, never by a rules file the reader does not have."""
        if not isinstance(err, RulesError):
            return str(err)
        text = err.message
        names = set(self.fields()) | ({err.field} if err.field else set()) | KNOWN_NAMES
        for name in sorted(names, key=len, reverse=True):
            if "_" in name and name in text:
                text = re.sub(rf"(?<![\w/.-]){re.escape(name)}(?![\w/.-])", self.label_of(name), text)
        field = err.field
        if field:
            top = re.split(r"[.\[]", field)[0]
            text = f"{self.label_of(top) if top == field else field}: {text}"
        page = docs_page(err.rule)
        rule = rule_words(err.rule)
        if rule:
            text += f" \u2014 rule: {rule}"
        if page:
            text += f" (see {page})"
        return text

    def show_error(self, err: RulesError | str) -> None:
        """Show ``err`` beside the control named by its field (else in the panel's error line), in
        the words on screen (:meth:`on_screen`), with the docs page that explains its rule (the
        rules files do not ship with the package)."""
        message = self.on_screen(err)
        field = getattr(err, "field", None)
        if field is not None and field not in self.fields():
            field = re.split(r"[.\[]", field)[0]  # "weapons[0].damage": the weapons control
        self.clear_message(self.error)
        self._error_field = field
        self.error = message
        if field in self._slots:
            self._slots[field].value = error_html(message)
            return
        for p in self._subpanels:
            if field is not None and field in p.fields():
                p.show_error(err)
                return
        self.error_box.value = error_html(message)
        self.error_box.layout.display = None

    def clear_error(self) -> None:
        """Remove every error message shown by this panel and its child panels."""
        for slot in self._slots.values():
            slot.value = ""
        for p in self._subpanels:
            if p.error:
                p.clear_error()
        self.error_box.value = ""
        self.error_box.layout.display = "none"
        self.error = ""

    def clear_message(self, message: str) -> None:
        """Remove ``message`` wherever this panel or a child panel shows it (other errors stay)."""
        if not message:
            return
        shown = error_html(message)
        for slot in self._slots.values():
            if slot.value == shown:
                slot.value = ""
        for p in self._subpanels:
            p.clear_message(message)
            if p.error == message:
                p.error = ""
        if self.error_box.value == shown:
            self.error_box.value = ""
            self.error_box.layout.display = "none"
        if self.error == message:
            self.error = ""

    def where(self, field: str | None) -> str | None:
        """Return the title of the editor tab holding the control of ``field`` (None: not on a tab)."""
        for key, editor in getattr(self, "editors", {}).items():
            if field is not None and field in editor.fields():
                return self._tab_title(key)
        return None

    def _tab_title(self, key: str) -> str:
        """Return the title shown on the tab of editor ``key`` (``self.editor_titles``, else the key)."""
        return getattr(self, "editor_titles", {}).get(key, str(key).replace("_", " "))

    def refresh_banner(self, _: Any = None) -> None:
        """Show or hide the stale banner: "the result below is the last valid one: fix <field> on
        the <tab> tab" while this panel or a panel inside it shows an error and a result exists."""
        message, field = self.problem, self._problem_field
        if not message or self.value is None:
            self.stale_banner.value = ""
            self.stale_banner.layout.display = "none"
            return
        # the tab whose editor shows it; else the one with a control of that name (an engine error
        # the panel itself shows)
        tab = next((self._tab_title(k) for k, e in getattr(self, "editors", {}).items() if e.problem == message), None)
        if tab is None:
            tab = self.where(field)
        fix = f"fix <b>{html.escape(field.replace('_', ' '))}</b>" if field else "fix the input shown in red"
        if tab:
            fix += f" on the <b>{html.escape(tab)}</b> tab"
        self.stale_banner.value = (
            '<div style="background:#fff8c5;border:1px solid #d4a72c;border-radius:4px;padding:4px 8px;'
            f'color:#4d2d00">&#9888; The result below is the last valid one: {fix}. '
            f"<span style='color:#57606a'>{html.escape(message)}</span></div>"
        )
        self.stale_banner.layout.display = None

    def errors_shown(self) -> dict[str, str]:
        """Return ``{field or "": message}`` of the error texts on screen now (for tests)."""
        out = {f: s.value for f, s in self._slots.items() if "wb-error" in s.value}  # not the grey hints
        if self.error_box.value:
            out[""] = self.error_box.value
        for p in self._subpanels:
            out.update(p.errors_shown())
        return out


def flag_tabs(tabs: W.Tab, panels: Sequence[Panel], titles: Sequence[str]) -> Callable[..., None]:
    """Keep a warning mark on the title of each tab of ``tabs`` whose panel shows an error, its
    own or one inside it (its ``problem`` trait, observed): "⚠ situation" until the error is
    fixed. Return the update function (call it after replacing the tabs' children)."""

    def update(_: Any = None) -> None:
        for i, (panel, title) in enumerate(zip(panels, titles)):
            tabs.set_title(i, f"\u26a0 {title}" if panel.problem else title)

    for panel in panels:
        panel.observe(update, names="problem")
    update()
    return update


def _children(*parts: W.Widget | Iterable[W.Widget] | None) -> list[W.Widget]:
    out: list[W.Widget] = []
    for part in parts:
        if part is None:
            continue
        if isinstance(part, W.Widget):
            out.append(part)
        else:
            out.extend(part)
    return out


def same_numbers(a: Any, b: Any, columns: list[str]) -> bool:
    """Return whether frames ``a`` and ``b`` (rows in the same order) hold the same ``columns`` (those
    they have), floats within 1e-12, infinities and nulls alike: the attack on screen and the best
    plan giving one line (or row), drawn once."""
    import numpy as np

    if a.height != b.height:
        return False
    for c in columns:
        if c not in a.columns or c not in b.columns:
            continue
        x = a[c].cast(float).fill_null(np.nan).to_numpy()
        y = b[c].cast(float).fill_null(np.nan).to_numpy()
        if not np.allclose(x, y, rtol=0.0, atol=1e-12, equal_nan=True):
            return False
    return True
