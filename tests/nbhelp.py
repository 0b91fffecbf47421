"""Execute a notebook of ``notebooks/`` with nbclient, as a user's "Run all" would, and return its outputs."""

from __future__ import annotations

import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def execute_notebook(name: str, timeout: int = 180, cwd: str | Path | None = None) -> list[dict]:
    """Run ``notebooks/NAME`` in a fresh kernel from the notebooks folder (or ``cwd``); every code cell's outputs, in order."""
    path = NOTEBOOKS / name
    nb = nbformat.read(path, as_version=4)
    os.environ.setdefault("MPLBACKEND", "Agg")
    where = str(cwd or NOTEBOOKS)
    NotebookClient(nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": where}}).execute()
    return [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
