"""The one broadcaster: streamed speeches are grouped before they reach a deliberation's group."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from deliberation.services.broadcast import Streamer, group_name

DELIBERATION = 4242
pytestmark = pytest.mark.usefixtures("readable_layer")  # reads the group after each step


def _listen() -> tuple[Any, str]:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group_name(DELIBERATION), channel)
    return layer, channel


def _received(layer: Any, channel: str) -> list[dict[str, Any]]:
    async def drain() -> list[dict[str, Any]]:
        messages = []
        while True:
            try:
                messages.append(await asyncio.wait_for(layer.receive(channel), timeout=0.5))
            except TimeoutError:
                return messages

    return async_to_sync(drain)()


def _text_of(messages: list[dict[str, Any]], seat: int) -> str:
    pattern = rf'<span hx-swap-oob="beforeend:#stream-{seat}">([^<]*)</span>'
    return "".join(piece for message in messages for piece in re.findall(pattern, message["html"]))


def test_a_speech_handed_over_word_by_word_reaches_the_group_in_a_few_messages_with_every_word_in_order():
    layer, channel = _listen()
    first = [f"word{n} " for n in range(120)]
    second = [f"other{n} " for n in range(80)]
    with Streamer(DELIBERATION) as streamer:
        for word in first:
            streamer(3, word)
        for word in second:
            streamer(9, word)
    messages = _received(layer, channel)
    assert 1 <= len(messages) <= 2  # not 200: one per word was the old way
    assert _text_of(messages, 3) == "".join(first)
    assert _text_of(messages, 9) == "".join(second)
    assert all(message["event"] == "chunk" for message in messages)


def test_a_streamer_that_received_nothing_sends_nothing():
    layer, channel = _listen()
    with Streamer(DELIBERATION):
        pass
    assert _received(layer, channel) == []
