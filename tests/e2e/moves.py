"""What a participant does in a room's page, checked by the server's own answer.

The notice an answer shows ("Your argument is in") lasts only until the next push: when the
speaker was the last person of the cycle, the jury's round can start, run and refresh the controls
before a test reads them. So a move is checked by the answer to its own request, which no later
push can change, and what follows from it (the words in the chat) is checked where it shows.
"""

from __future__ import annotations

from typing import Any

SPOKEN = "Your argument is in"


def speak(page: Any, words: str) -> None:
    """Type ``words`` into the room's speak form, press Speak and check the server took them."""
    page.fill("#id_content", words)
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/speak/")) as answer:
        page.click("#speak-form button.primary")
    body = answer.value.text()
    assert SPOKEN in body, body
