"""Logging filters for what a library logs as an error (or at length) but is not one for this product."""

from __future__ import annotations

import asyncio
import logging

from django.core.exceptions import PermissionDenied

CLEANUP_MESSAGE = "Unexpected exception while cleaning-up channel:"


class CancelledChannelCleanup(logging.Filter):
    """Drops channels-redis pub/sub's "Unexpected exception while cleaning-up channel" when the
    exception is a cancellation, and only then (anything else it meets while cleaning up, a lost
    Redis connection say, is still logged).

    Why it happens: the pub/sub layer has no call to close a channel, so it unsubscribes a
    consumer's own channel inside its ``receive``, once channels cancels that receive as the consumer
    exits. When the server cancels the consumer again meanwhile (Daphne cancels, every second, an
    application that has not finished ``application_close_timeout`` seconds after its socket closed:
    a whole class closing at once queues every leave behind one lock per process; or Daphne stops),
    the second cancellation interrupts that unsubscribe while it waits for the layer's lock, and the
    layer logs the CancelledError with a traceback before raising it on, as it should be raised.

    Why it is harmless: the consumer has already left its groups (``CourtConsumer._leave``, shielded
    from that cancellation), so nothing more is delivered for it; what remains is this process's
    subscription to the consumer's own channel name, to which nothing is ever sent (every message
    goes to a group) and which is dropped with the process's connection."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != CLEANUP_MESSAGE or not record.exc_info:
            return True
        return not isinstance(record.exc_info[1], asyncio.CancelledError)


class ForbiddenInOneLine(logging.Filter):
    """Keeps Django's "Forbidden (Permission denied): <path>" warning and drops the traceback it
    attaches. A 403 is the product refusing someone on purpose (a student opening the teacher's
    view, say), never a fault: the path and the status say all there is to say, and a traceback per
    refusal buries the real errors in the operator's log. Any other exception keeps its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], PermissionDenied):
            record.exc_info, record.exc_text = None, None
        return True
