"""Words broken mid-word in a page, as a reader sees them: a word drawn on two lines."""

from __future__ import annotations

from typing import Any

# Each word of each shown text node under ``root``: a word whose boxes sit on more than one line
# has been broken inside it. Hyphens, dashes and slashes are places a word may wrap, so the parts
# between them are the words.
BROKEN_WORDS = """(root) => {
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    for (const match of text.matchAll(/[^\\s\\-\\u2010-\\u2015\\/]{2,}/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""


def broken_words(page: Any, root: str = "main") -> list[str]:
    """The words under ``root`` that the page draws broken across two lines."""
    return page.evaluate(BROKEN_WORDS, root)
