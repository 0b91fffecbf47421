"""Write ``workbench/_native.pyi`` from the built extension: every module, class, method and constant it exports.

PyO3 gives each function its ``__text_signature__``; values and returns are typed ``Any`` (the Python
adapters in the game packages are the typed faces). Run after a change to the bindings:
``python native/tools/stubgen.py > workbench/_native.pyi``.
"""

from __future__ import annotations

import inspect
import sys
from types import ModuleType
from typing import Any


def _params(obj: Any, method: bool) -> str:
    text = getattr(obj, "__text_signature__", None)
    if not text:
        return "self, *args: Any, **kwargs: Any" if method else "*args: Any, **kwargs: Any"
    inner = text.strip()[1:-1]
    out = []
    for p in (x.strip() for x in inner.split(",") if x.strip()):
        if p in ("$self", "self"):
            out.append("self")
        elif p in ("$cls", "$type"):
            out.append("cls")
        elif p in ("/", "*"):
            out.append(p)
        elif p.startswith("**"):
            out.append(f"{p}: Any")
        elif p.startswith("*"):
            out.append(f"{p}: Any")
        elif "=" in p:
            name, _ = p.split("=", 1)
            out.append(f"{name}: Any = ...")
        else:
            out.append(f"{p}: Any")
    if method and (not out or out[0] not in ("self", "cls")):
        out.insert(0, "self")
    return ", ".join(out)


def _module(mod: ModuleType, indent: str = "") -> list[str]:
    lines: list[str] = []
    for name in sorted(dir(mod)):
        if name.startswith("__"):
            continue
        value = getattr(mod, name)
        if inspect.ismodule(value):
            continue
        if inspect.isclass(value):
            lines.append(f"{indent}class {name}:")
            body = []
            for attr in sorted(vars(value)):
                if attr.startswith("__") and attr not in ("__new__", "__init__"):
                    continue
                member = getattr(value, attr)
                if callable(member):
                    body.append(f"{indent}    def {attr}({_params(member, True)}) -> Any: ...")
                else:
                    body.append(f"{indent}    {attr}: Any")
            lines += body or [f"{indent}    ..."]
        elif callable(value):
            lines.append(f"{indent}def {name}({_params(value, False)}) -> Any: ...")
        else:
            kind = type(value).__name__
            lines.append(f"{indent}{name}: {kind}[Any]" if kind in ("list", "dict", "tuple", "set") else f"{indent}{name}: {kind}")
    return lines


def main() -> int:
    import workbench._native as native

    print('"""Type stub of the native core (``native/``, built by ``make setup``); written by native/tools/stubgen.py."""')
    print()
    print("from types import ModuleType")
    print("from typing import Any")
    print()
    print("\n".join(_module(native)))
    for name in sorted(dir(native)):
        if inspect.ismodule(getattr(native, name)):
            print()
            print(f"class _{name}(ModuleType):")
            print("\n".join(_module(getattr(native, name), "    ")))
            print()
            print(f"{name}: _{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
