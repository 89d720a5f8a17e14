"""Command-line tools of TLX."""
