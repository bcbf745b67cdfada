"""What a participant does in a room's page, checked by the server's own answer; a watched page.

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


def watched_page(browser: Any, *, width: int = 1280, height: int = 900, console: bool = False) -> tuple[Any, list[str]]:
    """A page in a browser context of its own, and the list its errors gather in: uncaught page
    errors, or with ``console`` every error the console logs (htmx's included)."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    errors: list[str] = []
    if console:
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    else:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def choose_side(page: Any, vote: str, side: Any, *, attempts: int = 3, timeout_ms: int = 20_000) -> None:
    """Cast the first vote and choose a side, as a person would: when the page was read again into
    place between the tick and the press (a push it had missed while the judge was still being
    voiced), the person sees the question again and answers it again. The first tally must show."""
    from playwright.sync_api import TimeoutError as NotShown

    for _attempt in range(attempts):
        page.locator(".first-vote").get_by_label(vote).check()
        page.get_by_role("button", name=side).click()
        try:
            page.locator("#tally .tally-label").wait_for(timeout=timeout_ms)
            return
        except NotShown:
            if not page.locator(".first-vote").count():
                raise
    page.locator("#tally .tally-label").wait_for(timeout=timeout_ms)


def create_room(page: Any, url: str, *, case_query: str, case_title: str, seed: str = "", trial: bool = False) -> str:
    """Make a room the host does not play in, as a teacher would on /rooms/new/: search the case,
    choose it, untick "I play", optionally hold the trial first and set the seed; returns the room's code."""
    from playwright.sync_api import expect

    page.goto(f"{url}/rooms/new/")
    page.fill("#picker-q", case_query)
    expect(page.locator("#picker-results li.picker-case")).to_have_count(1, timeout=30_000)
    page.locator("#picker-results label", has_text=case_title).click()
    page.uncheck("#id_host_plays")
    if trial:
        page.check("#id_trial")
    if seed:
        page.click("summary:has-text('More settings')")  # the seed is folded away
        page.fill("#id_seed", seed)
    page.click("button:has-text('Create the room')")
    return page.locator("strong.room-code").first.inner_text().strip()


def take_seat(page: Any, url: str, code: str, seat: str, name: str) -> None:
    """Join the room by its link and take ``seat`` under ``name``; the page must show the seat."""
    from playwright.sync_api import expect

    page.goto(f"{url}/join/{code}/")
    page.select_option("#id_seat", seat)
    page.fill("#id_name", name)
    page.click("button:has-text('Take the seat')")
    expect(page.locator("#room-controls")).to_contain_text(f"Seat {seat}: {name}")
