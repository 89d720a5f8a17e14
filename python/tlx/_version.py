"""The TLX version: the single source for Python, CMake and the cache key."""

__version__ = "0.1.0"
