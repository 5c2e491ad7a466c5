"""Character classes, one module each. Every module in this package is imported here, so a new
class is one new file that calls ``register_class``."""

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    importlib.import_module(f"{__name__}.{_info.name}")
