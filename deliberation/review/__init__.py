"""Reviewing past deliberations: the list, transcripts, replay, exports and share links."""
