#!/usr/bin/env bash
# Install espeak-ng (the judge's offline voice) where apt-get is available; otherwise say how.
# Never fails the set-up: without it the judge speaks in text only.
set -u
if command -v espeak-ng >/dev/null 2>&1; then
  exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
  echo "Installing espeak-ng for the judge's voice..."
  (apt-get install -y -qq espeak-ng >/dev/null 2>&1 || { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq espeak-ng >/dev/null 2>&1; }) \
    && echo "espeak-ng installed." && exit 0
  echo "Could not install espeak-ng with apt-get; the judge will speak in text only."
  exit 0
fi
if command -v apt-get >/dev/null 2>&1; then
  echo "For the judge's voice: sudo apt-get install espeak-ng (the judge speaks in text only until then)."
elif command -v brew >/dev/null 2>&1; then
  echo "For the judge's voice: brew install espeak-ng (the judge speaks in text only until then)."
else
  echo "For the judge's voice install espeak-ng from https://github.com/espeak-ng/espeak-ng (text only until then)."
fi
exit 0
