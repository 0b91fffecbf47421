"""``read_text_capped`` and friends, now ``workbench.core.safefile`` (every game's files are untrusted).

Kept so ``workbench.engine.safefile`` and ``workbench.games.terrafeud.engine.safefile`` still import.
"""

from workbench.core.safefile import UnsafeFileError, read_bytes_capped, read_text_capped

__all__ = ["UnsafeFileError", "read_bytes_capped", "read_text_capped"]
