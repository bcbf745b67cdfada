"""Every kind of button the site draws is readable in Chromium: its words meet WCAG AA contrast
(4.5:1) on its own fill, at rest and under the pointer. "Objection!" is a primary danger button."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.e2e]

BUTTONS = ("", "primary", "secondary", "danger", "primary danger", "secondary danger", "primary small")
AA = 4.5

PLACE = """(classes) => {
  const button = document.createElement("button");
  button.className = classes;
  button.id = "probe";
  button.textContent = "Objection!";
  document.querySelector("main").prepend(button);
}"""

CONTRAST = """() => {
  const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const rgb = (value) => value.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const luminance = (value) => {
    const [r, g, b] = rgb(value).map(channel);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const style = getComputedStyle(document.getElementById("probe"));
  const [a, b] = [luminance(style.color), luminance(style.backgroundColor)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


def test_every_kind_of_button_is_readable_at_rest_and_under_the_pointer(browser, live_daphne):
    page = browser.new_page()
    page.emulate_media(reduced_motion="reduce")  # no colour transition caught half-way
    page.goto(f"{live_daphne.url}/")
    for classes in BUTTONS:
        page.evaluate(PLACE, classes)
        page.mouse.move(0, 0)
        at_rest = page.evaluate(CONTRAST)
        page.hover("#probe")
        hovered = page.evaluate(CONTRAST)
        page.evaluate("document.getElementById('probe').remove()")
        assert at_rest >= AA, f'button class="{classes}": {at_rest:.2f}:1'
        assert hovered >= AA, f'button class="{classes}" under the pointer: {hovered:.2f}:1'
