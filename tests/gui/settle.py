"""Let the event queue run dry: a deterministic flush for tests that count or look after an edit.

A fixed ``qtbot.wait(50)`` decides a verdict by the clock: on a busy machine the repaints an edit
asked for may not all have happened within it, and a count taken then is wrong. ``settle()`` instead
delivers posted events (layout requests, update requests, the graphics scenes' queued dirty-item
passes) and due zero-delay timers, round after round, until a round finds nothing to deliver —
however long each round takes.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractEventDispatcher, QCoreApplication, QEventLoop

__all__ = ["settle"]

# Rounds in a row that must find nothing: a paint can post work that is queued only after the
# dispatcher has looked (Qt's update requests are posted while painting another widget).
_IDLE_ROUNDS = 3
_MAX_ROUNDS = 10_000  # a view that re-posts work forever is a bug the test should report


def settle() -> int:
    """Deliver every pending event and due zero-delay timer until the queue stays empty; returns
    the number of rounds that delivered something."""
    app = QCoreApplication.instance()
    assert app is not None, "settle() needs a QApplication"
    dispatcher = QAbstractEventDispatcher.instance(app.thread())
    assert dispatcher is not None
    busy_rounds = idle = 0
    for _ in range(_MAX_ROUNDS):
        QCoreApplication.sendPostedEvents()
        if dispatcher.processEvents(QEventLoop.ProcessEventsFlag.AllEvents):
            busy_rounds += 1
            idle = 0
        else:
            idle += 1
            if idle >= _IDLE_ROUNDS:
                return busy_rounds
    raise AssertionError(f"the event queue did not run dry in {_MAX_ROUNDS} rounds")
