"""Start-up hook that lets ``import triton.language.extra.tlx`` come before ``import tlx``.

Meant to be imported by a one-line ``.pth`` file (``import _tlx_alias``) that
an install puts in site-packages. It only puts a finder on ``sys.meta_path``
(standard library, no import of Triton or TLX): the first import of
``triton.language.extra.tlx[.x]`` imports ``tlx`` (which installs
``tlx._alias``) and returns the ``tlx`` module itself.
"""

import importlib.abc
import sys

_ALIAS = "triton.language.extra.tlx"


class _TLXAliasBootstrap(importlib.abc.MetaPathFinder):
    tlx_alias_bootstrap = True

    def find_spec(self, fullname, path=None, target=None):  # noqa: ANN001 - importlib protocol
        if fullname != _ALIAS and not fullname.startswith(_ALIAS + "."):
            return None
        import tlx._alias

        return tlx._alias.FINDER.find_spec(fullname, path, target)


if not any(getattr(finder, "tlx_alias_bootstrap", False) for finder in sys.meta_path):
    sys.meta_path.append(_TLXAliasBootstrap())
