"""Test helpers shipped with TLX (used by its own test suite and by users' CI)."""
