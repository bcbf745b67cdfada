"""channels-redis pub/sub logs a consumer cancelled twice while it closes as an error: that one
case is filtered out, anything else the layer meets while cleaning up is still logged."""

from __future__ import annotations

import asyncio
import logging
import os

import pytest

from angryagents.logs import CLEANUP_MESSAGE, CancelledChannelCleanup
from tests.conftest import need

LAYER_LOGGER = "channels_redis.pubsub"


def cleanup_record(error: BaseException) -> logging.LogRecord:
    try:
        raise error
    except BaseException as exc:
        info = (type(exc), exc, exc.__traceback__)
    return logging.LogRecord(LAYER_LOGGER, logging.ERROR, __file__, 1, CLEANUP_MESSAGE, None, info)


def test_a_cancelled_cleanup_is_dropped_and_any_other_failure_is_kept() -> None:
    keep = CancelledChannelCleanup().filter
    assert keep(cleanup_record(asyncio.CancelledError())) is False
    assert keep(cleanup_record(ConnectionError("Redis went away"))) is True
    other = logging.LogRecord(
        LAYER_LOGGER, logging.ERROR, __file__, 1, "Unexpected exception in receive task", None, None
    )
    assert keep(other) is True


def test_the_settings_put_the_filter_on_the_pub_sub_layers_logger() -> None:
    assert any(isinstance(f, CancelledChannelCleanup) for f in logging.getLogger(LAYER_LOGGER).filters)


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.timeout(60)
def test_the_real_layer_logs_exactly_what_the_filter_drops_when_a_closing_consumer_is_cancelled_twice() -> None:
    need(bool(os.environ.get("REDIS_URL")), "REDIS_URL is not set: no Redis pub/sub layer")
    from channels_redis.pubsub import RedisPubSubChannelLayer

    logger = logging.getLogger(LAYER_LOGGER)
    seen, filters = Records(), list(logger.filters)
    for found in filters:  # see what the layer itself logs
        logger.removeFilter(found)
    logger.addHandler(seen)

    async def close_twice() -> None:
        layer = RedisPubSubChannelLayer(hosts=[os.environ["REDIS_URL"]])
        name = await layer.new_channel()
        receive = asyncio.ensure_future(layer.receive(name))
        await asyncio.sleep(0.1)
        shard = layer._get_layer()._get_shard(name)  # the layer's one lock per connection, held by others

        async def busy() -> None:
            async with shard._lock:
                await asyncio.sleep(0.5)

        holder = asyncio.ensure_future(busy())
        await asyncio.sleep(0)
        receive.cancel()  # the consumer exits: its receive unsubscribes, waiting for the lock
        await asyncio.sleep(0.05)
        receive.cancel()  # the server cancels the consumer again
        with pytest.raises(asyncio.CancelledError):
            await receive
        await holder
        await layer.flush()

    try:
        asyncio.run(close_twice())
    finally:
        logger.removeHandler(seen)
        for found in filters:
            logger.addFilter(found)
    cleanup = [r for r in seen.records if r.msg == CLEANUP_MESSAGE]
    assert len(cleanup) == 1
    assert CancelledChannelCleanup().filter(cleanup[0]) is False
