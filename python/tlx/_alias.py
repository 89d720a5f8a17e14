"""``triton.language.extra.tlx`` as another name of the ``tlx`` package (the same module objects).

Meta's TLX lives at ``triton.language.extra.tlx``; kernels written for it
import it from there. ``import tlx`` calls :func:`install`, which

* enters ``tlx`` and its loaded submodules in ``sys.modules`` under the
  alias, so ``import triton.language.extra.tlx as tlx`` and
  ``from triton.language.extra import tlx`` return the ``tlx`` module itself;
* puts :data:`FINDER` on ``sys.meta_path`` for submodules imported later
  through the alias (``triton.language.extra.tlx.language`` is
  ``tlx.language``, never a second copy).

Only the standard library is used here, so that a start-up hook (a ``.pth``
line) can load this file before ``tlx`` itself.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from types import ModuleType

ALIAS = "triton.language.extra.tlx"
PACKAGE = "tlx"


def real_name(fullname: str) -> str | None:
    """``triton.language.extra.tlx[.x]`` -> ``tlx[.x]``; None for other names."""
    if fullname == ALIAS or fullname.startswith(ALIAS + "."):
        return PACKAGE + fullname[len(ALIAS) :]
    return None


def name_through_alias(namespace: dict) -> None:
    """Give the classes defined in a module's ``namespace`` the alias of their module as ``__module__``.

    Triton lets a kernel read a module-level global only if it is a constexpr or a value of a
    ``triton.language`` module (its code generator's ``global_lookup`` reads ``__module__``). The fork's
    layouts and storage kinds are such values (``triton.language.extra.tlx``), and its kernels keep them in
    globals (``_QK_LAYOUT = tlx.layout(...)`` read in ``local_load(..., layout=_QK_LAYOUT)``). The alias names
    a module that imports as the real one, so pickling by reference still works."""
    module = namespace["__name__"]
    for value in namespace.values():
        if isinstance(value, type) and value.__module__ == module:
            value.__module__ = ALIAS + module[len(PACKAGE) :]


class _AliasLoader(importlib.abc.Loader):
    """Loads an alias name as the already imported real module."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module
        self.spec = module.__spec__

    def create_module(self, spec):  # noqa: ANN001 - importlib protocol
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        # The import system stamped the alias spec on the module: give it back its own.
        module.__spec__ = self.spec


class AliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``triton.language.extra.tlx[.x]`` as ``tlx[.x]``."""

    tlx_alias_finder = True

    def find_spec(self, fullname, path=None, target=None):  # noqa: ANN001 - importlib protocol
        name = real_name(fullname)
        if name is None:
            return None
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:
                return None
            raise
        # Importing `tlx` may have entered the alias in sys.modules already; the import system would
        # then load the real module's spec afresh under the alias name (a second copy). Return ours.
        if sys.modules.get(fullname) is module:
            del sys.modules[fullname]
        return importlib.util.spec_from_loader(fullname, _AliasLoader(module), is_package=hasattr(module, "__path__"))


FINDER = AliasFinder()


def install() -> None:
    """Make the alias names resolve to the ``tlx`` modules (idempotent)."""
    if not any(getattr(finder, "tlx_alias_finder", False) for finder in sys.meta_path):
        sys.meta_path.insert(0, FINDER)
    for name, module in list(sys.modules.items()):
        if module is not None and (name == PACKAGE or name.startswith(PACKAGE + ".")):
            sys.modules.setdefault(ALIAS + name[len(PACKAGE) :], module)
    # `tl.extra.tlx.<op>` (the spelling kernels written for Meta's TLX use): the alias as an attribute of
    # its parent package, as an import through the alias would have set it.
    parent = sys.modules.get(ALIAS.rpartition(".")[0])
    if parent is not None and PACKAGE in sys.modules:
        setattr(parent, ALIAS.rpartition(".")[2], sys.modules[PACKAGE])
